// What the store keeps per file: the parsed record (as one StoredMemory object) or why the file
// was skipped; and the stable id a hand-made file without one gets.
import { hasUrlSecrets, redactRemoteUrl } from '../origin.ts';
import { createHash } from 'node:crypto';
import { NO_EXTRA, isSharedOrigin } from './canonical.ts';
import type { MemoryRecord, StoredMemory } from '../types.ts';

/** A file that is not a memory (unreadable, unparsable, a link...): why, and what it looked like. */
export class Skip {
  constructor(
    readonly size: number,
    readonly mtimeMs: number,
    readonly error: string,
  ) {}
}
/**
 * What the store knows of one file: the record it holds (which carries the file's size and
 * mtime itself, so no wrapper object per memory) or why it was skipped.
 */
export type FileEntry = StoredMemory | Skip;
export const memOf = (e: FileEntry | undefined): StoredMemory | undefined => (e instanceof Skip ? undefined : e);
export const errorOf = (e: FileEntry | undefined): string | undefined => (e instanceof Skip ? e.error : undefined);

/** Files bigger than this are not memories (a body is capped far below it); skipped, never read whole. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/**
 * A stable id for a hand-made file without one: same file -> same id in every process. Hashes
 * the file's NAME, not its path, so a store reached by two spellings (a symlinked ~/.cairn, a
 * relative $CAIRN_DIR, macOS /var vs /private/var) gives one id; the time part is `created`.
 * The id is written into the file on its next change through cairn, and fixed from then on.
 */
export function derivedId(fileName: string, created: string): string {
  let t = Math.max(0, Math.min(Date.parse(created) || 0, 2 ** 48 - 1));
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const h = createHash('sha256').update(fileName).digest();
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[h[i]! % 32];
  return time + rand;
}

/**
 * A StoredMemory as one whole object literal. Never a spread of the record: an object spread
 * with this many keys gives every memory its own hidden class (a map, descriptor array and
 * property array each, ~600 bytes per memory).
 */
export function storedMemory(rec: MemoryRecord, file: string, size: number, mtimeMs: number, extra: readonly string[]): StoredMemory {
  const ex = extra.length === 0 ? NO_EXTRA : extra.slice();
  const { id, created, scopes, confidence, source, category, expires, body, aliases } = rec;
  // The times are mostly one instant (a write sets all three): equal values share one string,
  // ~80 bytes less per memory (16 MB at 200k memories).
  const updated = rec.updated === created ? created : rec.updated;
  const lva = rec.last_verified_at;
  const last_verified_at = lva === null ? null : lva === updated ? updated : lva === created ? created : lva;
  // Whatever built the record (an import, a migration), a credential in the URL never enters the
  // store. A shared origin was redacted when it was made: no second look per memory (a start from
  // the cache makes 50,000 records from a handful of origins).
  const origin = !isSharedOrigin(rec.origin) && hasUrlSecrets(rec.origin.repo) ? { ...rec.origin, repo: redactRemoteUrl(rec.origin.repo) } : rec.origin;
  // Aliases are rare: a record with them gets a shape of its own rather than every record a field.
  if (aliases !== undefined && aliases.length > 0) {
    const m: StoredMemory = { id, created, updated, scopes, confidence, source, category, last_verified_at, expires, origin, body, aliases, file, tombstoned: false, size, mtimeMs, extra: ex };
    if (rec.removed !== undefined) {
      m.removed = rec.removed;
      m.removed_reason = rec.removed_reason;
      m.removed_session = rec.removed_session;
      m.tombstoned = true;
    }
    if (rec.verified_head) m.verified_head = rec.verified_head;
    mergeKeys(rec, m);
    return m;
  }
  let m: StoredMemory;
  if (rec.removed === undefined) {
    m = { id, created, updated, scopes, confidence, source, category, last_verified_at, expires, origin, body, file, tombstoned: false, size, mtimeMs, extra: ex };
  } else {
    const { removed, removed_reason, removed_session } = rec;
    m = { id, created, updated, scopes, confidence, source, category, last_verified_at, expires, origin, body, removed, removed_reason, removed_session, file, tombstoned: true, size, mtimeMs, extra: ex };
  }
  if (rec.verified_head) m.verified_head = rec.verified_head;
  mergeKeys(rec, m);
  return m;
}

/** memory_merge's keys are rare: only a record that has them gets the fields. */
function mergeKeys(rec: MemoryRecord, m: StoredMemory): void {
  if (rec.merged_from && rec.merged_from.length > 0) m.merged_from = rec.merged_from;
  if (rec.merging && rec.merging.length > 0) m.merging = rec.merging;
}

