import fs from 'node:fs';
import path from 'node:path';
export function parseSrc(dir) {
  const notes = [];
  for (const f of fs.readdirSync(dir).filter(f => f.endsWith('.txt')).sort()) {
    const lines = fs.readFileSync(path.join(dir, f), 'utf8').replace(/\r\n/g, '\n').split('\n');
    let cur = null;
    const flush = () => {
      if (!cur) return;
      while (cur.body.length && cur.body[0].trim() === '') cur.body.shift();
      while (cur.body.length && cur.body[cur.body.length - 1].trim() === '') cur.body.pop();
      notes.push({ file: f, line: cur.line, tag: cur.tag, note: cur.note, text: cur.body.join('\n') });
    };
    lines.forEach((l, i) => {
      const m = /^@@ (\S+) (.*)$/.exec(l);
      if (m) { flush(); cur = { line: i + 1, tag: m[1], note: m[2].trim(), body: [] }; }
      else if (cur) cur.body.push(l);
      else if (l.trim() !== '') throw new Error(`${f}:${i + 1}: text before first @@ header`);
    });
    flush();
  }
  return notes;
}
