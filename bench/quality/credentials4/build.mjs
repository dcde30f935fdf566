// Reads src/*.txt and writes corpus.json (shuffled with a fixed seed).
import fs from 'node:fs';
import { parseSrc } from './lib.mjs';
const SEED = 20251128;
function mulberry32(a) { return () => { a = (a + 0x6D2B79F5) | 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }; }
const notes = parseSrc(new URL('./src', import.meta.url).pathname);
const labelOf = { C: 'credential', O: 'ordinary' };
const items = notes.map(n => {
  if (!labelOf[n.tag]) throw new Error(`${n.file}:${n.line}: unknown tag ${n.tag}`);
  return { text: n.text, label: labelOf[n.tag], note: n.note };
});
const rnd = mulberry32(SEED);
for (let i = items.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [items[i], items[j]] = [items[j], items[i]]; }
fs.writeFileSync(new URL('./corpus.json', import.meta.url), JSON.stringify(items, null, 2) + '\n');
const c = items.filter(x => x.label === 'credential').length;
console.log(`wrote corpus.json: ${items.length} notes (${c} credential, ${items.length - c} ordinary)`);
