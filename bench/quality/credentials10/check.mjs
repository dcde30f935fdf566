// Validate corpus.json (and that it matches src/). Exits 1 on any error.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNotes } from './build.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const errors = [];
const err = (m) => errors.push(m);

let corpus;
try {
  corpus = JSON.parse(readFileSync(join(here, 'corpus.json'), 'utf8'));
} catch (e) {
  console.error('cannot read corpus.json:', e.message);
  process.exit(1);
}
if (!Array.isArray(corpus)) { console.error('corpus.json is not an array'); process.exit(1); }

const seen = new Map();
let cred = 0, ord = 0, hard = 0, plain = 0;
corpus.forEach((n, i) => {
  const where = `#${i} (${n && n.note})`;
  if (!n || typeof n !== 'object') return err(`${where}: not an object`);
  const keys = Object.keys(n).sort().join(',');
  if (keys !== 'label,note,text') err(`${where}: unexpected fields ${keys}`);
  if (typeof n.text !== 'string' || n.text.trim() === '') err(`${where}: empty text`);
  if (typeof n.note !== 'string' || n.note.trim() === '') err(`${where}: empty note`);
  const lines = (n.text || '').split('\n').length;
  if (lines < 1 || lines > 6) err(`${where}: ${lines} lines (expected 1-6)`);
  if (/^@@ /m.test(n.text || '')) err(`${where}: text contains a header line`);
  if (n.label === 'credential') {
    cred++;
    if (!n.note.startsWith('credential:')) err(`${where}: credential note must start with "credential:"`);
  } else if (n.label === 'ordinary') {
    ord++;
    if (n.note.startsWith('hard negative:')) hard++;
    else if (n.note.startsWith('ordinary:')) plain++;
    else err(`${where}: ordinary note must start with "ordinary:" or "hard negative:"`);
  } else err(`${where}: bad label ${n.label}`);
  const key = (n.text || '').trim();
  if (seen.has(key)) err(`${where}: duplicate text of #${seen.get(key)}`);
  else seen.set(key, i);
});

if (cred < 100) err(`only ${cred} credential notes (need >= 100)`);
if (ord < 250) err(`only ${ord} ordinary notes (need >= 250)`);
if (hard < 110) err(`only ${hard} hard negatives (need >= 110)`);

const src = parseNotes();
if (src.length !== corpus.length) err(`corpus.json has ${corpus.length} notes but src has ${src.length}; rebuild`);
const srcKeys = new Set(src.map((n) => `${n.label}\u0000${n.note}\u0000${n.text}`));
for (const n of corpus) if (!srcKeys.has(`${n.label}\u0000${n.note}\u0000${n.text}`)) { err(`corpus.json out of date with src (${n.note}); rebuild`); break; }

console.log(`notes: ${corpus.length}  credential: ${cred}  ordinary: ${ord} (hard negatives: ${hard}, plain: ${plain})`);
if (errors.length) {
  for (const e of errors) console.error('ERROR', e);
  process.exit(1);
}
console.log('OK');
