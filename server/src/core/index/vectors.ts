// Search over the semantic leg's vectors (vectorRows.ts holds them: one int8 row and scale per
// memory, with its sign code; every vector of one index from one embedder, `embedderId`).
//
// Search: below EXACT_MAX live rows, the query (float, unit length) against every row. Above,
// approximate: every row also has a sign code (the signs of the row after a fixed randomised
// Hadamard rotation, 1 bit per dimension, padded to a power of two: 256 bits = 8 uint32 for the
// built-in). A query's code is compared with every row's by Hamming distance (popcount),
// and only the rescoreCount() rows closest by that measure are scored exactly (int8 dot
// product). The rotation spreads each dimension's variance over all bits, which is what makes
// the signs of a static embedding table informative (without it recall@10 drops from ~0.98 to
// ~0.82 on developer prose). Recall@10 against exact search is measured by `npm run bench`. A
// row's cosine is scale x (query . int8 row); the quantisation error is below 0.01 of cosine for
// unit vectors, far under the gap between any two thresholds that use it.
//
// Where WebAssembly SIMD is available (Node >= 16.4 everywhere), the rows and codes live in the
// memory of the two kernels of simd.ts: the Hamming pass is i8x16.popcnt over 128-bit lanes
// (~2 ns a row instead of ~10) and the rescoring an int8 x f64 dot product in SIMD lanes, both
// also used by exact search; elsewhere the same loops run in JavaScript (same results, the sums
// up to the order of additions). 50k rows: ~0.3 ms instead of ~0.9 ms, which lets the search
// rescore more candidates (rescoreCount) for a higher recall.
import type { IndexDoc } from './analyze.ts';
import { SIMD_BATCH, VectorRows, signCode, type SimdSpace, type VectorHit } from './vectorRows.ts';

/** Search over the rows of VectorRows: exact, or sign codes then exact rescoring (see the top of this file). */
export class VectorIndex<D extends IndexDoc> extends VectorRows<D> {
  /**
   * The `k` rows most similar to `q` (unit length), best first, among those `allow` accepts and
   * not expired at `now`: exact below EXACT_MAX live rows, else approximate (sign codes, then
   * exact rescoring of the closest candidates; see the top of this file).
   */
  search(q: Float32Array, k: number, opts: SearchOpts<D> = {}): VectorHit<D>[] {
    if (q.length !== this.dim || k <= 0 || this.rowOf.size === 0) return [];
    return this.rowOf.size <= EXACT_MAX ? this.searchAll(q, k, opts) : this.searchApprox(q, k, opts);
  }

  /** Every live row, ranked by the int16 kernel where there is one and the kept few recomputed exactly: the same hits as searchExact. */
  private searchAll(q: Float32Array, k: number, opts: SearchOpts<D>): VectorHit<D>[] {
    const sp = this.simd;
    if (!sp || !sp.q16) return this.searchExact(q, k, opts);
    const pre = this.preTop(k, opts);
    const now = opts.now ?? Date.now();
    this.setQuery16(sp, q);
    for (let from = 0; from < this.rows; from += SIMD_BATCH) {
      const m = Math.min(SIMD_BATCH, this.rows - from);
      for (let i = 0; i < m; i++) sp.cand[i] = from + i;
      this.preScoreBatch(sp, pre, m, now, opts.allow);
    }
    return this.exactOf(sp, q, pre, k, opts);
  }

  /**
   * The candidate list of the two-stage rescoring: k + PRE_EXTRA rows by the int16 kernel's
   * cosine, whose error (~1e-4) is far below the gap PRE_EXTRA rows make; its floor a little under
   * minSim so a row at the threshold is decided by the exact cosine.
   */
  private preTop(k: number, opts: SearchOpts<D>): TopK<D> {
    return new TopK<D>(k + PRE_EXTRA, opts.minSim === undefined ? -Infinity : opts.minSim - PRE_MARGIN);
  }

  private setQuery16(sp: SimdSpace, q: Float32Array): void {
    const q16 = sp.q16!;
    let mx = 0;
    for (let i = 0; i < q.length; i++) {
      const a = Math.abs(q[i]!);
      if (a > mx) mx = a;
    }
    const s = mx > 0 ? 32767 / mx : 0;
    for (let i = 0; i < q.length; i++) q16[i] = Math.round(q[i]! * s);
    sp.qInv = s > 0 ? 1 / s : 0;
    sp.qf.set(q);
  }

  /** Scores the m rows listed in sp.cand with the int16 kernel and offers them to `pre`. */
  private preScoreBatch(sp: SimdSpace, pre: TopK<D>, m: number, now: number, allow: ((doc: D) => boolean) | undefined, off = 0): void {
    sp.k.dots16(sp.q16At, sp.dataAt, this.dim, sp.candAt + off * 4, m, sp.out32At);
    const out = sp.out32;
    const cand = sp.cand;
    const scale = this.scale;
    const inv = sp.qInv;
    for (let i = 0; i < m; i++) {
      const row = cand[off + i]!;
      const sc = scale[row]!;
      if (sc === 0) continue;
      const s = out[i]! * inv * sc;
      if (!pre.wouldTake(s)) continue;
      if (this.expires[row]! <= now) continue;
      if (allow && !allow(this.docs[row]!)) continue;
      pre.add(row, s);
    }
  }

  /** The rows `pre` kept, rescored exactly (f64 kernel): the k best as searchExact would give them. */
  private exactOf(sp: SimdSpace, q: Float32Array, pre: TopK<D>, k: number, opts: SearchOpts<D>): VectorHit<D>[] {
    const top = new TopK<D>(k, opts.minSim ?? -Infinity);
    const m = pre.copyRows(sp.cand);
    sp.qf.set(q);
    sp.k.dots(sp.qfAt, sp.dataAt, this.dim, sp.candAt, m, sp.outAt);
    for (let i = 0; i < m; i++) {
      const row = sp.cand[i]!;
      const s = sp.out[i]! * this.scale[row]!;
      if (top.wouldTake(s)) top.add(row, s);
    }
    return top.hits(this.docs);
  }

  /** Every live row scored exactly (the reference the approximate search is measured against). */
  searchExact(q: Float32Array, k: number, opts: SearchOpts<D> = {}): VectorHit<D>[] {
    if (q.length !== this.dim || k <= 0 || this.rowOf.size === 0) return [];
    const top = new TopK<D>(k, opts.minSim ?? -Infinity);
    const now = opts.now ?? Date.now();
    const sp = this.simd;
    if (sp) {
      sp.qf.set(q);
      for (let from = 0; from < this.rows; from += SIMD_BATCH) {
        const m = Math.min(SIMD_BATCH, this.rows - from);
        for (let i = 0; i < m; i++) sp.cand[i] = from + i;
        this.rescoreBatch(sp, top, m, now, opts.allow);
      }
    } else for (let row = 0; row < this.rows; row++) this.consider(top, q, row, now, opts.allow);
    return top.hits(this.docs);
  }

  /** Scores the m rows listed in sp.cand with the SIMD kernel and offers them to `top`. */
  private rescoreBatch(sp: SimdSpace, top: TopK<D>, m: number, now: number, allow: ((doc: D) => boolean) | undefined): void {
    sp.k.dots(sp.qfAt, sp.dataAt, this.dim, sp.candAt, m, sp.outAt);
    const out = sp.out;
    const cand = sp.cand;
    const scale = this.scale;
    for (let i = 0; i < m; i++) {
      const row = cand[i]!;
      const sc = scale[row]!;
      if (sc === 0) continue;
      const s = out[i]! * sc;
      if (!top.wouldTake(s)) continue;
      if (this.expires[row]! <= now) continue;
      if (allow && !allow(this.docs[row]!)) continue;
      top.add(row, s);
    }
  }

  /** Candidates by Hamming distance of sign codes, rescored exactly; widened until k pass the filters or every row was seen. */
  searchApprox(q: Float32Array, k: number, opts: SearchOpts<D> = {}): VectorHit<D>[] {
    if (q.length !== this.dim || k <= 0 || this.rowOf.size === 0) return [];
    const W = this.words;
    const sp = this.simd;
    const qc = sp ? sp.qc : new Uint32Array(W);
    signCode(this.rot, q, qc, 0);
    const codes = this.codes;
    const scale = this.scale;
    const dist = this.dist;
    const hist = sp ? sp.hist.fill(0) : new Int32Array(this.rot.size + 2);
    const FREE = this.rot.size + 1;
    const n = this.rows;
    if (sp) {
      sp.k.hamming(sp.codesAt, sp.qcAt, n, W >>> 2, sp.distAt, sp.histAt);
      for (const row of this.free) {
        hist[dist[row]!]!--;
        dist[row] = FREE;
      }
      if (sp.q16) this.setQuery16(sp, q);
      else sp.qf.set(q);
    } else if (W === 8) {
      // the built-in's 256 bits, unrolled
      const q0 = qc[0]!, q1 = qc[1]!, q2 = qc[2]!, q3 = qc[3]!, q4 = qc[4]!, q5 = qc[5]!, q6 = qc[6]!, q7 = qc[7]!;
      for (let row = 0, b = 0; row < n; row++, b += 8) {
        if (scale[row] === 0) {
          dist[row] = FREE;
          continue;
        }
        let x = codes[b]! ^ q0;
        let d = POP16[x & 0xffff]! + POP16[x >>> 16]!;
        x = codes[b + 1]! ^ q1;
        d += POP16[x & 0xffff]! + POP16[x >>> 16]!;
        x = codes[b + 2]! ^ q2;
        d += POP16[x & 0xffff]! + POP16[x >>> 16]!;
        x = codes[b + 3]! ^ q3;
        d += POP16[x & 0xffff]! + POP16[x >>> 16]!;
        x = codes[b + 4]! ^ q4;
        d += POP16[x & 0xffff]! + POP16[x >>> 16]!;
        x = codes[b + 5]! ^ q5;
        d += POP16[x & 0xffff]! + POP16[x >>> 16]!;
        x = codes[b + 6]! ^ q6;
        d += POP16[x & 0xffff]! + POP16[x >>> 16]!;
        x = codes[b + 7]! ^ q7;
        d += POP16[x & 0xffff]! + POP16[x >>> 16]!;
        dist[row] = d;
        hist[d]!++;
      }
    } else {
      for (let row = 0, b = 0; row < n; row++, b += W) {
        if (scale[row] === 0) {
          dist[row] = FREE;
          continue;
        }
        let d = 0;
        for (let w = 0; w < W; w++) {
          const x = codes[b + w]! ^ qc[w]!;
          d += POP16[x & 0xffff]! + POP16[x >>> 16]!;
        }
        dist[row] = d;
        hist[d]!++;
      }
    }
    const fast = sp !== null && sp.q16 !== null;
    const top = fast ? this.preTop(k, opts) : new TopK<D>(k, opts.minSim ?? -Infinity);
    const now = opts.now ?? Date.now();
    const want = rescoreCount(this.rowOf.size);
    // Rescore rows with distance in (lo, hi]; widen hi until `want` rows were rescored and k
    // passed the filters, or none is left.
    let lo = -1;
    let taken = 0;
    let need = want;
    while (lo < this.rot.size) {
      let hi = lo;
      while (hi < this.rot.size && taken < need) taken += hist[++hi]!;
      if (fast) {
        if (hi > lo) {
          const m = sp!.k.collect(sp!.distAt, n, lo + 1, hi - lo - 1, sp!.candAt);
          for (let off = 0; off < m; off += SIMD_BATCH) this.preScoreBatch(sp!, top, Math.min(SIMD_BATCH, m - off), now, opts.allow, off);
        }
      } else if (sp) {
        let m = 0;
        const cand = sp.cand;
        // d in (lo, hi] as one unsigned comparison
        const from = lo + 1;
        const span = hi - from;
        for (let row = 0; row < n; row++) {
          if ((dist[row]! - from) >>> 0 <= span) {
            cand[m++] = row;
            if (m === SIMD_BATCH) {
              this.rescoreBatch(sp, top, m, now, opts.allow);
              m = 0;
            }
          }
        }
        if (m > 0) this.rescoreBatch(sp, top, m, now, opts.allow);
      } else {
        for (let row = 0; row < n; row++) {
          const d = dist[row]!;
          if (d > lo && d <= hi) this.consider(top, q, row, now, opts.allow);
        }
      }
      lo = hi;
      if (top.size >= k) break;
      need = taken + want;
    }
    return fast ? this.exactOf(sp!, q, top, k, opts) : top.hits(this.docs);
  }

  private consider(top: TopK<D>, q: Float32Array, row: number, now: number, allow: ((doc: D) => boolean) | undefined): void {
    const sc = this.scale[row]!;
    if (sc === 0) return; // free row (or a zero vector: similar to nothing)
    const d = this.data;
    const dim = this.dim;
    const base = row * dim;
    let s = 0;
    for (let i = 0; i < dim; i++) s += q[i]! * d[base + i]!;
    s *= sc;
    if (!top.wouldTake(s)) return;
    if (this.expires[row]! <= now) return;
    if (allow && !allow(this.docs[row]!)) return;
    top.add(row, s);
  }
}

/** Two-stage rescoring (int16 kernel, then exact): extra candidates kept past k, and the floor's margin. */
const PRE_EXTRA = 16;
const PRE_MARGIN = 1e-3;

interface SearchOpts<D> {
  now?: number;
  allow?: (doc: D) => boolean;
  minSim?: number;
}

/** Live rows up to which search is exact. */
export const EXACT_MAX = 4096;

/** How many candidates the approximate search rescores exactly at `n` live rows (recall@10 against exact search is measured by `npm run bench`). */
export function rescoreCount(n: number): number {
  // Measured on the outside-in corpus, recall@10 / p50: 50k, 1,000 rows: 0.968 / 0.38 ms; 200k,
  // 2,000 rows: 0.971 / 1.47 ms (4,000: 0.987 / 2.27 ms; 1,000: 0.945). The share of rows to
  // rescore for a given recall falls as the store grows, so the count grows with sqrt(n).
  return Math.max(1000, Math.ceil(1000 * Math.sqrt(n / 50_000)));
}

/** A sorted top-k list of (row, similarity). */
class TopK<D> {
  private readonly rows: Int32Array;
  private readonly sims: Float64Array;
  size = 0;
  private worst: number;
  constructor(
    private readonly k: number,
    private readonly minSim: number,
  ) {
    this.rows = new Int32Array(k);
    this.sims = new Float64Array(k).fill(-Infinity);
    this.worst = minSim;
  }
  wouldTake(s: number): boolean {
    return !(s < this.worst || (this.size === this.k && s === this.worst));
  }
  add(row: number, s: number): void {
    let j = this.size < this.k ? this.size++ : this.k - 1;
    while (j > 0 && this.sims[j - 1]! < s) {
      this.sims[j] = this.sims[j - 1]!;
      this.rows[j] = this.rows[j - 1]!;
      j--;
    }
    this.sims[j] = s;
    this.rows[j] = row;
    if (this.size === this.k) this.worst = Math.max(this.minSim, this.sims[this.k - 1]!);
  }
  /** Writes the kept rows to `out` (from 0); returns how many. */
  copyRows(out: Int32Array): number {
    out.set(this.rows.subarray(0, this.size));
    return this.size;
  }
  hits(docs: Array<D | undefined>): VectorHit<D>[] {
    const out: VectorHit<D>[] = [];
    for (let i = 0; i < this.size; i++) out.push({ doc: docs[this.rows[i]!]!, sim: this.sims[i]! });
    return out;
  }
}

/** Popcount of every 16-bit value. */
const POP16 = (() => {
  const t = new Uint8Array(65536);
  for (let i = 1; i < 65536; i++) t[i] = (i & 1) + t[i >> 1]!;
  return t;
})();
