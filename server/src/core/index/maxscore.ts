// The pruned first pass: MaxScore, term at a time.
//
// Every query term gets an upper bound `ub` on what it can add to a document's BM25F sum (the
// largest pseudo-frequency in its list, cached per list: TermBounds). The shortest list is walked
// into partial sums; then the touched documents with the best partial sums are scored in full
// (the other lists probed), and the k-th best of those exact scores is a floor for the pool. If a
// document found in none of the walked lists cannot reach that floor (the unwalked bounds summed,
// times the best coverage factor they alone could give, times the largest recency boost), the
// unwalked lists are never walked: they are only probed, or filled in, for the touched documents
// that can still reach the floor. Otherwise the next list is walked while that still skips most
// postings, else the caller falls back to the exhaustive walk.
//
// Invariant (exactness): a document that is scored gets the very score the exhaustive walk in
// rank.ts gives it (same expressions, term contributions summed in query order from 0, hence the
// per-term `contrib` scratch), and a document is dropped only when a bound proves it scores
// strictly below a floor that k scored documents reach. The pool is the top of a total order
// (score, recency, id), so both walks return the same pool, bit for bit.
import { COVER_FLOOR, K1, RECENCY_WEIGHT, W_ALIAS, W_BODY, W_SCOPE, offerTopK, popcount, ranksBelow, type Walk } from './bm25.ts';
import { SLOT_MASK } from './postings.ts';
import { AB, AS, SAFETY, Scratch, mergeRuns, seek, type Cursor, type TopK } from './cursors.ts';
export { Scratch, TermBounds, mergeRuns, type Cursor, type TopK } from './cursors.ts';

/** Seed documents per pool place: more of them find the documents that match every term. */
const SEEDS = 8;
/** A further list is walked only while the walk can still skip 2/3 of all postings. */
const CONTINUE = 3;

/**
 * The pool (top `k` by score, recency, id) over `cursors` (one per query term, in query order),
 * term at a time: lists are walked shortest first, each into the partial sums (acc[2 slot]) and
 * coverage masks (acc[2 slot + 1]) of the touched slots, until a floor proven from fully scored
 * candidates exceeds what a document found only in the remaining lists could score. The
 * remaining lists are then only probed or filled in, for touched documents that can still make
 * it. Leaves final scores in acc[2 slot] of pool slots; the caller zeroes acc for
 * `touched[0, nTouched)`. Null (scratch and acc already zero) when pruning would not pay.
 */
export function maxScoreTopK(
  w: Walk, cursors: Cursor[], k: number, recency: Float64Array, halfLifeMs: number,
  idOf: (slot: number) => string, acc: Float64Array, touched: Int32Array, sc: Scratch,
): (TopK & { nTouched: number }) | null {
  const n = cursors.length;
  const floor = COVER_FLOOR;
  const rw = RECENCY_WEIGHT;
  const maxBoost = 1 + rw;
  const now = w.now;
  // shortest list first: it is the one walked; the others are bounded, then probed or filled
  const ord = cursors.map((_, q) => q).sort((a, b) => cursors[a]!.len - cursors[b]!.len || cursors[b]!.ub - cursors[a]!.ub || a - b);
  // rest[j]: the bounds of ord[j..n) summed; restBound(j): best final score of a document found
  // in none of the first j lists
  const rest = new Float64Array(n + 1);
  for (let j = n - 1; j >= 0; j--) rest[j] = rest[j + 1]! + cursors[ord[j]!]!.ub;
  const restBound = (j: number) => rest[j]! * (floor + ((1 - floor) * (n - j)) / n) * maxBoost * SAFETY;
  const finalOf = (slot: number, sum: number, mask: number): number => {
    const base = sum * (floor + (1 - floor) * (popcount(mask) / n));
    return base * (1 + rw * Math.pow(0.5, Math.max(0, now - recency[slot]!) / halfLifeMs));
  };

  let nT = 0;
  let j = 0;
  let theta = -Infinity;
  let walked = 0;
  let total = 0;
  for (const c of cursors) total += c.len;
  const runEnds: number[] = []; // touched is ascending within each walked list's new slots
  while (j < n) {
    const q = ord[j]!;
    const c = cursors[q]!;
    sc.ensure(w.meta.length, (nT + c.len) * n);
    nT = walkRaw(w, c, q, n, acc, touched, nT, sc);
    runEnds.push(nT);
    j++;
    walked += c.len;
    if (j === n) break;
    if (nT >= k) {
      theta = seedFloor(w, cursors, ord, j, k, n, acc, touched, nT, sc, finalOf);
      if (theta > restBound(j)) break;
    }
    // The next list must be walked too. Worth it only while the walk can still skip most
    // postings: with this bookkeeping, walking more costs more than the exhaustive walk, so
    // then the scratch goes back to zero and the caller runs that instead (null).
    if ((walked + cursors[ord[j]!]!.len) * CONTINUE <= total) continue;
    for (let t = 0; t < nT; t++) {
      const at = touched[t]! << 1;
      acc[at] = 0;
      acc[at + 1] = 0;
      sc.idx[touched[t]!] = 0;
    }
    sc.contrib.fill(0, 0, nT * n);
    return null;
  }

  const restUb = rest[j]!;
  const nRest = n - j;
  const { idx, contrib } = sc;
  // Documents that cannot reach the floor even with every remaining term at its bound are
  // dropped (idx negated: still cleared at the end, never scored).
  let kept = nT;
  if (nRest > 0) {
    for (let t = 0; t < nT; t++) {
      const slot = touched[t]!;
      const at = slot << 1;
      if ((acc[at]! + restUb) * (floor + ((1 - floor) * (popcount(acc[at + 1]!) + nRest)) / n) * maxBoost * SAFETY < theta) {
        idx[slot] = -idx[slot]!;
        kept--;
      }
    }
  }
  // The remaining lists fill in the kept documents: walked when they are few postings per kept
  // document, else probed by galloping, kept documents in slot order.
  let sorted: Int32Array | null = null;
  for (let i = j; i < n; i++) {
    const q = ord[i]!;
    const c = cursors[q]!;
    if (c.len <= kept * 8) {
      fill(w, c, q, n, acc, idx, contrib);
      continue;
    }
    if (sorted === null) {
      sorted = new Int32Array(kept);
      const ends: number[] = [];
      let o = 0;
      for (let t = 0, r = 0; t < nT; t++) {
        if (idx[touched[t]!]! > 0) sorted[o++] = touched[t]!;
        if (t + 1 === runEnds[r]) {
          ends.push(o);
          r++;
        }
      }
      sorted = mergeRuns(sorted, ends);
    }
    c.pos = 0;
    const bit = 1 << q;
    for (let t = 0; t < kept; t++) {
      const slot = sorted[t]!;
      const v = probe(w, c, slot);
      if (v > 0) {
        contrib[(idx[slot]! - 1) * n + q] = v;
        acc[(slot << 1) + 1] = acc[(slot << 1) + 1]! | bit;
      }
    }
  }
  const heap = new Int32Array(k);
  let size = 0;
  const below = ranksBelow(acc, recency, idOf);
  for (let t = 0; t < nT; t++) {
    const slot = touched[t]!;
    const at = slot << 1;
    const ix = idx[slot]!;
    if (ix < 0) {
      acc[at] = 0; // never compared: it cannot enter the pool
      continue;
    }
    const ci = (ix - 1) * n;
    const mask = acc[at + 1]!;
    // the exhaustive walk's sum: contributions in query order, starting from 0
    let sum = 0;
    for (let q = 0; q < n; q++) if ((mask & (1 << q)) !== 0) sum = sum + contrib[ci + q]!;
    const base = sum * (floor + (1 - floor) * (popcount(mask) / n));
    if ((size === k && base * maxBoost < acc[heap[0]! << 1]!) || base * maxBoost < theta) {
      acc[at] = 0;
      continue;
    }
    acc[at] = finalOf(slot, sum, mask);
    size = offerTopK(heap, size, k, slot, below);
  }
  // scratch back to zero
  for (let t = 0; t < nT; t++) idx[touched[t]!] = 0;
  contrib.fill(0, 0, nT * n);
  return { heap, size, nTouched: nT };
}

/**
 * A floor for the pool: the SEEDS x k touched documents with the best partial scores (coverage
 * counted) are scored in full
 * (the remaining lists probed); the k-th best of those exact final scores is at most the pool's
 * k-th. Partial sums are left as they were; the probed cursors are rewound.
 */
function seedFloor(
  w: Walk, cursors: Cursor[], ord: number[], j: number, k: number, n: number,
  acc: Float64Array, touched: Int32Array, nT: number, sc: Scratch,
  finalOf: (slot: number, sum: number, mask: number) => number,
): number {
  // top k touched by partial sum x coverage so far (a min-heap on that key)
  const floor = COVER_FLOOR;
  const key = (slot: number) => acc[slot << 1]! * (floor + ((1 - floor) * popcount(acc[(slot << 1) + 1]!)) / n);
  const cap = k * SEEDS;
  const heap = new Int32Array(cap);
  const keys = new Float64Array(cap);
  let size = 0;
  for (let t = 0; t < nT; t++) {
    const slot = touched[t]!;
    const v = key(slot);
    if (size === cap && v <= keys[0]!) continue;
    if (size < cap) {
      let h = size++;
      heap[h] = slot;
      keys[h] = v;
      while (h > 0) {
        const p = (h - 1) >> 1;
        if (keys[p]! <= keys[h]!) break;
        swap(keys, heap, p, h);
        h = p;
      }
    } else {
      heap[0] = slot;
      keys[0] = v;
      for (let h = 0; ; ) {
        const l = 2 * h + 1;
        const r = l + 1;
        let m = h;
        if (l < cap && keys[l]! < keys[m]!) m = l;
        if (r < cap && keys[r]! < keys[m]!) m = r;
        if (m === h) break;
        swap(keys, heap, m, h);
        h = m;
      }
    }
  }
  const { idx, contrib } = sc;
  const finals: number[] = [];
  const extra = new Float64Array(n);
  for (let h = 0; h < size; h++) {
    const slot = heap[h]!;
    const ci = (idx[slot]! - 1) * n;
    let mask = acc[(slot << 1) + 1]!;
    extra.fill(0);
    for (let i = j; i < n; i++) {
      const q = ord[i]!;
      const c = cursors[q]!;
      c.pos = 0;
      const v = probe(w, c, slot);
      if (v > 0) {
        extra[q] = v;
        mask |= 1 << q;
      }
    }
    let sum = 0;
    for (let q = 0; q < n; q++) if ((mask & (1 << q)) !== 0) sum = sum + (extra[q]! > 0 ? extra[q]! : contrib[ci + q]!);
    finals.push(finalOf(slot, sum, mask));
  }
  for (let i = j; i < n; i++) cursors[ord[i]!]!.pos = 0;
  finals.sort((a, b) => b - a);
  return finals.length >= k ? finals[k - 1]! : -Infinity;
}

function swap(keys: Float64Array, slots: Int32Array, a: number, b: number): void {
  const x = keys[a]!;
  keys[a] = keys[b]!;
  keys[b] = x;
  const y = slots[a]!;
  slots[a] = slots[b]!;
  slots[b] = y;
}

/** One list walked into the partial sums, term at a time: rank.ts's accumulate, plus contrib. */
function walkRaw(w: Walk, c: Cursor, q: number, n: number, acc: Float64Array, touched: Int32Array, nT: number, sc: Scratch): number {
  const { meta, expires, now, cb, cs, allowState, ask } = w;
  const { idx, contrib } = sc;
  const list = c.list;
  const len = c.len;
  const scale = c.scale;
  const bit = 1 << q;
  const wb = W_BODY;
  const ws = W_SCOPE;
  const wa = W_ALIAS;
  const ab = AB;
  const as = AS;
  const k1 = K1;
  for (let i = 0; i < len; i++) {
    const e = list[i]!;
    const slot = e & 0xffffff; // posting layout: see postings.ts
    const md = meta[slot]!;
    if ((md & 0x1000000) === 0 || ((md & 0x2000000) !== 0 && expires[slot]! <= now)) continue; // META_ALIVE, META_EXPIRES
    if (ask !== null) {
      let st = allowState[slot]!;
      if (st === 0) {
        st = ask(slot) ? 1 : 2;
        allowState[slot] = st;
      }
      if (st !== 1) continue;
    }
    const tb = (e >>> 24) & 31;
    const ts = (e >>> 29) & 3;
    const ta = e >>> 31;
    let f = tb === 0 ? 0 : (wb * tb) / (ab + cb * (md & 0xffff));
    if (ts !== 0) f += (ws * ts) / (as + cs * ((md >>> 16) & 0xff));
    if (ta !== 0) f += wa;
    const v = (scale * f) / (k1 + f);
    let ix = idx[slot]!;
    if (ix === 0) {
      touched[nT++] = slot;
      idx[slot] = ix = nT;
    }
    const at = slot << 1;
    acc[at] = acc[at]! + v;
    acc[at + 1] = acc[at + 1]! | bit;
    contrib[(ix - 1) * n + q] = v;
  }
  return nT;
}

/** A remaining list walked for kept documents only (idx > 0): same expressions as walkRaw. */
function fill(w: Walk, c: Cursor, q: number, n: number, acc: Float64Array, idx: Int32Array, contrib: Float64Array): void {
  const bit = 1 << q;
  const list = c.list;
  const { meta, cb, cs } = w;
  const scale = c.scale;
  const wb = W_BODY;
  const ws = W_SCOPE;
  const wa = W_ALIAS;
  const ab = AB;
  const as = AS;
  const k1 = K1;
  for (let i = 0, len = c.len; i < len; i++) {
    const e = list[i]!;
    const slot = e & 0xffffff; // posting layout: see postings.ts
    const ix = idx[slot]!;
    if (ix <= 0) continue;
    const md = meta[slot]!;
    const tb = (e >>> 24) & 31;
    const ts = (e >>> 29) & 3;
    const ta = e >>> 31;
    let f = tb === 0 ? 0 : (wb * tb) / (ab + cb * (md & 0xffff));
    if (ts !== 0) f += (ws * ts) / (as + cs * ((md >>> 16) & 0xff));
    if (ta !== 0) f += wa;
    contrib[(ix - 1) * n + q] = (scale * f) / (k1 + f);
    acc[(slot << 1) + 1] = acc[(slot << 1) + 1]! | bit;
  }
}

/**
 * The term's contribution to `slot` (0: absent), moving the cursor forward: slots must be probed
 * in increasing order between rewinds. Same expressions as walkRaw. The slot passed the filters.
 */
function probe(w: Walk, c: Cursor, slot: number): number {
  seek(c, slot);
  if (c.pos >= c.len || (c.list[c.pos]! & SLOT_MASK) !== slot) return 0;
  const e = c.list[c.pos]!;
  const md = w.meta[slot]!;
  const tb = (e >>> 24) & 31;
  const ts = (e >>> 29) & 3;
  const ta = e >>> 31;
  let f = tb === 0 ? 0 : (W_BODY * tb) / (AB + w.cb * (md & 0xffff));
  if (ts !== 0) f += (W_SCOPE * ts) / (AS + w.cs * ((md >>> 16) & 0xff));
  if (ta !== 0) f += W_ALIAS;
  return (c.scale * f) / (K1 + f);
}
