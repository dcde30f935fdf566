// memory_search: one ranking over the live indexes of the personal store and the repository's
// team store (the lexical and the semantic leg, fused), the caller's view applied as a filter,
// feedback from the event log moving hits within their relevance band, the staleness signals
// of the hits, and an answer fitted to its budget.
import type { ReadContext, RoutedContext } from './context.ts';
import { ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import type { LiveIndex } from '../index/live.ts';
import { queryWords } from '../index/query.ts';
import type { SearchOptions } from '../index/searchIndex.ts';
import { DEFAULT_CALIBRATION, fuse, joinedQuery, type FusedHit } from '../index/fusion.ts';
import { calibrationFor } from '../index/calibration.ts';
import type { SemanticLeg } from '../index/semantic.ts';
import { isDisabled } from '../memory.ts';
import { scopeFilterMatcher } from '../scopes.ts';
import type { StoredMemory } from '../types.ts';
import { checkLimit, ownedHitFields, type HitFields } from './common.ts';
import { actorFor, checkScopeFilters, inCallerView } from './retrieval.ts';
import { structureFilter } from './notes.ts';
import { checkMaxChars, fitBudget, leanHit, staleAfter } from './shape.ts';
import { rerankWithinBands } from '../curation/feedback.ts';
import { recencyOf } from '../index/analyze.ts';
import { RECENCY_WEIGHT } from '../index/bm25.ts';

export interface SearchInput {
  query: string;
  /** rephrasings or likely words: searched joined with the query (fusion.ts) */
  alternates?: string[];
  scopes?: string[];
  max_results?: number;
  expand_top?: boolean;
  auto_scope?: boolean;
  /** A lookup for the user to read (/memory-search), not for the model's own work. */
  for_user?: boolean;
  /** Only memories carrying every one of these tags (`#tag` in the body, a note's frontmatter tags). */
  tags?: string[];
  /** Only memories with an observation of this category (`- [category] ...`). */
  category?: string;
  /** Characters of JSON the answer may hold (default and ceiling LIMITS.responseChars). */
  max_chars?: number;
  /** Each hit says why it ranked where it did (`explain`). */
  explain?: boolean;
}
export type Relevance = 'high' | 'medium' | 'low';
export interface SearchHit extends HitFields {
  snippet: string;
  score: number;
  relevance: Relevance;
  match_terms: string[];
  body?: string;
  explain?: HitExplain;
}
/** Why a hit ranked where it did (tools.md "explain"). */
export interface HitExplain {
  /** The lexical (BM25F) part: the score before the recency boost; a fused rank score with alternates. */
  bm25: number;
  /** The semantic leg's part, when a semantic leg ranked this search. */
  semantic?: number;
  /** The recency factor the lexical score was multiplied by (1 to 1 + 0.1). */
  recency: number;
  /** The feedback multiplier (1: none or ranking.feedback off) and the faded counts behind it. */
  feedback: { multiplier: number; applied: number; sunk: number; idle: number };
  /** score × feedback multiplier: the order inside a relevance band. */
  final: number;
}
type LeftOutWhenDefault = 'confidence' | 'category' | 'created' | 'last_verified_at' | 'verification' | 'path_drift_checked' | 'path_drift_missing';
export type LeanSearchHit = Omit<SearchHit, LeftOutWhenDefault> & {
  confidence?: string;
  category?: string;
  created?: string;
  last_verified_at?: string;
  verification?: { status: 'stale' | 'fresh'; age_days: number | null; warning?: string };
  path_drift_checked?: number;
  path_drift_missing?: number;
};
export interface SearchOutput {
  /** Lean hits (shape.ts leanHit): defaults, nulls and zero counts left out. */
  hits: LeanSearchHit[];
  stale_after_days?: number;
  truncated?: { hits_dropped: number; snippets_shortened: number };
}

export const MAX_QUERY_CHARS = LIMITS.queryChars;

export function checkAlternates(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ValidationError('alternates must be an array of rephrasings of the query, like ["preferred editor", "vim emacs vscode"]');
  if (v.length > LIMITS.alternates) throw new ValidationError(`alternates has ${v.length} entries: at most ${LIMITS.alternates} are accepted`);
  const out: string[] = [];
  v.forEach((a, i) => {
    if (typeof a !== 'string' || a.trim() === '') throw new ValidationError(`alternates[${i}] must be a non-empty string`);
    if (a.length > MAX_QUERY_CHARS) throw new ValidationError(`alternates[${i}] is ${a.length} characters long: at most ${MAX_QUERY_CHARS} are accepted`);
    if (!out.includes(a.trim())) out.push(a.trim());
  });
  return out;
}
function checkTags(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((t) => typeof t !== 'string' || t.replace(/^#/, '').trim() === '')) throw new ValidationError('tags must be an array of tags, like ["style", "db"] (with or without the #)');
  if (v.length > LIMITS.scopeFilters) throw new ValidationError(`tags has ${v.length} entries: at most ${LIMITS.scopeFilters} are accepted`);
  return [...new Set(v.map((t: string) => t.replace(/^#/, '').trim().toLowerCase()))];
}
function checkCategory(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.trim() === '') throw new ValidationError('category must be an observation category, like "decision" (from "- [decision] ...")');
  return v.trim().toLowerCase();
}

/**
 * The visibility rules of tools.md that depend on the caller: disabled scopes, scope filters,
 * auto_scope. (Expired memories are left out by the index itself, against `now`.) The key names
 * everything the answer depends on besides the memory, so the index may remember answers per
 * memory across searches with the same key.
 */
function searchFilter(c: ReadContext, scopes: string[], autoScope: boolean, tags: string[] = [], category: string | null = null): { filter?: (m: StoredMemory) => boolean; filterKey?: string } {
  const disabled = [...c.disabledScopes].sort();
  const repo = c.caller.repoKey;
  const structural = structureFilter(tags, category);
  // A team store belongs to the caller's repository: all of it is in the auto_scope view.
  if (c.storeKind === 'team') autoScope = false;
  if (scopes.length === 0 && disabled.length === 0 && !autoScope && structural === null) return {};
  const match = scopes.length > 0 ? scopeFilterMatcher(scopes) : null;
  const filter = (m: StoredMemory): boolean => {
    if (disabled.length > 0 && isDisabled(c.disabledScopes, m)) return false;
    if (match !== null && !match(m.scopes)) return false;
    if (autoScope && !inCallerView(c, m)) return false;
    return structural === null || structural(m);
  };
  // Outside a repo the view also depends on the global scopes.
  return { filter, filterKey: JSON.stringify([scopes, disabled, autoScope ? repo ?? ['outside', c.config.scopes.global] : false, ...(structural ? [tags, category] : [])]) };
}

export async function search(c: RoutedContext, input: SearchInput): Promise<SearchOutput> {
  if (typeof input.query !== 'string' || input.query.trim() === '') {
    throw new ValidationError('query must be a non-empty string: the words or identifiers to look for');
  }
  if (input.query.length > MAX_QUERY_CHARS) {
    throw new ValidationError(`query is ${input.query.length} characters long: at most ${MAX_QUERY_CHARS} are accepted; search with the key words`);
  }
  const max = checkLimit(input.max_results, 'max_results', LIMITS.maxResults, c.config.behavior.default_max_results);
  const filters = checkScopeFilters(input.scopes);
  if (input.expand_top !== undefined && typeof input.expand_top !== 'boolean') throw new ValidationError('expand_top must be true or false');
  if (input.auto_scope !== undefined && typeof input.auto_scope !== 'boolean') throw new ValidationError('auto_scope must be true or false');
  if (input.explain !== undefined && typeof input.explain !== 'boolean') throw new ValidationError('explain must be true or false');
  const autoScope = input.auto_scope ?? true;
  const actor = actorFor(c, input.for_user);
  const alternates = checkAlternates(input.alternates);
  const tags = checkTags(input.tags);
  const category = checkCategory(input.category);
  const budget = checkMaxChars(input.max_chars) ?? LIMITS.responseChars;
  await c.stores.fresh({ read: true });

  const fb = c.events.feedback(c.config.ranking, () => c.now(), { watch: c.watch, activeCount: c.store.activeCount });
  const nowMs = c.now().getTime();
  const limit = fb ? Math.max(max, Math.min(LIMITS.maxResults, max + FEEDBACK_POOL_EXTRA)) : max;
  const sourceOf = (s: ReadContext): RankSource => ({
    l: s.index.lexical(),
    sem: s.index.semantic,
    opts: {
      // With feedback on, a few more candidates so a much-applied memory just below the cut can rise.
      limit,
      now: c.now().getTime(),
      halfLifeDays: c.config.behavior.recency_half_life_days,
      ...c.stores.shadowed(s, searchFilter(s, filters, autoScope, tags, category)),
    },
  });
  // A query made only of stopwords ("what is it", "how do we") asks for nothing: the lexical leg
  // finds no term, and the semantic leg would return whatever sits nearest to filler words.
  const asksSomething = [input.query, ...alternates].some((q) => queryWords(q).length > 0);
  const ranked = asksSomething ? await rankedAcross(c.stores.all().map(sourceOf), input.query, alternates, limit) : [];
  const parts = (h: FusedHit<StoredMemory>) => fb?.parts(h.doc.id, nowMs) ?? { applied: 0, sunk: 0, idle: 0, multiplier: 1 };
  const found = (fb ? rerankWithinBands(ranked, (h) => parts(h).multiplier) : ranked).slice(0, max);
  const expand = input.expand_top === true && found[0]?.relevance === 'high';
  // One signals pass for every hit (git runs at most once per search); detail only for expand_top.
  const fields = await ownedHitFields(c, found.map((h) => h.doc), expand);
  const hits: SearchHit[] = found.map((h, i) => {
    const { path_drift, commit_drift, ...common } = fields[i] as HitFields & { path_drift?: unknown; commit_drift?: unknown };
    const hit: SearchHit = { ...common, snippet: h.snippet, score: h.score, relevance: h.relevance, match_terms: h.matchTerms };
    if (expand && i === 0) Object.assign(hit, { body: h.doc.body, path_drift, commit_drift });
    if (input.explain === true) hit.explain = explainHit(h, parts(h), nowMs, c.config.behavior.recency_half_life_days, alternates.length > 0);
    return hit;
  });
  const lean = hits.map((h) => leanHit(h as unknown as Record<string, unknown>));
  const out = fitBudget({ hits: lean, ...staleAfter(lean, c.config.behavior.verification_stale_days) }, budget, {
    key: 'hits', textKeys: ['body', 'snippet'], dropKey: 'hits_dropped', shortKey: 'snippets_shortened', optionalKeys: ['match_terms'],
  }) as unknown as SearchOutput;
  c.log('search', {
    query: input.query,
    ...(alternates.length > 0 ? { alternates } : {}),
    scopes: filters,
    ...(tags.length > 0 ? { tags } : {}),
    ...(category !== null ? { category } : {}),
    auto_scope: autoScope,
    max_results: max,
    hits: out.hits.map((h) => ({ id: h.id, relevance: h.relevance })),
    actor,
  });
  return out;
}

/** Candidates beyond max_results that feedback may lift into the answer. */
const FEEDBACK_POOL_EXTRA = 5;

function explainHit(h: FusedHit<StoredMemory>, fb: { multiplier: number; applied: number; sunk: number; idle: number }, now: number, halfLifeDays: number, fused: boolean): HitExplain {
  const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
  const recency = fused || h.fused ? 1 : 1 + RECENCY_WEIGHT * Math.pow(0.5, Math.max(0, now - recencyOf(h.doc)) / (halfLifeDays * 86_400_000));
  return { bm25: r4(h.score / recency), ...(h.semantic !== undefined ? { semantic: h.semantic } : {}), recency: r4(recency), feedback: fb, final: r4(h.score * fb.multiplier) };
}

/** One store's part in a search: its index, its semantic leg and its filter. */
export interface RankSource {
  l: LiveIndex;
  sem: SemanticLeg | null;
  opts: SearchOptions<StoredMemory>;
}

/**
 * One ranking over one or more stores (README "Team memory"): each leg's lists from every store
 * are merged first (lexical by BM25F score, semantic by cosine: the same embedder everywhere), and
 * the merged legs are fused once. So a store's best hit is never promoted for being first in its
 * own store: it competes on the same score as every other store's hits.
 */
export async function rankedAcross(sources: readonly RankSource[], query: string, alternates: string[], limit: number): Promise<FusedHit<StoredMemory>[]> {
  const byScore = (a: { score: number; doc: StoredMemory }, b: { score: number; doc: StoredMemory }) => b.score - a.score || (a.doc.id < b.doc.id ? 1 : a.doc.id > b.doc.id ? -1 : 0);
  const ready = await Promise.all(sources.map(async (s) => (s.sem && (await s.sem.readyForSearch()) && s.sem.complete ? s.sem.index : null)));
  // Cosines of two embedders are not comparable: while one store's model vectors are still being
  // made (its built-in table answering), only the stores answering like the first one are merged.
  const firstId = ready.find((v) => v !== null)?.embedderId;
  const vecs = ready.map((v) => (v !== null && v.embedderId === firstId ? v : null));
  const anyVec = vecs.some((v) => v !== null && v.size > 0);
  if (alternates.length === 0 && !anyVec) {
    if (sources.length === 1) return sources[0]!.l.index.search(query, sources[0]!.opts);
    return sources.flatMap((s) => s.l.index.search(query, s.opts)).sort(byScore).slice(0, limit);
  }
  const pool = Math.max(limit, FUSION_POOL);
  // The query's own legs, and with alternates the legs of the query and alternates joined.
  const texts = alternates.length > 0 ? [query, joinedQuery(query, alternates)] : [query];
  // One store (the usual case): its lists as they are; several: merged on the same score.
  const merged = <T,>(lists: T[][], order: (a: T, b: T) => number): T[] => (lists.length === 1 ? lists[0]! : lists.flat().sort(order).slice(0, pool));
  const lexical = texts.map((t) => merged(sources.map((s) => s.l.index.search(t, { ...s.opts, limit: pool })), byScore));
  const perSource = await Promise.all(
    sources.map((s, i) => {
      const v = vecs[i];
      return s.sem && v && v.size > 0 ? s.sem.search(texts, pool, { now: s.opts.now ?? Date.now(), allow: s.opts.filter }) : Promise.resolve(texts.map(() => []));
    }),
  );
  const semantic = texts.map((_, k) => merged(perSource.map((r) => r[k] ?? []), (a, b) => b.sim - a.sim || (a.doc.id < b.doc.id ? 1 : -1)));
  // Every store embeds with the same embedder: the first open leg's calibration holds for all.
  const embedderId = sources.find((s) => s.sem?.index)?.sem?.index?.embedderId;
  return fuse({
    limit,
    main: { lexical: lexical[0]!, semantic: semantic[0]! },
    alternates,
    ...(alternates.length > 0 ? { joined: { lexical: lexical[1]!, semantic: semantic[1]! } } : {}),
    calibration: embedderId !== undefined ? calibrationFor(embedderId) : DEFAULT_CALIBRATION,
  });
}
/** Hits each leg contributes to a fusion. */
const FUSION_POOL = 20;
