// Validates corpus.json (and src/ consistency). Exits 1 on any error.
import fs from 'node:fs';
import { parseSrc } from './lib.mjs';
const errors = [];
const err = m => errors.push(m);
let items;
try { items = JSON.parse(fs.readFileSync(new URL('./corpus.json', import.meta.url), 'utf8')); }
catch (e) { console.error('cannot read corpus.json: ' + e.message); process.exit(1); }
if (!Array.isArray(items)) { console.error('corpus.json is not an array'); process.exit(1); }
const seen = new Map();
const banned = [/AKIAIOSFODNN7EXAMPLE/, /wJalrXUtnFEMI\/K7MDENG/, /^\s*hunter2\s*$/im, /⟦|⟧/];
let cred = 0, ord = 0, hard = 0;
items.forEach((it, i) => {
  const where = `#${i}`;
  if (!it || typeof it !== 'object') return err(`${where}: not an object`);
  const keys = Object.keys(it).sort().join(',');
  if (keys !== 'label,note,text') err(`${where}: fields must be exactly text,label,note (got ${keys})`);
  if (typeof it.text !== 'string' || !it.text.trim()) err(`${where}: empty text`);
  if (typeof it.note !== 'string' || !it.note.trim()) err(`${where}: empty note`);
  if (it.label !== 'credential' && it.label !== 'ordinary') err(`${where}: bad label ${it.label}`);
  const nl = (it.text || '').split('\n').length;
  if (nl < 1 || nl > 6) err(`${where}: text has ${nl} lines (want 1-6): ${it.note}`);
  if (it.label === 'credential') {
    cred++;
    if (!/^credential: \S/.test(it.note)) err(`${where}: credential note must start with "credential:": ${it.note}`);
  } else if (it.label === 'ordinary') {
    ord++;
    if (/^hard negative: \S/.test(it.note)) hard++;
    else if (!/^ordinary: \S/.test(it.note)) err(`${where}: ordinary note must start with "ordinary:" or "hard negative:": ${it.note}`);
  }
  for (const b of banned) {
    if (b.test(it.text) && !(it.label === 'ordinary' && /^hard negative/.test(it.note) && !/⟦/.test(it.text))) err(`${where}: banned/unexpanded content ${b}: ${it.note}`);
  }
  const key = (it.text || '').trim();
  if (seen.has(key)) err(`${where}: duplicate text (also #${seen.get(key)}): ${it.note}`);
  else seen.set(key, i);
});
if (cred < 220) err(`only ${cred} credential notes (need >= 220)`);
if (ord < 500) err(`only ${ord} ordinary notes (need >= 500)`);
if (hard < 230) err(`only ${hard} hard negatives (need >= 230)`);
// corpus.json must match src/
try {
  const src = parseSrc(new URL('./src', import.meta.url).pathname);
  if (src.length !== items.length) err(`src has ${src.length} notes but corpus.json has ${items.length}; rerun build.mjs`);
  const srcTexts = new Set(src.map(n => n.text));
  for (const it of items) if (!srcTexts.has(it.text)) { err(`corpus note not in src (stale build?): ${it.note}`); break; }
} catch (e) { err('src parse failed: ' + e.message); }
console.log(`notes: ${items.length}  credential: ${cred}  ordinary: ${ord} (hard negatives: ${hard}, plain: ${ord - hard})`);
if (errors.length) { for (const e of errors) console.error('ERROR ' + e); process.exit(1); }
console.log('OK');
