// The hot path: BM25F over the inverted lists with typed-array accumulators reused across queries.
//
// Per query term, every variant's list is walked and a document keeps the best variant score for
// that term (a synonym never adds to the exact word it stands for); the term's score then adds to
// the document total and sets the term's bit in the coverage mask. The first-pass score is
// BM25F x coverage factor x mild recency boost; the caller reranks the top of it.
//
// Expired documents are skipped through a per-slot expiry array; the caller's filter is asked once
// per slot and its answer kept in `allowState` for as long as the caller passes the same key.
import { SLOT_MASK, postingTf, type Postings } from './postings.ts';
import {
  B_BODY, B_SCOPE, COVER_FLOOR, DAY_MS, K1, RECENCY_WEIGHT, W_ALIAS, W_BODY, W_SCOPE,
  compareCandidates, passes, popcount, pseudoTf, type Candidate, type RankOptions, type Walk,
  offerTopK,
  ranksBelow,
} from './bm25.ts';
export { B_BODY, B_SCOPE, COVER_FLOOR, K1, RECENCY_WEIGHT, W_BODY, W_SCOPE, compareCandidates, popcount } from './bm25.ts';
export type { Candidate, RankOptions } from './bm25.ts';
import { Scratch, TermBounds, maxScoreTopK, type Cursor } from './maxscore.ts';
import type { QueryTerm } from './query.ts';

export class Ranker {
  // per-run scratch, all zero between runs. acc interleaves each slot's score (2s) and coverage
  // mask (2s + 1) so one cache line serves both.
  private acc = new Float64Array(0);
  private best = new Float64Array(0);
  private touched = new Int32Array(0);
  private termTouched = new Int32Array(0);
  /** per slot: 0 not asked, 1 allowed, 2 filtered out; valid for (allowKey, allowEpoch) */
  private allowState = new Uint8Array(0);
  private allowKey: string | undefined = undefined;
  private allowEpoch = -1;

  private readonly bounds: TermBounds;
  private readonly scratch = new Scratch();

  constructor(private readonly p: Postings) {
    this.bounds = new TermBounds(p);
  }

  private ensure(n: number): void {
    if (this.best.length >= n) return;
    const cap = Math.max(n, this.best.length * 2, 64);
    this.acc = new Float64Array(cap * 2);
    this.best = new Float64Array(cap);
    this.touched = new Int32Array(cap);
    this.termTouched = new Int32Array(cap);
    const allow = new Uint8Array(cap);
    allow.set(this.allowState);
    this.allowState = allow;
  }

  private prepareFilter(opts: RankOptions): void {
    if (!opts.allow) return;
    const keep = opts.allowKey !== undefined && opts.allowKey === this.allowKey && this.allowEpoch === this.p.epoch;
    if (!keep) this.allowState.fill(0);
    this.allowKey = opts.allowKey;
    this.allowEpoch = this.p.epoch;
  }

  run(query: QueryTerm[], opts: RankOptions): Candidate[] {
    const p = this.p;
    if (query.length === 0 || p.live === 0) return [];
    this.ensure(p.slots);
    this.prepareFilter(opts);
    const w: Walk = {
      meta: p.meta,
      expires: p.expires,
      now: opts.now,
      cb: B_BODY / Math.max(p.sumBody / p.live, 1),
      cs: B_SCOPE / Math.max(p.sumScope / p.live, 1),
      allowState: this.allowState,
      ask: opts.allow ?? null,
    };
    const n = p.live;
    const idfOf = (t: number) => Math.log(1 + (n - p.df[t]! + 0.5) / (p.df[t]! + 0.5));
    if (!opts.exhaustive && worthPruning(query, p)) return this.runPruned(query, opts, w, idfOf);
    const { acc, best, touched, termTouched } = this;
    let nTouched = 0;

    for (let q = 0; q < query.length; q++) {
      const variants = query[q]!.variants;
      const bit = 1 << q;
      if (variants.length === 1 && variants[0]!.terms.length === 1) {
        // The common case, one exact word: add straight into the totals.
        const t = variants[0]!.terms[0]!;
        nTouched = accumulate(w, p.lists[t]!, p.listLen[t]!, idfOf(t) * variants[0]!.weight * (K1 + 1), bit, acc, touched, nTouched);
        continue;
      }
      let nTerm = 0;
      for (const v of variants) {
        if (v.terms.length === 1) {
          const t = v.terms[0]!;
          nTerm = accumulateBest(w, p.lists[t]!, p.listLen[t]!, idfOf(t) * v.weight * (K1 + 1), best, termTouched, nTerm);
        } else {
          nTerm = this.walkAll(w, v.terms, v.terms.map(idfOf), v.weight, nTerm);
        }
      }
      for (let i = 0; i < nTerm; i++) {
        const slot = termTouched[i]!;
        const k = slot << 1;
        const m = acc[k + 1]!;
        if (m === 0) touched[nTouched++] = slot;
        acc[k] = acc[k]! + best[slot]!;
        acc[k + 1] = m | bit;
        best[slot] = 0;
      }
    }

    const out = this.select(nTouched, query.length, opts);
    for (let i = 0; i < nTouched; i++) {
      const k = touched[i]! << 1;
      acc[k] = 0;
      acc[k + 1] = 0;
    }
    return out;
  }

  /** The same pool as the exhaustive walk below, through MaxScore (see maxscore.ts). */
  private runPruned(query: QueryTerm[], opts: RankOptions, w: Walk, idfOf: (t: number) => number): Candidate[] {
    const p = this.p;
    if (opts.pool <= 0) return [];
    // worthPruning: every query term is one exact word
    const cursors = query.map((qt): Cursor => {
      const t = qt.variants[0]!.terms[0]!;
      const scale = idfOf(t) * qt.variants[0]!.weight * (K1 + 1);
      const f = this.bounds.maxF(t, w.cb, w.cs);
      return { list: p.lists[t]!, len: p.listLen[t]!, pos: 0, scale, ub: (scale * f) / (K1 + f) };
    });
    const { acc, touched } = this;
    const recency = p.recency;
    const idOf = opts.idOf;
    const top = maxScoreTopK(w, cursors, opts.pool, recency, opts.halfLifeDays * DAY_MS, idOf, acc, touched, this.scratch);
    if (top === null) return this.run(query, { ...opts, exhaustive: true });
    const out: Candidate[] = [];
    for (let i = 0; i < top.size; i++) {
      const at = top.heap[i]! << 1;
      out.push({ slot: top.heap[i]!, score: acc[at]!, mask: acc[at + 1]! });
    }
    for (let i = 0; i < top.nTouched; i++) {
      const at = touched[i]! << 1;
      acc[at] = 0;
      acc[at + 1] = 0;
    }
    return out.sort((a, b) => compareCandidates(a, b, recency, idOf));
  }

  /** A multi-word synonym: walk the rarest word's list, require and score every word. */
  private walkAll(w: Walk, terms: number[], idfs: number[], weight: number, nTerm: number): number {
    const p = this.p;
    let lead = 0;
    for (let k = 1; k < terms.length; k++) if (p.df[terms[k]!]! < p.df[terms[lead]!]!) lead = k;
    const list = p.lists[terms[lead]!]!;
    const len = p.listLen[terms[lead]!]!;
    for (let i = 0; i < len; i++) {
      const slot = list[i]! & SLOT_MASK;
      if (!passes(w, slot)) continue;
      let s = 0;
      let k = 0;
      for (; k < terms.length; k++) {
        const packed = k === lead ? postingTf(list[i]!) : p.tfOf(slot, terms[k]!);
        if (packed === 0) break;
        const f = pseudoTf(w, packed, slot);
        s += (idfs[k]! * f * (K1 + 1)) / (K1 + f);
      }
      if (k < terms.length) continue;
      s *= weight;
      const b = this.best[slot]!;
      if (b === 0) this.termTouched[nTerm++] = slot;
      if (s > b) this.best[slot] = s;
    }
    return nTerm;
  }

  /**
   * Final first-pass score of each touched slot (written over its BM25 sum), then the top `pool`
   * by (score, recency, id) through a bounded heap of slot numbers: no per-document allocation.
   */
  private select(nTouched: number, nTerms: number, opts: RankOptions): Candidate[] {
    const { acc, touched } = this;
    const recency = this.p.recency;
    const halfLifeMs = opts.halfLifeDays * DAY_MS;
    const k = Math.min(opts.pool, nTouched);
    if (k <= 0) return [];
    const heap = new Int32Array(k); // worst kept candidate at the root
    let size = 0;
    const idOf = opts.idOf;
    const floor = COVER_FLOOR; // locals: see the note above accumulate()
    const rw = RECENCY_WEIGHT;
    const maxBoost = 1 + rw;
    const now = opts.now;
    const below = ranksBelow(acc, recency, idOf);
    for (let i = 0; i < nTouched; i++) {
      const slot = touched[i]!;
      const at = slot << 1;
      const coverage = popcount(acc[at + 1]!) / nTerms;
      const base = acc[at]! * (floor + (1 - floor) * coverage);
      // The recency boost is at most 1 + RECENCY_WEIGHT: a document that cannot beat the worst
      // kept one even with it is dropped before paying for Math.pow.
      if (size === k && base * maxBoost < acc[heap[0]! << 1]!) continue;
      const age = Math.max(0, now - recency[slot]!);
      acc[at] = base * (1 + rw * Math.pow(0.5, age / halfLifeMs));
      size = offerTopK(heap, size, k, slot, below);
    }
    const out: Candidate[] = [];
    for (let i = 0; i < size; i++) out.push({ slot: heap[i]!, score: acc[heap[i]! << 1]!, mask: acc[(heap[i]! << 1) + 1]! });
    return out.sort((a, b) => compareCandidates(a, b, recency, idOf));
  }
}

/**
 * Pruning pays only when one list is much shorter than the rest together: the walk then skips
 * most postings of the long lists. Otherwise its bookkeeping costs more than it saves, and a
 * term with several variants is scored in full either way.
 */
function worthPruning(query: QueryTerm[], p: Postings): boolean {
  if (query.length < 2) return false;
  let min = Infinity;
  let total = 0;
  for (const qt of query) {
    if (qt.variants.length !== 1 || qt.variants[0]!.terms.length !== 1) return false;
    const len = p.listLen[qt.variants[0]!.terms[0]!]!;
    if (len < min) min = len;
    total += len;
  }
  return total >= PRUNE_MIN_POSTINGS && min * PRUNE_RATIO <= total - min;
}
const PRUNE_MIN_POSTINGS = 1024;
const PRUNE_RATIO = 4;

// The loops below copy tuning constants into locals first: module-level bindings are context
// loads with hole checks in V8, which measurably doubled the cost of these loops.

/** The hottest loop: one term's list added into the totals. `scale` = idf x weight x (k1 + 1). */
function accumulate(
  w: Walk, list: Int32Array, len: number, scale: number, bit: number,
  acc: Float64Array, touched: Int32Array, nTouched: number,
): number {
  const { meta, expires, now, cb, cs, allowState, ask } = w;
  const wb = W_BODY;
  const ws = W_SCOPE;
  const wa = W_ALIAS;
  const ab = 1 - B_BODY;
  const as = 1 - B_SCOPE;
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
    const at = slot << 1;
    const m = acc[at + 1]!;
    if (m === 0) touched[nTouched++] = slot;
    acc[at] = acc[at]! + (scale * f) / (k1 + f);
    acc[at + 1] = m | bit;
  }
  return nTouched;
}

/** Like accumulate, for one variant of a term with several: keeps the best variant per slot. */
function accumulateBest(
  w: Walk, list: Int32Array, len: number, scale: number,
  best: Float64Array, termTouched: Int32Array, nTerm: number,
): number {
  const { meta, expires, now, cb, cs, allowState, ask } = w;
  const wb = W_BODY;
  const ws = W_SCOPE;
  const wa = W_ALIAS;
  const ab = 1 - B_BODY;
  const as = 1 - B_SCOPE;
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
    const s = (scale * f) / (k1 + f);
    const b = best[slot]!;
    if (b === 0) termTouched[nTerm++] = slot;
    if (s > b) best[slot] = s;
  }
  return nTerm;
}

