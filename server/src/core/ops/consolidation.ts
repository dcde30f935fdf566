// memory_consolidate (issue 14): candidate groups for the host model to act on: near-duplicate
// clusters, contradiction pairs, superseded chains (curation/consolidate.ts). Read-only.
import type { Context } from './context.ts';
import { ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { isVisible } from '../memory.ts';
import { consolidate as consolidateGroups } from '../curation/consolidate.ts';
import { scopeFilterMatcher } from '../scopes.ts';
import { checkLimit } from './common.ts';
import { candidatesFor, checkScopeFilters } from './retrieval.ts';

export interface ConsolidateInput {
  scopes?: string[];
  limit?: number;
  cursor?: string;
}

/** Memories memory_consolidate compares at most (newest first); `scanned` says how many it did. */
export const CONSOLIDATE_SCAN_MAX = 5000;
/** Candidates per memory from the index (rare shared terms). */
const CONSOLIDATE_CANDIDATES = 12;

/**
 * memory_consolidate: near-duplicate clusters, contradiction pairs and superseded chains among
 * the visible memories (curation/consolidate.ts), paged by group. Read-only.
 */
export async function consolidate(c: Context, input: ConsolidateInput, opts: { log: boolean } = { log: true }) {
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, 'limit', LIMITS.consolidateGroups, LIMITS.defaultConsolidateGroups);
  let start = 0;
  if (input.cursor !== undefined && input.cursor !== null) {
    const m = typeof input.cursor === 'string' ? /^c1:(\d{1,6})$/.exec(Buffer.from(input.cursor, 'base64url').toString('utf8')) : null;
    if (!m) throw new ValidationError('cursor must be the next_cursor string from a previous memory_consolidate page');
    start = Number(m[1]);
  }
  await c.store.ensureFresh({ read: true });
  const match = scopeFilterMatcher(filters);
  const now = c.now();
  const visible = [...c.store.active()].filter((m) => !m.note && isVisible(c.disabledScopes, m, now) && match(m.scopes));
  visible.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const mems = visible.slice(0, CONSOLIDATE_SCAN_MAX);
  const inSet = new Set(mems.map((m) => m.id));
  const groups = consolidateGroups(mems, (m) => candidatesFor(c, m.body, CONSOLIDATE_CANDIDATES).filter((id) => inSet.has(id)));
  const page = groups.slice(start, start + limit);
  const next = start + limit < groups.length ? Buffer.from(`c1:${start + limit}`).toString('base64url') : null;
  const out = { total_groups: groups.length, scanned: mems.length, groups: page, next_cursor: next };
  if (opts.log) c.log('consolidate', { scopes: filters, groups: groups.length, returned: page.length });
  return out;
}


/** memory_health's `consolidation` section: counts per kind and where to act on them. */
export async function consolidationSummary(c: Context) {
  const all = await consolidate(c, { limit: LIMITS.consolidateGroups }, { log: false });
  let groups = all.groups;
  let cursor = all.next_cursor;
  while (cursor !== null) {
    const more = await consolidate(c, { limit: LIMITS.consolidateGroups, cursor }, { log: false });
    groups = groups.concat(more.groups);
    cursor = more.next_cursor;
  }
  const count = (k: string) => groups.filter((g) => g.kind === k).length;
  return {
    groups: all.total_groups,
    contradictions: count('contradiction'),
    superseded: count('superseded'),
    duplicates: count('duplicates'),
    next_step: all.total_groups > 0 ? 'run /memory-consolidate (or call memory_consolidate) to review and merge them' : 'nothing to consolidate',
  };
}
