// One ranking from two legs: the lexical (BM25F) hits and the semantic neighbours of the query —
// or, when the caller passed alternates (rephrasings or likely words), of the query and its
// alternates joined into one text. Alternates are more words for the same question: joined, they
// are one query whose lexical leg is plain BM25F over all their words, so the fusion never ranks
// from fewer words than that baseline sees (the earlier design searched each alternate apart and
// weighed the legs; it lost to the joined query on held-out questions).
//
// The two legs are fused by reciprocal rank (RRF): score = sum over legs of weight / (RRF_K + rank).
// Ranks, not raw scores, are fused, so a leg's score scale never matters. A semantic hit weighs 1;
// a lexical hit weighs LEX_COV + (1 - LEX_COV) x the share of the query's words it matched, so a
// hit matching one incidental word of a reworded question does not outrank the meaning's nearest
// neighbours. Those two numbers are the only tuned ones (bench/quality/sweep.mts, tuning sets).
//
// Relevance stays a promise about the document, not about the fusion: a hit is `high` when the
// main query covers it (lexical coverage >= 0.75) or when its meaning is close to the main query's
// (cosine >= the embedder's calibrated `high`). Alternates rank documents but never make one
// `high` (at most `medium`): they are the caller's guesses, and must not turn a miss into a
// confident answer.
import type { IndexDoc } from './analyze.ts';
import { relevanceOf, type Relevance, type SearchHit } from './rerank.ts';
import { makeSnippet } from './snippet.ts';
import { queryWords } from './query.ts';

/** RRF constant: the customary 60 (tuning sets: 20 and 60 equal with alternates, 60 better without). */
export const RRF_K = 60;
/** A lexical hit counts LEX_COV + (1 - LEX_COV) x its coverage of the query (1 = plain RRF). */
export const LEX_COV = 0.25;

/** The text searched when the caller passed alternates: the query and every alternate, one per line. */
export function joinedQuery(query: string, alternates: readonly string[]): string {
  return [query, ...alternates].join('\n');
}

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
  /**
   * Without alternates, a lexical hit covering less than this share of the query's words does not
   * rank beside this embedder's neighbours (0 or absent: every lexical hit ranks). A strong model's
   * nearest neighbours beat a hit on one incidental word of a reworded question.
   */
  lexFloor?: number;
}
export const DEFAULT_CALIBRATION: SemanticCalibration = { high: 0.85, medium: 0.6, floor: 0.3 };

export interface SemanticHit<D> {
  doc: D;
  /** cosine similarity to the query */
  sim: number;
}

export interface FuseInput<D extends IndexDoc> {
  limit: number;
  /** the query's own legs: relevance, match_terms and snippets; the ranking when there are no alternates */
  main: { lexical: SearchHit<D>[]; semantic: SemanticHit<D>[] };
  /** the alternates as passed (relevance: `medium` when a hit covers one of them) */
  alternates: readonly string[];
  /** with alternates: the legs of joinedQuery(query, alternates), which rank the answer */
  joined?: { lexical: SearchHit<D>[]; semantic: SemanticHit<D>[] };
  calibration: SemanticCalibration;
  /** overrides of RRF_K and LEX_COV (the eval's parameter sweep) */
  params?: Partial<FusionParams>;
}

export interface FusionParams {
  k: number;
  /** a lexical hit counts (lexCov + (1 - lexCov) x its coverage): 1 = plain RRF */
  lexCov: number;
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
  /** best relevance from the alternates (capped at `medium` when read) */
  alt: Relevance;
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

/**
 * The best coverage of any one alternate by a hit of the joined query: the share of that
 * alternate's words among the hit's matched words (through the same variants the search used).
 */
function altCoverage(alternates: readonly string[], matchTerms: readonly string[]): number {
  if (alternates.length === 0 || matchTerms.length === 0) return 0;
  const matched = new Set<string>();
  for (const s of matchTerms) matched.add(queryWords(s)[0]?.term ?? s);
  let best = 0;
  for (const a of alternates) {
    const words = queryWords(a);
    if (words.length === 0) continue;
    let n = 0;
    for (const w of words) if (matched.has(w.term)) n++;
    best = Math.max(best, n / words.length);
  }
  return best;
}

export function fuse<D extends IndexDoc>(input: FuseInput<D>): FusedHit<D>[] {
  const { calibration: cal } = input;
  const { k: RK, lexCov: LC } = { k: RRF_K, lexCov: LEX_COV, ...input.params };
  const withAlt = input.alternates.length > 0 && input.joined !== undefined;
  const ranking = withAlt ? input.joined! : input.main;
  const acc = new Map<string, Acc<D>>();
  const at = (doc: D): Acc<D> => {
    let a = acc.get(doc.id);
    if (!a) acc.set(doc.id, (a = { doc, score: 0, main: 'low', alt: 'low' }));
    return a;
  };
  // The ranking: RRF over the two legs, a lexical hit weighted by its coverage.
  const semantic = ranking.semantic.filter((h) => h.sim >= cal.floor);
  const lexRank = tiedRanks(ranking.lexical, (h) => h.score);
  const semRank = tiedRanks(semantic, (h) => h.sim);
  // One leg alone (no vectors): its own order, untouched.
  const oneLeg = semantic.length === 0;
  const lexFloor = oneLeg || withAlt ? 0 : (cal.lexFloor ?? 0);
  ranking.lexical.forEach((h, i) => {
    if (h.coverage < lexFloor) return;
    at(h.doc).score += oneLeg ? 1 / (RK + lexRank[i]! + 1) : (LC + (1 - LC) * h.coverage) / (RK + lexRank[i]! + 1);
  });
  semantic.forEach((h, i) => {
    at(h.doc).score += 1 / (RK + semRank[i]! + 1);
  });
  // Relevance, match_terms and snippets from the main query; the alternates say `medium` at most.
  const inRanking = (id: string) => acc.has(id);
  for (const h of input.main.lexical) {
    if (!inRanking(h.doc.id)) continue;
    const a = at(h.doc);
    a.main = maxRel(a.main, h.relevance);
    a.lex = h;
  }
  for (const h of input.main.semantic) {
    if (h.sim < cal.floor || !inRanking(h.doc.id)) continue;
    const a = at(h.doc);
    a.sim = h.sim;
    a.main = maxRel(a.main, semanticRelevance(h.sim, cal));
  }
  if (withAlt) {
    for (const h of input.joined!.lexical) {
      const a = at(h.doc);
      a.alt = maxRel(a.alt, relevanceOf(altCoverage(input.alternates, h.matchTerms)));
      a.altLex = h;
    }
    for (const h of semantic) {
      const a = at(h.doc);
      a.alt = maxRel(a.alt, semanticRelevance(h.sim, cal));
    }
  }
  const ranked = [...acc.values()].sort((x, y) => y.score - x.score || (x.doc.id < y.doc.id ? -1 : x.doc.id > y.doc.id ? 1 : 0));
  return ranked.slice(0, input.limit).map((a) => {
    // Alternates are the caller's guesses: they rank, and say `medium` at most.
    const alt: Relevance = a.alt === 'low' ? 'low' : 'medium';
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
