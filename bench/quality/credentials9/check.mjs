// Validate src notes and corpus.json. Exits 1 on any error.
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNotes } from './build.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const errors = [];
const err = m => errors.push(m);

let src = [];
try { src = parseNotes(); } catch (e) { err(String(e.message)); }
for (const n of src) {
  const where = `${n.file}:${n.line}`;
  if (!n.text.trim()) err(`${where}: empty note text`);
  const nl = n.text.split('\n').length;
  if (nl < 1 || nl > 6) err(`${where}: note has ${nl} lines (want 1-6)`);
  if (n.kind === 'C' && !n.note.startsWith('credential:')) err(`${where}: C note description must start with "credential:"`);
  if (n.kind === 'O' && !/^(ordinary|hard negative):/.test(n.note)) err(`${where}: O note description must start with "ordinary:" or "hard negative:"`);
}

const path = join(here, 'corpus.json');
if (!existsSync(path)) { err('corpus.json missing (run node build.mjs)'); }
else {
  let corpus;
  try { corpus = JSON.parse(readFileSync(path, 'utf8')); } catch (e) { err('corpus.json not valid JSON'); }
  if (corpus) {
    if (!Array.isArray(corpus)) err('corpus.json is not an array');
    else {
      const seen = new Map();
      corpus.forEach((o, i) => {
        const keys = Object.keys(o).sort().join(',');
        if (keys !== 'label,note,text') err(`#${i}: fields are ${keys}`);
        if (typeof o.text !== 'string' || !o.text.trim()) err(`#${i}: bad text`);
        if (!['credential', 'ordinary'].includes(o.label)) err(`#${i}: bad label ${o.label}`);
        if (typeof o.note !== 'string') err(`#${i}: bad note`);
        else if (o.label === 'credential' && !o.note.startsWith('credential:')) err(`#${i}: credential note prefix`);
        else if (o.label === 'ordinary' && !/^(ordinary|hard negative):/.test(o.note)) err(`#${i}: ordinary note prefix`);
        const k = (o.text || '').trim();
        if (seen.has(k)) err(`#${i}: duplicate text of #${seen.get(k)}: ${k.slice(0, 60)}`);
        else seen.set(k, i);
      });
      const c = corpus.filter(o => o.label === 'credential').length;
      const o = corpus.filter(o => o.label === 'ordinary').length;
      const hn = corpus.filter(o => o.label === 'ordinary' && o.note.startsWith('hard negative:')).length;
      if (c < 220) err(`only ${c} credential notes (need >= 220)`);
      if (o < 500) err(`only ${o} ordinary notes (need >= 500)`);
      if (hn < 230) err(`only ${hn} hard negatives (need >= 230)`);
      if (src.length && src.length !== corpus.length) err(`corpus.json has ${corpus.length} notes but src has ${src.length}; rebuild`);
      console.log(`credential=${c} ordinary=${o} (hard negative=${hn}, plain=${o - hn}) total=${corpus.length}`);
    }
  }
}
if (errors.length) { for (const e of errors) console.error('ERROR', e); console.error(`${errors.length} error(s)`); process.exit(1); }
console.log('OK');
