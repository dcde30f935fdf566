// The semantic leg's data: one embedding per memory, int8-quantised (a scale per row) in one
// contiguous Int8Array, rows reused through a free list. Every vector in one VectorIndex comes
// from one embedder (`embedderId`): a ranking never compares vectors of two models.
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
import { expiresOf } from './analyze.ts';
import { simdKernels, type SimdKernels } from './simd.ts';
import { copyRowsFrom, type RowOutputs } from './vectorCache.ts';

/** The embedder contract (core/embed/embedder.ts), structurally: index/ does not depend on embed/. */
export interface VectorEmbedder {
  readonly id: string;
  readonly dim: number;
  /** `urgent`: a query someone waits for (an embedder with a queue answers it first). */
  embed(texts: readonly string[], opts?: { urgent?: boolean }): Promise<Float32Array[]>;
  embedSync?(text: string): Float32Array;
}

/** What gets embedded for a memory: its body, then its scopes and aliases (words it is known by). */
export function embedText(doc: Pick<IndexDoc, 'body' | 'scopes' | 'aliases'>): string {
  const scopes = doc.scopes.map((s) => s.replace(/[:_-]+/g, ' ')).join(', ');
  const aliases = doc.aliases && doc.aliases.length > 0 ? `\n${doc.aliases.join(', ')}` : '';
  return `${doc.body}\n${scopes}${aliases}`;
}

export interface VectorHit<D> {
  doc: D;
  sim: number;
}

/** The key that says a stored vector is still the one for this memory. */
export const vectorKey = (d: Pick<IndexDoc, 'id' | 'updated'>): string => `${d.id}\t${d.updated}`;

export class VectorIndex<D extends IndexDoc> {
  private data: Int8Array;
  private scale: Float32Array;
  private expires: Float64Array;
  /** sign codes, `words` uint32 per row */
  private codes: Uint32Array;
  private readonly words: number;
  private readonly rot: Rotation;
  /** per-search scratch: Hamming distance per row */
  private dist: Uint16Array;
  /** The WebAssembly SIMD kernels (simd.ts) and their memory, which then holds data, codes and the scratch; null: JS loops. */
  private simd: SimdSpace | null = null;
  private docs: Array<D | undefined> = [];
  private rowOf = new Map<string, number>();
  private free: number[] = [];
  private rows = 0;

  constructor(
    readonly embedderId: string,
    readonly dim: number,
    capacity = 64,
  ) {
    this.data = new Int8Array(capacity * dim);
    this.scale = new Float32Array(capacity);
    this.expires = new Float64Array(capacity);
    this.rot = rotationFor(dim);
    this.words = this.rot.size >>> 5;
    this.codes = new Uint32Array(capacity * this.words);
    this.dist = new Uint16Array(capacity);
    if (dim % 8 === 0 && this.words % 4 === 0) this.simd = simdSpace(capacity, dim, this.words, null, this);
  }

  get size(): number {
    return this.rowOf.size;
  }
  /** Rows it holds room for before it grows (a copy of every row into a memory twice the size). */
  get capacity(): number {
    return this.scale.length;
  }
  /** The doc whose vector is held for `id`, if any (compare it with the store's to know it is current). */
  docOf(id: string): D | undefined {
    const r = this.rowOf.get(id);
    return r === undefined ? undefined : this.docs[r];
  }
  has(doc: D): boolean {
    const d = this.docOf(doc.id);
    return d !== undefined && (d === doc || vectorKey(d) === vectorKey(doc));
  }
  *entries(): IterableIterator<{ doc: D; row: number }> {
    for (const row of this.rowOf.values()) yield { doc: this.docs[row]!, row };
  }

  private grow(need: number): void {
    const cap = this.scale.length;
    if (need <= cap) return;
    const next = Math.max(need, cap * 2);
    const s = new Float32Array(next);
    s.set(this.scale);
    this.scale = s;
    const e = new Float64Array(next);
    e.set(this.expires);
    this.expires = e;
    if (this.simd) {
      this.simd = simdSpace(next, this.dim, this.words, this.simd, this);
      if (this.simd) return;
    }
    const d = new Int8Array(next * this.dim);
    d.set(this.data);
    this.data = d;
    const c = new Uint32Array(next * this.words);
    c.set(this.codes);
    this.codes = c;
    this.dist = new Uint16Array(next);
  }

  /** Points data/codes/dist at the SIMD memory's regions (simdSpace calls it after (re)allocating). */
  adoptSpace(data: Int8Array, codes: Uint32Array, dist: Uint16Array): void {
    this.data = data;
    this.codes = codes;
    this.dist = dist;
  }

  /** Stores `vec` (unit length, `dim` floats) for `doc`, replacing any vector for its id. */
  set(doc: D, vec: Float32Array): void {
    if (vec.length !== this.dim) throw new Error(`vector for ${doc.id} has ${vec.length} dimensions, expected ${this.dim}`);
    let row = this.rowOf.get(doc.id);
    if (row === undefined) {
      row = this.free.pop() ?? this.rows++;
      this.grow(row + 1);
      this.rowOf.set(doc.id, row);
    }
    let max = 0;
    for (let i = 0; i < vec.length; i++) max = Math.max(max, Math.abs(vec[i]!));
    const q = max > 0 ? 127 / max : 0;
    const base = row * this.dim;
    for (let i = 0; i < vec.length; i++) this.data[base + i] = Math.round(vec[i]! * q);
    this.scale[row] = max > 0 ? max / 127 : 0;
    signCode(this.rot, this.data.subarray(base, base + this.dim), this.codes, row * this.words);
    this.expires[row] = expiresOf(doc);
    this.docs[row] = doc;
  }

  /** Stores an already quantised row (from the vector cache), with its sign code when the cache has it. */
  setRaw(doc: D, row8: Int8Array, scale: number, code?: Uint32Array): void {
    let row = this.rowOf.get(doc.id);
    if (row === undefined) {
      row = this.free.pop() ?? this.rows++;
      this.grow(row + 1);
      this.rowOf.set(doc.id, row);
    }
    this.data.set(row8, row * this.dim);
    this.scale[row] = scale;
    if (code && code.length === this.words) this.codes.set(code, row * this.words);
    else signCode(this.rot, row8, this.codes, row * this.words);
    this.expires[row] = expiresOf(doc);
    this.docs[row] = doc;
  }

  /** Uint32 words per sign code. */
  get codeWords(): number {
    return this.words;
  }

  /** For the cache save: rows[from..to)'s scales, values and codes into the outputs (vectorCache.ts), no object per row. */
  copyRows(rows: ArrayLike<number>, from: number, to: number, out: RowOutputs): void {
    copyRowsFrom({ dim: this.dim, codeWords: this.words, scales: this.scale, rows: this.data, codes: this.codes }, (i) => rows[i]!, from, to, out);
  }

  /** Points the row at a newer record object with the same content (no re-embedding). */
  retarget(doc: D): void {
    const row = this.rowOf.get(doc.id);
    if (row === undefined) return;
    this.docs[row] = doc;
    this.expires[row] = expiresOf(doc);
  }

  remove(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    this.rowOf.delete(id);
    this.docs[row] = undefined;
    this.scale[row] = 0;
    this.free.push(row);
    return true;
  }

  /** Cosine of `q` with the stored vector of `id` (null when none). */
  similarity(q: Float32Array, id: string): number | null {
    const row = this.rowOf.get(id);
    return row === undefined ? null : this.dotRow(q, row);
  }

  private dotRow(q: Float32Array, row: number): number {
    const d = this.data;
    const dim = this.dim;
    const base = row * dim;
    let s = 0;
    for (let i = 0; i < dim; i++) s += q[i]! * d[base + i]!;
    return s * this.scale[row]!;
  }

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

/** Rows scored per call of the SIMD dot-product kernel. */
const SIMD_BATCH = 2048;
/** Two-stage rescoring (int16 kernel, then exact): extra candidates kept past k, and the floor's margin. */
const PRE_EXTRA = 16;
const PRE_MARGIN = 1e-3;

/** The SIMD kernels' memory, carved into the index's arrays and the per-search scratch. */
interface SimdSpace {
  k: SimdKernels;
  data: Int8Array;
  dataAt: number;
  codes: Uint32Array;
  codesAt: number;
  dist: Uint16Array;
  distAt: number;
  hist: Int32Array;
  histAt: number;
  qc: Uint32Array;
  qcAt: number;
  qf: Float64Array;
  qfAt: number;
  /** the query quantised to int16 for dots16 (null when dim is not a multiple of 16) */
  q16: Int16Array | null;
  q16At: number;
  /** 1 / the query's int16 scale: an i32 dot x qInv x the row's scale is its cosine (to ~1e-4) */
  qInv: number;
  out32: Int32Array;
  out32At: number;
  cand: Int32Array;
  candAt: number;
  out: Float64Array;
  outAt: number;
}

/**
 * Lays out (or grows, copying `prev`'s rows) the SIMD memory for `capacity` rows and hands the
 * index its views; null when WebAssembly SIMD is not available (the index keeps plain arrays).
 */
function simdSpace(capacity: number, dim: number, words: number, prev: SimdSpace | null, ix: { adoptSpace(d: Int8Array, c: Uint32Array, t: Uint16Array): void }): SimdSpace | null {
  const a16 = (x: number) => (x + 15) & ~15;
  let at = 0;
  const place = (bytes: number) => {
    const p = at;
    at = a16(at + bytes);
    return p;
  };
  const qcAt = place(words * 4);
  const qfAt = place(dim * 8);
  const q16At = place(dim * 2);
  const out32At = place(SIMD_BATCH * 4);
  const histAt = place((words * 32 + 2) * 4);
  // every row can be a candidate (collect() writes a pass's whole selection at once)
  const candCap = Math.max(SIMD_BATCH, capacity);
  const candAt = place(candCap * 4);
  const outAt = place(SIMD_BATCH * 8);
  const distAt = place(capacity * 2);
  const codesAt = place(capacity * words * 4);
  const dataAt = place(capacity * dim);
  const k = simdKernels(at);
  if (!k) return null;
  const buf = k.memory.buffer;
  const sp: SimdSpace = {
    k,
    data: new Int8Array(buf, dataAt, capacity * dim),
    dataAt,
    codes: new Uint32Array(buf, codesAt, capacity * words),
    codesAt,
    dist: new Uint16Array(buf, distAt, capacity),
    distAt,
    hist: new Int32Array(buf, histAt, words * 32 + 2),
    histAt,
    qc: new Uint32Array(buf, qcAt, words),
    qcAt,
    qf: new Float64Array(buf, qfAt, dim),
    qfAt,
    q16: dim % 16 === 0 ? new Int16Array(buf, q16At, dim) : null,
    q16At,
    qInv: 0,
    out32: new Int32Array(buf, out32At, SIMD_BATCH),
    out32At,
    cand: new Int32Array(buf, candAt, candCap),
    candAt,
    out: new Float64Array(buf, outAt, SIMD_BATCH),
    outAt,
  };
  if (prev) {
    sp.data.set(prev.data);
    sp.codes.set(prev.codes);
  }
  ix.adoptSpace(sp.data, sp.codes, sp.dist);
  return sp;
}

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

/** A fixed randomised Hadamard rotation: three rounds of (random signs, Walsh-Hadamard transform) over `size` = dim padded to a power of two. */
interface Rotation {
  size: number;
  signs: Float64Array[];
  tmp: Float64Array;
}

const ROTATIONS = new Map<number, Rotation>();
function rotationFor(dim: number): Rotation {
  let r = ROTATIONS.get(dim);
  if (r) return r;
  let size = 32;
  while (size < dim) size <<= 1;
  // mulberry32, fixed seed: the same rotation in every process, so cached codes stay valid
  let a = 0x9e3779b9;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const signs = [0, 1, 2].map(() => Float64Array.from({ length: size }, () => (rand() < 0.5 ? -1 : 1)));
  r = { size, signs, tmp: new Float64Array(size) };
  ROTATIONS.set(dim, r);
  return r;
}

/** Writes the sign code of `v` (any scale: only signs matter) at `out[at..]`. */
function signCode(rot: Rotation, v: ArrayLike<number>, out: Uint32Array, at: number): void {
  const x = rot.tmp;
  const size = rot.size;
  x.fill(0);
  for (let i = 0; i < v.length; i++) x[i] = v[i]!;
  for (const sg of rot.signs) {
    for (let i = 0; i < size; i++) x[i] = x[i]! * sg[i]!;
    for (let h = 1; h < size; h <<= 1) {
      for (let i = 0; i < size; i += h << 1) {
        for (let j = i; j < i + h; j++) {
          const p = x[j]!;
          const q = x[j + h]!;
          x[j] = p + q;
          x[j + h] = p - q;
        }
      }
    }
  }
  for (let w = 0, i = 0; w < size >>> 5; w++) {
    let c = 0;
    for (let b = 0; b < 32; b++, i++) if (x[i]! > 0) c |= 1 << b;
    out[at + w] = c >>> 0;
  }
}
