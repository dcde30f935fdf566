#!/usr/bin/env node
// Checks the user documentation: README.md, CHANGELOG.md, CONTRIBUTING.md and docs/**/*.md.
// - every relative link and image resolves to a file or folder in the repository, and every
//   #anchor (in the same page or another markdown page) names a heading there, using GitHub's
//   slug rules (lowercase; punctuation other than - and _ removed; spaces become -; a repeated
//   slug gets -1, -2, ...), or an explicit <a id="..."> / <a name="...">;
// - every page under docs/ is linked from docs/README.md (the index);
// - README.md is at most 20 KB;
// - README.md, CONTRIBUTING.md and docs/ (CHANGELOG.md is history by nature; dated benchmark
//   rounds live in bench/history.md, outside the user documentation) say nothing in prose about how the project was developed: no issue
//   numbers, no "this session", "the day before" and the like (code blocks and spans, which quote
//   program output, are not read for this).
// Prints file:line for each problem and exits 1 when there is any. Plain Node, no dependencies.
// Usage: node scripts/check-docs.mjs [repo root]
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const README_MAX_BYTES = 20 * 1024;
/** Pages where dates and the project's history belong. */
const HISTORY_ALLOWED = new Set(['CHANGELOG.md']);
const HISTORY_PATTERNS = [
  [/\bissue #?\d+/i, 'an issue number'],
  [/(^|\s)#\d+\b/, 'an issue or pull-request number'],
  [/\bthis session\b/i, '"this session"'],
  [/\blast session\b/i, '"last session"'],
  [/\bthe day before\b/i, '"the day before"'],
  [/\bthat day\b/i, '"that day"'],
  [/\bwave \d/i, 'a development wave'],
];

const problems = [];
const report = (file, line, msg) => problems.push(`${file}:${line}: ${msg}`);

function walkMd(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? walkMd(p) : e.name.endsWith('.md') ? [p] : [];
  });
}

const rel = (abs) => relative(root, abs).split(sep).join('/');
const pages = [
  ...['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md'].map((f) => join(root, f)).filter((f) => existsSync(f)),
  ...walkMd(join(root, 'docs')).sort(),
];

/**
 * A page split into lines, each with `code` (inside a fenced block) and `prose` (the line with
 * inline code spans blanked out, so links and words inside backticks are not read as such).
 */
function readPage(abs) {
  const text = readFileSync(abs, 'utf8');
  const lines = text.split(/\r?\n/);
  let fence = null;
  return lines.map((raw, i) => {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(raw);
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(raw);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) fence = null;
      return { n: i + 1, raw, code: true, prose: '' };
    }
    if (m) {
      fence = m[1];
      return { n: i + 1, raw, code: true, prose: '' };
    }
    return { n: i + 1, raw, code: false, prose: blankCodeSpans(raw) };
  });
}

function blankCodeSpans(line) {
  return line.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (s) => ' '.repeat(s.length));
}

/** GitHub's heading slug: the rendered text, lowercased, punctuation dropped, spaces to -. */
export function slug(heading) {
  const text = heading
    .replace(/<[^>]*>/g, '') // inline HTML
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images keep their text
    .replace(/`([^`]*)`/g, '$1') // code spans keep their text
    .replace(/(\*\*|\*)(?=\S)([^*]*?\S)\1/g, '$2') // emphasis with * ...
    .replace(/(^|[^\p{L}\p{N}_])(__|_)(?=\S)(.*?\S)\2(?![\p{L}\p{N}_])/gu, '$1$3'); // ... and with _, never inside a word (memory_write_confirm)
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map();
function anchorsOf(abs) {
  if (anchorCache.has(abs)) return anchorCache.get(abs);
  const seen = new Map();
  const anchors = new Set();
  for (const l of readPage(abs)) {
    if (l.code) continue;
    for (const m of l.raw.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(l.raw);
    if (!h) continue;
    const base = slug(h[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  anchorCache.set(abs, anchors);
  return anchors;
}

/** Link targets on one line of prose: inline links and images, reference definitions, <img src>. */
function targetsOf(prose) {
  const out = [];
  for (const m of prose.matchAll(/!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]);
  const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose);
  if (def) out.push(def[1]);
  for (const m of prose.matchAll(/<(?:img|a)\s[^>]*(?:src|href)="([^"]+)"/g)) out.push(m[1]);
  return out;
}

function checkLink(file, abs, line, target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return; // http:, mailto:, ...
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  const dest = pathPart === '' ? abs : pathPart.startsWith('/') ? join(root, pathPart) : resolve(dirname(abs), pathPart);
  if (!existsSync(dest)) {
    report(file, line, `link to a missing file: ${target}`);
    return;
  }
  if (!rel(dest) || rel(dest).startsWith('..')) {
    report(file, line, `link leaves the repository: ${target}`);
    return;
  }
  if (anchor === null || anchor === '') return;
  if (statSync(dest).isDirectory() || !dest.endsWith('.md')) {
    report(file, line, `anchor on something that is not a markdown page: ${target}`);
    return;
  }
  if (!anchorsOf(dest).has(anchor)) report(file, line, `no heading for #${anchor} in ${rel(dest)}`);
}

const linkedFromIndex = new Set();
const indexAbs = join(root, 'docs', 'README.md');

for (const abs of pages) {
  const file = rel(abs);
  for (const l of readPage(abs)) {
    if (!l.code) {
      for (const t of targetsOf(l.prose)) {
        checkLink(file, abs, l.n, t);
        if (abs === indexAbs && !/^[a-z][a-z0-9+.-]*:/i.test(t)) {
          const p = t.split('#')[0];
          if (p) linkedFromIndex.add(rel(resolve(dirname(abs), decodeURIComponent(p))));
        }
      }
    }
    if (HISTORY_ALLOWED.has(file)) continue;
    // Prose only: code blocks and code spans quote what programs print and type, not the docs' voice.
    if (l.code) continue;
    for (const [re, what] of HISTORY_PATTERNS) {
      if (re.test(l.prose)) report(file, l.n, `development history (${what}): ${l.raw.trim().slice(0, 100)}`);
    }
  }
}

if (!existsSync(indexAbs)) report('docs/README.md', 1, 'the docs index is missing');
else {
  for (const abs of walkMd(join(root, 'docs'))) {
    if (abs === indexAbs) continue;
    if (!linkedFromIndex.has(rel(abs))) report('docs/README.md', 1, `does not link ${rel(abs)}`);
  }
}

const readme = join(root, 'README.md');
if (existsSync(readme)) {
  const size = statSync(readme).size;
  if (size > README_MAX_BYTES) report('README.md', 1, `${size} bytes, over the ${README_MAX_BYTES}-byte limit`);
}

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`check-docs: ${problems.length} problem${problems.length === 1 ? '' : 's'} in ${pages.length} pages`);
  process.exit(1);
}
console.log(`check-docs: ${pages.length} pages, every link, anchor and index entry resolves`);
