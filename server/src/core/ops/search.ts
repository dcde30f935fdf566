// PLACEHOLDER by the lead (issue 2): a linear scan so the tool works end to end. The retrieval
// work (issue 3) owns this file and replaces it with the real index; keep the exported names.
import type { Cairn } from '../cairn.ts';
import { ValidationError } from '../errors.ts';
import { scopeFilterMatcher } from '../scopes.ts';
import { checkLimit, hitFields, inCallerRepo, isVisible, type HitFields } from './common.ts';
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

export async function openIndex(c: Cairn): Promise<void> {
  await c.store.load();
}
export async function closeIndex(c: Cairn): Promise<void> {
  void c;
}
export function candidatesFor(c: Cairn, text: string, limit: number): string[] {
  void c; void text; void limit;
  return [];
}

export async function search(c: Cairn, input: SearchInput): Promise<SearchOutput> {
  await c.store.ensureFresh();
  if (typeof input.query !== 'string' || input.query.trim() === '') throw new ValidationError('query must be a non-empty string');
  const max = checkLimit(input.max_results, 'max_results', 50, c.config.behavior.default_max_results);
  const match = scopeFilterMatcher(checkScopeFilters(input.scopes));
  const terms = [...new Set(input.query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 2))];
  const now = c.now();
  const scored = [];
  for (const m of c.store.active()) {
    if (!isVisible(c, m, now) || !match(m.scopes) || ((input.auto_scope ?? true) && !inCallerRepo(c, m.origin))) continue;
    const body = m.body.toLowerCase();
    const hit = terms.filter((t) => body.includes(t));
    if (hit.length) scored.push({ m, hit });
  }
  scored.sort((a, b) => b.hit.length - a.hit.length || (a.m.updated < b.m.updated ? 1 : -1));
  const top = scored.slice(0, max);
  const fields = await hitFields(c, top.map((x) => x.m));
  const hits: SearchHit[] = top.map((x, i) => {
    const cov = x.hit.length / terms.length;
    return { ...fields[i]!, snippet: x.m.body.slice(0, 200), score: x.hit.length, relevance: cov >= 0.75 ? 'high' : cov >= 0.4 ? 'medium' : 'low', match_terms: x.hit };
  });
  c.log('search', { query: input.query, hits: hits.map((h) => ({ id: h.id, relevance: h.relevance })) });
  return { hits };
}
