// Validate src/*.txt and corpus.json. Exits 1 on any error.
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAll } from './build.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const errors = [];
const err = m => errors.push(m);

let notes = [];
try { notes = loadAll(); } catch (e) { err(String(e.message || e)); }

const seen = new Map();
for (const n of notes) {
  const where = `${n.file}:${n.line}`;
  if (!n.text.trim()) err(`${where}: empty text`);
  const lines = n.text.split('\n').length;
  if (lines > 6) err(`${where}: ${lines} lines (max 6)`);
  if (n.kind === 'C' && !n.note.startsWith('credential:')) err(`${where}: C note must start with "credential:"`);
  if (n.kind === 'O' && !(n.note.startsWith('ordinary:') || n.note.startsWith('hard negative:')))
    err(`${where}: O note must start with "ordinary:" or "hard negative:"`);
  const key = n.text.trim();
  if (seen.has(key)) err(`${where}: duplicate text (first at ${seen.get(key)})`);
  else seen.set(key, where);
}
const cred = notes.filter(n => n.kind === 'C').length;
const ord = notes.filter(n => n.kind === 'O').length;
const hard = notes.filter(n => n.kind === 'O' && n.note.startsWith('hard negative:')).length;
if (cred < 220) err(`only ${cred} credential notes (need >= 220)`);
if (ord < 500) err(`only ${ord} ordinary notes (need >= 500)`);
if (hard < 230) err(`only ${hard} hard negatives (need >= 230)`);

const cp = join(here, 'corpus.json');
if (!existsSync(cp)) err('corpus.json missing (run node build.mjs)');
else {
  let corpus;
  try { corpus = JSON.parse(readFileSync(cp, 'utf8')); } catch (e) { err('corpus.json invalid JSON'); }
  if (corpus) {
    if (!Array.isArray(corpus)) err('corpus.json is not an array');
    else {
      if (corpus.length !== notes.length) err(`corpus.json has ${corpus.length} entries, src has ${notes.length} (rebuild)`);
      const texts = new Set();
      corpus.forEach((e, i) => {
        const keys = Object.keys(e).sort().join(',');
        if (keys !== 'label,note,text') err(`corpus[${i}]: fields ${keys}`);
        if (typeof e.text !== 'string' || !e.text.trim()) err(`corpus[${i}]: bad text`);
        if (e.label !== 'credential' && e.label !== 'ordinary') err(`corpus[${i}]: bad label ${e.label}`);
        if (typeof e.note !== 'string') err(`corpus[${i}]: bad note`);
        else if (e.label === 'credential' && !e.note.startsWith('credential:')) err(`corpus[${i}]: label/note prefix mismatch`);
        else if (e.label === 'ordinary' && !/^(ordinary|hard negative):/.test(e.note)) err(`corpus[${i}]: label/note prefix mismatch`);
        if (texts.has(e.text)) err(`corpus[${i}]: duplicate text`);
        texts.add(e.text);
      });
    }
  }
}

console.log(`credential=${cred} ordinary=${ord} (hard negatives=${hard}, plain=${ord - hard}) total=${notes.length}`);
if (errors.length) { for (const e of errors.slice(0, 50)) console.error('ERROR ' + e); console.error(`${errors.length} error(s)`); process.exit(1); }
console.log('OK');
