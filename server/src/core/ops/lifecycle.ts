// memory_remove, memory_restore, memory_list_tombstones. A remove is a tombstone with a reason,
// never a delete: the body stays on disk under .tombstones/ and can be restored.
import type { Cairn } from '../cairn.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { scopeFilterMatcher } from '../scopes.ts';
import { checkId, checkLimit, decodeCursor, recordHead, requireActive, settleUnknownIds, summarize } from './common.ts';
import { checkScopeFilters, newestPage } from './reading.ts';
import { checkNote, committedShape, stripStored } from './write.ts';

export interface RemoveInput {
  id: string;
  reason: string;
}
export interface RestoreInput {
  id: string;
}
export interface ListTombstonesInput {
  scopes?: string[];
  limit?: number;
  cursor?: string;
}

export async function remove(c: Cairn, input: RemoveInput) {
  await c.store.ensureFresh();
  await settleUnknownIds(c, [input.id]);
  const target = requireActive(c, input.id);
  const reason = checkNote(input.reason, 'reason', true)!;
  const m = await c.store.modify(target.id, (cur) => {
    if (cur.tombstoned) requireActive(c, cur.id);
    return { ...stripStored(cur), removed: c.now().toISOString(), removed_reason: reason, removed_session: c.session };
  });
  c.log('remove', { id: m.id, reason });
  return { removed: m.id, tombstone: m.file };
}

export async function restore(c: Cairn, input: RestoreInput) {
  await c.store.ensureFresh();
  const id = checkId(input.id);
  await settleUnknownIds(c, [id]);
  if (c.store.get(id)) throw new ValidationError(`memory ${id} is not removed: only tombstoned memories can be restored`);
  if (!c.store.getTombstone(id)) throw new NotFoundError(`no removed memory with id ${id}`);
  const m = await c.store.modify(id, (cur) => {
    if (!cur.tombstoned) throw new ValidationError(`memory ${id} is not removed: only tombstoned memories can be restored`);
    const rec = stripStored(cur);
    delete rec.removed;
    delete rec.removed_reason;
    delete rec.removed_session;
    return rec; // created, updated and last_verified_at are kept as they were
  });
  c.log('restore', { id: m.id });
  return committedShape(m);
}

export async function listTombstones(c: Cairn, input: ListTombstonesInput) {
  await c.store.ensureFresh();
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, 'limit', 200, 50);
  const after = input.cursor === undefined || input.cursor === null ? null : decodeCursor(input.cursor);
  const match = scopeFilterMatcher(filters);
  const { page, next_cursor } = newestPage(c.store.tombstones(), (m) => match(m.scopes), after, limit);
  const items = page.map((m) => ({
    ...recordHead(m),
    removed: m.removed!,
    removed_reason: m.removed_reason ?? '',
    summary: summarize(m.body),
    file: m.file,
  }));
  c.log('list_tombstones', { scopes: filters, returned: items.map((x) => x.id) });
  return { items, next_cursor };
}
