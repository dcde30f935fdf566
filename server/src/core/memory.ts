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

/** Whether a UTF-16 unit is whitespace as a regular expression's \s (and String.prototype.trim) take it. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * First sentence of a body, at most `max` chars, cut at a word boundary: the body with each run
 * of whitespace as one space and trimmed, up to the first `.`, `!` or `?` (not its first
 * character) followed by whitespace or the end. Only the first max + 1 characters of that text
 * decide the result, so the body is walked no further (list --all summarizes every memory).
 */
export function summarize(body: string, max = 80): string {
  const n = body.length;
  let j = 0;
  while (j < n && isSpace(body.charCodeAt(j))) j++;
  const start = j;
  let flat = 0; // characters of the flattened text up to j
  let plain = true; // every whitespace run so far is one ' ': the text is a slice of the body as it is
  while (j < n) {
    const c = body.charCodeAt(j);
    if (isSpace(c)) {
      let e = j + 1;
      while (e < n && isSpace(body.charCodeAt(e))) e++;
      if (e === n) break; // trailing whitespace is trimmed
      if (c !== 32 || e > j + 1) plain = false;
      flat++;
      j = e;
      if (flat > max) break;
      continue;
    }
    j++;
    flat++;
    if ((c === 46 || c === 33 || c === 63) && flat >= 2 && (j === n || isSpace(body.charCodeAt(j)))) break;
    if (flat > max) break;
  }
  const first = plain ? body.slice(start, j) : body.slice(start, j).replace(/\s+/g, ' ');
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
