// The hot path: BM25F over the inverted lists with typed-array accumulators reused across queries.
//
// Per query term, every variant's list is walked and a document keeps the best variant score for
// that term (a synonym never adds to the exact word it stands for); the term's score then adds to
// the document total and sets the term's bit in the coverage mask. The first-pass score is
// BM25F x coverage factor x mild recency boost; the caller reranks the top of it.
import type { Postings } from './postings.ts';
import { SCOPE_SHIFT, TF_MASK } from './postings.ts';
import type { QueryTerm } from './query.ts';

// BM25F parameters. Scopes are short and chosen by hand, so a hit there weighs more.
export const K1 = 1.2;
export const B_BODY = 0.75;
export const B_SCOPE = 0.3;
export const W_BODY = 1;
export const W_SCOPE = 2;
/** At most +RECENCY_WEIGHT for a memory touched just now, halving every half-life. */
export const RECENCY_WEIGHT = 0.1;
/** score x (COVER_FLOOR + (1 - COVER_FLOOR) x coverage): covering more of the query wins. */
export const COVER_FLOOR = 0.5;
const DAY_MS = 86_400_000;

export interface RankOptions {
  /** how many top candidates to return */
  pool: number;
  now: number;
  halfLifeDays: number;
  /** slot filter, asked at most once per slot per query */
  allow?: (slot: number) => boolean;
  /** id of a slot, for deterministic ties */
  idOf: (slot: number) => string;
}

export interface Candidate {
  slot: number;
  score: number;
  /** bit i set: query term i matched */
  mask: number;
}

interface WalkContext {
  alive: Uint8Array;
  bodyLen: Int32Array;
  scopeLen: Int32Array;
  /** B / average field length, per field */
  cb: number;
  cs: number;
  allow: ((slot: number) => boolean) | undefined;
  /** slots in termTouched for the current query term */
  nTerm: number;
  /** slots in checked (filter answers to reset) */
  nChecked: number;
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export class Ranker {
  private score = new Float64Array(0);
  private best = new Float64Array(0);
  private mask = new Int32Array(0);
  /** 0 unknown, 1 allowed, 2 filtered out */
  private allowState = new Uint8Array(0);
  private touched = new Int32Array(0);
  private termTouched = new Int32Array(0);
  private checked = new Int32Array(0);

  constructor(private readonly p: Postings) {}

  private ensure(n: number): void {
    if (this.score.length >= n) return;
    const cap = Math.max(n, this.score.length * 2, 64);
    this.score = new Float64Array(cap);
    this.best = new Float64Array(cap);
    this.mask = new Int32Array(cap);
    this.allowState = new Uint8Array(cap);
    this.touched = new Int32Array(cap);
    this.termTouched = new Int32Array(cap);
    this.checked = new Int32Array(cap);
  }

  run(query: QueryTerm[], opts: RankOptions): Candidate[] {
    const p = this.p;
    if (query.length === 0 || p.live === 0) return [];
    this.ensure(p.slots);
    const { score, best, mask, allowState, touched, termTouched, checked } = this;
    const ctx: WalkContext = {
      alive: p.alive,
      bodyLen: p.bodyLen,
      scopeLen: p.scopeLen,
      cb: B_BODY / Math.max(p.sumBody / p.live, 1),
      cs: B_SCOPE / Math.max(p.sumScope / p.live, 1),
      allow: opts.allow,
      nTerm: 0,
      nChecked: 0,
    };
    const n = p.live;
    const idfOf = (t: number) => Math.log(1 + (n - p.df[t]! + 0.5) / (p.df[t]! + 0.5));
    let nTouched = 0;

    for (let q = 0; q < query.length; q++) {
      const variants = query[q]!.variants;
      const bit = 1 << q;
      if (variants.length === 1 && variants[0]!.terms.length === 1) {
        // The common case, one exact word: add straight into the totals.
        const t = variants[0]!.terms[0]!;
        nTouched = this.walkDirect(ctx, p.lists[t]!, p.listLen[t]!, idfOf(t) * variants[0]!.weight, bit, nTouched);
        continue;
      }
      ctx.nTerm = 0;
      for (const v of variants) {
        if (v.terms.length === 1) {
          const t = v.terms[0]!;
          this.walkOne(ctx, p.lists[t]!, p.listLen[t]!, idfOf(t) * v.weight);
        } else {
          this.walkAll(ctx, v.terms, v.terms.map(idfOf), v.weight);
        }
      }
      const nTerm = ctx.nTerm;
      for (let i = 0; i < nTerm; i++) {
        const slot = termTouched[i]!;
        if (mask[slot] === 0) touched[nTouched++] = slot;
        score[slot]! += best[slot]!;
        mask[slot]! |= bit;
        best[slot] = 0;
      }
    }

    const out = this.select(nTouched, query.length, opts);
    for (let i = 0; i < nTouched; i++) {
      const slot = touched[i]!;
      score[slot] = 0;
      mask[slot] = 0;
    }
    for (let i = 0, nc = ctx.nChecked; i < nc; i++) allowState[checked[i]!] = 0;
    return out;
  }

  /** Asks the filter once per slot per query; false: skip the slot. */
  private allowed(ctx: WalkContext, slot: number): boolean {
    let st = this.allowState[slot]!;
    if (st === 0) {
      st = ctx.allow!(slot) ? 1 : 2;
      this.allowState[slot] = st;
      this.checked[ctx.nChecked++] = slot;
    }
    return st === 1;
  }

  private static tfw(ctx: WalkContext, packed: number, slot: number): number {
    return bm25fTf(packed, ctx.bodyLen[slot]!, ctx.scopeLen[slot]!, ctx.cb, ctx.cs);
  }

  /** The hot loop: one term's list, keeping each slot's best variant score in `best`. */
  private walkOne(ctx: WalkContext, list: Int32Array, len: number, idfw: number): void {
    const scale = idfw * (K1 + 1);
    if (ctx.allow === undefined) {
      ctx.nTerm = accumulateBest(list, len, scale, ctx.alive, ctx.bodyLen, ctx.scopeLen, ctx.cb, ctx.cs, this.best, this.termTouched, ctx.nTerm);
      return;
    }
    const { best, termTouched } = this;
    for (let i = 0; i < len; i += 2) {
      const slot = list[i]!;
      if (ctx.alive[slot] === 0 || !this.allowed(ctx, slot)) continue;
      const w = Ranker.tfw(ctx, list[i + 1]!, slot);
      const s = (scale * w) / (K1 + w);
      const b = best[slot]!;
      if (b === 0) termTouched[ctx.nTerm++] = slot;
      if (s > b) best[slot] = s;
    }
  }

  /** One term, one variant: scores go straight to `score`, its bit to `mask`. */
  private walkDirect(ctx: WalkContext, list: Int32Array, len: number, idfw: number, bit: number, nTouched: number): number {
    if (ctx.allow === undefined) {
      return accumulate(list, len, idfw * (K1 + 1), bit, ctx.alive, ctx.bodyLen, ctx.scopeLen, ctx.cb, ctx.cs, this.score, this.mask, this.touched, nTouched);
    }
    const { score, mask, touched } = this;
    const { alive, bodyLen, scopeLen, cb, cs } = ctx;
    const scale = idfw * (K1 + 1);
    for (let i = 0; i < len; i += 2) {
      const slot = list[i]!;
      if (alive[slot] === 0 || !this.allowed(ctx, slot)) continue;
      const w = bm25fTf(list[i + 1]!, bodyLen[slot]!, scopeLen[slot]!, cb, cs);
      const m = mask[slot]!;
      if (m === 0) touched[nTouched++] = slot;
      score[slot] = score[slot]! + (scale * w) / (K1 + w);
      mask[slot] = m | bit;
    }
    return nTouched;
  }

  /** A multi-word synonym: walk the rarest word's list, require and score every word. */
  private walkAll(ctx: WalkContext, terms: number[], idfs: number[], weight: number): void {
    const p = this.p;
    let lead = 0;
    for (let k = 1; k < terms.length; k++) if (p.df[terms[k]!]! < p.df[terms[lead]!]!) lead = k;
    const list = p.lists[terms[lead]!]!;
    const len = p.listLen[terms[lead]!]!;
    for (let i = 0; i < len; i += 2) {
      const slot = list[i]!;
      if (ctx.alive[slot] === 0 || (ctx.allow !== undefined && !this.allowed(ctx, slot))) continue;
      let s = 0;
      let k = 0;
      for (; k < terms.length; k++) {
        const packed = k === lead ? list[i + 1]! : p.tfOf(slot, terms[k]!);
        if (packed === 0) break;
        const w = Ranker.tfw(ctx, packed, slot);
        s += (idfs[k]! * w * (K1 + 1)) / (K1 + w);
      }
      if (k < terms.length) continue;
      s *= weight;
      const b = this.best[slot]!;
      if (b === 0) this.termTouched[ctx.nTerm++] = slot;
      if (s > b) this.best[slot] = s;
    }
  }

  /**
   * Final first-pass score of each touched slot (written over its BM25 sum), then the top `pool`
   * by (score, recency, id) through a bounded heap of slot numbers: no per-document allocation.
   */
  private select(nTouched: number, nTerms: number, opts: RankOptions): Candidate[] {
    const { score, mask, touched } = this;
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
    // a ranks below b?
    const below = (a: number, b: number): boolean => {
      const sa = score[a]!;
      const sb = score[b]!;
      if (sa !== sb) return sa < sb;
      const ra = recency[a]!;
      const rb = recency[b]!;
      if (ra !== rb) return ra < rb;
      return idOf(a) > idOf(b);
    };
    for (let i = 0; i < nTouched; i++) {
      const slot = touched[i]!;
      const coverage = popcount(mask[slot]!) / nTerms;
      const base = score[slot]! * (floor + (1 - floor) * coverage);
      // The recency boost is at most 1 + RECENCY_WEIGHT: a document that cannot beat the worst
      // kept one even with it is dropped before paying for Math.pow.
      if (size === k && base * maxBoost < score[heap[0]!]!) continue;
      const age = Math.max(0, now - recency[slot]!);
      score[slot] = base * (1 + rw * Math.pow(0.5, age / halfLifeMs));
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
          let w = j;
          if (l < size && below(heap[l]!, heap[w]!)) w = l;
          if (r < size && below(heap[r]!, heap[w]!)) w = r;
          if (w === j) break;
          const t = heap[j]!;
          heap[j] = heap[w]!;
          heap[w] = t;
          j = w;
        }
      }
    }
    const out: Candidate[] = [];
    for (let i = 0; i < size; i++) out.push({ slot: heap[i]!, score: score[heap[i]!]!, mask: mask[heap[i]!]! });
    return out.sort((a, b) => compareCandidates(a, b, recency, idOf));
  }
}

// The loops below copy the tuning constants into locals first: module-level bindings are
// context loads with hole checks in V8, which measurably doubled the cost of these loops.

/** BM25F pseudo-frequency of a packed (body, scope) tf pair, before saturation. */
function bm25fTf(packed: number, bodyLen: number, scopeLen: number, cb: number, cs: number): number {
  const tb = packed & TF_MASK;
  const ts = packed >>> SCOPE_SHIFT;
  let w = tb === 0 ? 0 : (W_BODY * tb) / (1 - B_BODY + cb * bodyLen);
  if (ts !== 0) w += (W_SCOPE * ts) / (1 - B_SCOPE + cs * scopeLen);
  return w;
}

/** The hottest loop, unfiltered: one term's list added into the totals. */
export function accumulate(
  list: Int32Array, len: number, scale: number, bit: number,
  alive: Uint8Array, bodyLen: Int32Array, scopeLen: Int32Array, cb: number, cs: number,
  score: Float64Array, mask: Int32Array, touched: Int32Array, nTouched: number,
): number {
  const wb = W_BODY;
  const ws = W_SCOPE;
  const ab = 1 - B_BODY;
  const as = 1 - B_SCOPE;
  const k1 = K1;
  for (let i = 0; i < len; i += 2) {
    const slot = list[i]!;
    if (alive[slot] === 0) continue;
    const packed = list[i + 1]!;
    const tb = packed & 0xffff;
    const ts = packed >>> 16;
    let w = tb === 0 ? 0 : (wb * tb) / (ab + cb * bodyLen[slot]!);
    if (ts !== 0) w += (ws * ts) / (as + cs * scopeLen[slot]!);
    const m = mask[slot]!;
    if (m === 0) touched[nTouched++] = slot;
    score[slot] = score[slot]! + (scale * w) / (k1 + w);
    mask[slot] = m | bit;
  }
  return nTouched;
}

/** Like accumulate, for one variant of a term with several: keeps the best variant per slot. */
function accumulateBest(
  list: Int32Array, len: number, scale: number,
  alive: Uint8Array, bodyLen: Int32Array, scopeLen: Int32Array, cb: number, cs: number,
  best: Float64Array, termTouched: Int32Array, nTerm: number,
): number {
  const wb = W_BODY;
  const ws = W_SCOPE;
  const ab = 1 - B_BODY;
  const as = 1 - B_SCOPE;
  const k1 = K1;
  for (let i = 0; i < len; i += 2) {
    const slot = list[i]!;
    if (alive[slot] === 0) continue;
    const packed = list[i + 1]!;
    const tb = packed & 0xffff;
    const ts = packed >>> 16;
    let w = tb === 0 ? 0 : (wb * tb) / (ab + cb * bodyLen[slot]!);
    if (ts !== 0) w += (ws * ts) / (as + cs * scopeLen[slot]!);
    const s = (scale * w) / (k1 + w);
    const b = best[slot]!;
    if (b === 0) termTouched[nTerm++] = slot;
    if (s > b) best[slot] = s;
  }
  return nTerm;
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
