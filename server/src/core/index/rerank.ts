// Second pass over the top of the first pass: the adjacency/identifier bonus, the final order,
// relevance labels, match_terms and snippets. Only a handful of documents get here, so it may
// re-tokenize their bodies to find positions.
import type { IndexDoc } from './analyze.ts';
import type { QueryTerm } from './query.ts';
import { popcount } from './rank.ts';
import { makeSnippet } from './snippet.ts';
import { scanTokens } from './tokenize.ts';

/** score x (1 + ADJACENCY_WEIGHT x adjacent pairs / possible pairs) */
export const ADJACENCY_WEIGHT = 0.3;

export type Relevance = 'high' | 'medium' | 'low';

/** tools.md: coverage >= 0.75 high, >= 0.40 medium, else low. */
export function relevanceOf(coverage: number): Relevance {
  return coverage >= 0.75 ? 'high' : coverage >= 0.4 ? 'medium' : 'low';
}

export interface SearchHit<D extends IndexDoc> {
  doc: D;
  score: number;
  relevance: Relevance;
  /** matched query terms / query terms */
  coverage: number;
  /** query words that matched, in query order, as typed (lowercase) */
  matchTerms: string[];
  snippet: string;
}

interface Scan {
  adjacentPairs: number;
  matchStart: number;
  matchEnd: number;
}

/**
 * One pass over the body's tokens: which query term each position matches, the first matching
 * token (for the snippet), and how many consecutive query-term pairs appear side by side
 * (`request id`, `requestId` and `request-id` all put `request` and `id` at adjacent positions).
 */
export function scanBody(body: string, query: QueryTerm[], adjacency: boolean): Scan {
  let matchStart = -1;
  let matchEnd = -1;
  const nq = query.length;
  const maskAt: number[] = [];
  scanTokens(body, (term, _surface, pos, start, end, whole, stop) => {
    let m = 0;
    if (!stop) for (let q = 0; q < nq; q++) if (query[q]!.alternatives.has(term)) m |= 1 << q;
    if (m !== 0 && matchStart < 0) {
      matchStart = start;
      matchEnd = end;
      if (!adjacency) return true; // only the snippet's anchor was wanted
    }
    if (!whole) maskAt[pos] = m;
    return false;
  });
  let adjacentPairs = 0;
  for (let q = 0; adjacency && q + 1 < nq; q++) {
    const a = 1 << q;
    const b = 1 << (q + 1);
    for (let i = 0; i + 1 < maskAt.length; i++) {
      if ((maskAt[i]! & a) !== 0 && (maskAt[i + 1]! & b) !== 0) {
        adjacentPairs++;
        break;
      }
    }
  }
  return { adjacentPairs, matchStart, matchEnd };
}

export interface Ranked<D extends IndexDoc> {
  doc: D;
  score: number;
  mask: number;
  recency: number;
}

export function rerank<D extends IndexDoc>(cands: Ranked<D>[], query: QueryTerm[], limit: number): SearchHit<D>[] {
  // Only a candidate that could reach the top `limit` with the largest possible bonus needs its
  // body scanned now (candidates arrive sorted by first-pass score); with one query term there is
  // no bonus at all.
  const maxBonus = query.length > 1 ? 1 + ADJACENCY_WEIGHT : 1;
  const cutoff = cands.length > limit ? cands[limit - 1]!.score : -Infinity;
  const pool = cands.filter((c, i) => i < limit || c.score * maxBonus >= cutoff);
  // A candidate matching fewer than two query terms can have no adjacent pair: no scan yet.
  const scored = pool.map((c) => {
    const pairs = query.length - 1;
    const scan = pairs > 0 && popcount(c.mask) >= 2 ? scanBody(c.doc.body, query, true) : null;
    const bonus = scan ? 1 + (ADJACENCY_WEIGHT * scan.adjacentPairs) / pairs : 1;
    return { c, scan, score: c.score * bonus };
  });
  scored.sort((x, y) => {
    if (x.score !== y.score) return y.score - x.score;
    if (x.c.recency !== y.c.recency) return y.c.recency - x.c.recency;
    return x.c.doc.id < y.c.doc.id ? -1 : x.c.doc.id > y.c.doc.id ? 1 : 0;
  });
  return scored.slice(0, limit).map(({ c, scan, score }) => {
    const coverage = popcount(c.mask) / query.length;
    const matchTerms = query.filter((_, q) => (c.mask & (1 << q)) !== 0).map((t) => t.surface);
    return new LexicalHit(c.doc, Math.round(score * 10_000) / 10_000, relevanceOf(coverage), coverage, matchTerms, scan, query);
  });
}

/**
 * A lexical hit whose snippet is made when first read: a fused search asks for `limit` hits per
 * leg but shows only the few that survive the fusion. A class with the getter on its prototype,
 * not an object literal with its own `get snippet()`: such a literal is a dictionary-mode object
 * with an accessor of its own, and a search's hits then survived the young-generation
 * collections (measured at 50k memories: 42 KB promoted to the old generation per search with
 * the literals, 15 KB with the classes), work for the collector and a heap that grows between
 * full collections.
 */
class LexicalHit<D extends IndexDoc> implements SearchHit<D> {
  private made: string | undefined = undefined;
  constructor(
    readonly doc: D,
    readonly score: number,
    readonly relevance: Relevance,
    readonly coverage: number,
    readonly matchTerms: string[],
    private readonly scan: Scan | null,
    private readonly query: QueryTerm[],
  ) {}

  get snippet(): string {
    if (this.made === undefined) {
      const at = this.scan ?? scanBody(this.doc.body, this.query, false);
      this.made = makeSnippet(this.doc.body, at.matchStart, at.matchEnd);
    }
    return this.made;
  }
}
