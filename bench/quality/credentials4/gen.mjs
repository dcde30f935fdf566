// One-off helper: expands random-value markers in drafts/*.txt into src/*.txt.
// Markers: ⟦a:N⟧ alnum, ⟦h:N⟧ hex lower, ⟦H:N⟧ hex upper, ⟦u:N⟧ upper+digits,
// ⟦l:N⟧ lower+digits, ⟦z:N⟧ lower letters, ⟦B:N⟧ base32, ⟦b:N⟧ base64 chars, ⟦w:N⟧ url-safe, ⟦d:N⟧ digits, ⟦uuid⟧, ⟦b64:literal⟧
import fs from 'node:fs';
import path from 'node:path';
let s = 0x5eed4c4e;
function rnd() { s = (s + 0x6D2B79F5) | 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }
const sets = {
  a: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  h: '0123456789abcdef', H: '0123456789ABCDEF', u: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  l: 'abcdefghijklmnopqrstuvwxyz0123456789', d: '0123456789',
  b: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  w: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  B: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', z: 'abcdefghijklmnopqrstuvwxyz',
};
const pick = (set, n) => { let o = ''; for (let i = 0; i < n; i++) o += set[Math.floor(rnd() * set.length)]; return o; };
function expand(m, kind, arg) {
  if (kind === 'uuid') { const h = pick(sets.h, 32); return `${h.slice(0,8)}-${h.slice(8,12)}-4${h.slice(13,16)}-${'89ab'[Math.floor(rnd()*4)]}${h.slice(17,20)}-${h.slice(20)}`; }
  if (kind === 'b64') return Buffer.from(arg, 'utf8').toString('base64');
  if (sets[kind]) return pick(sets[kind], Number(arg));
  throw new Error('bad marker ' + m);
}
for (const f of fs.readdirSync('drafts').filter(f => f.endsWith('.txt')).sort()) {
  const txt = fs.readFileSync(path.join('drafts', f), 'utf8');
  const out = txt.replace(/⟦(\w+)(?::([^⟧]*))?⟧/g, (m, k, a) => expand(m, k, a));
  fs.writeFileSync(path.join('src', f), out);
}
console.log('ok');
