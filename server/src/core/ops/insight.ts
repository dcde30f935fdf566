// Read-only views for `cairn ui` that no tool gives: browse (filter, sort, page over the whole
// store), one memory's page (record, signals, event timeline, similar memories, backlinks), the
// overview's counts over time, the pending writes, and a change feed. Nothing here writes: every
// change the UI makes goes through the same ops as the tools (writing, lifecycle, curation).
// The UI's reads are not logged as lookups (a person browsing is not a retrieval, and
// search-as-you-type would log every keystroke); its changes are logged like any other.
import { statSync } from 'node:fs';
import type { ReadContext, RoutedContext, StoreContext } from './context.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { checkId, hitFields, ownedHitFields, signalContext, type HitFields } from './common.ts';
import { rankedAcross, type RankSource, type SearchHit } from './search.ts';
import { health, type HealthInput } from './curation.ts';
import { backlinksOf, structureFilter } from './notes.ts';
import { isExpired, recordHead, summarize } from '../memory.ts';
import { originRepoKey } from '../origin.ts';
import { scopeFilterMatcher, validateScopeFilter } from '../scopes.ts';
import { CATEGORIES, CONFIDENCES, type StoredMemory } from '../types.ts';
import { computeSignals, type HitSignals, type Verdict } from '../trust/signals/compute.ts';
import { VERDICTS } from '../trust/signals/verdict.ts';
import { verificationOf } from '../trust/signals/verification.ts';
import { readEvents, type CairnEvent } from '../curation/events.ts';
import { memoryEvents, type MemoryEvent } from '../curation/timeline.ts';
import { activity, type ActivityBucket } from '../curation/activity.ts';
import type { HealthReport } from '../curation/health.ts';
import { listPending, watchPending, type PendingEntry } from '../store/pending.ts';
import { LIMITS } from '../limits.ts';

// ---------------------------------------------------------------------------------------------
// Per-record caches. Records are replaced (never mutated) when their file changes, so a WeakMap
// keyed by the record object can never serve a stale answer about its content; signals also
// depend on the clock and the disk (cited paths), hence a short time to live.
const repoKeys = new WeakMap<StoredMemory, string | null>();
function repoOf(m: StoredMemory): string | null {
  let k = repoKeys.get(m);
  if (k === undefined) repoKeys.set(m, (k = originRepoKey(m.origin)));
  return k;
}
const SIGNAL_TTL_MS = 30_000;
const signalCache = new WeakMap<StoredMemory, { at: number; sig: HitSignals }>();
async function signalsOf(c: RoutedContext, mems: readonly StoredMemory[]): Promise<HitSignals[]> {
  const now = Date.now();
  const missing = mems.filter((m) => {
    const s = signalCache.get(m);
    return s === undefined || now - s.at > SIGNAL_TTL_MS;
  });
  // Each memory's signals from the store that holds it (a team memory's cited paths are the repo's).
  const byOwner = new Map<ReadContext, StoredMemory[]>();
  for (const m of missing) {
    const o = c.stores.ownerOf(m);
    const g = byOwner.get(o);
    if (g) g.push(m);
    else byOwner.set(o, [m]);
  }
  for (const [o, group] of byOwner) {
    const sig = await computeSignals(signalContext(o), group);
    for (const m of group) signalCache.set(m, { at: now, sig: sig.get(m.id)! });
  }
  return mems.map((m) => signalCache.get(m)!.sig);
}

// ---------------------------------------------------------------------------------------------
// Browse

export const BROWSE_SORTS = ['updated', 'created', 'verified', 'scope'] as const;
export type BrowseSort = (typeof BROWSE_SORTS)[number];
export const VERIFICATION_STATES = ['never', 'stale', 'fresh'] as const;

export interface BrowseInput {
  /** A repo key as listed in `repos`, or "none" for memories from no repo. */
  repo?: string;
  /** A scope (matches it and everything nested under it) or a glob like "projects:*". */
  scope?: string;
  category?: string;
  confidence?: string;
  verification?: string;
  verdict?: string;
  /** "hide" (default: as search and list), "only", or "include". */
  expired?: string;
  /** true: only memories with a missing cited path or commits since verification. */
  drift?: boolean;
  /** Case-insensitive words the body or aliases must contain. */
  text?: string;
  /** #tags the memory must all carry (as memory_search's `tags`), space or comma separated. */
  tags?: string;
  /** Created on or after / on or before this day (YYYY-MM-DD), as the overview's charts link. */
  created_from?: string;
  created_to?: string;
  sort?: string;
  order?: string;
  offset?: number;
  limit?: number;
}

export interface BrowseRow extends HitFields {
  summary: string;
  repo: string | null;
  expired: boolean;
}

function pick<T extends string>(v: unknown, arg: string, allowed: readonly T[]): T | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  throw new ValidationError(`${arg} must be one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
}
function day(v: unknown, arg: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) {
    throw new ValidationError(`${arg} must be a day like 2026-01-31, got ${JSON.stringify(v)}`);
  }
  return Date.parse(`${v}T00:00:00Z`);
}

export async function browse(c: RoutedContext, input: BrowseInput) {
  const category = pick(input.category, 'category', CATEGORIES);
  const confidence = pick(input.confidence, 'confidence', CONFIDENCES);
  const verification = pick(input.verification, 'verification', VERIFICATION_STATES);
  const verdict = pick(input.verdict, 'verdict', VERDICTS) as Verdict | undefined;
  const expired = pick(input.expired, 'expired', ['hide', 'only', 'include'] as const) ?? 'hide';
  const sort = pick(input.sort, 'sort', BROWSE_SORTS) ?? 'updated';
  const order = pick(input.order, 'order', ['asc', 'desc'] as const) ?? 'desc';
  const from = day(input.created_from, 'created_from');
  const toDay = day(input.created_to, 'created_to');
  const to = toDay === undefined ? undefined : toDay + 86_400_000;
  const scope = input.scope === undefined || input.scope === '' ? null : validateScopeFilter(input.scope, 'scope');
  // Memoized per scope string: a store has few distinct scopes and 50k memories, and a glob
  // match (picomatch) per memory per view would cost more than the rest of the page.
  const matchOne = scope === null ? null : scopeFilterMatcher([scope]);
  const scopeHits = new Map<string, boolean>();
  const matchScope =
    matchOne === null
      ? null
      : (scopes: readonly string[]) =>
          scopes.some((s) => {
            let hit = scopeHits.get(s);
            if (hit === undefined) scopeHits.set(s, (hit = matchOne([s])));
            return hit;
          });
  const words = (input.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const tagged = structureFilter((input.tags ?? '').split(/[\s,]+/).filter(Boolean), null);
  if (words.join(' ').length > LIMITS.queryChars) throw new ValidationError(`text is longer than ${LIMITS.queryChars} characters`);
  const offset = input.offset ?? 0;
  const limit = input.limit ?? 50;
  if (!Number.isInteger(offset) || offset < 0) throw new ValidationError(`offset must be a whole number from 0, got ${JSON.stringify(input.offset)}`);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.pageSize) throw new ValidationError(`limit must be a whole number from 1 to ${LIMITS.pageSize}`);
  await c.stores.fresh();
  const now = c.now();
  const staleDays = c.config.behavior.verification_stale_days;

  // The whole store in the asked order, sorted once per store version (sorting 50k records on
  // every page view would cost more than the rest of the page).
  const w = watchOf(c);
  if (w.sorted.version !== w.version) w.sorted = { version: w.version, byKey: new Map() };
  const sortKey = `${sort}:${order}`;
  let ordered = w.sorted.byKey.get(sortKey);
  if (!ordered) {
    const key: (m: StoredMemory) => string =
      sort === 'created' ? (m) => m.created : sort === 'verified' ? (m) => m.last_verified_at ?? '' : sort === 'scope' ? (m) => m.scopes[0] ?? '' : (m) => m.updated;
    const dir = order === 'asc' ? 1 : -1;
    const keyed = [...c.stores.active()].map((m) => ({ k: key(m), id: m.id, m }));
    keyed.sort((a, b) => (a.k < b.k ? -dir : a.k > b.k ? dir : a.id < b.id ? -dir : a.id > b.id ? dir : 0));
    // The repo key rides along: computed once per store version, not per row per view.
    ordered = keyed.map((x) => ({ m: x.m, repo: repoOf(x.m) ?? 'none', expMs: x.m.expires === null ? Infinity : Date.parse(x.m.expires) }));
    w.sorted.byKey.set(sortKey, ordered);
  }

  const repos = new Map<string, number>();
  let rows: StoredMemory[] = [];
  const nowMs = now.getTime();
  for (const { m, repo: r, expMs } of ordered) {
    const exp = expMs <= nowMs;
    if (expired === 'hide' ? exp : expired === 'only' ? !exp : false) continue;
    repos.set(r, (repos.get(r) ?? 0) + 1);
    if (input.repo && r !== input.repo) continue;
    if (matchScope && !matchScope(m.scopes)) continue;
    if (category && m.category !== category) continue;
    if (confidence && m.confidence !== confidence) continue;
    if (verification && verificationOf(m.last_verified_at, now, staleDays).status !== verification) continue;
    if (from !== undefined || to !== undefined) {
      const t = Date.parse(m.created);
      if (!(t >= (from ?? -Infinity) && t < (to ?? Infinity))) continue;
    }
    if (tagged && !tagged(m)) continue;
    if (words.length > 0) {
      const hay = (m.aliases?.length ? `${m.body}\n${m.aliases.join('\n')}` : m.body).toLowerCase();
      if (!words.every((x) => hay.includes(x))) continue;
    }
    rows.push(m);
  }
  // Verdict and drift read the disk (cited paths) and git: asked only of what the cheap filters kept.
  if (verdict !== undefined || input.drift === true) {
    const sig = await signalsOf(c, rows);
    rows = rows.filter((_, i) => {
      const s = sig[i]!;
      if (verdict !== undefined && s.staleness_verdict !== verdict) return false;
      if (input.drift === true && !(s.path_drift_missing > 0 || (s.commit_drift_count ?? 0) > 0)) return false;
      return true;
    });
  }
  const page = rows.slice(offset, offset + limit);
  const sig = await signalsOf(c, page);
  const items: BrowseRow[] = page.map((m, i) => ({
    ...recordHead(m),
    store: c.stores.ownerOf(m).storeKind,
    ...sig[i]!,
    summary: summarize(m.body, 140),
    repo: repoOf(m),
    expired: isExpired(m, now),
  }));
  return {
    total: rows.length,
    offset,
    limit,
    items,
    repos: [...repos].map(([repo, count]) => ({ repo, count })).sort((a, b) => b.count - a.count || a.repo.localeCompare(b.repo)),
  };
}

// ---------------------------------------------------------------------------------------------
// Search preview: the exact ranking of memory_search (same index, same fusion, same signals)
// without the event: the UI searches on every keystroke.

export async function searchPreview(c: RoutedContext, input: { query: string; max_results?: number; auto_scope?: boolean }): Promise<{ hits: SearchHit[] }> {
  if (typeof input.query !== 'string' || input.query.trim() === '') return { hits: [] };
  if (input.query.length > LIMITS.queryChars) throw new ValidationError(`query is ${input.query.length} characters long: at most ${LIMITS.queryChars} are accepted`);
  const l = c.index.live;
  if (l === null) throw new Error('the search index is not open');
  await c.store.ensureFresh();
  const repo = c.caller.repoKey;
  const auto = input.auto_scope === true;
  const limit = input.max_results ?? 20;
  const disabled = (m: StoredMemory) => m.scopes.some((s) => [...c.disabledScopes].some((d) => s === d || s.startsWith(`${d}:`)));
  const own: RankSource = {
    l,
    sem: c.index.semantic,
    opts: {
      limit,
      now: c.now().getTime(),
      halfLifeDays: c.config.behavior.recency_half_life_days,
      ...(c.disabledScopes.size > 0 || auto
        ? {
            filter: (m: StoredMemory) => {
              if (auto) {
                const k = repoOf(m);
                if (k !== null && k !== repo) return false;
              }
              return !disabled(m);
            },
            filterKey: JSON.stringify(['ui', [...c.disabledScopes].sort(), auto ? repo : false]),
          }
        : {}),
    },
  };
  // The repository's team store, in the same ranking as memory_search (README "Team memory").
  const t = c.stores.team;
  const tl = t?.index.live ?? null;
  if (t !== null) await t.store.ensureFresh();
  const sources: RankSource[] = [own];
  if (t !== null && tl !== null) {
    sources.push({ l: tl, sem: t.index.semantic, opts: { limit, now: c.now().getTime(), halfLifeDays: c.config.behavior.recency_half_life_days, ...c.stores.shadowed(t, { filter: (m) => !disabled(m) }) } });
  }
  const found = await rankedAcross(sources, input.query, [], limit);
  const fields = await ownedHitFields(c, found.map((h) => h.doc));
  return {
    hits: found.map((h, i) => ({ ...fields[i]!, snippet: h.snippet, score: h.score, relevance: h.relevance, match_terms: h.matchTerms })),
  };
}

// ---------------------------------------------------------------------------------------------
// One memory, active or removed

const ULID_IN_TEXT = /\b[0-9A-HJKMNP-TV-Z]{26}\b/g;

export async function memoryPage(c: RoutedContext, input: { id: string; events?: number }) {
  const id = checkId(input.id);
  await c.store.ensureFresh();
  const m = c.store.get(id) ?? c.store.getTombstone(id);
  if (!m) throw new NotFoundError(`no memory with id ${id}`);
  const [fields] = await hitFields(c, [m], true);
  const log = memoryEvents(events(c), id, input.events ?? 200);
  const brief = (x: StoredMemory) => ({ id: x.id, scopes: x.scopes, summary: summarize(x.body, 120), removed: x.tombstoned });
  const similar = m.tombstoned
    ? []
    : c.index.candidatesFor(m.body, 8)
        .filter((x) => x !== id)
        .slice(0, 5)
        .map((x) => c.store.get(x))
        .filter((x): x is StoredMemory => x !== undefined)
        .map(brief);
  // Links by id in the text, both ways: what this memory names, and what names it.
  const links = [...new Set(m.body.match(ULID_IN_TEXT) ?? [])]
    .filter((x) => x !== id)
    .map((x) => c.store.get(x) ?? c.store.getTombstone(x))
    .filter((x): x is StoredMemory => x !== undefined)
    .map(brief);
  // Named by: wikilinks from the link graph ([[title]], relation::[[...]]) and plain ids in a text.
  const backlinks: (ReturnType<typeof brief> & { relation?: string })[] = [];
  if (!m.tombstoned) {
    for (const b of backlinksOf(c, m)) {
      const o = c.store.get(b.id);
      if (o && !backlinks.some((x) => x.id === o.id)) backlinks.push({ ...brief(o), relation: b.relation });
    }
  }
  for (const o of c.store.active()) if (o.id !== id && o.body.includes(id) && !backlinks.some((x) => x.id === o.id)) backlinks.push(brief(o));
  return {
    memory: {
      ...fields!,
      body: m.body,
      aliases: m.aliases ? [...m.aliases] : [],
      source: m.source,
      origin: m.origin,
      expires: m.expires,
      expired: isExpired(m, c.now()),
      file: m.file,
      extra_frontmatter: [...m.extra],
      removed: m.removed ?? null,
      removed_reason: m.removed_reason ?? null,
      tombstoned: m.tombstoned,
      repo: repoOf(m),
    },
    events: log.events,
    events_total: log.total,
    similar,
    links,
    backlinks: backlinks.slice(0, 20),
  };
}
export type { MemoryEvent };

// ---------------------------------------------------------------------------------------------
// Overview: counts now and over time, and the health figures, cached until the store or the
// event log changes (a page must not recompute memory_health at 50k memories on every view).

export interface OverviewStats {
  generated_at: string;
  active: number;
  expired: number;
  tombstoned: number;
  pending: number;
  by_repo: { repo: string; count: number }[];
  by_scope: { scope: string; count: number }[];
  verification: { never: number; stale: number; fresh: number };
  weekly: ActivityBucket[];
  health: HealthReport;
}

interface Watch {
  version: number;
  stop: () => void;
  overview: { key: string; value: OverviewStats } | null;
  health: { key: string; value: HealthReport } | null;
  events: { key: string; value: CairnEvent[] } | null;
  /** Active memories in browse order, per sort key, for the current store version. */
  sorted: { version: number; byKey: Map<string, { m: StoredMemory; repo: string; expMs: number }[]> };
}
const watches = new WeakMap<RoutedContext, Watch>();
function watchOf(c: RoutedContext): Watch {
  let w = watches.get(c);
  if (!w) {
    // The team store's changes count too: browse lists both stores.
    const bump = () => {
      w!.version++;
    };
    const stop = c.stores.onChange(bump);
    watches.set(c, (w = { version: 0, stop, overview: null, health: null, events: null, sorted: { version: -1, byKey: new Map() } }));
  }
  return w;
}

function eventsStamp(c: Pick<ReadContext, 'events'>): string {
  // The active log's size and mtime: an append or a rotation changes one of them.
  const file = c.events.file;
  if (!file) return 'none';
  const st = statSyncSafe(file);
  return st ? `${st.size}:${st.mtimeMs}` : 'none';
}
function statSyncSafe(file: string) {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/**
 * The event log, read again only when the active log changed (an append or a rotation changes
 * its size or mtime). Reading it lists the store directory for archives, which costs tens of
 * milliseconds at 50k memories: the memory page must not pay that on every view.
 */
function events(c: RoutedContext): CairnEvent[] {
  const w = watchOf(c);
  const key = eventsStamp(c);
  if (w.events?.key === key) return w.events.value;
  const value = readEvents(c.events.dir).events;
  w.events = { key, value };
  return value;
}

/**
 * memory_health's report for the UI, recomputed only when the store or the event log changed (or
 * the hour turned: ages and windows move with the clock). At 50k memories one report costs most
 * of a second; a page view must not.
 */
export async function cachedHealth(c: RoutedContext, input: HealthInput): Promise<HealthReport> {
  await c.store.ensureFresh();
  const w = watchOf(c);
  const key = () => `${w.version}:${eventsStamp(c)}:${JSON.stringify(input)}:${c.now().toISOString().slice(0, 13)}`;
  const before = key();
  if (w.health?.key === before) return w.health.value;
  const value = await health(c, input);
  if (key() === before) w.health = { key: before, value };
  return value;
}

export async function overview(c: RoutedContext, input: { weeks?: number } = {}): Promise<OverviewStats> {
  const weeks = input.weeks ?? 12;
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > 104) throw new ValidationError('weeks must be a whole number from 1 to 104');
  await c.store.ensureFresh();
  const w = watchOf(c);
  const now = c.now();
  const key = `${w.version}:${eventsStamp(c)}:${weeks}:${now.toISOString().slice(0, 13)}`;
  if (w.overview?.key === key) return w.overview.value;
  const staleDays = c.config.behavior.verification_stale_days;
  const repos = new Map<string, number>();
  const scopes = new Map<string, number>();
  const verification = { never: 0, stale: 0, fresh: 0 };
  let active = 0;
  let expired = 0;
  const records: StoredMemory[] = [];
  for (const m of c.store.active()) {
    records.push(m);
    if (isExpired(m, now)) {
      expired++;
      continue;
    }
    active++;
    const r = repoOf(m) ?? 'none';
    repos.set(r, (repos.get(r) ?? 0) + 1);
    for (const s of m.scopes) scopes.set(s, (scopes.get(s) ?? 0) + 1);
    verification[verificationOf(m.last_verified_at, now, staleDays).status]++;
  }
  let tombstoned = 0;
  for (const t of c.store.tombstones()) {
    records.push(t);
    tombstoned++;
  }
  const rep = await cachedHealth(c, {});
  const log = events(c);
  const value: OverviewStats = {
    generated_at: now.toISOString(),
    active,
    expired,
    tombstoned,
    pending: (await listPending(c.dir, now)).length,
    by_repo: [...repos].map(([repo, count]) => ({ repo, count })).sort((a, b) => b.count - a.count || a.repo.localeCompare(b.repo)),
    by_scope: [...scopes].map(([scope, count]) => ({ scope, count })).sort((a, b) => b.count - a.count || a.scope.localeCompare(b.scope)),
    verification,
    weekly: activity(now, records, log, { buckets: weeks, days: 7 }),
    health: rep,
  };
  // The key is taken again: a change while we computed must not be cached as current.
  const after = `${w.version}:${eventsStamp(c)}:${weeks}:${now.toISOString().slice(0, 13)}`;
  if (after === key) w.overview = { key, value };
  return value;
}

// ---------------------------------------------------------------------------------------------
// Pending writes and the change feed

export async function pendingWrites(c: Pick<StoreContext, 'dir' | 'now'>): Promise<PendingEntry[]> {
  return listPending(c.dir, c.now());
}

export type ChangeNote = { kind: 'memory'; id: string; removed: boolean } | { kind: 'pending' };

/**
 * Calls `fn` for every change to the store (this process's writes, and other processes' and hand
 * edits as the freshness watcher sees them) and to the pending writes. Returns the unsubscribe.
 */
export function onChange(c: RoutedContext, fn: (n: ChangeNote) => void): () => void {
  watchOf(c);
  const unStore = c.store.onChange((ch) => {
    const m = ch.kind === 'upsert' ? ch.mem : ch.prev;
    fn({ kind: 'memory', id: m.id, removed: ch.kind === 'delete' || m.tombstoned });
  });
  const unPending = watchPending(c.dir, () => fn({ kind: 'pending' }));
  return () => {
    unStore();
    unPending();
  };
}
