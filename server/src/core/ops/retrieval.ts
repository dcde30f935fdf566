// The retrieval tool group: memory_show, memory_list and memory_scope_overview (memory_search is
// search.ts). Reads come from the in-memory view of the store (kept current by the
// store's freshness strategy), never a walk of the files; the index is the store's own
// (core/index/storeIndex.ts), opened and closed by the facade.
import type { ReadContext, RoutedContext } from './context.ts';
import { recentCursor, recentPage } from './recentPage.ts';
import { ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { readOverview } from '../index/overviewCache.ts';
import { inViewKey, isExpired, isVisible, repoKeyOf, summarize } from '../memory.ts';
import { scopeFilterMatcher, validateScopeFilter } from '../scopes.ts';
import type { PhaseProgress, StoredMemory } from '../types.ts';
import {
  MAX_IDS_PER_CALL, checkId, checkLimit, decodeCursor, encodeCursor, ownedHitFields, requireActiveAny,
  tombstonedMessage, warmHitFields, type HitFields,
} from './common.ts';
import { curationPending } from './curation.ts';
import { backlinksOf } from './notes.ts';
import { capPage, checkMaxChars, fitBudget } from './shape.ts';

export interface ShowInput {
  id?: string;
  ids?: string[];
  /** With `id`: the body from this character on (paging through a body larger than the budget). */
  body_offset?: number;
  /** A lookup for the user to read (/memory-search), not for the model's own work. */
  for_user?: boolean;
  /** Characters of JSON the answer may hold (default and ceiling LIMITS.responseChars). */
  max_chars?: number;
}

/** `actor` of a retrieval event: the process's, or 'user' when the call says it is for the user. */
export function actorFor(c: Pick<ReadContext, 'actor'>, forUser: unknown): 'model' | 'user' {
  if (forUser !== undefined && typeof forUser !== 'boolean') throw new ValidationError('for_user must be true or false');
  return forUser === true ? 'user' : c.actor;
}
export interface ListInput {
  scopes?: string[];
  with_bodies?: boolean;
  limit?: number;
  cursor?: string;
  /** `created` (default): newest first by id; `recent`: latest activity first (edit or verification). */
  sort?: 'created' | 'recent';
  /** Only notes (files of the `memory` tool) or only other memories; default both. */
  kind?: 'note' | 'memory';
}

export interface OverviewInput {
  auto_scope?: boolean;
}

export function checkScopeFilters(scopes: unknown): string[] {
  if (scopes === undefined || scopes === null) return [];
  if (!Array.isArray(scopes)) throw new ValidationError('scopes must be an array of scopes or globs, like ["tools", "projects:*"]');
  if (scopes.length > LIMITS.scopeFilters) throw new ValidationError(`scopes has ${scopes.length} entries: at most ${LIMITS.scopeFilters} filters are allowed`);
  return scopes.map((s) => validateScopeFilter(s));
}

export async function fullRecords(c: RoutedContext, mems: StoredMemory[]) {
  const hits = await ownedHitFields(c, mems, true);
  return hits.map((h, i) => {
    const m = mems[i]!;
    return {
      ...h,
      body: m.body,
      aliases: m.aliases ? [...m.aliases] : [],
      source: m.source,
      origin: m.origin,
      expires: m.expires,
      ...(m.merged_from && m.merged_from.length > 0 ? { merged_from: [...m.merged_from] } : {}),
      backlinks: backlinksOf(c.stores.ownerOf(m), m),
    };
  });
}

export async function show(c: RoutedContext, input: ShowInput) {
  const budget = checkMaxChars(input.max_chars) ?? LIMITS.responseChars;
  const fit = (ans: { memories: object[]; missing: { id: string; reason: string }[] }) =>
    fitBudget(ans, budget, { key: 'memories', textKeys: ['body'], dropKey: 'ids_dropped', shortKey: 'bodies_shortened', listDropped: true });
  const actor = actorFor(c, input.for_user);
  await c.stores.fresh({ read: true });
  await c.stores.settle([input.id, ...(Array.isArray(input.ids) ? input.ids.slice(0, MAX_IDS_PER_CALL) : [])]);
  const hasId = input.id !== undefined && input.id !== null;
  const hasIds = input.ids !== undefined && input.ids !== null;
  if (hasId === hasIds) throw new ValidationError('pass exactly one of id (one memory) or ids (up to 10)');
  const offset = input.body_offset;
  if (offset !== undefined && offset !== null) {
    if (!hasId) throw new ValidationError('body_offset pages through one memory\'s body: pass it with id, not ids');
    if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) throw new ValidationError(`body_offset must be a whole number from 0, got ${JSON.stringify(offset)}`);
  }
  if (hasId) {
    const { m } = requireActiveAny(c, input.id);
    c.log('show', { ids: [m.id], actor });
    const from = typeof offset === 'number' ? offset : 0;
    if (from > 0 && from >= m.body.length) throw new ValidationError(`body_offset ${from} is past the end of the body (${m.body.length} characters)`);
    const [rec] = await fullRecords(c, [m]);
    const sliced = from > 0 ? { ...rec!, body: m.body.slice(from) } : rec!;
    const out = fit({ memories: [sliced], missing: [] as { id: string; reason: string }[] });
    const t = (out as { truncated?: { bodies_shortened: string[] } }).truncated;
    if (t && t.bodies_shortened.length > 0) {
      // The shortened body ends in an ellipsis that is not part of the text: the next page starts right after what was shown.
      const shown = ((out.memories[0] as { body: string }).body.length - 1);
      Object.assign(t, { body_chars: m.body.length, next_body_offset: from + shown });
    }
    return out;
  }
  if (!Array.isArray(input.ids) || input.ids.length === 0) throw new ValidationError('ids must be a non-empty array of memory ids');
  if (input.ids.length > MAX_IDS_PER_CALL) throw new ValidationError(`ids has ${input.ids.length} entries: at most ${MAX_IDS_PER_CALL} per call`);
  const ids = [...new Set(input.ids.map((x, i) => checkId(x, `ids[${i}]`)))];
  const found: StoredMemory[] = [];
  const missing: { id: string; reason: string }[] = [];
  for (const id of ids) {
    const f = c.stores.find(id);
    if (f && !f.tombstoned) found.push(f.m);
    else missing.push({ id, reason: f ? tombstonedMessage(f.m) : `no memory with id ${id}` });
  }
  c.log('show', { ids: found.map((m) => m.id), missing: missing.map((m) => m.id), actor });
  return fit({ memories: await fullRecords(c, found), missing });
}

/**
 * The `limit` newest (by id) memories older than `after` that pass `keep`: one pass with a small
 * sorted buffer instead of sorting the whole store for every page.
 */
export function newestPage(source: Iterable<StoredMemory>, keep: (m: StoredMemory) => boolean, after: string | null, limit: number) {
  const buf: StoredMemory[] = [];
  let more = false;
  for (const m of source) {
    if (after !== null && m.id >= after) continue;
    if (!keep(m)) continue;
    if (buf.length === limit && m.id < buf[limit - 1]!.id) {
      more = true;
      continue;
    }
    let i = buf.length;
    while (i > 0 && buf[i - 1]!.id < m.id) i--;
    buf.splice(i, 0, m);
    if (buf.length > limit) {
      buf.pop();
      more = true;
    }
  }
  return { page: buf, next_cursor: more && buf.length ? encodeCursor(buf[buf.length - 1]!.id) : null };
}

/** memory_list's items: each hit (a new object) given its summary, and its body when asked, last. */
function listItems(hits: HitFields[], page: readonly StoredMemory[], withBodies: boolean) {
  return hits.map((h, i) => Object.assign(h, { summary: summarize(page[i]!.body) }, withBodies ? { body: page[i]!.body } : {}));
}

/**
 * Every page of memory_list at once, handed to `emit` as it is made with how many memories are
 * listed so far of all (the CLI's `list --all`): one freshness check and one event for the whole
 * walk, however many pages.
 */
export async function listEach(c: RoutedContext, input: Omit<ListInput, 'cursor'>, emit: (items: Awaited<ReturnType<typeof list>>['items'], done: number, total: number) => void): Promise<number> {
  await c.stores.fresh({ read: true });
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, 'limit', LIMITS.pageSize, LIMITS.defaultPageSize);
  const match = scopeFilterMatcher(filters);
  const now = c.now();
  // One pass sorts the visible memories newest first; pages are slices of it.
  const all = [...c.stores.active()].filter((m) => isVisible(c.disabledScopes, m, now) && match(m.scopes));
  all.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  await warmHitFields(c, all);
  for (let at = 0; at < all.length; at += limit) {
    const page = all.slice(at, at + limit);
    emit(listItems(await ownedHitFields(c, page), page, input.with_bodies === true), at + page.length, all.length);
  }
  c.log('list', { scopes: filters, limit, all: true, returned_count: all.length, actor: c.actor });
  return all.length;
}

export async function list(c: RoutedContext, input: ListInput) {
  await c.stores.fresh({ read: true });
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, 'limit', LIMITS.pageSize, LIMITS.defaultPageSize);
  if (input.sort !== undefined && input.sort !== 'created' && input.sort !== 'recent') throw new ValidationError(`sort must be "created" (newest first) or "recent" (latest activity first), got ${JSON.stringify(input.sort)}`);
  if (input.kind !== undefined && input.kind !== 'note' && input.kind !== 'memory') throw new ValidationError(`kind must be "note" (files of the memory tool) or "memory", got ${JSON.stringify(input.kind)}`);
  const recent = input.sort === 'recent';
  const match = scopeFilterMatcher(filters);
  const now = c.now();
  const keep = (m: StoredMemory) => isVisible(c.disabledScopes, m, now) && match(m.scopes) && (input.kind === undefined || (m.note !== undefined) === (input.kind === 'note'));
  const { page, next_cursor } = recent
    ? recentPage(c.stores.active(), keep, input.cursor ?? undefined, limit)
    : newestPage(c.stores.active(), keep, input.cursor === undefined || input.cursor === null ? null : decodeCursor(input.cursor), limit);
  const items = listItems(await ownedHitFields(c, page), page, input.with_bodies === true);
  const byId = new Map(page.map((m) => [m.id, m]));
  const capped = capPage({ items, next_cursor }, (last) => (recent ? recentCursor(byId.get(last.id)!) : encodeCursor(last.id)));
  c.log('list', { scopes: filters, limit, ...(recent ? { sort: 'recent' } : {}), ...(input.kind ? { kind: input.kind } : {}), returned: capped.items.map((x) => x.id), actor: c.actor });
  return capped;
}

/**
 * `opts.curation: false` (the session-start hook) leaves out the curation counts, which check
 * every memory's cited paths and read the whole event log: they are then all zero. `progress`
 * hears when they begin and end (the CLI's progress line).
 */
export async function scopeOverview(c: RoutedContext, input: OverviewInput, opts: { curation: boolean; progress?: PhaseProgress } = { curation: true }) {
  await c.stores.fresh({ read: true });
  const auto = input.auto_scope ?? true;
  const now = c.now();
  const inView: StoredMemory[] = [];
  const expired: StoredMemory[] = [];
  const scopes: Record<string, number> = {};
  // Visible memories the auto_scope view leaves out, per repo (outside a repo the model
  // must learn that memory is not empty, only elsewhere).
  const elsewhere = new Map<string, { repo: string; count: number }>();
  let elsewhereTotal = 0;
  // Of the memories in view, those written in the current repo (the rest carry no repo, or are
  // in view through a global scope): "for this project" counts only these.
  let repoTotal = 0;
  for (const m of c.store.active()) {
    if (auto && !inCallerView(c, m)) {
      if (!isVisible(c.disabledScopes, m, now)) continue;
      elsewhereTotal++;
      const key = repoKeyOf(m)!;
      const e = elsewhere.get(key);
      if (e) e.count++;
      else elsewhere.set(key, { repo: m.origin.repo ?? m.origin.worktree_root ?? key, count: 1 });
      continue;
    }
    if (isExpired(m, now)) {
      expired.push(m);
      continue;
    }
    if (!isVisible(c.disabledScopes, m, now)) continue;
    inView.push(m);
    if (c.caller.repoKey !== null && repoKeyOf(m) === c.caller.repoKey) repoTotal++;
    for (const s of m.scopes) scopes[s] = (scopes[s] ?? 0) + 1;
  }
  const sorted: Record<string, number> = Object.fromEntries(Object.keys(scopes).sort().map((k) => [k, scopes[k]!]));
  const repos = [...elsewhere.values()].sort((a, b) => b.count - a.count || (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : 0));
  opts.progress?.('checking memories for curation', 0, inView.length);
  const out = {
    current_repo: c.caller.repoUrl ?? c.caller.repoRoot,
    view: !auto ? ('all' as const) : c.caller.repoKey !== null ? ('repo' as const) : ('outside_repo' as const),
    global_scopes: [...c.config.scopes.global],
    total: inView.length,
    repo_total: repoTotal,
    scopes: sorted,
    disabled_scopes: [...c.disabledScopes].sort(),
    elsewhere: { total: elsewhereTotal, repos: repos.slice(0, ELSEWHERE_REPOS_MAX) },
    curation_pending: opts.curation ? await curationPending(c, inView, expired).finally(() => opts.progress?.('checking memories for curation', inView.length, inView.length)) : { stale: 0, never_verified: 0, drifted: 0, expired: expired.length, dead: 0 },
    // The repository's team store (README "Team memory"): all of it is in this repo's view.
    ...(c.stores.team !== null ? { team: teamOverview(c.stores.team, now) } : {}),
  };
  c.log('scope_overview', { auto_scope: auto, total: out.total, elsewhere: elsewhereTotal });
  return out;
}

function teamOverview(t: ReadContext, now: Date) {
  const scopes: Record<string, number> = {};
  let total = 0;
  for (const m of t.store.active()) {
    if (!isVisible(t.disabledScopes, m, now)) continue;
    total++;
    for (const s of m.scopes) scopes[s] = (scopes[s] ?? 0) + 1;
  }
  const sorted: Record<string, number> = Object.fromEntries(Object.keys(scopes).sort().map((k) => [k, scopes[k]!]));
  return { dir: t.dir, total, scopes: sorted };
}

/**
 * The session-start counts from the index cache's summary (index/overviewCache.ts), without
 * opening the store: the numbers scopeOverview gives (auto_scope, curation off) over a peek at that
 * cache in a new process (no disabled scopes). Null when the store has no current summary.
 */
export function peekOverview(dir: string, global: readonly string[], callerRepoKey: string | null, now: Date): { total: number; repoTotal: number; scopes: Record<string, number>; elsewhere: number; outside: boolean } | null {
  const groups = readOverview(dir);
  if (groups === null) return null;
  let total = 0;
  let repoTotal = 0;
  let elsewhere = 0;
  const scopes: Record<string, number> = {};
  for (const g of groups) {
    const expired = isExpired(g, now);
    if (!inViewKey(callerRepoKey, global, g.repo, g.scopes)) {
      if (!expired) elsewhere += g.n;
      continue;
    }
    if (expired) continue;
    total += g.n;
    if (g.repo !== null && g.repo === callerRepoKey) repoTotal += g.n;
    for (const s of g.scopes) scopes[s] = (scopes[s] ?? 0) + g.n;
  }
  return { total, repoTotal, scopes, elsewhere, outside: callerRepoKey === null };
}

/** How many other repos memory_scope_overview names in `elsewhere.repos` (largest first). */
export const ELSEWHERE_REPOS_MAX = 10;

/** The auto_scope rule for this caller (core/memory.ts inViewKey), with the memory's cached repo key. */
export function inCallerView(c: Pick<ReadContext, 'caller' | 'config'>, m: StoredMemory): boolean {
  return inViewKey(c.caller.repoKey, c.config.scopes.global, repoKeyOf(m), m.scopes);
}
