// The pieces MaxScore walks with: a cursor per query term over its inverted list, the cached
// per-list upper bounds (TermBounds), and the scratch reused across queries.
import { B_BODY, B_SCOPE, W_ALIAS, W_BODY, W_SCOPE } from './bm25.ts';
import { META_ALIVE, SLOT_MASK, type Postings } from './postings.ts';

/** Relative slack on every bound: float sums in another order may differ in the last bits. */
export const SAFETY = 1 + 1e-9;
/** Cached bounds are recomputed once the average field lengths drift by more than this ratio. */
const DRIFT = 1.1;

/** One query term (a single exact word: see worthPruning in rank.ts) and its inverted list. */
export interface Cursor {
  /** postings (slot | tfs), ascending by slot */
  list: Int32Array;
  len: number;
  pos: number;
  /** raw: idf x weight x (k1 + 1) */
  scale: number;
  /** no document gets more than this from the term */
  ub: number;
}

/**
 * Per inverted list, the largest BM25F pseudo-frequency of a live posting, measured with the
 * length normalization (cb0, cs0) in force when the cache generation began. A posting killed
 * later only makes the bound looser; postings appended later are folded in incrementally.
 */
export class TermBounds {
  private fmax = new Float64Array(0);
  private scanned = new Int32Array(0);
  private cb0 = 0;
  private cs0 = 0;
  private epoch = -1;

  constructor(private readonly p: Postings) {}

  /** Largest pseudo-frequency of term `t` under normalization (cb, cs). */
  maxF(t: number, cb: number, cs: number): number {
    const p = this.p;
    const drift = Math.max(this.cb0 / cb, cb / this.cb0, this.cs0 / cs, cs / this.cs0);
    if (p.epoch !== this.epoch || !(drift <= DRIFT) || this.fmax.length < p.terms.length) {
      // New generation: compaction renumbered slots, the lengths drifted, or the vocabulary grew.
      if (p.epoch !== this.epoch || !(drift <= DRIFT)) {
        this.fmax = new Float64Array(Math.max(p.terms.length, 64));
        this.scanned = new Int32Array(this.fmax.length);
        this.cb0 = cb;
        this.cs0 = cs;
        this.epoch = p.epoch;
      } else {
        const n = Math.max(p.terms.length, this.fmax.length * 2);
        const f = new Float64Array(n);
        f.set(this.fmax);
        const s = new Int32Array(n);
        s.set(this.scanned);
        this.fmax = f;
        this.scanned = s;
      }
    }
    const len = p.listLen[t]!;
    let from = this.scanned[t]!;
    if (from < len) {
      const list = p.lists[t]!;
      const meta = p.meta;
      let best = this.fmax[t]!;
      for (; from < len; from++) {
        const e = list[from]!;
        const md = meta[e & SLOT_MASK]!;
        if ((md & META_ALIVE) === 0) continue;
        const f = pseudo(e, md, this.cb0, this.cs0);
        if (f > best) best = f;
      }
      this.fmax[t] = best;
      this.scanned[t] = len;
    }
    // f at (cb, cs) <= f at (cb0, cs0) x max(1, cb0/cb, cs0/cs), field by field.
    return this.fmax[t]! * Math.max(1, this.cb0 / cb, this.cs0 / cs) * SAFETY;
  }
}

// The two BM25F normalizations, computed as rank.ts's accumulate computes them.
export const AB = 1 - B_BODY;
export const AS = 1 - B_SCOPE;

export function pseudo(e: number, md: number, cb: number, cs: number): number {
  const tb = (e >>> 24) & 31;
  const ts = (e >>> 29) & 3;
  const ta = e >>> 31;
  let f = tb === 0 ? 0 : (W_BODY * tb) / (AB + cb * (md & 0xffff));
  if (ts !== 0) f += (W_SCOPE * ts) / (AS + cs * ((md >>> 16) & 0xff));
  if (ta !== 0) f += W_ALIAS;
  return f;
}

/**
 * Sorts `a` (consumed) made of ascending runs a[ends[r-1], ends[r]) by merging runs pairwise:
 * O(m log runs), where a general sort of the thousands of slots two walked lists touch costs
 * more than the walk itself.
 */
export function mergeRuns(a: Int32Array, ends: number[]): Int32Array {
  let src: Int32Array = a;
  let dst: Int32Array = new Int32Array(a.length);
  let bounds = [0, ...ends];
  while (bounds.length > 2) {
    const next = [0];
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const lo = bounds[r]!;
      const mid = bounds[r + 1]!;
      const hi = r + 2 < bounds.length ? bounds[r + 2]! : mid;
      let x = lo;
      let y = mid;
      let o = lo;
      while (x < mid && y < hi) dst[o++] = src[x]! <= src[y]! ? src[x++]! : src[y++]!;
      while (x < mid) dst[o++] = src[x++]!;
      while (y < hi) dst[o++] = src[y++]!;
      next.push(hi);
    }
    const t = src;
    src = dst;
    dst = t;
    bounds = next;
  }
  return src;
}

/** Moves `c` to its first entry with slot >= d (galloping, then binary search). */
export function seek(c: Cursor, d: number): void {
  const list = c.list;
  const len = c.len;
  let pos = c.pos;
  if (pos >= len || (list[pos]! & SLOT_MASK) >= d) return;
  let step = 1;
  let hi = pos + 1;
  while (hi < len && (list[hi]! & SLOT_MASK) < d) {
    pos = hi;
    step <<= 1;
    hi = pos + step;
  }
  if (hi > len) hi = len;
  let lo = pos + 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid]! & SLOT_MASK) < d) lo = mid + 1;
    else hi = mid;
  }
  c.pos = lo;
}

export interface TopK {
  /** slots of the pool, unordered */
  heap: Int32Array;
  size: number;
}

/** Scratch reused across queries (all zero between runs, like the accumulators in rank.ts). */
export class Scratch {
  /** slot -> 1 + its index among the touched slots, 0: untouched */
  idx = new Int32Array(0);
  /** per touched index i and query term q: contrib[i n + q] */
  contrib = new Float64Array(0);

  ensure(slots: number, need: number): void {
    if (this.idx.length < slots) this.idx = new Int32Array(Math.max(slots, this.idx.length * 2, 64));
    if (this.contrib.length < need) {
      const c = new Float64Array(Math.max(need, this.contrib.length * 2, 256));
      c.set(this.contrib);
      this.contrib = c;
    }
  }
}

