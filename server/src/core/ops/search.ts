// memory_search over the live index (core/search). openIndex/closeIndex tie the index to the
// Cairn's lifetime; candidatesFor serves the write gate's near-duplicate check.
import type { Cairn } from '../cairn.ts';
import { ValidationError } from '../errors.ts';
import { originRepoKey } from '../origin.ts';
import { scopeFilterMatcher } from '../scopes.ts';
import { LiveIndex } from '../search/live.ts';
import type { StoredMemory } from '../types.ts';
import { checkLimit, hitFields, isDisabled, type HitFields } from './common.ts';
import { checkScopeFilters } from './reading.ts';

export interface SearchInput {
  query: string;
  scopes?: string[];
  max_results?: number;
  expand_top?: boolean;
  auto_scope?: boolean;
}
export type Relevance = 'high' | 'medium' | 'low';
export interface SearchHit extends HitFields {
  snippet: string;
  score: number;
  relevance: Relevance;
  match_terms: string[];
  body?: string;
}
export interface SearchOutput {
  hits: SearchHit[];
}

export const MAX_QUERY_CHARS = 2000;
const EXT_KEY = 'search';

function live(c: Cairn): LiveIndex {
  const l = c.ext.get(EXT_KEY);
  if (!(l instanceof LiveIndex)) throw new Error('the search index is not open (Cairn.open opens it)');
  return l;
}

export async function openIndex(c: Cairn): Promise<void> {
  const l = new LiveIndex(c.store, { synonyms: c.config.search.synonyms, watch: c.watch, warn: c.warn });
  c.ext.set(EXT_KEY, l);
  await l.open();
}

export async function closeIndex(c: Cairn): Promise<void> {
  const l = c.ext.get(EXT_KEY);
  if (l instanceof LiveIndex) await l.close();
  c.ext.delete(EXT_KEY);
}

/** Ids of active memories sharing the rarest terms of `text`, best first: dedup candidates. */
export function candidatesFor(c: Cairn, text: string, limit: number): string[] {
  return live(c).index.candidatesFor(text, limit);
}

// The repo key of a memory's origin, computed once per record object (URL normalization is
// not free and the filter may ask about tens of thousands of memories for one common word).
const repoKeys = new WeakMap<StoredMemory, string | null>();
function repoKeyOf(m: StoredMemory): string | null {
  let k = repoKeys.get(m);
  if (k === undefined) repoKeys.set(m, (k = originRepoKey(m.origin)));
  return k;
}

/**
 * The visibility rules of tools.md that depend on the caller: disabled scopes, scope filters,
 * auto_scope. (Expired memories are left out by the index itself, against `now`.) The key names
 * everything the answer depends on besides the memory, so the index may remember answers per
 * memory across searches with the same key.
 */
function searchFilter(c: Cairn, scopes: string[], autoScope: boolean): { filter?: (m: StoredMemory) => boolean; filterKey?: string } {
  const disabled = [...c.disabledScopes].sort();
  const repo = c.caller.repoKey;
  if (scopes.length === 0 && disabled.length === 0 && !autoScope) return {};
  const match = scopes.length > 0 ? scopeFilterMatcher(scopes) : null;
  const filter = (m: StoredMemory): boolean => {
    if (disabled.length > 0 && isDisabled(c, m)) return false;
    if (match !== null && !match(m.scopes)) return false;
    if (autoScope) {
      const k = repoKeyOf(m);
      if (k !== null && k !== repo) return false;
    }
    return true;
  };
  return { filter, filterKey: JSON.stringify([scopes, disabled, autoScope ? repo : false]) };
}

export async function search(c: Cairn, input: SearchInput): Promise<SearchOutput> {
  if (typeof input.query !== 'string' || input.query.trim() === '') {
    throw new ValidationError('query must be a non-empty string: the words or identifiers to look for');
  }
  if (input.query.length > MAX_QUERY_CHARS) {
    throw new ValidationError(`query is ${input.query.length} characters long: at most ${MAX_QUERY_CHARS} are accepted; search with the key words`);
  }
  const max = checkLimit(input.max_results, 'max_results', 50, c.config.behavior.default_max_results);
  const filters = checkScopeFilters(input.scopes);
  if (input.expand_top !== undefined && typeof input.expand_top !== 'boolean') throw new ValidationError('expand_top must be true or false');
  if (input.auto_scope !== undefined && typeof input.auto_scope !== 'boolean') throw new ValidationError('auto_scope must be true or false');
  const autoScope = input.auto_scope ?? true;
  await c.store.ensureFresh();

  const found = live(c).index.search(input.query, {
    limit: max,
    now: c.now().getTime(),
    halfLifeDays: c.config.behavior.recency_half_life_days,
    ...searchFilter(c, filters, autoScope),
  });
  const expand = input.expand_top === true && found[0]?.relevance === 'high';
  // One signals pass for every hit (git runs at most once per search); detail only for expand_top.
  const fields = await hitFields(c, found.map((h) => h.doc), expand);
  const hits: SearchHit[] = found.map((h, i) => {
    const { path_drift, commit_drift, ...common } = fields[i] as HitFields & { path_drift?: unknown; commit_drift?: unknown };
    const hit: SearchHit = { ...common, snippet: h.snippet, score: h.score, relevance: h.relevance, match_terms: h.matchTerms };
    if (expand && i === 0) Object.assign(hit, { body: h.doc.body, path_drift, commit_drift });
    return hit;
  });
  c.log('search', {
    query: input.query,
    scopes: filters,
    auto_scope: autoScope,
    max_results: max,
    hits: hits.map((h) => ({ id: h.id, relevance: h.relevance })),
  });
  return { hits };
}
