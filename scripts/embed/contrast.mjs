// Step 4b of the build: contrastive refinement of the fitted table on pairs of texts that mean the
// same thing (lexicon.mjs). The least-squares fit only learned what the teacher says about
// developer prose; a question asked in other words ("which text program do I like") needs its words
// pulled toward the stored fact's words ("editor", "prefers"). InfoNCE with in-batch negatives on
// the runtime's own text vector (unit-normalised sum of SIF-weighted rows), symmetric, plus
// - an L2 anchor to the fitted rows (lexical and identifier behaviour stays), and
// - the teacher-distillation cosine loss on corpus sentences as a second regulariser.
// Rows are trained as E[w] = sif[w] * V[w] (sparse lazy Adam on V), so frequent words move little.
// Deterministic: seeded xorshift, fixed step count, sequential arithmetic.
import { embedWords } from '../../server/src/core/embed/tokenize.ts';
import { rng } from './fit.mjs';

/** texts -> Int32Array of in-vocabulary word ids (every occurrence, as the runtime sums them); null when none. */
export function bagOf(text, vid, maxWords = 40) {
  const ids = [];
  for (const w of embedWords(text)) {
    const id = vid.get(w);
    if (id !== undefined) ids.push(id);
    if (ids.length >= maxWords) break;
  }
  return ids.length ? Int32Array.from(ids) : null;
}

/**
 * pairsBySource: { name: [[textA, textB], ...] }; opts.mix: { name: share of each batch };
 * returns the refined E (Float32Array, same layout as fit.E).
 */
export function contrastTrain(fit, weights, pairsBySource, data, opts, log = () => {}) {
  const { dim: d, vocab } = fit;
  const nW = vocab.length;
  const vid = new Map(vocab.map((w, i) => [w, i]));
  const sources = Object.keys(opts.mix).filter((k) => opts.mix[k] > 0 && pairsBySource[k]?.length);
  const bags = {};
  for (const k of sources) {
    bags[k] = [];
    for (const [a, b] of pairsBySource[k]) {
      const x = bagOf(a, vid), y = bagOf(b, vid);
      if (!x || !y) continue;
      // a pair whose two sides are the same bag teaches nothing
      if (x.length === y.length && x.every((v, i) => v === y[i])) continue;
      bags[k].push([x, y]);
    }
    log(`contrast: ${k} ${bags[k].length} pairs`);
  }
  // V = E / sif (the trainable, unweighted rows); E0 kept for the anchor
  const E0 = fit.E;
  const V = new Float32Array(nW * d);
  for (let v = 0; v < nW; v++) { const s = weights[v] || 1e-6; for (let k = 0; k < d; k++) V[v * d + k] = E0[v * d + k] / s; }
  const V0 = Float32Array.from(V);
  const M = new Float32Array(nW * d), S = new Float32Array(nW * d);
  const lastT = new Int32Array(nW); // lazy Adam: step count at each row's last update
  const r = rng(opts.seed ?? 11);
  const B = opts.batch, tau = opts.tau, lr = opts.lr, lam = opts.anchor;
  const b1 = 0.9, b2 = 0.999, eps = 1e-8;
  const G = new Map(); // row id -> gradient Float32Array(d) (w.r.t. V)
  const grad = (id) => { let g = G.get(id); if (!g) G.set(id, (g = new Float32Array(d))); return g; };
  const sumRows = (bag, out) => { out.fill(0); for (const id of bag) { const s = weights[id], o = id * d; for (let k = 0; k < d; k++) out[k] += s * V[o + k]; } return out; };
  const cum = []; let tot = 0;
  for (const k of sources) { tot += opts.mix[k]; cum.push(tot); }
  // distillation: corpus sentences with their teacher target (projected, unit)
  const distill = opts.distill > 0 && data ? data : null;
  let lossAvg = 0;
  for (let step = 1; step <= opts.steps; step++) {
    G.clear();
    // --- InfoNCE batch
    const batch = [];
    for (let i = 0; i < B; i++) {
      const u = r() * tot;
      const k = sources[cum.findIndex((c) => u < c)] ?? sources[sources.length - 1];
      const list = bags[k];
      batch.push(list[Math.floor(r() * list.length)]);
    }
    const A = batch.map(([x]) => x), Bb = batch.map(([, y]) => y);
    const ua = [], ub = [], na = [], nb = [];
    for (let i = 0; i < B; i++) {
      const sa = sumRows(A[i], new Float32Array(d)), sb = sumRows(Bb[i], new Float32Array(d));
      let qa = 0, qb = 0; for (let k = 0; k < d; k++) { qa += sa[k] * sa[k]; qb += sb[k] * sb[k]; }
      qa = Math.sqrt(qa) || 1e-9; qb = Math.sqrt(qb) || 1e-9;
      for (let k = 0; k < d; k++) { sa[k] /= qa; sb[k] /= qb; }
      ua.push(sa); ub.push(sb); na.push(qa); nb.push(qb);
    }
    const Lg = new Float64Array(B * B);
    for (let i = 0; i < B; i++) for (let j = 0; j < B; j++) { let s = 0; const x = ua[i], y = ub[j]; for (let k = 0; k < d; k++) s += x[k] * y[k]; Lg[i * B + j] = s / tau; }
    // symmetric cross-entropy; coefficient C[i][j] = dLoss/dLogit
    const C = new Float64Array(B * B);
    let loss = 0;
    for (let i = 0; i < B; i++) { // rows: a_i -> b_*
      let m = -Infinity; for (let j = 0; j < B; j++) m = Math.max(m, Lg[i * B + j]);
      let z = 0; for (let j = 0; j < B; j++) z += Math.exp(Lg[i * B + j] - m);
      loss += -(Lg[i * B + i] - m - Math.log(z));
      for (let j = 0; j < B; j++) C[i * B + j] += (Math.exp(Lg[i * B + j] - m) / z - (i === j ? 1 : 0)) / (2 * B);
    }
    for (let j = 0; j < B; j++) { // columns: b_j -> a_*
      let m = -Infinity; for (let i = 0; i < B; i++) m = Math.max(m, Lg[i * B + j]);
      let z = 0; for (let i = 0; i < B; i++) z += Math.exp(Lg[i * B + j] - m);
      loss += -(Lg[j * B + j] - m - Math.log(z));
      for (let i = 0; i < B; i++) C[i * B + j] += (Math.exp(Lg[i * B + j] - m) / z - (i === j ? 1 : 0)) / (2 * B);
    }
    lossAvg = step === 1 ? loss / (2 * B) : 0.98 * lossAvg + 0.02 * loss / (2 * B);
    const backTo = (u, n, gu, bag) => {
      // d/ds of u = s/|s|: (g - u (u.g)) / |s|; then to each row: sif * that
      let ug = 0; for (let k = 0; k < d; k++) ug += u[k] * gu[k];
      const gs = new Float32Array(d); for (let k = 0; k < d; k++) gs[k] = (gu[k] - u[k] * ug) / n;
      for (const id of bag) { const g = grad(id), s = weights[id]; for (let k = 0; k < d; k++) g[k] += s * gs[k]; }
    };
    for (let i = 0; i < B; i++) {
      const ga = new Float32Array(d);
      for (let j = 0; j < B; j++) { const c = C[i * B + j] / tau; if (c === 0) continue; const y = ub[j]; for (let k = 0; k < d; k++) ga[k] += c * y[k]; }
      backTo(ua[i], na[i], ga, A[i]);
    }
    for (let j = 0; j < B; j++) {
      const gb = new Float32Array(d);
      for (let i = 0; i < B; i++) { const c = C[i * B + j] / tau; if (c === 0) continue; const x = ua[i]; for (let k = 0; k < d; k++) gb[k] += c * x[k]; }
      backTo(ub[j], nb[j], gb, Bb[j]);
    }
    // --- distillation on corpus sentences: 1 - cos(sum of rows, teacher vector)
    if (distill) {
      const { bags: sb, targets, n: ns } = distill;
      for (let i = 0; i < opts.distillBatch; i++) {
        const t = Math.floor(r() * ns);
        const bag = sb[t];
        if (!bag) continue;
        const s = sumRows(bag, new Float32Array(d));
        let q = 0; for (let k = 0; k < d; k++) q += s[k] * s[k]; q = Math.sqrt(q) || 1e-9;
        for (let k = 0; k < d; k++) s[k] /= q;
        const y = targets.subarray(t * d, (t + 1) * d);
        const gu = new Float32Array(d); for (let k = 0; k < d; k++) gu[k] = -opts.distill * y[k] / opts.distillBatch;
        backTo(s, q, gu, bag);
      }
    }
    // --- lazy Adam on the touched rows, with the anchor to the fitted rows
    const bc1 = 1 - b1 ** step, bc2 = 1 - b2 ** step;
    for (const [id, g] of G) {
      const o = id * d;
      // rows untouched for a while: decay their moments as if zero gradients had come (lazy Adam)
      const gap = step - lastT[id] - 1;
      const f1 = gap > 0 ? b1 ** gap : 1, f2 = gap > 0 ? b2 ** gap : 1;
      lastT[id] = step;
      for (let k = 0; k < d; k++) {
        const gg = g[k] + lam * (V[o + k] - V0[o + k]);
        const m = (M[o + k] = b1 * M[o + k] * f1 + (1 - b1) * gg);
        const v = (S[o + k] = b2 * S[o + k] * f2 + (1 - b2) * gg * gg);
        V[o + k] -= (lr * (m / bc1)) / (Math.sqrt(v / bc2) + eps);
      }
    }
    if (step % 500 === 0 || step === opts.steps) log(`contrast step ${step}: loss ${lossAvg.toFixed(3)}`);
  }
  const E = new Float32Array(nW * d);
  for (let v = 0; v < nW; v++) { const s = weights[v]; for (let k = 0; k < d; k++) E[v * d + k] = V[v * d + k] * s; }
  return E;
}
