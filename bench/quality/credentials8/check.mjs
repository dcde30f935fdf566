// Validates corpus.json (and the src notes it came from). Exits 1 on any error.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNotes } from './build.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const errors = [];
const err = (m) => errors.push(m);

// src-level checks
for (const n of parseNotes()) {
  const where = `${n.file}:${n.line}`;
  if (n.orphan) err(`${where}: text before first @@ line`);
  if (!['C', 'O'].includes(n.tag)) err(`${where}: bad tag ${n.tag}`);
  if (!n.text.trim()) err(`${where}: empty note`);
  const nl = n.text.split('\n').length;
  if (nl > 6) err(`${where}: ${nl} lines (max 6)`);
}

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
const banned = ['AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'hunter2'];
corpus.forEach((e, i) => {
  const keys = Object.keys(e).sort().join(',');
  if (keys !== 'label,note,text') err(`#${i}: fields are ${keys}`);
  if (typeof e.text !== 'string' || !e.text.trim()) err(`#${i}: empty text`);
  if (typeof e.note !== 'string' || !e.note.trim()) err(`#${i}: empty note`);
  if (e.label === 'credential') {
    cred++;
    if (!e.note.startsWith('credential:')) err(`#${i}: credential note must start with "credential:" (${e.note})`);
    for (const b of banned) if (e.text.includes(b)) err(`#${i}: credential uses a documentation/cliche value ${b}`);
    if (/^\s*changeme\s*$/im.test(e.text)) err(`#${i}: credential value is just "changeme"`);
  } else if (e.label === 'ordinary') {
    ord++;
    if (e.note.startsWith('hard negative:')) hard++;
    else if (e.note.startsWith('ordinary:')) plain++;
    else err(`#${i}: ordinary note must start with "ordinary:" or "hard negative:" (${e.note})`);
  } else err(`#${i}: bad label ${e.label}`);
  const key = typeof e.text === 'string' ? e.text.trim() : '';
  if (seen.has(key)) err(`#${i}: duplicate text of #${seen.get(key)}`);
  else seen.set(key, i);
});

if (cred < 220) err(`only ${cred} credential notes (need >= 220)`);
if (ord < 500) err(`only ${ord} ordinary notes (need >= 500)`);
if (hard < 230) err(`only ${hard} hard negatives (need >= 230)`);
if (corpus.length !== parseNotes().length) err(`corpus.json is stale: ${corpus.length} vs ${parseNotes().length} src notes, rerun build.mjs`);

console.log(`total ${corpus.length}: credential ${cred}, ordinary ${ord} (plain ${plain}, hard negative ${hard})`);
if (errors.length) {
  for (const m of errors) console.error('ERROR', m);
  process.exit(1);
}
console.log('OK');
