// A record of the index cache back as the store's record (cache.ts decodes the rows; the store
// adopts what this makes of them): the same shape as a parsed file's, its shared strings interned.
import { storedMemory } from '../store/store.ts';
import { CATEGORIES, CONFIDENCES, SOURCES, type MemoryRecord, type Origin, type StoredMemory } from '../types.ts';
import { internOrNull, member, NO_EXTRA, sharedOrigin, sharedScopeList } from '../store/canonical.ts';

const text = (v: unknown): string => {
  if (typeof v !== 'string') throw new Error('not text');
  return v;
};
const textOrNull = (v: unknown): string | null => (v === null ? null : text(v));
function oneOf<T extends string>(allowed: readonly T[], v: unknown): T {
  const m = member(allowed, v);
  if (m === undefined) throw new Error('not a known value');
  return m;
}

const revivedOrigins = new WeakMap<object, Origin>();
const revivedScopes = new WeakMap<object, string[]>();

/**
 * A cached record back as a StoredMemory of the same shape as a parsed one (all fields in one
 * object, no per-record property array), its shared strings (scopes, origin, enums) interned
 * and an empty `extra` shared. Throws on a malformed record: the cache is then not used.
 */
export function reviveStored(r: Record<string, unknown>): StoredMemory {
  const o = r.origin as Origin;
  if (typeof o !== 'object' || o === null || !Array.isArray(r.scopes) || !Array.isArray(r.extra)) throw new Error('malformed');
  if (typeof r.size !== 'number' || typeof r.mtimeMs !== 'number' || typeof r.tombstoned !== 'boolean') throw new Error('malformed');
  const extra = r.extra.length === 0 ? NO_EXTRA : (r.extra as unknown[]).map(text);
  // The cache stores each distinct origin and scope list once (cache.ts SHARED): the rows of one
  // decode share the raw object, which is then checked and made canonical once.
  let origin = revivedOrigins.get(o);
  if (origin === undefined) revivedOrigins.set(o, (origin = sharedOrigin(textOrNull(o.cwd), textOrNull(o.repo), textOrNull(o.branch), textOrNull(o.worktree_root))));
  let scopes = revivedScopes.get(r.scopes);
  if (scopes === undefined) revivedScopes.set(r.scopes, (scopes = sharedScopeList((r.scopes as unknown[]).map(text))));
  const created = text(r.created);
  const updated = text(r.updated);
  const rec: MemoryRecord = {
    id: text(r.id),
    created,
    updated: updated === created ? created : updated,
    scopes,
    confidence: oneOf(CONFIDENCES, r.confidence),
    source: oneOf(SOURCES, r.source),
    category: oneOf(CATEGORIES, r.category),
    last_verified_at: textOrNull(r.last_verified_at),
    expires: textOrNull(r.expires),
    origin,
    body: text(r.body),
  };
  if (r.aliases !== undefined) {
    if (!Array.isArray(r.aliases)) throw new Error('malformed');
    rec.aliases = (r.aliases as unknown[]).map(text);
  }
  if (r.removed !== undefined) {
    rec.removed = text(r.removed);
    rec.removed_reason = text(r.removed_reason);
    rec.removed_session = internOrNull(textOrNull(r.removed_session ?? null));
  }
  if (typeof r.verified_head === 'string') rec.verified_head = text(r.verified_head);
  if (Array.isArray(r.merged_from)) rec.merged_from = (r.merged_from as unknown[]).map(text);
  if (Array.isArray(r.merging)) rec.merging = (r.merging as unknown[]).map(text);
  if (r.tombstoned !== (r.removed !== undefined)) throw new Error('malformed');
  const m = storedMemory(rec, text(r.file), r.size, r.mtimeMs, extra);
  if (r.idAssigned === true) m.idAssigned = true;
  return m;
}
