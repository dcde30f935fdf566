// Validates src/*.txt and corpus.json. Exits 1 on any error.
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNotes } from './build.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const errors = [];
const notes = parseNotes();
const seen = new Map();
let cred = 0, ord = 0, hard = 0, plain = 0;
for (const n of notes) {
  const where = `${n.file}:${n.line}`;
  if (n.stray) { errors.push(`${where}: text outside a note`); continue; }
  if (n.tag !== 'C' && n.tag !== 'O') errors.push(`${where}: bad tag ${n.tag}`);
  if (!n.note) errors.push(`${where}: empty description`);
  if (!n.text.trim()) errors.push(`${where}: empty text`);
  const nl = n.text.split('\n').length;
  if (nl > 6) errors.push(`${where}: ${nl} lines (max 6)`);
  if (n.tag === 'C') {
    cred++;
    if (!n.note.startsWith('credential:')) errors.push(`${where}: C note must start with "credential:"`);
  } else if (n.tag === 'O') {
    ord++;
    if (n.note.startsWith('hard negative:')) hard++;
    else if (n.note.startsWith('ordinary:')) plain++;
    else errors.push(`${where}: O note must start with "ordinary:" or "hard negative:"`);
  }
  const key = n.text.trim();
  if (seen.has(key)) errors.push(`${where}: duplicate text (first at ${seen.get(key)})`);
  else seen.set(key, where);
}
if (cred < 220) errors.push(`only ${cred} credential notes (need >= 220)`);
if (ord < 500) errors.push(`only ${ord} ordinary notes (need >= 500)`);
if (hard < 230) errors.push(`only ${hard} hard negatives (need >= 230)`);

const cj = join(here, 'corpus.json');
if (!existsSync(cj)) errors.push('corpus.json missing (run node build.mjs)');
else {
  let arr;
  try { arr = JSON.parse(readFileSync(cj, 'utf8')); } catch (e) { errors.push(`corpus.json: ${e.message}`); }
  if (arr) {
    if (!Array.isArray(arr)) errors.push('corpus.json is not an array');
    else {
      if (arr.length !== notes.length) errors.push(`corpus.json has ${arr.length} entries, src has ${notes.length} (rebuild)`);
      const texts = new Set();
      arr.forEach((e, i) => {
        const keys = Object.keys(e).sort().join(',');
        if (keys !== 'label,note,text') errors.push(`corpus[${i}]: fields ${keys}`);
        if (typeof e.text !== 'string' || !e.text.trim()) errors.push(`corpus[${i}]: bad text`);
        if (e.label !== 'credential' && e.label !== 'ordinary') errors.push(`corpus[${i}]: bad label ${e.label}`);
        if (typeof e.note !== 'string') errors.push(`corpus[${i}]: bad note`);
        else if (e.label === 'credential' && !e.note.startsWith('credential:')) errors.push(`corpus[${i}]: label/note prefix mismatch`);
        else if (e.label === 'ordinary' && !/^(ordinary:|hard negative:)/.test(e.note)) errors.push(`corpus[${i}]: label/note prefix mismatch`);
        if (texts.has(e.text)) errors.push(`corpus[${i}]: duplicate text`);
        texts.add(e.text);
      });
    }
  }
}
console.log(`credential=${cred} ordinary=${ord} (hard negative=${hard}, plain=${plain}) total=${notes.length}`);
if (errors.length) { for (const e of errors.slice(0, 50)) console.error('ERROR ' + e); if (errors.length > 50) console.error(`... ${errors.length - 50} more`); process.exit(1); }
console.log('OK');
