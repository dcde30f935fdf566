// One memory per markdown file: YAML frontmatter (read with gray-matter's YAML engine) + body.
// Reading is lenient where a hand edit is harmless (missing optional keys get defaults) and
// strict where guessing would corrupt data (bad id, bad scope, newer schema): those files are
// skipped with a reason and never rewritten. Writing regenerates the known keys in a fixed
// order and copies every unknown top-level block verbatim (forward compatibility).
import matter from 'gray-matter';
import { CATEGORIES, CONFIDENCES, SCHEMA_VERSION, SOURCES, type MemoryRecord, type Origin } from '../types.ts';
import { isUlid } from '../ids.ts';
import { SCOPE_RE } from '../scopes.ts';
import { redactRemoteUrl } from '../origin.ts';
import { intern, internOrNull, isPlainSafe, own, parseCanonical, sharedOrigin, sharedScopeList } from './canonical.ts';
import { basename } from 'node:path';
import { Skip, derivedId, storedMemory, type FileEntry } from './entries.ts';
import { noteRecord } from './notes.ts';

export const KNOWN_KEYS = [
  'schema_version', 'id', 'created', 'updated', 'scopes', 'confidence', 'source', 'category',
  'last_verified_at', 'expires', 'origin', 'removed', 'removed_reason', 'removed_session', 'aliases', 'verified_head',
  'merged_from', 'merging',
] as const;

/** The longest frontmatter read (the YAML between the `---` lines), in characters. */
export const MAX_FRONTMATTER_CHARS = 64 * 1024;

/** A commit id as verified_head holds it. */
export const COMMIT_SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const KNOWN = new Set<string>(KNOWN_KEYS);

/**
 * Parsed file content: the record plus the verbatim unknown blocks. A hand-made file may leave
 * out `id` and `created` (null here): the store fills them in (derivedId, the file's mtime) and
 * writes them down on the file's next change through cairn, never on a read.
 */
export interface ParsedFile {
  record: Omit<MemoryRecord, 'id' | 'created' | 'updated'> & { id: string | null; created: string | null; updated: string | null };
  extra: string[];
}

export class ParseError extends Error {
  override name = 'ParseError' as const;
}

// The frontmatter is read with gray-matter's YAML engine (js-yaml's safe schema: no custom tags,
// nothing in a file can construct functions or run code), split off the body here as gray-matter
// splits it. gray-matter's own splitter is not used: it strips comment lines with
// /^\s*#[^\n]+/gm, which is quadratic in a run of blank lines (20,000 of them: 2.6 s of one
// core; 1 MB: about an hour), and it can evaluate `---js` frontmatter as code.
const yamlEngine = (matter as unknown as { engines: { yaml: { parse: (text: string) => unknown } } }).engines.yaml;

/**
 * A text that starts with the line `---`, split as gray-matter splits it: the frontmatter runs
 * from after `---` to the first "\n---" (or to the end of the text); the body starts after that
 * delimiter, less one "\r" and then one "\n".
 */
export function splitMatter(src: string): { matter: string; content: string } {
  const str = src.slice(3);
  const close = str.indexOf('\n---');
  if (close === -1) return { matter: str, content: '' };
  let content = str.slice(close + 4);
  if (content[0] === '\r') content = content.slice(1);
  if (content[0] === '\n') content = content.slice(1);
  return { matter: str.slice(0, close), content };
}

// Values named in a skip reason are described, never serialized whole: YAML aliases make a small
// file expand to a nested list of billions of items (an alias bomb), and JSON.stringify or
// String() of that runs for tens of seconds and ends in "Invalid string length".
function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}...` : v);
  if (v === null || typeof v !== 'object' || v instanceof Date) return String(v);
  return Array.isArray(v) ? 'a list' : 'a mapping';
}

function toIso(v: unknown, key: string, nullable: boolean): string | null {
  if (v === null || v === undefined || v === '') {
    if (nullable) return null;
    throw new ParseError(`${key} is missing`);
  }
  const d = v instanceof Date ? v : typeof v === 'string' ? new Date(v) : null;
  if (!d || Number.isNaN(d.getTime())) throw new ParseError(`${key} is not a date-time: ${shown(v)}`);
  return d.toISOString();
}

function oneOf<T extends string>(v: unknown, key: string, allowed: readonly T[], dflt: T): T {
  if (v === undefined || v === null) return dflt;
  // The shared constant, not `v`: a string from the YAML parse may be a slice of the file text.
  const hit = allowed.find((a) => a === v);
  if (hit !== undefined) return hit;
  throw new ParseError(`${key} must be one of ${allowed.join(', ')}, got ${shown(v)}`);
}

function str(v: unknown, key: string): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'object' && !(v instanceof Date)) throw new ParseError(`${key} must be text, got ${shown(v)}`);
  return typeof v === 'string' ? v : String(v);
}

function parseOrigin(v: unknown): Origin {
  if (v === null || v === undefined) return sharedOrigin(null, null, null, null);
  if (typeof v !== 'object' || Array.isArray(v)) throw new ParseError('origin must be a mapping');
  const o = v as Record<string, unknown>;
  return sharedOrigin(str(o.cwd, 'origin.cwd'), str(o.repo, 'origin.repo'), str(o.branch, 'origin.branch'), str(o.worktree_root, 'origin.worktree_root'));
}

/** Text without its trailing newlines (a loop: /\n+$/ is quadratic in a run of newlines inside the text). */
function trimNewlines(s: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === '\n') end--;
  return s.slice(0, end);
}

/**
 * The key of a top-level frontmatter line (`key: ...`, `"key": ...`, `'key': ...`), or null. A
 * scan rather than /^(?:"..."|'...'|([^\s#'"][^:]*?))\s*:(?:\s|$)/, whose lazy part is quadratic in
 * a long line with no colon; same answers: the first colon, followed by a space or the end.
 */
function blockKey(line: string): string | null {
  const q = line[0];
  if (q === '"' || q === "'") {
    const close = line.indexOf(q, 1);
    if (close > 1) {
      let i = close + 1;
      while (i < line.length && /\s/.test(line[i]!)) i++;
      if (line[i] === ':' && (i + 1 === line.length || /\s/.test(line[i + 1]!))) return line.slice(1, close);
    }
  }
  if (q === undefined || /[\s#'"]/.test(q)) return null;
  const colon = line.indexOf(':');
  if (colon === -1 || !(colon + 1 === line.length || /\s/.test(line[colon + 1]!))) return null;
  const key = line.slice(0, colon).trimEnd();
  return key === '' ? null : key;
}

/** Splits raw frontmatter into top-level blocks: a key line plus its indented continuation. */
export function splitBlocks(raw: string): { key: string | null; text: string }[] {
  const blocks: { key: string | null; text: string }[] = [];
  for (const line of raw.split('\n')) {
    const key = blockKey(line);
    if (key !== null) {
      blocks.push({ key, text: line });
    } else if (/^\S/.test(line) || blocks.length === 0) {
      // A top-level comment or stray line is its own block, so it survives write-back.
      blocks.push({ key: null, text: line });
    } else {
      blocks[blocks.length - 1]!.text += `\n${line}`;
    }
  }
  // Trailing blank lines belong to no key.
  return blocks
    .map((b) => ({ key: b.key, text: trimNewlines(b.text) }))
    .filter((b) => b.text.trim() !== '');
}

export function parseMemoryText(text: string): ParsedFile {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Files in cairn's own layout take the fast path; everything else the general YAML parse.
  const fast = parseCanonical(src);
  if (fast) return fast;
  return parseGeneral(src);
}

/** The general path: any YAML frontmatter (js-yaml, as gray-matter reads it). */
export function parseGeneral(src: string): ParsedFile {
  const firstLine = src.slice(0, src.indexOf('\n') === -1 ? src.length : src.indexOf('\n')).replace(/\r$/, '');
  if (firstLine !== '---') throw new ParseError('no YAML frontmatter (the file must start with a line "---")');
  const parsed = splitMatter(src);
  // A frontmatter is a few hundred characters; YAML costs about a microsecond a character, on
  // the thread that answers every call, so a huge one is refused unread (and left as it is).
  if (parsed.matter.length > MAX_FRONTMATTER_CHARS) {
    throw new ParseError(`frontmatter is ${parsed.matter.length} characters, over the ${MAX_FRONTMATTER_CHARS}-character limit cairn reads (is the closing "---" line missing?)`);
  }
  let doc: unknown;
  try {
    doc = yamlEngine.parse(parsed.matter);
  } catch (err) {
    throw new ParseError(`frontmatter is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  // Only comments and blank lines: no document at all, read as no keys (as gray-matter does).
  if (doc === undefined) doc = {};
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new ParseError('frontmatter is not a mapping of keys to values');
  }
  const data = doc as Record<string, unknown>;
  if (Object.keys(data).length === 0 && parsed.matter.trim() === '') throw new ParseError('frontmatter is empty');
  const sv = data.schema_version ?? SCHEMA_VERSION;
  if (typeof sv !== 'number' || !Number.isInteger(sv) || sv < 1) throw new ParseError(`schema_version must be a positive whole number, got ${shown(sv)}`);
  if (sv > SCHEMA_VERSION) throw new ParseError(`schema_version ${sv} is newer than this cairn understands (${SCHEMA_VERSION}); upgrade cairn`);

  let id: string | null = null;
  if (data.id !== undefined && data.id !== null) {
    if (typeof data.id !== 'string' || !isUlid(data.id.toUpperCase())) throw new ParseError(`id is not a ULID: ${shown(data.id)}`);
    id = data.id.toUpperCase();
  }
  const rawScopes = typeof data.scopes === 'string' ? [data.scopes] : data.scopes;
  if (!Array.isArray(rawScopes) || rawScopes.length === 0) throw new ParseError('scopes is missing or empty');
  const scopes: string[] = [];
  for (const s of rawScopes) {
    if (typeof s !== 'string' || !SCOPE_RE.test(s)) throw new ParseError(`scope ${shown(s)} does not match ${SCOPE_RE.source}`);
    if (!scopes.includes(s)) scopes.push(intern(s));
  }
  const created = toIso(data.created, 'created', true);
  const record: ParsedFile['record'] = {
    id,
    created,
    updated: toIso(data.updated, 'updated', true) ?? created,
    scopes: sharedScopeList(scopes),
    confidence: oneOf(data.confidence, 'confidence', CONFIDENCES, 'medium'),
    source: oneOf(data.source, 'source', SOURCES, 'explicit-statement'),
    category: oneOf(data.category, 'category', CATEGORIES, 'fact'),
    last_verified_at: toIso(data.last_verified_at, 'last_verified_at', true),
    expires: toIso(data.expires, 'expires', true),
    origin: parseOrigin(data.origin),
    body: own(parsed.content.replace(/^\s*\n/, '').trimEnd()),
  };
  // A hand-edited, unreadable verified_head is dropped (drift then falls back to time), not fatal.
  if (typeof data.verified_head === 'string' && COMMIT_SHA.test(data.verified_head.toLowerCase())) record.verified_head = own(data.verified_head.toLowerCase());
  if (data.removed !== undefined && data.removed !== null) {
    record.removed = toIso(data.removed, 'removed', false)!;
    record.removed_reason = own(str(data.removed_reason, 'removed_reason') ?? '');
    record.removed_session = internOrNull(str(data.removed_session, 'removed_session'));
  }
  const aliases = parseAliases(data.aliases);
  if (aliases.length > 0) record.aliases = aliases;
  // merged_from is provenance only: a hand-mangled entry is dropped. merging decides whether the
  // record is visible, so it is never guessed: anything but a list of ids skips the file.
  const mergedFrom = idList(data.merged_from);
  if (mergedFrom && mergedFrom.length > 0) record.merged_from = mergedFrom;
  if (data.merging !== undefined && data.merging !== null) {
    const merging = idList(data.merging, true);
    if (!merging || merging.length === 0) throw new ParseError(`merging must be a list of memory ids, got ${shown(data.merging)}`);
    record.merging = merging;
  }
  const extra = splitBlocks(parsed.matter.replace(/^\n/, ''))
    .filter((b) => b.key === null ? !/^\s*$/.test(b.text) : !KNOWN.has(b.key))
    .map((b) => b.text);
  return { record, extra };
}

/** A list of ULIDs (upper-cased, distinct). `strict`: any other entry gives undefined; else it is dropped. */
function idList(v: unknown, strict = false): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) return strict ? undefined : [];
  const out: string[] = [];
  for (const a of v) {
    const id = typeof a === 'string' ? a.toUpperCase() : '';
    if (!isUlid(id)) {
      if (strict) return undefined;
      continue;
    }
    if (!out.includes(id)) out.push(own(id));
  }
  return out;
}

/** The `merged_from` / `merging` line as written (a YAML flow sequence of ids), or null for none. */
export function idListLine(key: 'merged_from' | 'merging', ids: readonly string[] | undefined): string | null {
  return ids && ids.length > 0 ? `${key}: [${ids.join(', ')}]` : null;
}

/** `aliases`: a list of short texts (a single text is one alias); anything else is refused. */
function parseAliases(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list)) throw new ParseError(`aliases must be a list of texts, got ${shown(v)}`);
  const out: string[] = [];
  for (const a of list) {
    if (typeof a !== 'string' && typeof a !== 'number') throw new ParseError(`aliases must be a list of texts, got an entry ${shown(a)}`);
    const t = String(a).trim();
    if (t !== '' && !out.includes(t)) out.push(own(t));
  }
  return out;
}

/** The `aliases` line as written (JSON strings: a valid YAML flow sequence), or null for none. */
export function aliasesLine(aliases: readonly string[] | undefined): string | null {
  return aliases && aliases.length > 0 ? `aliases: [${aliases.map((a) => JSON.stringify(a)).join(', ')}]` : null;
}

// A plain YAML scalar is only used when it cannot be read back as anything else (it starts with
// a letter, `_` or `/`, so never a number, date, indicator or YAML word); otherwise JSON quoting,
// which is a valid YAML double-quoted scalar.
export function yamlScalar(v: string | null): string {
  if (v === null) return 'null';
  return isPlainSafe(v) ? v : JSON.stringify(v);
}

export function serializeMemory(rec: MemoryRecord, extra: readonly string[] = []): string {
  const lines = [
    '---',
    `schema_version: ${SCHEMA_VERSION}`,
    `id: ${rec.id}`,
    `created: ${rec.created}`,
    `updated: ${rec.updated}`,
    `scopes: [${rec.scopes.join(', ')}]`,
    `confidence: ${rec.confidence}`,
    `source: ${rec.source}`,
    `category: ${rec.category}`,
    `last_verified_at: ${rec.last_verified_at ?? 'null'}`,
    `expires: ${rec.expires ?? 'null'}`,
    'origin:',
    `  cwd: ${yamlScalar(rec.origin.cwd)}`,
    `  repo: ${yamlScalar(redactRemoteUrl(rec.origin.repo))}`,
    `  branch: ${yamlScalar(rec.origin.branch)}`,
    `  worktree_root: ${yamlScalar(rec.origin.worktree_root)}`,
  ];
  if (rec.removed !== undefined) {
    lines.push(`removed: ${rec.removed}`);
    lines.push(`removed_reason: ${JSON.stringify(rec.removed_reason ?? '')}`);
    lines.push(`removed_session: ${yamlScalar(rec.removed_session ?? null)}`);
  }
  const al = aliasesLine(rec.aliases);
  if (al !== null) lines.push(al);
  if (rec.verified_head) lines.push(`verified_head: ${rec.verified_head}`);
  const mf = idListLine('merged_from', rec.merged_from);
  if (mf !== null) lines.push(mf);
  const mg = idListLine('merging', rec.merging);
  if (mg !== null) lines.push(mg);
  lines.push(...extra, '---', rec.body.trimEnd(), '');
  return lines.join('\n');
}

/**
 * File name per format.md: YYYY-MM-DD-<slug of the first ~6 words>-<last 6 chars of the id>.md.
 * `redact` gives the text the slug is built from: the store passes the secret detector's
 * `withoutSecrets` (wired in by the facade; the store layer does not import the trust layer), so
 * a name never repeats a span the gate considers secret.
 */
export function fileNameFor(rec: Pick<MemoryRecord, 'id' | 'created' | 'body'>, redact: (body: string) => string = (b) => b): string {
  const words = redact(rec.body)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 6);
  let slug = words.join('-').slice(0, 60).replace(/-+$/, '');
  if (slug === '') slug = 'memory';
  return `${rec.created.slice(0, 10)}-${slug}-${rec.id.slice(-6).toLowerCase()}.md`;
}

/**
 * What the store keeps for a file it read (store/entries.ts): the memory its text holds, the note
 * it is (`noteRel`: its place in the notes area), or why it was skipped.
 */
export function fileEntry(p: string, text: string, size: number, mtimeMs: number, noteRel: string | null): FileEntry {
  if (text.includes('\u0000')) return new Skip(size, mtimeMs, 'is binary (contains NUL bytes)');
  if (noteRel !== null) return noteRecord(p, noteRel, text, size, mtimeMs);
  try {
    const { record, extra } = parseMemoryText(text);
    // The minimal hand-made file (format.md): no `created` means the file's mtime, for
    // `updated` too. Both, like a missing id, are written down on the next change through
    // cairn; until then every process derives the same values from the same unchanged file.
    const created = record.created ?? new Date(Math.floor(mtimeMs)).toISOString();
    const updated = record.updated ?? created;
    const idAssigned = record.id === null;
    const id = record.id ?? derivedId(basename(p), created);
    const mem = storedMemory({ ...record, id, created, updated }, p, size, mtimeMs, extra);
    if (idAssigned) mem.idAssigned = true;
    return mem;
  } catch (err) {
    return new Skip(size, mtimeMs, (err as Error).message);
  }
}
