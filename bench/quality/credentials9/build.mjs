// Build corpus.json from src/*.txt. Each src file holds one or more notes;
// a note starts with a line "@@ C <description>" or "@@ O <description>".
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SEED = 3860217;

export function parseNotes() {
  const dir = join(here, 'src');
  const files = readdirSync(dir).filter(f => f.endsWith('.txt')).sort();
  const notes = [];
  for (const f of files) {
    const lines = readFileSync(join(dir, f), 'utf8').replace(/\r\n/g, '\n').split('\n');
    let cur = null;
    const flush = () => {
      if (!cur) return;
      const text = cur.body.join('\n').replace(/^\n+|\n+$/g, '');
      notes.push({ file: f, line: cur.line, kind: cur.kind, note: cur.note, text });
      cur = null;
    };
    lines.forEach((ln, i) => {
      const m = ln.match(/^@@ ([CO]) (.+)$/);
      if (m) { flush(); cur = { kind: m[1], note: m[2].trim(), body: [], line: i + 1 }; }
      else if (cur) cur.body.push(ln);
      else if (ln.trim()) throw new Error(`${f}:${i + 1}: text before first @@ header`);
    });
    flush();
  }
  return notes;
}

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const notes = parseNotes();
  const rnd = mulberry32(SEED);
  const out = notes.map(n => ({ text: n.text, label: n.kind === 'C' ? 'credential' : 'ordinary', note: n.note }));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  writeFileSync(join(here, 'corpus.json'), JSON.stringify(out, null, 2) + '\n');
  const c = out.filter(o => o.label === 'credential').length;
  const hn = out.filter(o => o.note.startsWith('hard negative:')).length;
  console.log(`wrote corpus.json: ${out.length} notes, ${c} credential, ${out.length - c} ordinary (${hn} hard negatives)`);
}
