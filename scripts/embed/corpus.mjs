// Harvests English sentences (developer prose) from README/markdown files and JSDoc comments
// inside the tools prefix's node_modules. Deterministic: sorted walk, exact dedupe, hash-ordered cap.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function walk(dir, out) {
  let ents;
  try { ents = readdirSync(dir, { withFileTypes: true }); } catch { return out; }
  ents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of ents) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.(md|markdown)$/i.test(e.name) || /\.d\.ts$/.test(e.name)) out.push(p);
  }
  return out;
}

export function fnv1a(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return h >>> 0;
}

function cleanMarkdown(t) {
  return t
    .replace(/```[\s\S]*?```/g, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^\s{0,3}(#+|[-*+]|\d+\.|>|\|)\s*/gm, '\n')
    .replace(/[*_]{1,3}([^*_\n]+)[*_]{1,3}/g, '$1');
}

function jsdocText(t) {
  const out = [];
  for (const m of t.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const body = m[1].split('\n').map((l) => l.replace(/^\s*\*\s?/, '')).filter((l) => !/^@(example|see|since|deprecated|link|type|template|returns?\s*$)/.test(l.trim()));
    out.push(body.join('\n').replace(/@param\s+(\{[^}]*\}\s*)?\S+\s*-?\s*/g, '').replace(/@returns?\s+(\{[^}]*\}\s*)?/g, '').replace(/\{@link\s+([^}|]+)[^}]*\}/g, '$1').replace(/`([^`]*)`/g, '$1'));
  }
  return out.join('\n\n');
}

export function splitSentences(text) {
  const res = [];
  for (const para of text.split(/\n\s*\n/)) {
    const flat = para.replace(/\s+/g, ' ').trim();
    if (!flat) continue;
    for (const s of flat.split(/(?<=[.!?])\s+(?=[A-Z"'(])/)) {
      const t = s.trim();
      if (t.length < 25 || t.length > 260) continue;
      const words = t.split(' ');
      if (words.length < 5) continue;
      const letters = (t.match(/[A-Za-z ]/g) || []).length;
      if (letters / t.length < 0.85) continue;
      if (!/^[A-Z]/.test(t)) continue;
      res.push(t);
    }
  }
  return res;
}

export function harvest(root, cap) {
  const files = walk(root, []);
  const seen = new Set();
  for (const f of files) {
    let t;
    try { if (statSync(f).size > 8_000_000) continue; t = readFileSync(f, 'utf8'); } catch { continue; }
    const text = f.endsWith('.d.ts') ? jsdocText(t) : cleanMarkdown(t);
    for (const s of splitSentences(text)) seen.add(s);
  }
  const all = [...seen];
  all.sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : 1));
  return all.slice(0, cap);
}
