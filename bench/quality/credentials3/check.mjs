// Validator for corpus.json. Usage: node check.mjs   (exit 1 on any error)
import fs from 'node:fs';
import path from 'node:path';
const file = path.join(path.dirname(new URL(import.meta.url).pathname), 'corpus.json');
const errors = [];
let data;
try { data = JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) { console.error('cannot read/parse corpus.json:', e.message); process.exit(1); }
if (!Array.isArray(data)) { console.error('corpus.json must be a JSON array'); process.exit(1); }
const MIN = { credential: 150, ordinary: 400, hardNegative: 150 };
const counts = { credential: 0, ordinary: 0, hardNegative: 0, plainOrdinary: 0 };
const seen = new Map();
data.forEach((it, i) => {
  const where = `item ${i}`;
  if (typeof it !== 'object' || it === null || Array.isArray(it)) { errors.push(`${where}: not an object`); return; }
  const keys = Object.keys(it).sort().join(',');
  if (keys !== 'label,note,text') errors.push(`${where}: fields must be exactly text,label,note (got ${keys})`);
  for (const k of ['text', 'label', 'note']) if (typeof it[k] !== 'string' || !it[k].trim()) errors.push(`${where}: ${k} must be a non-empty string`);
  if (typeof it.text !== 'string' || typeof it.note !== 'string') return;
  if (it.label !== 'credential' && it.label !== 'ordinary') { errors.push(`${where}: bad label ${JSON.stringify(it.label)}`); return; }
  const note = it.note.trim();
  const isHN = /^hard negative:/i.test(note);
  if (it.label === 'credential') {
    counts.credential++;
    if (isHN) errors.push(`${where}: hard-negative note labelled credential`);
    if (/^ordinary:/i.test(note)) errors.push(`${where}: ordinary note labelled credential`);
    if (!/^credential:/i.test(note)) errors.push(`${where}: credential note should start with "credential:"`);
  } else {
    counts.ordinary++;
    if (isHN) counts.hardNegative++;
    else if (/^ordinary:/i.test(note)) counts.plainOrdinary++;
    else errors.push(`${where}: ordinary note must start with "ordinary:" or "hard negative:"`);
  }
  const key = it.text;
  if (seen.has(key)) errors.push(`${where}: duplicate text (same as item ${seen.get(key)})`);
  else seen.set(key, i);
});
for (const [k, v] of Object.entries(MIN)) if (counts[k] < v) errors.push(`count ${k}=${counts[k]} below minimum ${v}`);
// labels should be mixed: no run of the same label longer than 40 (a random shuffle of this mix rarely exceeds ~25)
let run = 1, maxRun = 1;
for (let i = 1; i < data.length; i++) { run = data[i].label === data[i - 1].label ? run + 1 : 1; maxRun = Math.max(maxRun, run); }
if (maxRun > 40) errors.push(`labels look unshuffled (longest same-label run ${maxRun})`);
console.log(`total ${data.length}: credential ${counts.credential}, ordinary ${counts.ordinary} (hard negative ${counts.hardNegative}, plain ordinary ${counts.plainOrdinary}); distinct texts ${seen.size}; longest same-label run ${maxRun}`);
if (errors.length) { for (const e of errors) console.error('ERROR', e); process.exit(1); }
console.log('OK');
