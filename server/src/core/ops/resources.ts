// What the MCP adapter serves as resources and completions, over the same records the tools read:
// the memories and notes in a listing that puts the current repo's memories first, one memory as
// markdown with its frontmatter, one note's text, one scope's memories, the values a client may
// complete (scopes, ids, note paths) ranked by how often they were used, and a change feed that
// says which memory or note changed and whether the set of them did. Nothing here writes.
import type { ReadContext, RoutedContext } from './context.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { isVisible, inViewKey, repoKeyOf, stripStored } from '../memory.ts';
import { scopeFilterMatcher, validateScopeFilter } from '../scopes.ts';
import type { StoredMemory } from '../types.ts';
import { serializeMemory } from '../store/memfile.ts';
import { MEMORIES_ROOT, noteId } from '../store/notes.ts';
import { readEvents } from '../curation/archives.ts';
import { retrievalsOf, useOf } from '../curation/usage.ts';
import { checkId, requireActiveAny, tombstonedMessage } from './common.ts';

/** Rows per resources/list page. */
export const RESOURCE_PAGE = 100;
/** The longest name a row gets (the first line of a long paragraph is cut at a word). */
const NAME_CHARS = 100;

/** Where a row sorts: the current repo's memories, then repo-less memories, then notes. */
const enum Group {
  Repo = 0,
  Repoless = 1,
  Note = 2,
}

export interface ResourceRow {
  kind: 'memory' | 'note';
  id: string;
  /** A note's path inside /memories ("projects/widgets/api.md"). */
  path?: string;
  /** The first line of the text, without markdown heading marks. */
  name: string;
  scopes: string[];
  updated: string;
  /** The current repo's memory (sorted first). */
  current_repo: boolean;
  /** Characters of the text a read serves (frontmatter included for a memory). */
  size: number;
}

/** The first non-blank line of a text, heading marks dropped, cut to NAME_CHARS at a word. */
export function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const flat = line.replace(/^\s*#{1,6}\s+/, '').replace(/\s+/g, ' ').trim();
  if (flat.length <= NAME_CHARS) return flat;
  const cut = flat.slice(0, NAME_CHARS - 1);
  const sp = cut.lastIndexOf(' ');
  return `${sp > NAME_CHARS / 2 ? cut.slice(0, sp) : cut}…`;
}

/** A note's path inside /memories, from its record. */
function notePath(m: StoredMemory): string {
  return m.note!.slice(MEMORIES_ROOT.length + 1);
}

function groupOf(c: Pick<ReadContext, 'caller' | 'config'>, m: StoredMemory): Group | null {
  if (m.note !== undefined) return Group.Note;
  if (!inViewKey(c.caller.repoKey, c.config.scopes.global, repoKeyOf(m), m.scopes)) return null;
  return c.caller.repoKey !== null && repoKeyOf(m) === c.caller.repoKey ? Group.Repo : Group.Repoless;
}

/** Within a group: memories newest first (ids are ULIDs), notes by path. */
function sortKey(m: StoredMemory): string {
  return m.note !== undefined ? notePath(m) : m.id;
}
function compare(g1: number, k1: string, g2: number, k2: string): number {
  if (g1 !== g2) return g1 - g2;
  if (k1 === k2) return 0;
  const asc = k1 < k2 ? -1 : 1;
  return g1 === Group.Note ? asc : -asc;
}

function encodeResourceCursor(g: number, k: string): string {
  return Buffer.from(JSON.stringify([g, k]), 'utf8').toString('base64url');
}
function decodeResourceCursor(cursor: string): [number, string] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && Number.isInteger(v[0]) && typeof v[1] === 'string') return [v[0] as number, v[1]];
  } catch {
    // reported below
  }
  const shown = cursor.length > 40 ? `${JSON.stringify(cursor.slice(0, 40))}...` : JSON.stringify(cursor);
  throw new ValidationError(`cursor ${shown} is not one resources/list gave: pass nextCursor from the previous page as it was, or none for the first page`);
}

/** The text a memory resource serves: the frontmatter as the store writes it, then the body exactly as memory_show gives it. */
export function memoryText(m: StoredMemory): string {
  // serializeMemory of an empty body ends "---\n\n": the frontmatter and its closing line.
  const head = serializeMemory({ ...stripStored(m), body: '' }, m.extra).slice(0, -1);
  return head + m.body;
}

interface Row {
  g: Group;
  k: string;
  m: StoredMemory;
}

/** Per context: the listing order, sorted again only after the store (or the team store) changed. */
const orders = new WeakMap<RoutedContext, { version: number; sorted: number; rows: Row[] }>();

/**
 * The memories and notes in the caller's view in listing order, expired and disabled ones
 * included (a page skips them: both move with the clock and the session, not with the store).
 * Sorted once per store version, so a client paging through a big store pays for one sort, not
 * for a pass over the whole store per page.
 */
function orderedRows(c: RoutedContext): Row[] {
  let o = orders.get(c);
  if (o === undefined) {
    const state = { version: 0, sorted: -1, rows: [] as Row[] };
    const bump = () => {
      state.version++;
    };
    c.stores.onChange(bump);
    orders.set(c, (o = state));
  }
  if (o.sorted !== o.version) {
    const rows: Row[] = [];
    for (const m of c.stores.active()) {
      const g = groupOf(c, m);
      if (g !== null) rows.push({ g, k: sortKey(m), m });
    }
    rows.sort((a, b) => compare(a.g, a.k, b.g, b.k));
    o.rows = rows;
    o.sorted = o.version;
  }
  return o.rows;
}

/**
 * One page of the resources a client may attach: the memories auto_scope shows (the current
 * repo's first, then repo-less ones; outside a repo, repo-less and global-scope ones), newest
 * first, then the notes by path. Expired memories and disabled scopes are left out, as search
 * and list leave them out. Keyset paging: a page boundary survives writes between pages.
 */
export async function resourcePage(c: RoutedContext, input: { cursor?: string | undefined; limit?: number }) {
  await c.stores.fresh({ read: true });
  const limit = input.limit ?? RESOURCE_PAGE;
  const after = input.cursor === undefined ? null : decodeResourceCursor(input.cursor);
  const now = c.now();
  const rows = orderedRows(c);
  // The first row past the cursor (binary search), then rows as they come, hidden ones skipped.
  let lo = 0;
  if (after !== null) {
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const r = rows[mid]!;
      if (compare(r.g, r.k, after[0], after[1]) <= 0) lo = mid + 1;
      else hi = mid;
    }
  }
  const buf: Row[] = [];
  let more = false;
  for (let i = lo; i < rows.length; i++) {
    const r = rows[i]!;
    if (!isVisible(c.disabledScopes, r.m, now)) continue;
    if (buf.length === limit) {
      more = true;
      break;
    }
    buf.push(r);
  }
  const items: ResourceRow[] = buf.map(({ g, m }) => ({
    kind: m.note !== undefined ? ('note' as const) : ('memory' as const),
    id: m.id,
    ...(m.note !== undefined ? { path: notePath(m) } : {}),
    name: firstLine(m.body) || (m.note !== undefined ? notePath(m) : m.id),
    scopes: [...m.scopes],
    updated: m.updated,
    current_repo: g === Group.Repo,
    size: m.note !== undefined ? m.body.length : memoryText(m).length,
  }));
  const last = buf[buf.length - 1];
  return { items, next_cursor: more && last ? encodeResourceCursor(last.g, last.k) : null };
}

/** One memory as its resource: logged as a show (a read in full), like memory_show. */
export async function readMemory(c: RoutedContext, rawId: string) {
  await c.stores.fresh({ read: true });
  await c.stores.settle([rawId]);
  const id = checkId(rawId);
  const f = c.stores.find(id);
  if (f !== null && f.m.note !== undefined) throw new NotFoundError(`${id} is a note's id: read it as cairn://notes/${notePath(f.m)}`);
  const { m } = requireActiveAny(c, id);
  c.log('show', { ids: [m.id], actor: c.actor, via: 'resource' });
  return { id: m.id, name: firstLine(m.body) || m.id, updated: m.updated, text: memoryText(m) };
}

/** One note's text, byte for byte, by its path in /memories ("projects/a.md" or "/memories/projects/a.md"). */
export async function readNote(c: ReadContext, rawPath: string) {
  await c.store.ensureFresh({ read: true });
  const rel = rawPath.replace(/^\/?memories\//, '').replace(/^\/+/, '');
  if (rel === '' || rel.split('/').some((p) => p === '' || p === '.' || p === '..')) {
    throw new ValidationError(`note path ${JSON.stringify(rawPath.slice(0, 200))} is not a file path inside /memories (like projects/widgets/api.md)`);
  }
  const m = c.store.get(noteId(rel));
  if (m === undefined || m.note === undefined) {
    const gone = c.store.getTombstone(noteId(rel));
    throw new NotFoundError(gone ? `the note ${MEMORIES_ROOT}/${rel} was deleted: ${tombstonedMessage(gone)}` : `no note at ${MEMORIES_ROOT}/${rel}`);
  }
  c.log('show', { ids: [m.id], actor: c.actor, via: 'resource' });
  return { id: m.id, path: rel, name: firstLine(m.body) || rel, updated: m.updated, text: m.body };
}

/**
 * One scope as a markdown document: every visible memory in it (nested scopes included, whatever
 * repo it came from, as memory_list with that scope), newest first, each under its first line
 * with its id, cut to the response budget with a line saying how many were left out.
 */
export async function scopeDocument(c: RoutedContext, rawScope: string) {
  const scope = validateScopeFilter(rawScope, 'scope');
  await c.stores.fresh({ read: true });
  const match = scopeFilterMatcher([scope]);
  const now = c.now();
  const mems = [...c.stores.active()].filter((m) => m.note === undefined && isVisible(c.disabledScopes, m, now) && match(m.scopes));
  mems.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const parts = [`# Memories in scope ${scope}\n\n${mems.length} ${mems.length === 1 ? 'memory' : 'memories'}; each is also cairn://memory/<id>.\n`];
  let size = parts[0]!.length;
  const shown: string[] = [];
  for (const m of mems) {
    const part = `\n## ${firstLine(m.body) || m.id}\n\nid ${m.id} · scopes ${m.scopes.join(', ')} · updated ${m.updated.slice(0, 10)}\n\n${m.body.trim()}\n`;
    if (size + part.length > LIMITS.responseChars && shown.length > 0) break;
    parts.push(part);
    size += part.length;
    shown.push(m.id);
  }
  if (shown.length < mems.length) parts.push(`\n(${mems.length - shown.length} more not shown: read them as cairn://memory/<id>, or memory_list with scopes ["${scope}"].)\n`);
  c.log('show', { ids: shown, actor: c.actor, via: 'resource', scope });
  return { scope, count: mems.length, text: parts.join('') };
}

// ---------------------------------------------------------------------------------------------
// Completions, ranked by use

/** How far back uses count for ranking completions. */
const USAGE_DAYS = 90;
/** The event log is read again at most this often (every call appends to it). */
const USAGE_REFRESH_MS = 10_000;
/** MCP caps a completion answer at 100 values. */
export const COMPLETION_MAX = 100;

interface UsageCache {
  at: number;
  byId: Map<string, number>;
}
const usageCaches = new WeakMap<ReadContext, UsageCache>();

/** Retrievals (search hits, shows), recorded uses and memory-tool commands per id, over the last USAGE_DAYS. */
function usage(c: ReadContext): Map<string, number> {
  const cached = usageCaches.get(c);
  const nowMs = Date.now();
  if (cached && nowMs - cached.at < USAGE_REFRESH_MS) return cached.byId;
  const byId = new Map<string, number>();
  const bump = (id: string) => byId.set(id, (byId.get(id) ?? 0) + 1);
  const since = nowMs - USAGE_DAYS * 86_400_000;
  try {
    for (const e of readEvents(c.events.dir, { since }).events) {
      if (Date.parse(e.ts) < since) continue;
      for (const r of retrievalsOf(e)) bump(r.id);
      const use = useOf(e);
      if (use) for (const id of use.ids) bump(id);
      if (e.kind === 'memory_tool') {
        const paths = Array.isArray(e.path) ? e.path : [e.path];
        for (const p of paths) if (typeof p === 'string' && p.startsWith(`${MEMORIES_ROOT}/`)) bump(noteId(p.slice(MEMORIES_ROOT.length + 1)));
      }
    }
  } catch (err) {
    c.warn(`completions: the event log could not be read, values are not ranked by use (${(err as Error).message})`);
  }
  usageCaches.set(c, { at: nowMs, byId });
  return byId;
}

export type CompletionKind = 'scope' | 'id' | 'note';

interface Candidate {
  value: string;
  /** Text besides the value that a typed word may match (the start of a memory's text). */
  text?: string;
  uses: number;
  inView: boolean;
  /** Tie-break after uses and view: larger first (memory count of a scope, a memory's id). */
  weight: string | number;
}

/**
 * Values for a completion request: scopes, memory ids or note paths that start with `typed`
 * (case-insensitive), then those containing it (a memory id also by the words at the start of its text),
 * each group ranked by use, then by whether it is in the caller's view.
 */
export async function complete(c: RoutedContext, kind: CompletionKind, typed: string): Promise<{ values: string[]; total: number }> {
  await c.stores.fresh({ read: true });
  const used = usage(c);
  const now = c.now();
  const cands: Candidate[] = [];
  if (kind === 'scope') {
    const scopes = new Map<string, Candidate>();
    for (const m of c.stores.active()) {
      if (!isVisible(c.disabledScopes, m, now)) continue;
      const view = m.note !== undefined || groupOf(c, m) !== null;
      const u = used.get(m.id) ?? 0;
      for (const s of m.scopes) {
        let e = scopes.get(s);
        if (!e) scopes.set(s, (e = { value: s, uses: 0, inView: false, weight: 0 }));
        e.uses += u;
        e.inView ||= view;
        e.weight = (e.weight as number) + 1;
      }
    }
    cands.push(...scopes.values());
  } else {
    for (const m of c.stores.active()) {
      if (!isVisible(c.disabledScopes, m, now)) continue;
      const isNote = m.note !== undefined;
      if (isNote !== (kind === 'note')) continue;
      cands.push({
        value: isNote ? notePath(m) : m.id,
        ...(isNote ? {} : { text: m.body.slice(0, 500).toLowerCase() }),
        uses: used.get(m.id) ?? 0,
        inView: isNote || groupOf(c, m) !== null,
        weight: isNote ? '' : m.id,
      });
    }
  }
  const t = typed.trim().toLowerCase();
  const rank = (a: Candidate, b: Candidate) =>
    b.uses - a.uses ||
    Number(b.inView) - Number(a.inView) ||
    (typeof a.weight === 'number' ? (b.weight as number) - a.weight : a.weight < b.weight ? 1 : a.weight > b.weight ? -1 : 0) ||
    (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
  const starts = cands.filter((x) => x.value.toLowerCase().startsWith(t)).sort(rank);
  const contains = t === '' ? [] : cands.filter((x) => !x.value.toLowerCase().startsWith(t) && (x.value.toLowerCase().includes(t) || (x.text !== undefined && x.text.includes(t)))).sort(rank);
  const all = [...starts, ...contains];
  return { values: all.slice(0, COMPLETION_MAX).map((x) => x.value), total: all.length };
}

// ---------------------------------------------------------------------------------------------
// Change feed

export interface ResourceChange {
  kind: 'memory' | 'note';
  id: string;
  /** A note's path inside /memories. */
  path?: string;
  /** A memory or note appeared or went away, or its first line (the listed name) changed. */
  listChanged: boolean;
}

/**
 * Calls `fn` for every memory or note that changed in the store or the team store: this
 * process's writes, and other processes' writes and hand edits as the store's watcher sees them.
 * Returns the unsubscribe.
 */
export function watchResources(c: RoutedContext, fn: (ch: ResourceChange) => void): () => void {
  return c.stores.onChange((ch) => {
    // A removal elsewhere moves the file into .tombstones/: a watcher may see the old path go
    // (a delete of an active memory) before the tombstone appears (then without a previous
    // record), so the delete itself is what changes the list.
    const m = ch.kind === 'upsert' ? ch.mem : ch.prev;
    const prev = ch.prev;
    const wasActive = prev !== undefined && !prev.tombstoned;
    const isActive = ch.kind === 'upsert' && !ch.mem.tombstoned;
    const listChanged = wasActive !== isActive || (isActive && prev !== undefined && firstLine(prev.body) !== firstLine(ch.mem.body));
    fn({ kind: m.note !== undefined ? 'note' : 'memory', id: m.id, ...(m.note !== undefined ? { path: notePath(m) } : {}), listChanged });
  });
}
