// One ranking from several: the main query's lexical (BM25F) hits, its semantic neighbours, and
// the same two legs for each alternate the caller passed (rephrasings or likely words), fused by
// reciprocal rank (RRF): score = sum over legs of weight / (RRF_K + rank). Ranks, not raw scores,
// are fused, so a leg's score scale never matters; a document found by several legs rises.
// A lexical hit's weight also scales with the share of the query's terms it covers (LEX_COV):
// a hit matching one incidental word of a reworded question no longer outranks the meaning's
// nearest neighbours (chosen on the old + dev set: bench/quality/sweep.mts, bench/README.md).
//
// Relevance stays a promise about the document, not about the fusion: a hit is `high` when the
// main query covers it (lexical coverage >= 0.75, as before) or when its meaning is close to the
// main query's (cosine >= the embedder's calibrated `high`). Alternates rank documents but never
// make one `high` (at most `medium`): they are the caller's guesses, and must not turn a miss
// into a confident answer.
import type { IndexDoc } from './analyze.ts';
import { relevanceOf, type Relevance, type SearchHit } from './rerank.ts';
import { makeSnippet } from './snippet.ts';

/** RRF constant (measured on the old + dev set: 10 and 20 within 0.02 of MRR; 20 with LEX_COV). */
export const RRF_K = 20;
/** Leg weights: the main query counts more than any one alternate. */
export const W_LEX = 1;
export const W_SEM = 1;
export const W_ALT = 0.6;
/** Coverage-adaptive weights (FusionParams), measured on the old + dev set (bench/README.md). */
export const LEX_COV = 0.25;
export const SEM_BOOST = 0;
/** Confidence of the semantic leg: a hit counts (1 + SEM_Z x its cosine's z-score within the leg's pool, when positive). */
export const SEM_Z = 0;

/**
 * Cosine thresholds for a semantic hit's own relevance, per embedder (a cosine means different
 * things for different models). Measured on the dev set: see bench/README.md.
 */
export interface SemanticCalibration {
  /** at or above: `high` */
  high: number;
  /** at or above: `medium` */
  medium: number;
  /** below: not a hit at all (a nearest neighbour is not necessarily related) */
  floor: number;
}
export const DEFAULT_CALIBRATION: SemanticCalibration = { high: 0.85, medium: 0.6, floor: 0.3 };

export interface SemanticHit<D> {
  doc: D;
  /** cosine similarity to the query */
  sim: number;
}

export interface FuseInput<D extends IndexDoc> {
  limit: number;
  main: { lexical: SearchHit<D>[]; semantic: SemanticHit<D>[] };
  alternates: Array<{ lexical: SearchHit<D>[]; semantic: SemanticHit<D>[] }>;
  calibration: SemanticCalibration;
  /** overrides of RRF_K and the leg weights (the eval's parameter sweep) */
  params?: Partial<FusionParams>;
}

export interface FusionParams {
  k: number;
  wLex: number;
  wSem: number;
  wAlt: number;
  /** a lexical hit counts (lexCov + (1 - lexCov) x its coverage): 1 = plain RRF */
  lexCov: number;
  /** a query's semantic leg counts (1 + semBoost x (1 - coverage of its top lexical hit)) */
  semBoost: number;
  /** a semantic hit counts (1 + semZ x max(0, z)), z = (cosine - the pool's mean) / the pool's deviation: a neighbour that stands out counts more */
  semZ: number;
}

export interface FusedHit<D extends IndexDoc> {
  doc: D;
  score: number;
  relevance: Relevance;
  matchTerms: string[];
  snippet: string;
  /** fusion only: the main query's cosine with this memory, when its semantic leg found it */
  semantic?: number;
  /** fusion only: the score is a fused rank score (no recency boost in it) */
  fused?: true;
}

const RANK: Record<Relevance, number> = { low: 0, medium: 1, high: 2 };
const maxRel = (a: Relevance, b: Relevance): Relevance => (RANK[a] >= RANK[b] ? a : b);

export function semanticRelevance(sim: number, c: SemanticCalibration): Relevance {
  return sim >= c.high ? 'high' : sim >= c.medium ? 'medium' : 'low';
}

interface Acc<D extends IndexDoc> {
  doc: D;
  score: number;
  /** best relevance from the main query (lexical or semantic) */
  main: Relevance;
  /** how many alternates rate it high / at least medium */
  altHigh: number;
  altMedium: number;
  lex?: SearchHit<D>;
  altLex?: SearchHit<D>;
  sim?: number;
}

/** Rank of each item with ties sharing the better rank (equal scores must fuse equally: two identical notes stay equal). */
function tiedRanks<T>(xs: readonly T[], key: (x: T) => number): number[] {
  const out: number[] = [];
  xs.forEach((x, i) => out.push(i > 0 && key(xs[i - 1]!) === key(x) ? out[i - 1]! : i));
  return out;
}

export function fuse<D extends IndexDoc>(input: FuseInput<D>): FusedHit<D>[] {
  const { calibration: cal } = input;
  const { k: RK, wLex: WL, wSem: WS, wAlt: WA, lexCov: LC, semBoost: SB, semZ: SZ } = { k: RRF_K, wLex: W_LEX, wSem: W_SEM, wAlt: W_ALT, lexCov: LEX_COV, semBoost: SEM_BOOST, semZ: SEM_Z, ...input.params };
  // How much a lexical hit counts: its share of the query's terms (noise matching one incidental
  // word of a reworded question counts little); how much the semantic leg counts: more when the
  // best lexical hit covers little of the query (the words are not where the meaning is).
  const lexW = (h: SearchHit<D>) => LC + (1 - LC) * h.coverage;
  const semW = (lex: SearchHit<D>[]) => 1 + SB * (1 - (lex.length > 0 ? Math.max(...lex.map((h) => h.coverage)) : 0));
  const acc = new Map<string, Acc<D>>();
  const at = (doc: D): Acc<D> => {
    let a = acc.get(doc.id);
    if (!a) acc.set(doc.id, (a = { doc, score: 0, main: 'low', altHigh: 0, altMedium: 0 }));
    return a;
  };
  // How much each semantic hit stands out from the rest of its leg's pool (0 when SEM_Z is 0).
  const semZ = (hits: SemanticHit<D>[]): number[] => {
    if (SZ === 0 || hits.length < 3) return hits.map(() => 1);
    let m = 0;
    for (const h of hits) m += h.sim;
    m /= hits.length;
    let v = 0;
    for (const h of hits) v += (h.sim - m) ** 2;
    const sd = Math.sqrt(v / hits.length) || 1;
    return hits.map((h) => 1 + SZ * Math.max(0, (h.sim - m) / sd));
  };
  const mainSem = semW(input.main.lexical);
  const mainZ = semZ(input.main.semantic);
  const mainLexRank = tiedRanks(input.main.lexical, (h) => h.score);
  const mainSemRank = tiedRanks(input.main.semantic, (h) => h.sim);
  input.main.lexical.forEach((h, i) => {
    const r = mainLexRank[i]!;
    const a = at(h.doc);
    a.score += (WL * lexW(h)) / (RK + r + 1);
    a.main = maxRel(a.main, h.relevance);
    a.lex = h;
  });
  input.main.semantic.forEach((h, i) => {
    const r = mainSemRank[i]!;
    if (h.sim < cal.floor) return;
    const a = at(h.doc);
    a.score += (WS * mainSem * mainZ[i]!) / (RK + r + 1);
    a.sim = h.sim;
    a.main = maxRel(a.main, semanticRelevance(h.sim, cal));
  });
  for (const alt of input.alternates) {
    const rel = new Map<string, Relevance>();
    const altSem = semW(alt.lexical);
    const lexRank = tiedRanks(alt.lexical, (h) => h.score);
    const semRank = tiedRanks(alt.semantic, (h) => h.sim);
    const altZ = semZ(alt.semantic);
    alt.lexical.forEach((h, i) => {
      const r = lexRank[i]!;
      const a = at(h.doc);
      a.score += (WA * WL * lexW(h)) / (RK + r + 1);
      rel.set(h.doc.id, maxRel(rel.get(h.doc.id) ?? 'low', h.relevance));
      if (!a.altLex || RANK[h.relevance] > RANK[a.altLex.relevance]) a.altLex = h;
    });
    alt.semantic.forEach((h, i) => {
      const r = semRank[i]!;
      if (h.sim < cal.floor) return;
      const a = at(h.doc);
      a.score += (WA * WS * altSem * altZ[i]!) / (RK + r + 1);
      rel.set(h.doc.id, maxRel(rel.get(h.doc.id) ?? 'low', semanticRelevance(h.sim, cal)));
    });
    for (const [id, r] of rel) {
      const a = acc.get(id)!;
      if (r === 'high') a.altHigh++;
      if (r !== 'low') a.altMedium++;
    }
  }
  const ranked = [...acc.values()].sort((x, y) => y.score - x.score || (x.doc.id < y.doc.id ? -1 : x.doc.id > y.doc.id ? 1 : 0));
  return ranked.slice(0, input.limit).map((a) => {
    // Alternates are the caller's guesses: they rank, and say `medium` at most.
    const alt: Relevance = a.altMedium > 0 ? 'medium' : 'low';
    return new FusedResult(a.doc, Math.round(a.score * 10_000) / 10_000, maxRel(a.main, alt), a.lex?.matchTerms ?? [], a.lex ?? a.altLex, a.sim === undefined ? undefined : Math.round(a.sim * 10_000) / 10_000);
  });
}

/**
 * A fused hit; its snippet is made when first read (a caller may drop some of these hits:
 * feedback's extra candidates). A class for the same reason as rerank.ts's LexicalHit: a literal
 * with its own getter is a dictionary-mode object that kept each search's hits alive through the
 * young-generation collections.
 */
class FusedResult<D extends IndexDoc> implements FusedHit<D> {
  readonly fused = true as const;
  private made: string | undefined = undefined;
  constructor(
    readonly doc: D,
    readonly score: number,
    readonly relevance: Relevance,
    readonly matchTerms: string[],
    private readonly shown: SearchHit<D> | undefined,
    readonly semantic: number | undefined,
  ) {}

  get snippet(): string {
    return (this.made ??= this.shown?.snippet ?? makeSnippet(this.doc.body, -1, -1));
  }
}

/** The relevance of a lexical-only hit, for callers that skip fusion (no alternates, no vectors). */
export { relevanceOf };
