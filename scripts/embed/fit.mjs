// Step 2 of the build: fit a static word table to the teacher (least squares, conjugate
// gradient on the normal equations, all output dims at once). Deterministic: fixed seeds, fixed
// iteration counts, sequential float arithmetic.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedWords } from '../../server/src/core/embed/tokenize.ts';
import { ngramIds } from '../../server/src/core/embed/ngrams.ts';

/** xorshift32, seeded */
export function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}

function meanRows(Y, n, D) {
  const m = new Float64Array(D);
  for (let i = 0; i < n; i++) for (let k = 0; k < D; k++) m[k] += Y[i * D + k];
  for (let k = 0; k < D; k++) m[k] /= n;
  return m;
}

/** Top-d principal directions of the rows of Y (n x D) after removing `mean`: D x d, column-major by component. */
export function pca(Y, n, D, d, mean, seed = 7) {
  if (process.env.CAIRN_FIT_PY) return pcaPy(Y, n, D, d, mean);
  const C = new Float64Array(D * D);
  const row = new Float64Array(D);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < D; k++) row[k] = Y[i * D + k] - mean[k];
    for (let a = 0; a < D; a++) { const ra = row[a]; if (ra === 0) continue; const off = a * D; for (let b = a; b < D; b++) C[off + b] += ra * row[b]; }
  }
  for (let a = 0; a < D; a++) for (let b = 0; b < a; b++) C[a * D + b] = C[b * D + a];
  const r = rng(seed);
  let Q = new Float64Array(D * d); // Q[k*d + j]
  for (let i = 0; i < Q.length; i++) Q[i] = r() - 0.5;
  const orth = (M) => {
    for (let j = 0; j < d; j++) {
      for (let p = 0; p < j; p++) { let dot = 0; for (let k = 0; k < D; k++) dot += M[k * d + j] * M[k * d + p]; for (let k = 0; k < D; k++) M[k * d + j] -= dot * M[k * d + p]; }
      let nn = 0; for (let k = 0; k < D; k++) nn += M[k * d + j] ** 2; nn = Math.sqrt(nn) || 1; for (let k = 0; k < D; k++) M[k * d + j] /= nn;
    }
  };
  orth(Q);
  for (let it = 0; it < 25; it++) {
    const Z = new Float64Array(D * d);
    for (let a = 0; a < D; a++) for (let b = 0; b < D; b++) { const c = C[a * D + b]; if (c === 0) continue; for (let j = 0; j < d; j++) Z[a * d + j] += c * Q[b * d + j]; }
    orth(Z);
    Q = Z;
  }
  return Q;
}

/** pca() in numpy (py/pca.py: eigh of the covariance), when $CAIRN_FIT_PY names a Python with numpy. */
function pcaPy(Y, n, D, d, mean) {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-pca-'));
  try {
    const y = Y instanceof Float32Array ? Y.subarray(0, n * D) : Float32Array.from(Y.subarray(0, n * D));
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ n, D, d }));
    writeFileSync(join(dir, 'y.f32'), Buffer.from(y.buffer, y.byteOffset, y.byteLength));
    writeFileSync(join(dir, 'mean.f64'), Buffer.from(Float64Array.from(mean).buffer));
    execFileSync(process.env.CAIRN_FIT_PY, [fileURLToPath(new URL('./py/pca.py', import.meta.url)), dir], { stdio: ['ignore', 'inherit', 'inherit'] });
    const b = readFileSync(join(dir, 'q.f64'));
    return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function project(Y, n, D, mean, Q, d) {
  const out = new Float32Array(n * d);
  const row = new Float64Array(D);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < D; k++) row[k] = Y[i * D + k] - mean[k];
    for (let j = 0; j < d; j++) { let s = 0; for (let k = 0; k < D; k++) s += row[k] * Q[k * d + j]; out[i * d + j] = s; }
  }
  return out;
}

/** CSR rows over `cols` unknowns; each row has a weight and a target vector. */
class Rows {
  constructor(cols, d) { this.cols = cols; this.d = d; this.ptr = [0]; this.idx = []; this.val = []; this.w = []; this.targets = []; }
  add(ids, vals, weight, target) {
    for (let i = 0; i < ids.length; i++) { this.idx.push(ids[i]); this.val.push(vals[i]); }
    this.ptr.push(this.idx.length); this.w.push(weight); this.targets.push(target);
  }
  finish() {
    this.P = Int32Array.from(this.ptr); this.I = Int32Array.from(this.idx); this.V = Float32Array.from(this.val); this.W = Float32Array.from(this.w);
    this.n = this.W.length;
  }
  /** out(cols x d) = A^T W A X + mu X */
  normal(X, out, mu) {
    const { d, P, I, V, W, n } = this;
    out.fill(0);
    const r = new Float64Array(d);
    for (let i = 0; i < n; i++) {
      r.fill(0);
      for (let z = P[i]; z < P[i + 1]; z++) { const v = V[z], o = I[z] * d; for (let k = 0; k < d; k++) r[k] += v * X[o + k]; }
      const wi = W[i];
      for (let z = P[i]; z < P[i + 1]; z++) { const v = V[z] * wi, o = I[z] * d; for (let k = 0; k < d; k++) out[o + k] += v * r[k]; }
    }
    if (mu) for (let q = 0; q < X.length; q++) out[q] += mu * X[q];
  }
  /** A^T W Y */
  rhs() {
    const { d, P, I, V, W, n } = this;
    const out = new Float64Array(this.cols * d);
    for (let i = 0; i < n; i++) {
      const t = this.targets[i];
      for (let z = P[i]; z < P[i + 1]; z++) { const v = V[z] * W[i], o = I[z] * d; for (let k = 0; k < d; k++) out[o + k] += v * t[k]; }
    }
    return out;
  }
}

/** Conjugate gradient, one independent system per output column, run together. */
function cg(rows, mu, iters, log) {
  if (process.env.CAIRN_FIT_PY) return cgPy(rows, mu, iters, log);
  const d = rows.d;
  const N = rows.cols * d;
  const X = new Float64Array(N);
  const b = rows.rhs();
  const R = Float64Array.from(b);
  const Pd = Float64Array.from(R);
  const AP = new Float64Array(N);
  const rr = new Float64Array(d);
  for (let q = 0; q < N; q++) rr[q % d] += R[q] * R[q];
  const rr0 = Float64Array.from(rr);
  for (let it = 0; it < iters; it++) {
    rows.normal(Pd, AP, mu);
    const pap = new Float64Array(d);
    for (let q = 0; q < N; q++) pap[q % d] += Pd[q] * AP[q];
    const alpha = new Float64Array(d);
    for (let k = 0; k < d; k++) alpha[k] = pap[k] > 0 ? rr[k] / pap[k] : 0;
    const rrn = new Float64Array(d);
    for (let q = 0; q < N; q++) { const k = q % d; X[q] += alpha[k] * Pd[q]; R[q] -= alpha[k] * AP[q]; rrn[k] += R[q] * R[q]; }
    for (let q = 0; q < N; q++) { const k = q % d; Pd[q] = R[q] + (rr[k] > 0 ? rrn[k] / rr[k] : 0) * Pd[q]; }
    rr.set(rrn);
    if (log && (it % 10 === 0 || it === iters - 1)) { let a = 0, c = 0; for (let k = 0; k < d; k++) { a += rr[k]; c += rr0[k]; } log(`cg ${it}: residual ${(Math.sqrt(a / c)).toExponential(2)}`); }
  }
  return X;
}

/**
 * The same solve in Python (py/cg.py, scipy.sparse), several times faster than the loops above;
 * used when $CAIRN_FIT_PY names the tools prefix's Python (pyteacher.mjs ensurePy).
 */
function cgPy(rows, mu, iters, log) {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-cg-'));
  try {
    const targets = new Float32Array(rows.n * rows.d);
    rows.targets.forEach((t, i) => targets.set(t, i * rows.d));
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ n: rows.n, cols: rows.cols, dim: rows.d, mu, iters }));
    for (const [f, a] of [['ptr.i32', rows.P], ['idx.i32', rows.I], ['val.f32', rows.V], ['w.f32', rows.W], ['y.f32', targets]]) writeFileSync(join(dir, f), Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    execFileSync(process.env.CAIRN_FIT_PY, [fileURLToPath(new URL('./py/cg.py', import.meta.url)), dir], { stdio: ['ignore', 'inherit', log ? 'inherit' : 'ignore'] });
    const b = readFileSync(join(dir, 'x.f64'));
    return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * opts: { dim, sifA, wordRowWeight, mu, iters, buckets, bucketIters }
 * returns { vocab, dim, E (Float32 vocab x dim), B (Float32 buckets x dim), weights (SIF per word) }
 */
export function fitTable(data, opts, log = () => {}) {
  const { sentences, vocab, freq, sentY, wordY, teacherDim: D } = data;
  const d = opts.dim;
  const nS = sentences.length, nW = vocab.length;
  const mS = meanRows(sentY, nS, D);
  const mW = meanRows(wordY, nW, D);
  log('pca');
  const Q = pca(sentY, nS, D, d, mS);
  const Ys = project(sentY, nS, D, mS, Q, d);
  const Yw = project(wordY, nW, D, opts.wordCenter === 'sentence' ? mS : mW, Q, d);
  const vid = new Map(vocab.map((w, i) => [w, i]));
  let total = 0;
  for (const w of vocab) total += freq.get(w) ?? 0;
  const weights = new Float32Array(nW);
  for (let i = 0; i < nW; i++) { const p = (freq.get(vocab[i]) ?? 0) / total; weights[i] = opts.sifA > 0 ? opts.sifA / (opts.sifA + p) : 1; }
  const rows = new Rows(nW, d);
  for (let i = 0; i < (opts.useSentences === false ? 0 : nS); i++) {
    const ids = [];
    for (const w of embedWords(sentences[i])) { const id = vid.get(w); if (id !== undefined) ids.push(id); }
    if (ids.length === 0) continue;
    let sw = 0; for (const id of ids) sw += weights[id];
    rows.add(ids, ids.map((id) => weights[id] / sw), 1, Ys.subarray(i * d, (i + 1) * d));
  }
  for (let v = 0; v < nW; v++) rows.add([v], [1], opts.wordRowWeight, Yw.subarray(v * d, (v + 1) * d));
  rows.finish();
  log(`rows ${rows.n}, nnz ${rows.I.length}`);
  const E64 = cg(rows, opts.mu, opts.iters, log);
  // Fold SIF weight into the row: runtime sums weight * E and normalises (mean or sum: same direction).
  const E = new Float32Array(nW * d);
  for (let v = 0; v < nW; v++) for (let k = 0; k < d; k++) E[v * d + k] = E64[v * d + k] * weights[v];
  const B = fitBuckets(vocab, freq, E, d, opts, log);
  return { vocab, dim: d, E, B, buckets: opts.buckets, weights, sentTargets: Ys };
}

/** OOV: hashed char n-gram buckets, fit so their mean reproduces each known word's (weighted) row. */
export function fitBuckets(vocab, freq, E, d, opts, log = () => {}) {
  const nW = vocab.length;
  let B = new Float32Array(0);
  if (opts.buckets > 0) {
    const br = new Rows(opts.buckets, d);
    for (let v = 0; v < nW; v++) {
      const ids = ngramIds(vocab[v], opts.buckets);
      if (ids.length === 0) continue;
      const f = Math.log1p(freq.get(vocab[v]) ?? 0) + 1;
      br.add(ids, ids.map(() => 1 / ids.length), f, E.subarray(v * d, (v + 1) * d));
    }
    br.finish();
    B = Float32Array.from(cg(br, opts.bucketMu ?? 0.5, opts.bucketIters, log));
  }
  return B;
}

/**
 * model2vec-style distillation, no corpus fit: each vocabulary word's own teacher vector (the
 * teacher run on the word alone, mean of its token outputs), centred and projected on the top
 * `dim` principal directions of those word vectors, times the word's SIF weight a/(a+p(w))
 * (p from corpus counts; opts.zipf: p from the word's rank instead, p ∝ 1/rank, as model2vec does
 * for a tokenizer's vocabulary). The n-gram buckets are then fitted as for fitTable.
 */
export function fitWordsOnly(data, opts, log = () => {}) {
  const { vocab, freq, wordY, teacherDim: D } = data;
  const d = opts.dim, nW = vocab.length;
  const mW = meanRows(wordY, nW, D);
  log('pca (words)');
  const Q = pca(wordY, nW, D, d, mW);
  const Yw = project(wordY, nW, D, mW, Q, d);
  let total = 0;
  for (const w of vocab) total += freq.get(w) ?? 0;
  let H = 0;
  for (let i = 0; i < nW; i++) H += 1 / (i + 1);
  const weights = new Float32Array(nW);
  for (let i = 0; i < nW; i++) {
    const p = opts.zipf ? 1 / ((i + 1) * H) : (freq.get(vocab[i]) ?? 0) / total;
    weights[i] = opts.sifA > 0 ? opts.sifA / (opts.sifA + p) : 1;
  }
  const E = new Float32Array(nW * d);
  for (let v = 0; v < nW; v++) for (let k = 0; k < d; k++) E[v * d + k] = Yw[v * d + k] * weights[v];
  const B = fitBuckets(vocab, freq, E, d, opts, log);
  return { vocab, dim: d, E, B, buckets: opts.buckets, weights, sentTargets: new Float32Array(0) };
}
