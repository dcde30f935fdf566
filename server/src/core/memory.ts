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

/** Does any of these scopes equal, or nest under, one of the global scopes? */
export function hasGlobalScope(scopes: readonly string[], global: readonly string[]): boolean {
  if (global.length === 0) return false;
  return scopes.some((s) => global.some((g) => s === g || s.startsWith(`${g}:`)));
}

/**
 * auto_scope (tools.md): in a repo, memories from that repo plus memories from no repo; outside
 * any repo, memories from no repo plus those with a global scope (config scopes.global).
 * `key` is the memory's repo key (originRepoKey), passed in so callers may cache it.
 */
export function inViewKey(callerRepoKey: string | null, global: readonly string[], key: string | null, scopes: readonly string[]): boolean {
  if (key === null) return true;
  if (callerRepoKey !== null) return key === callerRepoKey;
  return hasGlobalScope(scopes, global);
}

// Origins are shared objects (one per distinct value, store/canonical.ts), so their repo key is
// worked out once per origin, not once per memory per call (URL normalization is not free).
const repoKeys = new WeakMap<Origin, string | null>();

/** The repo key of a memory's origin (origin.ts originRepoKey), remembered per origin object. */
export function repoKeyOf(m: { origin: Origin }): string | null {
  let key = repoKeys.get(m.origin);
  if (key === undefined) repoKeys.set(m.origin, (key = originRepoKey(m.origin)));
  return key;
}

export function inView(callerRepoKey: string | null, global: readonly string[], m: { origin: Origin; scopes: readonly string[] }): boolean {
  return inViewKey(callerRepoKey, global, repoKeyOf(m), m.scopes);
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
    // A note (the memory tool's file) says so, with its /memories path; a memory's row is unchanged.
    ...(m.note !== undefined ? { kind: 'note' as const, path: m.note } : {}),
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
  const { file, tombstoned, size, mtimeMs, extra, idAssigned, note, ...rec } = m;
  void file; void tombstoned; void size; void mtimeMs; void extra; void idAssigned; void note;
  return rec;
}
