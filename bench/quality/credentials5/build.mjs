// Builds corpus.json from src/*.txt. Each note starts with "@@ C <desc>" or "@@ O <desc>".
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const SEED = 90417; // fixed seed (deliberately not 20251128)

export function parseSources(dir = join(here, 'src')) {
  const notes = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.txt')).sort()) {
    const lines = readFileSync(join(dir, f), 'utf8').replace(/\r\n/g, '\n').split('\n');
    let cur = null;
    const flush = () => {
      if (!cur) return;
      while (cur.body.length && cur.body[0].trim() === '') cur.body.shift();
      while (cur.body.length && cur.body[cur.body.length - 1].trim() === '') cur.body.pop();
      notes.push({ text: cur.body.join('\n'), label: cur.label, note: cur.note, file: f, line: cur.line });
      cur = null;
    };
    lines.forEach((l, i) => {
      const m = /^@@ ([CO]) (.*)$/.exec(l);
      if (m) {
        flush();
        cur = { label: m[1] === 'C' ? 'credential' : 'ordinary', note: m[2].trim(), body: [], line: i + 1 };
      } else if (l.startsWith('@@')) {
        throw new Error(`${f}:${i + 1}: malformed header: ${l}`);
      } else if (cur) {
        cur.body.push(l);
      } else if (l.trim() !== '') {
        throw new Error(`${f}:${i + 1}: text before first @@ header`);
      }
    });
    flush();
  }
  return notes;
}

function mulberry32(a) {
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function build() {
  const notes = parseSources();
  const rnd = mulberry32(SEED);
  for (let i = notes.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [notes[i], notes[j]] = [notes[j], notes[i]];
  }
  return notes.map(({ text, label, note }) => ({ text, label, note }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const corpus = build();
  writeFileSync(join(here, 'corpus.json'), JSON.stringify(corpus, null, 2) + '\n');
  const c = corpus.filter((x) => x.label === 'credential').length;
  const hn = corpus.filter((x) => x.note.startsWith('hard negative:')).length;
  console.log(`wrote corpus.json: ${corpus.length} notes, ${c} credential, ${corpus.length - c} ordinary (${hn} hard negatives)`);
}
