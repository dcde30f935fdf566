// Validator for the credentials corpus. Plain Node, no dependencies.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
let corpus;
try { corpus = JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')); }
catch (e) { console.error('invalid JSON in corpus.json: ' + e.message); process.exit(1); }

const errors = [];
if (!Array.isArray(corpus)) errors.push('corpus.json must be an array');
const seen = new Set();
let cred = 0, ord = 0, hard = 0;
corpus.forEach((it, i) => {
  const keys = Object.keys(it).sort().join(',');
  if (keys !== 'label,note,text') errors.push(`item ${i}: fields must be text,label,note (got ${keys})`);
  if (typeof it.text !== 'string' || !it.text.trim()) errors.push(`item ${i}: empty text`);
  if (typeof it.note !== 'string' || !it.note.trim()) errors.push(`item ${i}: empty note`);
  if (seen.has(it.text)) errors.push(`item ${i}: duplicate text ${JSON.stringify(it.text).slice(0, 60)}`);
  seen.add(it.text);
  if (it.label === 'credential') cred++;
  else if (it.label === 'ordinary') ord++;
  else errors.push(`item ${i}: bad label ${it.label}`);
  if (/^hard negative\b/i.test(it.note || '')) {
    hard++;
    if (it.label !== 'ordinary') errors.push(`item ${i}: hard negative must be labelled ordinary`);
  }
});
if (cred < 70) errors.push(`need >= 70 credential items, have ${cred}`);
if (ord < 220) errors.push(`need >= 220 ordinary items, have ${ord}`);
if (hard < 60) errors.push(`need >= 60 hard negatives (note starting "hard negative"), have ${hard}`);
if (errors.length) { for (const e of errors) console.error('FAIL: ' + e); process.exit(1); }
console.log(`OK: ${corpus.length} items: credential=${cred} ordinary=${ord} (hard negatives=${hard})`);
