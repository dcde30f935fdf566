// Build corpus.json from src/*.txt with a fixed seeded shuffle.
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const SEED = 4419073;
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
      notes.push({ text: cur.body.join('\n'), label: cur.label, note: cur.note, file, line: cur.line });
      cur = null;
    };
    lines.forEach((line, i) => {
      const m = /^@@ ([CO]) (.+)$/.exec(line);
      if (m) {
        flush();
        cur = { label: m[1] === 'C' ? 'credential' : 'ordinary', note: m[2].trim(), body: [], line: i + 1 };
      } else if (cur) {
        cur.body.push(line);
      } else if (line.trim() !== '') {
        throw new Error(`${file}:${i + 1}: text before first @@ header`);
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
  const notes = parseNotes().map(({ text, label, note }) => ({ text, label, note }));
  const rand = mulberry32(SEED);
  for (let i = notes.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [notes[i], notes[j]] = [notes[j], notes[i]];
  }
  writeFileSync(join(here, 'corpus.json'), JSON.stringify(notes, null, 2) + '\n');
  const c = notes.filter((n) => n.label === 'credential').length;
  console.log(`wrote corpus.json: ${notes.length} notes (${c} credential, ${notes.length - c} ordinary)`);
}
