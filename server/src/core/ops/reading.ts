// memory_show, memory_list, memory_scope_overview: reads from the in-memory view of the store
// (kept current by the store's freshness strategy), never a walk of the files.
import type { Cairn } from '../cairn.ts';
import { ValidationError } from '../errors.ts';
import { scopeFilterMatcher, validateScopeFilter } from '../scopes.ts';
import type { StoredMemory } from '../types.ts';
import {
  MAX_IDS_PER_CALL, checkId, checkLimit, decodeCursor, encodeCursor, hitFields, inCallerRepo, isExpired,
  isVisible, requireActive, settleUnknownIds, summarize, tombstonedMessage,
} from './common.ts';
import { curationPending } from './curation.ts';

export interface ShowInput {
  id?: string;
  ids?: string[];
}
export interface ListInput {
  scopes?: string[];
  with_bodies?: boolean;
  limit?: number;
  cursor?: string;
}
export interface OverviewInput {
  auto_scope?: boolean;
}

export function checkScopeFilters(scopes: unknown): string[] {
  if (scopes === undefined || scopes === null) return [];
  if (!Array.isArray(scopes)) throw new ValidationError('scopes must be an array of scopes or globs, like ["tools", "projects:*"]');
  if (scopes.length > 20) throw new ValidationError(`scopes has ${scopes.length} entries: at most 20 filters are allowed`);
  return scopes.map((s) => validateScopeFilter(s));
}

export async function fullRecords(c: Cairn, mems: StoredMemory[]) {
  const hits = await hitFields(c, mems, true);
  return hits.map((h, i) => {
    const m = mems[i]!;
    return { ...h, body: m.body, source: m.source, origin: m.origin, expires: m.expires };
  });
}

export async function show(c: Cairn, input: ShowInput) {
  await c.store.ensureFresh();
  await settleUnknownIds(c, [input.id, ...(Array.isArray(input.ids) ? input.ids.slice(0, MAX_IDS_PER_CALL) : [])]);
  const hasId = input.id !== undefined && input.id !== null;
  const hasIds = input.ids !== undefined && input.ids !== null;
  if (hasId === hasIds) throw new ValidationError('pass exactly one of id (one memory) or ids (up to 10)');
  if (hasId) {
    const m = requireActive(c, input.id);
    c.log('show', { ids: [m.id] });
    return { memories: await fullRecords(c, [m]), missing: [] as { id: string; reason: string }[] };
  }
  if (!Array.isArray(input.ids) || input.ids.length === 0) throw new ValidationError('ids must be a non-empty array of memory ids');
  if (input.ids.length > MAX_IDS_PER_CALL) throw new ValidationError(`ids has ${input.ids.length} entries: at most ${MAX_IDS_PER_CALL} per call`);
  const ids = [...new Set(input.ids.map((x, i) => checkId(x, `ids[${i}]`)))];
  const found: StoredMemory[] = [];
  const missing: { id: string; reason: string }[] = [];
  for (const id of ids) {
    const m = c.store.get(id);
    if (m) found.push(m);
    else {
      const t = c.store.getTombstone(id);
      missing.push({ id, reason: t ? tombstonedMessage(t) : `no memory with id ${id}` });
    }
  }
  c.log('show', { ids: found.map((m) => m.id), missing: missing.map((m) => m.id) });
  return { memories: await fullRecords(c, found), missing };
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

export async function list(c: Cairn, input: ListInput) {
  await c.store.ensureFresh();
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, 'limit', 200, 50);
  const after = input.cursor === undefined || input.cursor === null ? null : decodeCursor(input.cursor);
  const match = scopeFilterMatcher(filters);
  const now = c.now();
  const { page, next_cursor } = newestPage(c.store.active(), (m) => isVisible(c, m, now) && match(m.scopes), after, limit);
  const hits = await hitFields(c, page);
  const items = hits.map((h, i) => {
    const m = page[i]!;
    return { ...h, summary: summarize(m.body), ...(input.with_bodies ? { body: m.body } : {}) };
  });
  c.log('list', { scopes: filters, limit, returned: items.map((x) => x.id) });
  return { items, next_cursor };
}

export async function scopeOverview(c: Cairn, input: OverviewInput) {
  await c.store.ensureFresh();
  const auto = input.auto_scope ?? true;
  const now = c.now();
  const inView: StoredMemory[] = [];
  const expired: StoredMemory[] = [];
  const scopes: Record<string, number> = {};
  for (const m of c.store.active()) {
    if (auto && !inCallerRepo(c, m.origin)) continue;
    if (isExpired(m, now)) {
      expired.push(m);
      continue;
    }
    if (!isVisible(c, m, now)) continue;
    inView.push(m);
    for (const s of m.scopes) scopes[s] = (scopes[s] ?? 0) + 1;
  }
  const sorted: Record<string, number> = {};
  for (const k of Object.keys(scopes).sort()) sorted[k] = scopes[k]!;
  const out = {
    current_repo: c.caller.repoUrl ?? c.caller.repoRoot,
    total: inView.length,
    scopes: sorted,
    disabled_scopes: [...c.disabledScopes].sort(),
    curation_pending: await curationPending(c, inView, expired),
  };
  c.log('scope_overview', { auto_scope: auto, total: out.total });
  return out;
}
