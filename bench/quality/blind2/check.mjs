// Validator for the blind2 set. Plain Node, no dependencies.
// Usage: node check.mjs   (run from any directory)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const errors = [];
const fail = (m) => errors.push(m);

function load(name) {
  try { return JSON.parse(readFileSync(join(dir, name), 'utf8')); }
  catch (e) { console.error(`invalid JSON in ${name}: ${e.message}`); process.exit(1); }
}
const memories = load('memories.json');
const queries = load('queries.json');
const alternates = load('alternates.json');

const STOP = new Set(`a about above after again against all also am an and any are aren as at be because been before
being below between both but by can cannot could couldn d did didn do does doesn doing don down during each few for from
further had hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn it its itself
just ll m me more most mustn my myself no nor not now o of off on once only or other our ours ourselves out over own re s
same shan she should shouldn so some such t than that the their theirs them themselves then there these they this those
through to too under until up us ve very was wasn we were weren what when where which while who whom why will with won
would wouldn y you your yours yourself yourselves ever still let lets get got should would shall may might must`.split(/\s+/).filter(Boolean));

const SUFFIXES = ['ions', 'ment', 'ion', 'ing', 'es', 'ed', 'er', 'ly', 's'];
function stem(word) {
  let w = word.toLowerCase();
  for (const s of SUFFIXES) {
    if (w.endsWith(s) && w.length - s.length >= 3) { w = w.slice(0, -s.length); break; }
  }
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}
function contentStems(text) {
  return text.toLowerCase().split(/[^a-z0-9]+/)
    .filter((t) => t.length >= 2 && !STOP.has(t))
    .map((t) => ({ word: t, stem: stem(t) }));
}
// Two words are "shared" when their stems are equal, when both words have 6+ letters
// and their stems agree on the first 5 letters, or (stricter than required) when one
// stem of 4+ letters is a prefix of the other (catches store/storage, fix/fixes...).
function same(a, b) {
  if (a.stem === b.stem) return true;
  if (a.word.length >= 6 && b.word.length >= 6 && a.stem.slice(0, 5) === b.stem.slice(0, 5)) return true;
  const [s, l] = a.stem.length <= b.stem.length ? [a.stem, b.stem] : [b.stem, a.stem];
  return s.length >= 4 && l.startsWith(s);
}

// ---- memories
if (!Array.isArray(memories)) fail('memories.json must be an array');
const ids = new Set();
const idRe = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const domains = new Map();
for (const m of memories) {
  const keys = Object.keys(m).sort().join(',');
  if (keys !== 'age_days,body,id,scopes') fail(`memory ${m.id}: unexpected fields ${keys}`);
  if (typeof m.id !== 'string' || !idRe.test(m.id)) fail(`memory id not kebab-case: ${m.id}`);
  if (ids.has(m.id)) fail(`duplicate memory id ${m.id}`);
  ids.add(m.id);
  if (!Array.isArray(m.scopes) || m.scopes.length < 1 || m.scopes.length > 2 || m.scopes.some((s) => typeof s !== 'string' || !s))
    fail(`memory ${m.id}: scopes must be 1-2 non-empty strings`);
  else domains.set(m.scopes[0], (domains.get(m.scopes[0]) || 0) + 1);
  if (!Number.isInteger(m.age_days) || m.age_days < 0 || m.age_days > 400) fail(`memory ${m.id}: age_days out of range`);
  const wc = typeof m.body === 'string' ? m.body.trim().split(/\s+/).length : 0;
  if (wc < 20 || wc > 60) fail(`memory ${m.id}: body has ${wc} words (20-60)`);
}
if (memories.length < 150 || memories.length > 180) fail(`need 150-180 memories, have ${memories.length}`);
if (domains.size < 6) fail(`need >= 6 domains, have ${domains.size}`);
const byId = new Map(memories.map((m) => [m.id, m]));

// ---- queries
const KINDS = { paraphrase: 60, lexical: 20, identifier: 10, morphology: 10, negative: 15 };
const counts = Object.fromEntries(Object.keys(KINDS).map((k) => [k, 0]));
let noshare = 0;
const qtexts = new Set();
for (const q of queries) {
  if (!(q.kind in KINDS)) { fail(`unknown kind ${q.kind} in "${q.q}"`); continue; }
  counts[q.kind]++;
  if (typeof q.q !== 'string' || q.q.trim().length < 5) fail(`bad query text ${JSON.stringify(q.q)}`);
  if (qtexts.has(q.q)) fail(`duplicate query text "${q.q}"`);
  qtexts.add(q.q);
  if (!Array.isArray(q.relevant)) { fail(`"${q.q}": relevant must be an array`); continue; }
  for (const r of q.relevant) if (!ids.has(r)) fail(`"${q.q}": unknown relevant id ${r}`);
  if (q.kind === 'negative' && q.relevant.length) fail(`negative query has relevant ids: "${q.q}"`);
  if (q.kind !== 'negative' && !q.relevant.length) fail(`non-negative query without relevant ids: "${q.q}"`);
  if ('noshare' in q && typeof q.noshare !== 'boolean') fail(`"${q.q}": noshare must be boolean`);
  if (q.noshare === true) {
    if (q.kind !== 'paraphrase') fail(`noshare only allowed on paraphrase: "${q.q}"`);
    noshare++;
    const qw = contentStems(q.q);
    for (const r of q.relevant) {
      const m = byId.get(r);
      if (!m) continue;
      const mw = contentStems(m.body + ' ' + m.scopes.join(' '));
      for (const a of qw) {
        const hit = mw.find((b) => same(a, b));
        if (hit) fail(`noshare violated: "${q.q}" shares "${a.word}" with ${r} ("${hit.word}")`);
      }
    }
  }
}
for (const [k, min] of Object.entries(KINDS)) if (counts[k] < min) fail(`kind ${k}: ${counts[k]} < ${min}`);
if (noshare < 55) fail(`need >= 55 noshare paraphrase queries, have ${noshare}`);
if (queries.length < 130) fail(`need >= 130 queries, have ${queries.length}`);

// ---- alternates
const altSeen = new Set();
for (const a of alternates) {
  if (!qtexts.has(a.q)) fail(`alternates for unknown query "${a.q}"`);
  if (altSeen.has(a.q)) fail(`duplicate alternates entry "${a.q}"`);
  altSeen.add(a.q);
  if (!Array.isArray(a.alternates) || a.alternates.length < 2 || a.alternates.length > 4 ||
      a.alternates.some((s) => typeof s !== 'string' || !s.trim()))
    fail(`alternates for "${a.q}" must be 2-4 non-empty strings`);
}
for (const t of qtexts) if (!altSeen.has(t)) fail(`missing alternates for "${t}"`);

if (errors.length) {
  for (const e of errors) console.error('FAIL: ' + e);
  console.error(`${errors.length} violation(s)`);
  process.exit(1);
}
console.log(`OK: ${memories.length} memories in ${domains.size} domains; ${queries.length} queries`, counts, `noshare=${noshare}`);
