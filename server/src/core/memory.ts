// Record helpers every layer shares: visibility (expiry, disabled scopes, the caller's repo), the
// identity fields every row shows, one-line summaries. Pure functions of a record and plain
// values, so ops, gates, curation and io use them without reaching up into ops/.
import { originRepoKey } from './origin.ts';
import type { MemoryRecord, Origin, StoredMemory } from './types.ts';

export function isExpired(m: { expires: string | null }, now: Date): boolean {
  return m.expires !== null && Date.parse(m.expires) <= now.getTime();
}

/** A memory is hidden when any of its scopes is disabled or nested under a disabled scope. */
export function isDisabled(disabled: ReadonlySet<string>, m: { scopes: readonly string[] }): boolean {
  if (disabled.size === 0) return false;
  return m.scopes.some((s) => {
    for (const d of disabled) if (s === d || s.startsWith(`${d}:`)) return true;
    return false;
  });
}

/** Search and list show neither expired nor disabled memories. */
export function isVisible(disabled: ReadonlySet<string>, m: StoredMemory, now: Date): boolean {
  return !isExpired(m, now) && !isDisabled(disabled, m);
}

/** auto_scope: memories from the caller's repo plus memories from no repo. */
export function inRepo(callerRepoKey: string | null, origin: Origin): boolean {
  const key = originRepoKey(origin);
  return key === null || (callerRepoKey !== null && key === callerRepoKey);
}

/** The identity and dating fields every row shows (hits, list items, tombstone rows). */
export function recordHead(m: StoredMemory) {
  return {
    id: m.id,
    scopes: m.scopes,
    confidence: m.confidence,
    category: m.category,
    created: m.created,
    updated: m.updated,
    last_verified_at: m.last_verified_at,
  };
}

/** First sentence of a body, at most 80 chars, cut at a word boundary. */
export function summarize(body: string, max = 80): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  const m = /^(.+?[.!?])(?:\s|$)/.exec(flat);
  const first = m ? m[1]! : flat;
  if (first.length <= max) return first;
  const cut = first.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max / 2 ? cut.slice(0, sp) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** The record part of a stored memory (drops file bookkeeping). */
export function stripStored(m: StoredMemory): MemoryRecord {
  const { file, tombstoned, size, mtimeMs, extra, idAssigned, ...rec } = m;
  void file; void tombstoned; void size; void mtimeMs; void extra; void idAssigned;
  return rec;
}
