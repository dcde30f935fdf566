// A fast reader for the files cairn itself writes. serializeMemory emits one fixed layout (known
// keys in a fixed order, single-line scalars, plain or JSON-quoted); parsing that layout directly
// is ~10x cheaper than a YAML parse, which dominates a cold start without the index cache.
//
// Invariant: for every text it accepts, the result equals what the general (gray-matter) path
// returns; anything else — a hand edit, a comment, an unknown key, CRLF, an odd scalar — returns
// null and goes to the general path. server/test/core/canonical.test.ts checks the equality on
// generated records, including the awkward ones.
import { CATEGORIES, CONFIDENCES, SOURCES, type MemoryRecord, type Origin } from '../types.ts';
import { isUlid } from '../ids.ts';
import { SCOPE_RE } from '../scopes.ts';
import { redactRemoteUrl } from '../origin.ts';

/** The scalars serializeMemory writes unquoted: they can only read back as strings. */
export const PLAIN_SCALAR = /^[A-Za-z_/][A-Za-z0-9_/.~@+:=,-]*$/;
const YAML_WORDS = /^(?:true|false|null|yes|no|on|off|y|n)$/i;

export function isPlainSafe(v: string): boolean {
  // A ULID (a session id) has letters in it, so YAML can only read it as a string.
  return (PLAIN_SCALAR.test(v) && !YAML_WORDS.test(v) && !v.endsWith(':')) || isUlid(v);
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// Strings kept in records are copied out of the file text (a slice would keep the whole file
// alive) and the ones many memories share (scopes, origin fields) are interned.
const interned = new Map<string, string>();
export function own(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}
export function intern(s: string): string {
  let v = interned.get(s);
  if (v === undefined) {
    v = own(s);
    if (interned.size < 200_000) interned.set(v, v);
  }
  return v;
}

export function internOrNull(s: string | null): string | null {
  return s === null ? null : intern(s);
}

// Scope lists and origins repeat across thousands of memories (one project, a few scope sets):
// records share one frozen array / object per distinct value. Frozen, so an in-place mutation
// throws instead of silently changing other records. Bounded like `interned`.
const sharedScopes = new Map<string, string[]>();
const sharedOrigins = new Map<string, Origin>();
const SHARED_MAX = 50_000;

/** The shared frozen list equal to `scopes` (its strings interned). */
export function sharedScopeList(scopes: readonly string[]): string[] {
  const key = scopes.join('\u0000');
  let v = sharedScopes.get(key);
  if (v === undefined) {
    v = Object.freeze(scopes.map(intern)) as string[];
    if (sharedScopes.size < SHARED_MAX) sharedScopes.set(key, v);
  }
  return v;
}

/** Origins made by sharedOrigin: frozen, their remote URL already redacted. */
const cleanOrigins = new WeakSet<Origin>();
/** Is `o` one of sharedOrigin's (its URL needs no second redaction check)? */
export function isSharedOrigin(o: Origin): boolean {
  return cleanOrigins.has(o);
}

/** The shared frozen origin with these fields (strings interned). */
export function sharedOrigin(cwd: string | null, repo: string | null, branch: string | null, worktree_root: string | null): Origin {
  const key = JSON.stringify([cwd, repo, branch, worktree_root]);
  let v = sharedOrigins.get(key);
  if (v === undefined) {
    // A credential in a stored remote URL is never read into a record: the record, and
    // so every answer, export and the next write-back of the file, holds the redacted URL.
    v = Object.freeze({ cwd: internOrNull(cwd), repo: internOrNull(redactRemoteUrl(repo)), branch: internOrNull(branch), worktree_root: internOrNull(worktree_root) });
    cleanOrigins.add(v);
    if (sharedOrigins.size < SHARED_MAX) sharedOrigins.set(key, v);
  }
  return v;
}

/**
 * The `extra` of every record without unknown frontmatter blocks (nearly all): one shared frozen
 * array instead of an empty array per memory. Frozen, so a mutation throws instead of leaking
 * into other records.
 */
export const NO_EXTRA: string[] = Object.freeze([]) as unknown as string[];

/** The shared constant equal to `v` (never the slice of the file text itself), or undefined. */
export function member<T extends string>(allowed: readonly T[], v: unknown): T | undefined {
  return allowed.find((a) => a === v);
}

function time(v: string, nullable: boolean): string | null | undefined {
  if (v === 'null') return nullable ? null : undefined;
  if (!ISO.test(v)) return undefined;
  const d = new Date(v);
  // The fresh toISOString() result, never `v`: a slice of the file text would keep the whole
  // text alive for as long as the record lives (~650 bytes per memory).
  const iso = Number.isNaN(d.getTime()) ? '' : d.toISOString();
  return iso === v ? iso : undefined;
}


/** A scalar as serializeMemory writes it: null, plain, or a JSON string; undefined if unsure. */
function scalar(v: string): string | null | undefined {
  if (v === 'null') return null;
  if (v.startsWith('"')) {
    try {
      const s = JSON.parse(v) as unknown;
      return typeof s === 'string' ? s : undefined;
    } catch {
      return undefined;
    }
  }
  return isPlainSafe(v) ? v : undefined;
}

/** `["a", "b"]` as the writer makes it: non-empty, distinct, trimmed JSON strings; else undefined. */
function aliasList(v: string | undefined): string[] | undefined {
  if (v === undefined || !v.startsWith('["') || !v.endsWith('"]')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  const out: string[] = [];
  for (const a of parsed) {
    if (typeof a !== 'string' || a === '' || a.trim() !== a || out.includes(a)) return undefined;
    out.push(own(a));
  }
  return out;
}

/**
 * Pops a trailing `key: [ID, ID]` line as serializeMemory writes it (distinct upper-case ULIDs):
 * undefined when the last line is not that key, null when it is but not in the writer's form.
 */
function trailingIds(L: string[], key: string): string[] | undefined | null {
  const v = field(L[L.length - 1], key);
  if (v === undefined) return undefined;
  if (!v.startsWith('[') || !v.endsWith(']')) return null;
  const ids = v.slice(1, -1).split(', ');
  if (ids.length === 0 || ids.some((id) => !isUlid(id)) || new Set(ids).size !== ids.length) return null;
  L.pop();
  return ids.map(own);
}

function field(line: string | undefined, key: string): string | undefined {
  if (line === undefined || !line.startsWith(key) || line.charCodeAt(key.length) !== 58 /* : */ || line.charCodeAt(key.length + 1) !== 32) return undefined;
  return line.slice(key.length + 2);
}

export function parseCanonical(text: string): { record: MemoryRecord; extra: string[] } | null {
  if (!text.startsWith('---\nschema_version: 1\n')) return null;
  const close = text.indexOf('\n---\n', 4);
  if (close === -1) return null;
  const head = text.slice(4, close);
  if (head.includes('\r') || head.includes('\t')) return null;
  const L = head.split('\n');
  // Trailing merging and merged_from lines (last, in that order from the end) come off first.
  const merging = trailingIds(L, 'merging');
  const mergedFrom = trailingIds(L, 'merged_from');
  if (merging === null || mergedFrom === null) return null;
  // A trailing verified_head line (after the tombstone keys and aliases) comes off first.
  let verifiedHead: string | undefined;
  if (L[L.length - 1]?.startsWith('verified_head: ')) {
    verifiedHead = field(L[L.length - 1], 'verified_head');
    if (verifiedHead === undefined || !/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(verifiedHead)) return null;
    L.pop();
  }
  // 15 lines, +3 for a tombstone's keys, +1 for an aliases line (last).
  const hasAliases = L.length === 16 || L.length === 19;
  if (L.length !== 15 && L.length !== 18 && !hasAliases) return null;
  const id = field(L[1], 'id');
  if (id === undefined || !isUlid(id)) return null;
  const created = time(field(L[2], 'created') ?? '', false);
  const updated = time(field(L[3], 'updated') ?? '', false);
  const scopesText = field(L[4], 'scopes');
  if (!created || !updated || scopesText === undefined || !scopesText.startsWith('[') || !scopesText.endsWith(']')) return null;
  const scopes = scopesText.slice(1, -1).split(', ');
  if (scopes.length === 0 || scopes.some((s) => !SCOPE_RE.test(s)) || new Set(scopes).size !== scopes.length) return null;
  const confidence = member(CONFIDENCES, field(L[5], 'confidence'));
  const source = member(SOURCES, field(L[6], 'source'));
  const category = member(CATEGORIES, field(L[7], 'category'));
  if (!confidence || !source || !category) return null;
  const lva = time(field(L[8], 'last_verified_at') ?? '', true);
  const expires = time(field(L[9], 'expires') ?? '', true);
  if (lva === undefined || expires === undefined || L[10] !== 'origin:') return null;
  const origin = ['cwd', 'repo', 'branch', 'worktree_root'].map((k, i) => scalar(field(L[11 + i], `  ${k}`) ?? '\u0000'));
  if (origin.some((v) => v === undefined)) return null;
  const record: MemoryRecord = {
    id: own(id),
    created,
    updated: updated === created ? created : updated,
    scopes: sharedScopeList(scopes),
    confidence,
    source,
    category,
    last_verified_at: lva,
    expires,
    origin: sharedOrigin(origin[0]!, origin[1]!, origin[2]!, origin[3]!),
    body: own(text.slice(close + 5).replace(/^\s*\n/, '').trimEnd()),
  };
  if (verifiedHead !== undefined) record.verified_head = own(verifiedHead);
  if (mergedFrom !== undefined) record.merged_from = mergedFrom;
  if (merging !== undefined) record.merging = merging;
  if (hasAliases) {
    const aliases = aliasList(field(L[L.length - 1], 'aliases'));
    if (aliases === undefined) return null;
    record.aliases = aliases;
  }
  if (L.length >= 18) {
    const removed = time(field(L[15], 'removed') ?? '', false);
    const reasonText = field(L[16], 'removed_reason');
    const reason = reasonText?.startsWith('"') ? scalar(reasonText) : undefined;
    const session = scalar(field(L[17], 'removed_session') ?? '\u0000');
    if (!removed || typeof reason !== 'string' || session === undefined) return null;
    record.removed = removed;
    record.removed_reason = own(reason);
    record.removed_session = session === null ? null : intern(session);
  }
  return { record, extra: NO_EXTRA };
}
