// What the first pass shares between its two walks (exhaustive term-at-a-time in rank.ts, pruned
// document-at-a-time in maxscore.ts): the BM25F parameters, the slot predicate and the order of
// candidates. Both walks must compute every score with the very same expressions so that pruning
// never changes a result, down to the last bit of a score.
import { META_ALIVE, META_EXPIRES } from './postings.ts';

// BM25F parameters. Scopes are short and chosen by hand, so a hit there weighs more.
export const K1 = 1.2;
export const B_BODY = 0.75;
export const B_SCOPE = 0.3;
export const W_BODY = 1;
export const W_SCOPE = 2;
/**
 * Aliases (other words a later search may use, given by the writer) weigh less than the body
 * and are not length-normalized: a term among the aliases adds W_ALIAS to the pseudo-frequency.
 */
export const W_ALIAS = 0.5;
/** At most +RECENCY_WEIGHT for a memory touched just now, halving every half-life. */
export const RECENCY_WEIGHT = 0.1;
/** score x (COVER_FLOOR + (1 - COVER_FLOOR) x coverage): covering more of the query wins. */
export const COVER_FLOOR = 0.5;
export const DAY_MS = 86_400_000;

export interface RankOptions {
  /** how many top candidates to return */
  pool: number;
  /** epoch ms: for the recency boost and expiry */
  now: number;
  halfLifeDays: number;
  /** slot filter */
  allow?: (slot: number) => boolean;
  /** while equal across runs, answers of `allow` are kept per slot (undefined: per run only) */
  allowKey?: string;
  /** id of a slot, for deterministic ties */
  idOf: (slot: number) => string;
  /** walk every posting instead of pruning (same results, slower): for tests and benches */
  exhaustive?: boolean;
}

export interface Candidate {
  slot: number;
  score: number;
  /** bit i set: query term i matched */
  mask: number;
}

/** What every list walk needs; `ask` is null when nothing is filtered. */
export interface Walk {
  meta: Int32Array;
  expires: Float64Array;
  now: number;
  /** B / average field length, per field */
  cb: number;
  cs: number;
  allowState: Uint8Array;
  ask: ((slot: number) => boolean) | null;
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Live, not expired, and allowed by the filter (asked once per slot, answer kept). */
export function passes(w: Walk, slot: number): boolean {
  const m = w.meta[slot]!;
  if ((m & META_ALIVE) === 0 || ((m & META_EXPIRES) !== 0 && w.expires[slot]! <= w.now)) return false;
  if (w.ask === null) return true;
  let st = w.allowState[slot]!;
  if (st === 0) {
    st = w.ask(slot) ? 1 : 2;
    w.allowState[slot] = st;
  }
  return st === 1;
}

/** BM25F pseudo-frequency of a packed (body tf | scope tf << 16 | alias tf << 24), before saturation. */
export function pseudoTf(w: Walk, packed: number, slot: number): number {
  const tb = packed & 0xffff;
  const ts = (packed >>> 16) & 0xff;
  const ta = packed >>> 24;
  const m = w.meta[slot]!;
  let f = tb === 0 ? 0 : (W_BODY * tb) / (1 - B_BODY + w.cb * (m & 0xffff));
  if (ts !== 0) f += (W_SCOPE * ts) / (1 - B_SCOPE + w.cs * ((m >>> 16) & 0xff));
  if (ta !== 0) f += W_ALIAS;
  return f;
}

/** Higher score first, then more recent, then smaller id: results are deterministic. */
export function compareCandidates(a: Candidate, b: Candidate, recency: Float64Array, idOf: (s: number) => string): number {
  if (a.score !== b.score) return b.score - a.score;
  const ra = recency[a.slot]!;
  const rb = recency[b.slot]!;
  if (ra !== rb) return rb - ra;
  const ia = idOf(a.slot);
  const ib = idOf(b.slot);
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

/**
 * "a ranks below b" in the pool's total order: score, then recency, then id (ties are
 * deterministic). Scores are read from the walk's accumulator (slot << 1).
 */
export function ranksBelow(acc: Float64Array, recency: Float64Array, idOf: (s: number) => string): (a: number, b: number) => boolean {
  return (a, b) => {
    const sa = acc[a << 1]!;
    const sb = acc[b << 1]!;
    if (sa !== sb) return sa < sb;
    const ra = recency[a]!;
    const rb = recency[b]!;
    if (ra !== rb) return ra < rb;
    return idOf(a) > idOf(b);
  };
}

/**
 * Offers `slot` to a bounded min-heap of the k best slots (worst at the root); returns the new
 * size. Both walks (exhaustive and MaxScore) keep their pool with it, so they order alike.
 */
export function offerTopK(heap: Int32Array, size: number, k: number, slot: number, below: (a: number, b: number) => boolean): number {
  if (size < k) {
    let j = size++;
    heap[j] = slot;
    while (j > 0) {
      const parent = (j - 1) >> 1;
      if (!below(heap[j]!, heap[parent]!)) break;
      const t = heap[j]!;
      heap[j] = heap[parent]!;
      heap[parent] = t;
      j = parent;
    }
  } else if (below(heap[0]!, slot)) {
    heap[0] = slot;
    for (let j = 0; ; ) {
      const l = 2 * j + 1;
      const r = l + 1;
      let m = j;
      if (l < size && below(heap[l]!, heap[m]!)) m = l;
      if (r < size && below(heap[r]!, heap[m]!)) m = r;
      if (m === j) break;
      const t = heap[j]!;
      heap[j] = heap[m]!;
      heap[m] = t;
      j = m;
    }
  }
  return size;
}
