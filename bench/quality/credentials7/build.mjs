// Builds corpus.json from src/*.txt with a fixed seeded shuffle.
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SEED = 7340129;

export function parseNotes() {
  const dir = join(here, 'src');
  const notes = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.txt')).sort()) {
    const lines = readFileSync(join(dir, f), 'utf8').replace(/\r\n/g, '\n').split('\n');
    let cur = null;
    const flush = () => {
      if (!cur) return;
      while (cur.body.length && cur.body[0].trim() === '') cur.body.shift();
      while (cur.body.length && cur.body[cur.body.length - 1].trim() === '') cur.body.pop();
      notes.push({ file: f, line: cur.line, tag: cur.tag, note: cur.note, text: cur.body.join('\n') });
      cur = null;
    };
    lines.forEach((ln, i) => {
      const m = /^@@ (\S+) (.*)$/.exec(ln);
      if (m) { flush(); cur = { tag: m[1], note: m[2].trim(), body: [], line: i + 1 }; }
      else if (cur) cur.body.push(ln);
      else if (ln.trim() !== '') notes.push({ file: f, line: i + 1, tag: '?', note: '', text: ln, stray: true });
    });
    flush();
  }
  return notes;
}

// mulberry32
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const notes = parseNotes();
  const rnd = prng(SEED);
  const out = notes.map((n) => ({ text: n.text, label: n.tag === 'C' ? 'credential' : 'ordinary', note: n.note }));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  writeFileSync(join(here, 'corpus.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(`wrote ${out.length} notes to corpus.json (seed ${SEED})`);
}
