// Build corpus.json from src/*.txt with a fixed seeded shuffle.
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SEED = 6604117;

export function parseFile(text, file) {
  const notes = [];
  let cur = null;
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  lines.forEach((line, i) => {
    const m = /^@@ ([CO]) (.+)$/.exec(line);
    if (m) {
      if (cur) notes.push(cur);
      cur = { kind: m[1], note: m[2].trim(), body: [], file, line: i + 1 };
    } else if (line.startsWith('@@')) {
      throw new Error(`${file}:${i + 1}: malformed header: ${line}`);
    } else if (cur) {
      cur.body.push(line);
    } else if (line.trim() !== '' && !line.startsWith('#')) {
      throw new Error(`${file}:${i + 1}: text before first header`);
    }
  });
  if (cur) notes.push(cur);
  return notes.map(n => {
    const body = [...n.body];
    while (body.length && body[0].trim() === '') body.shift();
    while (body.length && body[body.length - 1].trim() === '') body.pop();
    return { ...n, text: body.join('\n') };
  });
}

export function loadAll() {
  const dir = join(here, 'src');
  const files = readdirSync(dir).filter(f => f.endsWith('.txt')).sort();
  return files.flatMap(f => parseFile(readFileSync(join(dir, f), 'utf8'), f));
}

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const notes = loadAll();
  const rnd = mulberry32(SEED);
  const arr = notes.map(n => ({
    text: n.text,
    label: n.kind === 'C' ? 'credential' : 'ordinary',
    note: n.note,
  }));
  for (let i = arr.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [arr[i], arr[j]] = [arr[j], arr[i]];
  }
  writeFileSync(join(here, 'corpus.json'), JSON.stringify(arr, null, 2) + '\n');
  const c = arr.filter(x => x.label === 'credential').length;
  console.log(`wrote corpus.json: ${arr.length} notes (${c} credential, ${arr.length - c} ordinary)`);
}
