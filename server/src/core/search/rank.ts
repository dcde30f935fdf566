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
    const alive = p.alive;
    const bodyLen = p.bodyLen;
    const scopeLen = p.scopeLen;
    const avgBody = Math.max(p.sumBody / p.live, 1);
    const avgScope = Math.max(p.sumScope / p.live, 1);
    const n = p.live;
    const allow = opts.allow;
    let nTouched = 0;
    let nChecked = 0;

    for (let q = 0; q < query.length; q++) {
      let nTerm = 0;
      for (const v of query[q]!.variants) {
        // Walk the rarest list of the variant; other words of a multi-word synonym are looked up.
        let lead = v.terms[0]!;
        for (const t of v.terms) if (p.df[t]! < p.df[lead]!) lead = t;
        const list = p.lists[lead]!;
        const len = p.listLen[lead]!;
        const others = v.terms.filter((t) => t !== lead);
        const idfs = v.terms.map((t) => Math.log(1 + (n - p.df[t]! + 0.5) / (p.df[t]! + 0.5)));
        for (let i = 0; i < len; i += 2) {
          const slot = list[i]!;
          if (alive[slot] === 0) continue;
          if (allow !== undefined) {
            let st = allowState[slot]!;
            if (st === 0) {
              st = allow(slot) ? 1 : 2;
              allowState[slot] = st;
              checked[nChecked++] = slot;
            }
            if (st === 2) continue;
          }
          const bl = bodyLen[slot]!;
          const sl = scopeLen[slot]!;
          let s = 0;
          let ok = true;
          for (let k = 0; k < v.terms.length; k++) {
            const t = v.terms[k]!;
            const packed = t === lead ? list[i + 1]! : p.tfOf(slot, t);
            if (packed === 0) {
              ok = false;
              break;
            }
            const tfw =
              (W_BODY * (packed & TF_MASK)) / (1 - B_BODY + (B_BODY * bl) / avgBody) +
              (W_SCOPE * (packed >>> SCOPE_SHIFT)) / (1 - B_SCOPE + (B_SCOPE * sl) / avgScope);
            s += (idfs[k]! * tfw * (K1 + 1)) / (K1 + tfw);
          }
          if (!ok || (others.length > 0 && s === 0)) continue;
          s *= v.weight;
          if (best[slot] === 0) termTouched[nTerm++] = slot;
          if (s > best[slot]!) best[slot] = s;
        }
      }
      const bit = 1 << q;
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
    for (let i = 0; i < nChecked; i++) allowState[checked[i]!] = 0;
    return out;
  }

  /** Final first-pass score of each touched slot, then the top `pool` by (score, recency, id). */
  private select(nTouched: number, nTerms: number, opts: RankOptions): Candidate[] {
    const { score, mask, touched } = this;
    const recency = this.p.recency;
    const halfLifeMs = opts.halfLifeDays * DAY_MS;
    const all: Candidate[] = new Array(nTouched);
    for (let i = 0; i < nTouched; i++) {
      const slot = touched[i]!;
      const m = mask[slot]!;
      const coverage = popcount(m) / nTerms;
      const age = Math.max(0, opts.now - recency[slot]!);
      const boost = 1 + RECENCY_WEIGHT * Math.pow(0.5, age / halfLifeMs);
      all[i] = { slot, score: score[slot]! * (COVER_FLOOR + (1 - COVER_FLOOR) * coverage) * boost, mask: m };
    }
    const cmp = (a: Candidate, b: Candidate): number => compareCandidates(a, b, recency, opts.idOf);
    if (all.length <= opts.pool * 4) return all.sort(cmp).slice(0, opts.pool);
    return topK(all, opts.pool, cmp);
  }
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

/** Partial selection: a bounded heap whose root is the worst kept candidate. */
function topK(all: Candidate[], k: number, cmp: (a: Candidate, b: Candidate) => number): Candidate[] {
  const heap: Candidate[] = [];
  const worse = (i: number, j: number): boolean => cmp(heap[i]!, heap[j]!) > 0;
  const swap = (i: number, j: number): void => {
    const t = heap[i]!;
    heap[i] = heap[j]!;
    heap[j] = t;
  };
  for (const c of all) {
    if (heap.length < k) {
      heap.push(c);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!worse(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (cmp(c, heap[0]!) < 0) {
      heap[0] = c;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let w = i;
        if (l < heap.length && worse(l, w)) w = l;
        if (r < heap.length && worse(r, w)) w = r;
        if (w === i) break;
        swap(i, w);
        i = w;
      }
    }
  }
  return heap.sort(cmp);
}
