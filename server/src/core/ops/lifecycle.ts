// memory_remove, memory_restore, memory_list_tombstones. A remove is a tombstone with a reason,
// never a delete: the body stays on disk under .tombstones/ and can be restored.
import type { RoutedContext, StoreContext, WriteContext } from './context.ts';
import { capPage } from './shape.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { scopeFilterMatcher } from '../scopes.ts';
import { recordHead, stripStored, summarize } from '../memory.ts';
import type { StoredMemory } from '../types.ts';
import { checkId, checkLimit, checkNote, requireActive } from './common.ts';
import { checkScopeFilters } from './retrieval.ts';
import { committedShape } from './writing.ts';
import { removeNote, restoreNote } from './notes.ts';

export interface RemoveInput {
  id: string;
  reason: string;
}
export interface RestoreInput {
  id: string;
}
export interface PruneTombstonesInput {
  /** Tombstones removed more than this many days ago are deleted for good. */
  older_than_days: number;
  dry_run?: boolean;
}
export interface ListTombstonesInput {
  scopes?: string[];
  limit?: number;
  cursor?: string;
}

export async function remove(c: WriteContext, input: RemoveInput) {
  await c.store.ensureFresh();
  await c.stores.settle([input.id]);
  const target = requireActive(c, input.id);
  const reason = checkNote(input.reason, 'reason', true)!;
  if (target.note !== undefined) return removeNote(c, target, reason);
  const m = await c.store.modify(target.id, (cur) => {
    if (cur.tombstoned) requireActive(c, cur.id);
    return { ...stripStored(cur), removed: c.now().toISOString(), removed_reason: reason, removed_session: c.session };
  });
  c.log('remove', { id: m.id, reason });
  return { removed: m.id, tombstone: m.file, store: c.storeKind };
}

export async function restore(c: WriteContext, input: RestoreInput) {
  await c.store.ensureFresh();
  const id = checkId(input.id);
  await c.stores.settle([id]);
  if (c.store.get(id)) throw new ValidationError(`memory ${id} is not removed: only tombstoned memories can be restored`);
  const tomb = c.store.getTombstone(id);
  if (!tomb) throw new NotFoundError(`no removed memory with id ${id}`);
  // A deleted note goes back to its /memories path as the exact text it had.
  const note = await restoreNote(c, tomb);
  if (note !== null) return committedShape(note);
  const m = await c.store.modify(id, (cur) => {
    if (!cur.tombstoned) throw new ValidationError(`memory ${id} is not removed: only tombstoned memories can be restored`);
    const rec = stripStored(cur);
    delete rec.removed;
    delete rec.removed_reason;
    delete rec.removed_session;
    return rec; // created, updated and last_verified_at are kept as they were
  });
  c.log('restore', { id: m.id });
  return { ...committedShape(m), store: c.storeKind };
}

// Tombstones page newest removal first. The cursor is the (removed, id) key of the last row
// returned, so paging stays correct when tombstones are added, restored or pruned between pages:
// the next page starts strictly after that key, whatever happened to the row itself.
type RemovalKey = { t: number; id: string };
const removalKey = (m: StoredMemory): RemovalKey => {
  const t = m.removed === undefined ? NaN : Date.parse(m.removed);
  return { t: Number.isNaN(t) ? 0 : t, id: m.id }; // an unreadable date sorts as the oldest removal
};
/** a before b in the listing: later removal first, then newer id first (total order). */
const removedBefore = (a: RemovalKey, b: RemovalKey) => a.t > b.t || (a.t === b.t && a.id > b.id);

function encodeRemovalCursor(k: RemovalKey): string {
  return Buffer.from(`t1:${k.t}:${k.id}`).toString('base64url');
}
function decodeRemovalCursor(cursor: unknown): RemovalKey {
  if (typeof cursor !== 'string' || cursor === '') throw new ValidationError('cursor must be the next_cursor string from a previous page');
  const m = /^t1:(\d{1,16}):([0-9A-HJKMNP-TV-Z]{26})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw new ValidationError(`cursor ${JSON.stringify(cursor.slice(0, 40))} was not issued by memory_list_tombstones: pass next_cursor from a previous page, or omit it to start over`);
  return { t: Number(m[1]), id: m[2]! };
}

export async function listTombstones(c: RoutedContext, input: ListTombstonesInput) {
  await c.store.ensureFresh();
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, 'limit', LIMITS.pageSize, LIMITS.defaultPageSize);
  const after = input.cursor === undefined || input.cursor === null ? null : decodeRemovalCursor(input.cursor);
  const match = scopeFilterMatcher(filters);
  // One pass with a sorted buffer of limit + 1: no sort of every tombstone per page.
  const buf: { m: StoredMemory; k: RemovalKey }[] = [];
  if (c.stores.team !== null) await c.stores.team.store.ensureFresh();
  for (const m of c.stores.tombstones()) {
    const k = removalKey(m);
    if (after !== null && !removedBefore(after, k)) continue;
    if (buf.length > limit && !removedBefore(k, buf[limit]!.k)) continue;
    if (!match(m.scopes)) continue;
    let i = buf.length;
    while (i > 0 && removedBefore(k, buf[i - 1]!.k)) i--;
    buf.splice(i, 0, { m, k });
    if (buf.length > limit + 1) buf.pop();
  }
  const page = buf.slice(0, limit);
  const next_cursor = buf.length > limit ? encodeRemovalCursor(page[page.length - 1]!.k) : null;
  const items = page.map(({ m }) => ({
    ...recordHead(m),
    store: c.stores.ownerOf(m).storeKind,
    removed: m.removed!,
    removed_reason: m.removed_reason ?? '',
    summary: summarize(m.body),
    file: m.file,
  }));
  const keys = new Map(page.map(({ m, k }) => [m.id, k]));
  const capped = capPage({ items, next_cursor }, (last) => encodeRemovalCursor(keys.get(last.id)!));
  c.log('list_tombstones', { scopes: filters, returned: capped.items.map((x) => x.id) });
  return capped;
}

const DAY_MS = 86_400_000;

/**
 * cairn's only hard delete: tombstones removed more than `older_than_days` ago, oldest first.
 * A dry run lists them and deletes nothing. Logged like every other change.
 */
export async function pruneTombstones(c: StoreContext, input: PruneTombstonesInput) {
  const days = input.older_than_days;
  if (!Number.isInteger(days) || days < 0 || days > 36500) throw new ValidationError(`older_than_days must be a whole number from 0 to 36500, got ${JSON.stringify(days)}`);
  await c.store.ensureFresh();
  const cutoff = c.now().getTime() - days * DAY_MS;
  const old = [...c.store.tombstones()]
    .filter((t) => t.removed !== undefined && Date.parse(t.removed) < cutoff)
    .sort((a, b) => a.removed!.localeCompare(b.removed!) || a.id.localeCompare(b.id));
  const dryRun = input.dry_run === true;
  const pruned = dryRun ? [] : await c.store.purgeTombstones(old.map((t) => t.id));
  const candidates = old.map((t) => ({ id: t.id, removed: t.removed!, removed_reason: t.removed_reason ?? '', summary: summarize(t.body) }));
  if (!dryRun) c.log('prune_tombstones', { older_than_days: days, pruned });
  return { dry_run: dryRun, older_than_days: days, candidates, pruned };
}
