// Validates corpus.json (and that it matches src/). Exits 1 on any error.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSources, build } from './build.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const errors = [];
const err = (m) => errors.push(m);

let corpus;
try {
  corpus = JSON.parse(readFileSync(join(here, 'corpus.json'), 'utf8'));
} catch (e) {
  console.error('cannot read corpus.json: ' + e.message);
  process.exit(1);
}
if (!Array.isArray(corpus)) { console.error('corpus.json is not an array'); process.exit(1); }

const seen = new Map();
corpus.forEach((x, i) => {
  const where = `#${i} (${x && x.note})`;
  if (!x || typeof x !== 'object') return err(`${where}: not an object`);
  const keys = Object.keys(x).sort().join(',');
  if (keys !== 'label,note,text') err(`${where}: unexpected fields ${keys}`);
  if (typeof x.text !== 'string' || !x.text.trim()) err(`${where}: empty text`);
  if (typeof x.note !== 'string' || !x.note.trim()) err(`${where}: empty note`);
  if (x.label !== 'credential' && x.label !== 'ordinary') err(`${where}: bad label ${x.label}`);
  if (x.label === 'credential' && !/^credential: \S/.test(x.note)) err(`${where}: credential note must start with "credential:"`);
  if (x.label === 'ordinary' && !/^(ordinary|hard negative): \S/.test(x.note)) err(`${where}: ordinary note must start with "ordinary:" or "hard negative:"`);
  if (typeof x.text === 'string') {
    const n = x.text.split('\n').length;
    if (n < 1 || n > 6) err(`${where}: ${n} lines (must be 1-6)`);
    if (x.text.includes('@@ ')) err(`${where}: text contains a header marker`);
    if (seen.has(x.text)) err(`${where}: duplicate text (also #${seen.get(x.text)})`);
    else seen.set(x.text, i);
  }
});

const cred = corpus.filter((x) => x.label === 'credential').length;
const ord = corpus.filter((x) => x.label === 'ordinary').length;
const hn = corpus.filter((x) => x.label === 'ordinary' && /^hard negative:/.test(x.note)).length;
const longBuried = corpus.filter((x) => x.text.split('\n').length >= 4).length;
if (cred < 220) err(`only ${cred} credential notes (need >= 220)`);
if (ord < 500) err(`only ${ord} ordinary notes (need >= 500)`);
if (hn < 230) err(`only ${hn} hard negatives (need >= 230)`);
if (longBuried < 60) err(`only ${longBuried} notes with 4-6 lines (need >= 60)`);

// corpus.json must be exactly what build.mjs produces from src/
const rebuilt = JSON.stringify(build());
if (rebuilt !== JSON.stringify(corpus)) err('corpus.json is stale: re-run `node build.mjs`');
if (parseSources().length !== corpus.length) err('note count differs from src/');

console.log(`notes=${corpus.length} credential=${cred} ordinary=${ord} hard_negative=${hn} plain_ordinary=${ord - hn} four_to_six_lines=${longBuried}`);
if (errors.length) {
  for (const e of errors) console.error('ERROR ' + e);
  process.exit(1);
}
console.log('OK');
