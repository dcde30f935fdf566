// Builds corpus.json from src/*.txt. Each note starts with "@@ C <desc>" or "@@ O <desc>".
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const SEED = 5518293;
const here = dirname(fileURLToPath(import.meta.url));
const srcDir = join(here, 'src');

export function parseNotes() {
  const notes = [];
  for (const file of readdirSync(srcDir).filter((f) => f.endsWith('.txt')).sort()) {
    const lines = readFileSync(join(srcDir, file), 'utf8').split('\n');
    let cur = null;
    const flush = () => {
      if (!cur) return;
      while (cur.body.length && cur.body[cur.body.length - 1].trim() === '') cur.body.pop();
      while (cur.body.length && cur.body[0].trim() === '') cur.body.shift();
      notes.push({ file, line: cur.line, tag: cur.tag, note: cur.note, text: cur.body.join('\n') });
    };
    lines.forEach((l, i) => {
      const m = /^@@ (\S+) (.*)$/.exec(l);
      if (m) {
        flush();
        cur = { tag: m[1], note: m[2].trim(), body: [], line: i + 1 };
      } else if (cur) {
        cur.body.push(l);
      } else if (l.trim() !== '') {
        notes.push({ file, line: i + 1, tag: '?', note: '', text: l, orphan: true });
      }
    });
    flush();
  }
  return notes;
}

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const notes = parseNotes();
  const out = notes.map((n) => ({
    text: n.text,
    label: n.tag === 'C' ? 'credential' : n.tag === 'O' ? 'ordinary' : `INVALID:${n.tag}`,
    note: n.note,
  }));
  const rnd = mulberry32(SEED);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  writeFileSync(join(here, 'corpus.json'), JSON.stringify(out, null, 2) + '\n');
  const c = out.filter((x) => x.label === 'credential').length;
  console.log(`wrote corpus.json: ${out.length} notes, ${c} credential, ${out.length - c} ordinary (seed ${SEED})`);
}
