// Builds corpus.json from src/*.txt and shuffles with a fixed seed.
// Source format: a line "@@ C <note>" or "@@ O <note>" starts an item; following lines are the text.
import fs from 'node:fs';
import path from 'node:path';
const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'src');
const items = [];
for (const f of fs.readdirSync(dir).filter(f => f.endsWith('.txt')).sort()) {
  let cur = null;
  const flush = () => { if (cur) { cur.text = cur.lines.join('\n').replace(/\s+$/, ''); delete cur.lines; items.push(cur); } };
  for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
    const m = line.match(/^@@ ([CO]) (.+)$/);
    if (m) { flush(); cur = { label: m[1] === 'C' ? 'credential' : 'ordinary', note: m[2].trim(), lines: [] }; }
    else if (cur) cur.lines.push(line);
  }
  flush();
}
function mulberry32(a) { return function () { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }
const rnd = mulberry32(20250611);
for (let i = items.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [items[i], items[j]] = [items[j], items[i]]; }
fs.writeFileSync(path.join(dir, '..', 'corpus.json'), JSON.stringify(items.map(({ text, label, note }) => ({ text, label, note })), null, 2) + '\n');
console.log('wrote', items.length, 'items');
