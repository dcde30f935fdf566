// The retrieval tool group: memory_search over the live index, memory_show, memory_list and
// memory_scope_overview. Reads come from the in-memory view of the store (kept current by the
// store's freshness strategy), never a walk of the files. openIndex/closeIndex tie the index to
// the facade's lifetime; candidatesFor serves the write gates' near-duplicate check.
import type { Context } from './context.ts';
import { existsSync } from 'node:fs';
import { recentCursor, recentPage } from './recentPage.ts';
import { ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { LiveIndex } from '../index/live.ts';
import { readOverview } from '../index/overviewCache.ts';
import { queryWords } from '../index/query.ts';
import type { SearchOptions } from '../index/searchIndex.ts';
import { DEFAULT_CALIBRATION, fuse, joinedQuery, type FusedHit } from '../index/fusion.ts';
import { calibrationFor } from '../index/calibration.ts';
import { rewordingRuleFor } from '../trust/gates/rewording.ts';
import { SemanticLeg } from '../index/semantic.ts';
import { createEmbedder, interimOf } from '../embed/config.ts';
import { vectorFileFor } from '../index/vectorCache.ts';
import { inViewKey, isDisabled, isExpired, isVisible, repoKeyOf, summarize } from '../memory.ts';
import { scopeFilterMatcher, validateScopeFilter } from '../scopes.ts';
import type { PhaseProgress, StoredMemory } from '../types.ts';
import {
  MAX_IDS_PER_CALL, checkId, checkLimit, decodeCursor, encodeCursor, findAny, ownedHitFields, ownerOf, requireActiveAny, settleUnknownIds,
  tombstonedMessage, warmHitFields, type HitFields,
} from './common.ts';
import { curationPending } from './curation.ts';
import { backlinksOf, structureFilter } from './notes.ts';
import { capPage, checkMaxChars, fitBudget, leanHit, staleAfter } from './shape.ts';
import { FeedbackFold, rerankWithinBands } from '../curation/feedback.ts';
import { recencyOf } from '../index/analyze.ts';
import { RECENCY_WEIGHT } from '../index/bm25.ts';

export interface ShowInput {
  id?: string;
  ids?: string[];
  /** With `id`: the body from this character on (paging through a body larger than the budget). */
  body_offset?: number;
  /** A lookup for the user to read (/memory-search), not for the model's own work. */
  for_user?: boolean;
  /** Characters of JSON the answer may hold (default and ceiling LIMITS.responseChars). */
  max_chars?: number;
}

/** `actor` of a retrieval event: the process's, or 'user' when the call says it is for the user. */
function actorFor(c: Context, forUser: unknown): 'model' | 'user' {
  if (forUser !== undefined && typeof forUser !== 'boolean') throw new ValidationError('for_user must be true or false');
  return forUser === true ? 'user' : c.actor;
}
export interface ListInput {
  scopes?: string[];
  with_bodies?: boolean;
  limit?: number;
  cursor?: string;
  /** `created` (default): newest first by id; `recent`: latest activity first (edit or verification). */
  sort?: 'created' | 'recent';
  /** Only notes (files of the `memory` tool) or only other memories; default both. */
  kind?: 'note' | 'memory';
}

export interface OverviewInput {
  auto_scope?: boolean;
}

export function checkScopeFilters(scopes: unknown): string[] {
  if (scopes === undefined || scopes === null) return [];
  if (!Array.isArray(scopes)) throw new ValidationError('scopes must be an array of scopes or globs, like ["tools", "projects:*"]');
  if (scopes.length > LIMITS.scopeFilters) throw new ValidationError(`scopes has ${scopes.length} entries: at most ${LIMITS.scopeFilters} filters are allowed`);
  return scopes.map((s) => validateScopeFilter(s));
}

export async function fullRecords(c: Context, mems: StoredMemory[]) {
  const hits = await ownedHitFields(c, mems, true);
  return hits.map((h, i) => {
    const m = mems[i]!;
    return {
      ...h,
      body: m.body,
      aliases: m.aliases ? [...m.aliases] : [],
      source: m.source,
      origin: m.origin,
      expires: m.expires,
      ...(m.merged_from && m.merged_from.length > 0 ? { merged_from: [...m.merged_from] } : {}),
      backlinks: backlinksOf(ownerOf(c, m), m),
    };
  });
}

export async function show(c: Context, input: ShowInput) {
  const budget = checkMaxChars(input.max_chars) ?? LIMITS.responseChars;
  const fit = (ans: { memories: object[]; missing: { id: string; reason: string }[] }) =>
    fitBudget(ans, budget, { key: 'memories', textKeys: ['body'], dropKey: 'ids_dropped', shortKey: 'bodies_shortened', listDropped: true });
  const actor = actorFor(c, input.for_user);
  await freshEverywhere(c, true);
  await settleUnknownIds(c, [input.id, ...(Array.isArray(input.ids) ? input.ids.slice(0, MAX_IDS_PER_CALL) : [])]);
  const hasId = input.id !== undefined && input.id !== null;
  const hasIds = input.ids !== undefined && input.ids !== null;
  if (hasId === hasIds) throw new ValidationError('pass exactly one of id (one memory) or ids (up to 10)');
  const offset = input.body_offset;
  if (offset !== undefined && offset !== null) {
    if (!hasId) throw new ValidationError('body_offset pages through one memory\'s body: pass it with id, not ids');
    if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) throw new ValidationError(`body_offset must be a whole number from 0, got ${JSON.stringify(offset)}`);
  }
  if (hasId) {
    const { m } = requireActiveAny(c, input.id);
    c.log('show', { ids: [m.id], actor });
    const from = typeof offset === 'number' ? offset : 0;
    if (from > 0 && from >= m.body.length) throw new ValidationError(`body_offset ${from} is past the end of the body (${m.body.length} characters)`);
    const [rec] = await fullRecords(c, [m]);
    const sliced = from > 0 ? { ...rec!, body: m.body.slice(from) } : rec!;
    const out = fit({ memories: [sliced], missing: [] as { id: string; reason: string }[] });
    const t = (out as { truncated?: { bodies_shortened: string[] } }).truncated;
    if (t && t.bodies_shortened.length > 0) {
      // The shortened body ends in an ellipsis that is not part of the text: the next page starts right after what was shown.
      const shown = ((out.memories[0] as { body: string }).body.length - 1);
      Object.assign(t, { body_chars: m.body.length, next_body_offset: from + shown });
    }
    return out;
  }
  if (!Array.isArray(input.ids) || input.ids.length === 0) throw new ValidationError('ids must be a non-empty array of memory ids');
  if (input.ids.length > MAX_IDS_PER_CALL) throw new ValidationError(`ids has ${input.ids.length} entries: at most ${MAX_IDS_PER_CALL} per call`);
  const ids = [...new Set(input.ids.map((x, i) => checkId(x, `ids[${i}]`)))];
  const found: StoredMemory[] = [];
  const missing: { id: string; reason: string }[] = [];
  for (const id of ids) {
    const f = findAny(c, id);
    if (f && !f.tombstoned) found.push(f.m);
    else missing.push({ id, reason: f ? tombstonedMessage(f.m) : `no memory with id ${id}` });
  }
  c.log('show', { ids: found.map((m) => m.id), missing: missing.map((m) => m.id), actor });
  return fit({ memories: await fullRecords(c, found), missing });
}

/**
 * The `limit` newest (by id) memories older than `after` that pass `keep`: one pass with a small
 * sorted buffer instead of sorting the whole store for every page.
 */
export function newestPage(source: Iterable<StoredMemory>, keep: (m: StoredMemory) => boolean, after: string | null, limit: number) {
  const buf: StoredMemory[] = [];
  let more = false;
  for (const m of source) {
    if (after !== null && m.id >= after) continue;
    if (!keep(m)) continue;
    if (buf.length === limit && m.id < buf[limit - 1]!.id) {
      more = true;
      continue;
    }
    let i = buf.length;
    while (i > 0 && buf[i - 1]!.id < m.id) i--;
    buf.splice(i, 0, m);
    if (buf.length > limit) {
      buf.pop();
      more = true;
    }
  }
  return { page: buf, next_cursor: more && buf.length ? encodeCursor(buf[buf.length - 1]!.id) : null };
}

/**
 * The active memories of the personal store and then of the team store (README "Team memory").
 * An id both hold is listed once, from the personal store, as memory_show resolves it.
 */
export function* activeEverywhere(c: Context): Generator<StoredMemory> {
  yield* c.store.active();
  const t = c.team;
  if (t === null) return;
  for (const m of t.store.active()) if (!c.store.holds(m.id)) yield m;
}

/** Both stores fresh before a read (the team store's own freshness machinery, as the personal one). */
async function freshEverywhere(c: Context, read: boolean): Promise<void> {
  await c.store.ensureFresh(read ? { read: true } : undefined);
  if (c.team !== null) await c.team.store.ensureFresh(read ? { read: true } : undefined);
}

/** memory_list's items: each hit (a new object) given its summary, and its body when asked, last. */
function listItems(hits: HitFields[], page: readonly StoredMemory[], withBodies: boolean) {
  return hits.map((h, i) => Object.assign(h, { summary: summarize(page[i]!.body) }, withBodies ? { body: page[i]!.body } : {}));
}

/**
 * Every page of memory_list at once, handed to `emit` as it is made with how many memories are
 * listed so far of all (the CLI's `list --all`): one freshness check and one event for the whole
 * walk, however many pages.
 */
export async function listEach(c: Context, input: Omit<ListInput, 'cursor'>, emit: (items: Awaited<ReturnType<typeof list>>['items'], done: number, total: number) => void): Promise<number> {
  await freshEverywhere(c, true);
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, 'limit', LIMITS.pageSize, LIMITS.defaultPageSize);
  const match = scopeFilterMatcher(filters);
  const now = c.now();
  // One pass sorts the visible memories newest first; pages are slices of it.
  const all = [...activeEverywhere(c)].filter((m) => isVisible(c.disabledScopes, m, now) && match(m.scopes));
  all.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  await warmHitFields(c, all);
  for (let at = 0; at < all.length; at += limit) {
    const page = all.slice(at, at + limit);
    emit(listItems(await ownedHitFields(c, page), page, input.with_bodies === true), at + page.length, all.length);
  }
  c.log('list', { scopes: filters, limit, all: true, returned_count: all.length, actor: c.actor });
  return all.length;
}

export async function list(c: Context, input: ListInput) {
  await freshEverywhere(c, true);
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, 'limit', LIMITS.pageSize, LIMITS.defaultPageSize);
  if (input.sort !== undefined && input.sort !== 'created' && input.sort !== 'recent') throw new ValidationError(`sort must be "created" (newest first) or "recent" (latest activity first), got ${JSON.stringify(input.sort)}`);
  if (input.kind !== undefined && input.kind !== 'note' && input.kind !== 'memory') throw new ValidationError(`kind must be "note" (files of the memory tool) or "memory", got ${JSON.stringify(input.kind)}`);
  const recent = input.sort === 'recent';
  const match = scopeFilterMatcher(filters);
  const now = c.now();
  const keep = (m: StoredMemory) => isVisible(c.disabledScopes, m, now) && match(m.scopes) && (input.kind === undefined || (m.note !== undefined) === (input.kind === 'note'));
  const { page, next_cursor } = recent
    ? recentPage(activeEverywhere(c), keep, input.cursor ?? undefined, limit)
    : newestPage(activeEverywhere(c), keep, input.cursor === undefined || input.cursor === null ? null : decodeCursor(input.cursor), limit);
  const items = listItems(await ownedHitFields(c, page), page, input.with_bodies === true);
  const byId = new Map(page.map((m) => [m.id, m]));
  const capped = capPage({ items, next_cursor }, (last) => (recent ? recentCursor(byId.get(last.id)!) : encodeCursor(last.id)));
  c.log('list', { scopes: filters, limit, ...(recent ? { sort: 'recent' } : {}), ...(input.kind ? { kind: input.kind } : {}), returned: capped.items.map((x) => x.id), actor: c.actor });
  return capped;
}

/**
 * `opts.curation: false` (the session-start hook) leaves out the curation counts, which check
 * every memory's cited paths and read the whole event log: they are then all zero. `progress`
 * hears when they begin and end (the CLI's progress line).
 */
export async function scopeOverview(c: Context, input: OverviewInput, opts: { curation: boolean; progress?: PhaseProgress } = { curation: true }) {
  await freshEverywhere(c, true);
  const auto = input.auto_scope ?? true;
  const now = c.now();
  const inView: StoredMemory[] = [];
  const expired: StoredMemory[] = [];
  const scopes: Record<string, number> = {};
  // Visible memories the auto_scope view leaves out, per repo (outside a repo the model
  // must learn that memory is not empty, only elsewhere).
  const elsewhere = new Map<string, { repo: string; count: number }>();
  let elsewhereTotal = 0;
  // Of the memories in view, those written in the current repo (the rest carry no repo, or are
  // in view through a global scope): "for this project" counts only these.
  let repoTotal = 0;
  for (const m of c.store.active()) {
    if (auto && !inCallerView(c, m)) {
      if (!isVisible(c.disabledScopes, m, now)) continue;
      elsewhereTotal++;
      const key = repoKeyOf(m)!;
      const e = elsewhere.get(key);
      if (e) e.count++;
      else elsewhere.set(key, { repo: m.origin.repo ?? m.origin.worktree_root ?? key, count: 1 });
      continue;
    }
    if (isExpired(m, now)) {
      expired.push(m);
      continue;
    }
    if (!isVisible(c.disabledScopes, m, now)) continue;
    inView.push(m);
    if (c.caller.repoKey !== null && repoKeyOf(m) === c.caller.repoKey) repoTotal++;
    for (const s of m.scopes) scopes[s] = (scopes[s] ?? 0) + 1;
  }
  const sorted: Record<string, number> = Object.fromEntries(Object.keys(scopes).sort().map((k) => [k, scopes[k]!]));
  const repos = [...elsewhere.values()].sort((a, b) => b.count - a.count || (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : 0));
  opts.progress?.('checking memories for curation', 0, inView.length);
  const out = {
    current_repo: c.caller.repoUrl ?? c.caller.repoRoot,
    view: !auto ? ('all' as const) : c.caller.repoKey !== null ? ('repo' as const) : ('outside_repo' as const),
    global_scopes: [...c.config.scopes.global],
    total: inView.length,
    repo_total: repoTotal,
    scopes: sorted,
    disabled_scopes: [...c.disabledScopes].sort(),
    elsewhere: { total: elsewhereTotal, repos: repos.slice(0, ELSEWHERE_REPOS_MAX) },
    curation_pending: opts.curation ? await curationPending(c, inView, expired).finally(() => opts.progress?.('checking memories for curation', inView.length, inView.length)) : { stale: 0, never_verified: 0, drifted: 0, expired: expired.length, dead: 0 },
    // The repository's team store (README "Team memory"): all of it is in this repo's view.
    ...(c.team !== null ? { team: teamOverview(c.team, now) } : {}),
  };
  c.log('scope_overview', { auto_scope: auto, total: out.total, elsewhere: elsewhereTotal });
  return out;
}

function teamOverview(t: Context, now: Date) {
  const scopes: Record<string, number> = {};
  let total = 0;
  for (const m of t.store.active()) {
    if (!isVisible(t.disabledScopes, m, now)) continue;
    total++;
    for (const s of m.scopes) scopes[s] = (scopes[s] ?? 0) + 1;
  }
  const sorted: Record<string, number> = Object.fromEntries(Object.keys(scopes).sort().map((k) => [k, scopes[k]!]));
  return { dir: t.dir, total, scopes: sorted };
}

/**
 * The session-start counts from the index cache's summary (index/overviewCache.ts), without
 * opening the store: the numbers scopeOverview gives (auto_scope, curation off) over a peek at that
 * cache in a new process (no disabled scopes). Null when the store has no current summary.
 */
export function peekOverview(dir: string, global: readonly string[], callerRepoKey: string | null, now: Date): { total: number; repoTotal: number; scopes: Record<string, number>; elsewhere: number; outside: boolean } | null {
  const groups = readOverview(dir);
  if (groups === null) return null;
  let total = 0;
  let repoTotal = 0;
  let elsewhere = 0;
  const scopes: Record<string, number> = {};
  for (const g of groups) {
    const expired = isExpired(g, now);
    if (!inViewKey(callerRepoKey, global, g.repo, g.scopes)) {
      if (!expired) elsewhere += g.n;
      continue;
    }
    if (expired) continue;
    total += g.n;
    if (g.repo !== null && g.repo === callerRepoKey) repoTotal += g.n;
    for (const s of g.scopes) scopes[s] = (scopes[s] ?? 0) + g.n;
  }
  return { total, repoTotal, scopes, elsewhere, outside: callerRepoKey === null };
}

/** How many other repos memory_scope_overview names in `elsewhere.repos` (largest first). */
export const ELSEWHERE_REPOS_MAX = 10;

/** The auto_scope rule for this caller (core/memory.ts inViewKey), with the memory's cached repo key. */
function inCallerView(c: Context, m: StoredMemory): boolean {
  return inViewKey(c.caller.repoKey, c.config.scopes.global, repoKeyOf(m), m.scopes);
}

export interface SearchInput {
  query: string;
  /** rephrasings or likely words: searched joined with the query (fusion.ts) */
  alternates?: string[];
  scopes?: string[];
  max_results?: number;
  expand_top?: boolean;
  auto_scope?: boolean;
  /** A lookup for the user to read (/memory-search), not for the model's own work. */
  for_user?: boolean;
  /** Only memories carrying every one of these tags (`#tag` in the body, a note's frontmatter tags). */
  tags?: string[];
  /** Only memories with an observation of this category (`- [category] ...`). */
  category?: string;
  /** Characters of JSON the answer may hold (default and ceiling LIMITS.responseChars). */
  max_chars?: number;
  /** Each hit says why it ranked where it did (`explain`). */
  explain?: boolean;
}
export type Relevance = 'high' | 'medium' | 'low';
export interface SearchHit extends HitFields {
  snippet: string;
  score: number;
  relevance: Relevance;
  match_terms: string[];
  body?: string;
  explain?: HitExplain;
}
/** Why a hit ranked where it did (tools.md "explain"). */
export interface HitExplain {
  /** The lexical (BM25F) part: the score before the recency boost; a fused rank score with alternates. */
  bm25: number;
  /** The semantic leg's part, when a semantic leg ranked this search. */
  semantic?: number;
  /** The recency factor the lexical score was multiplied by (1 to 1 + 0.1). */
  recency: number;
  /** The feedback multiplier (1: none or ranking.feedback off) and the faded counts behind it. */
  feedback: { multiplier: number; applied: number; sunk: number; idle: number };
  /** score × feedback multiplier: the order inside a relevance band. */
  final: number;
}
type LeftOutWhenDefault = 'confidence' | 'category' | 'created' | 'last_verified_at' | 'verification' | 'path_drift_checked' | 'path_drift_missing';
export type LeanSearchHit = Omit<SearchHit, LeftOutWhenDefault> & {
  confidence?: string;
  category?: string;
  created?: string;
  last_verified_at?: string;
  verification?: { status: 'stale' | 'fresh'; age_days: number | null; warning?: string };
  path_drift_checked?: number;
  path_drift_missing?: number;
};
export interface SearchOutput {
  /** Lean hits (shape.ts leanHit): defaults, nulls and zero counts left out. */
  hits: LeanSearchHit[];
  stale_after_days?: number;
  truncated?: { hits_dropped: number; snippets_shortened: number };
}

export const MAX_QUERY_CHARS = LIMITS.queryChars;

export function checkAlternates(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ValidationError('alternates must be an array of rephrasings of the query, like ["preferred editor", "vim emacs vscode"]');
  if (v.length > LIMITS.alternates) throw new ValidationError(`alternates has ${v.length} entries: at most ${LIMITS.alternates} are accepted`);
  const out: string[] = [];
  v.forEach((a, i) => {
    if (typeof a !== 'string' || a.trim() === '') throw new ValidationError(`alternates[${i}] must be a non-empty string`);
    if (a.length > MAX_QUERY_CHARS) throw new ValidationError(`alternates[${i}] is ${a.length} characters long: at most ${MAX_QUERY_CHARS} are accepted`);
    if (!out.includes(a.trim())) out.push(a.trim());
  });
  return out;
}
function checkTags(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((t) => typeof t !== 'string' || t.replace(/^#/, '').trim() === '')) throw new ValidationError('tags must be an array of tags, like ["style", "db"] (with or without the #)');
  if (v.length > LIMITS.scopeFilters) throw new ValidationError(`tags has ${v.length} entries: at most ${LIMITS.scopeFilters} are accepted`);
  return [...new Set(v.map((t: string) => t.replace(/^#/, '').trim().toLowerCase()))];
}
function checkCategory(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.trim() === '') throw new ValidationError('category must be an observation category, like "decision" (from "- [decision] ...")');
  return v.trim().toLowerCase();
}

function live(c: Context): LiveIndex {
  const l = c.services.index;
  if (l === null) throw new Error('the search index is not open (Cairn.open opens it)');
  return l;
}

export async function openIndex(c: Context, progress?: PhaseProgress): Promise<void> {
  const l = new LiveIndex(c.store, { synonyms: c.config.search.synonyms, watch: c.watch, oneShot: c.oneShot, warn: c.warn, ...(progress ? { progress } : {}) });
  c.services.index = l;
  await l.open();
  const embedder = createEmbedder(c.config.embed, c.warn);
  if (embedder !== null) {
    // provider "local": the model's leg, the built-in table's answering until it can; without the
    // table (the npm package ships the model only), lexical until the model covers the store.
    let interimEmbedder = interimOf(embedder);
    if (interimEmbedder && !existsSync(interimEmbedder.file)) {
      c.warn('the built-in embedding table is not installed here: until the local model has embedded the store, search is lexical only');
      interimEmbedder = null;
    }
    const interim = interimEmbedder && new SemanticLeg(c.store, interimEmbedder, { watch: c.watch, warn: c.warn, progress: embedProgress(c) });
    const leg = new SemanticLeg(c.store, embedder, {
      watch: c.watch, warn: c.warn, progress: embedProgress(c),
      ...(interim ? { interim, cacheFile: vectorFileFor(embedder.id) } : {}),
    });
    c.services.semantic = leg;
    await leg.open();
  }
}

/**
 * Progress of a (re-)embedding of at least EMBED_NOTE_MIN memories in a one-shot command, on
 * stderr (never in a server): live on a terminal, else one line when done.
 */
const EMBED_NOTE_MIN = 100;
function embedProgress(c: Context): ((done: number, total: number) => void) | undefined {
  if (c.watch) return undefined;
  // The end of a pass may be reported twice (the last batch, then the drain's end): said once.
  let ended = false;
  const end = (done: number, total: number) => {
    if (done < total) ended = false;
    else if (ended) return true;
    else ended = true;
    return false;
  };
  if (!process.stderr.isTTY) {
    return (done, total) => {
      if (end(done, total)) return;
      if (done >= total && total >= EMBED_NOTE_MIN) process.stderr.write(`embedded ${total} memories for semantic search\n`);
    };
  }
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (end(done, total)) return;
    if (total < EMBED_NOTE_MIN || (done < total && now - last < 500)) return;
    last = now;
    process.stderr.write(`\rembedding memories for semantic search: ${done}/${total}${done >= total ? '\n' : ''}`);
  };
}

export async function closeIndex(c: Context): Promise<void> {
  const l = c.services.index;
  const s = c.services.semantic;
  c.services.index = null;
  c.services.semantic = null;
  if (s !== null) await s.close();
  if (l !== null) await l.close();
}

/** Semantic neighbours for the write gates (empty without a semantic leg). */
export async function semanticGateOptions(c: Context) {
  const s = c.services.semantic;
  if (s === null) return {};
  // While a server started from the cache still checks its files (its first second at 50k
  // memories), the leg is not open yet: the write does not wait for it (the lexical duplicate
  // gate sees every memory of the snapshot), and the leg opens once the check is done.
  if (!(await s.readyForSearch())) return {};
  if (s.index === null) return {};
  return {
    neighbours: (text: string, limit: number) => s.neighbours(text, limit),
    removedNeighbours: (text: string, limit: number) => s.removedNeighbours(text, limit),
    semanticRule: rewordingRuleFor(s.index.embedderId),
  };
}

/** Ids of active memories sharing the rarest terms of `text`, best first: dedup candidates. */
export function candidatesFor(c: Context, text: string, limit: number): string[] {
  return live(c).index.candidatesFor(text, limit);
}

/** The memories candidatesFor names: the write gates take the records the index holds. */
export function candidateRecordsFor(c: Context, text: string, limit: number): StoredMemory[] {
  return live(c).index.candidateDocsFor(text, limit);
}

/**
 * The visibility rules of tools.md that depend on the caller: disabled scopes, scope filters,
 * auto_scope. (Expired memories are left out by the index itself, against `now`.) The key names
 * everything the answer depends on besides the memory, so the index may remember answers per
 * memory across searches with the same key.
 */
function searchFilter(c: Context, scopes: string[], autoScope: boolean, tags: string[] = [], category: string | null = null): { filter?: (m: StoredMemory) => boolean; filterKey?: string } {
  const disabled = [...c.disabledScopes].sort();
  const repo = c.caller.repoKey;
  const structural = structureFilter(tags, category);
  // A team store belongs to the caller's repository: all of it is in the auto_scope view.
  if (c.storeKind === 'team') autoScope = false;
  if (scopes.length === 0 && disabled.length === 0 && !autoScope && structural === null) return {};
  const match = scopes.length > 0 ? scopeFilterMatcher(scopes) : null;
  const filter = (m: StoredMemory): boolean => {
    if (disabled.length > 0 && isDisabled(c.disabledScopes, m)) return false;
    if (match !== null && !match(m.scopes)) return false;
    if (autoScope && !inCallerView(c, m)) return false;
    return structural === null || structural(m);
  };
  // Outside a repo the view also depends on the global scopes.
  return { filter, filterKey: JSON.stringify([scopes, disabled, autoScope ? repo ?? ['outside', c.config.scopes.global] : false, ...(structural ? [tags, category] : [])]) };
}

export async function search(c: Context, input: SearchInput): Promise<SearchOutput> {
  if (typeof input.query !== 'string' || input.query.trim() === '') {
    throw new ValidationError('query must be a non-empty string: the words or identifiers to look for');
  }
  if (input.query.length > MAX_QUERY_CHARS) {
    throw new ValidationError(`query is ${input.query.length} characters long: at most ${MAX_QUERY_CHARS} are accepted; search with the key words`);
  }
  const max = checkLimit(input.max_results, 'max_results', LIMITS.maxResults, c.config.behavior.default_max_results);
  const filters = checkScopeFilters(input.scopes);
  if (input.expand_top !== undefined && typeof input.expand_top !== 'boolean') throw new ValidationError('expand_top must be true or false');
  if (input.auto_scope !== undefined && typeof input.auto_scope !== 'boolean') throw new ValidationError('auto_scope must be true or false');
  if (input.explain !== undefined && typeof input.explain !== 'boolean') throw new ValidationError('explain must be true or false');
  const autoScope = input.auto_scope ?? true;
  const actor = actorFor(c, input.for_user);
  const alternates = checkAlternates(input.alternates);
  const tags = checkTags(input.tags);
  const category = checkCategory(input.category);
  const budget = checkMaxChars(input.max_chars) ?? LIMITS.responseChars;
  await freshEverywhere(c, true);

  const fb = feedbackFold(c);
  const nowMs = c.now().getTime();
  const limit = fb ? Math.max(max, Math.min(LIMITS.maxResults, max + FEEDBACK_POOL_EXTRA)) : max;
  const sourceOf = (s: Context): RankSource => ({
    l: live(s),
    sem: s.services.semantic,
    opts: {
      // With feedback on, a few more candidates so a much-applied memory just below the cut can rise.
      limit,
      now: c.now().getTime(),
      halfLifeDays: c.config.behavior.recency_half_life_days,
      ...teamShadowed(c, s, searchFilter(s, filters, autoScope, tags, category)),
    },
  });
  // A query made only of stopwords ("what is it", "how do we") asks for nothing: the lexical leg
  // finds no term, and the semantic leg would return whatever sits nearest to filler words.
  const asksSomething = [input.query, ...alternates].some((q) => queryWords(q).length > 0);
  const ranked = asksSomething ? await rankedAcross(c.team === null ? [sourceOf(c)] : [sourceOf(c), sourceOf(c.team)], input.query, alternates, limit) : [];
  const parts = (h: FusedHit<StoredMemory>) => fb?.parts(h.doc.id, nowMs) ?? { applied: 0, sunk: 0, idle: 0, multiplier: 1 };
  const found = (fb ? rerankWithinBands(ranked, (h) => parts(h).multiplier) : ranked).slice(0, max);
  const expand = input.expand_top === true && found[0]?.relevance === 'high';
  // One signals pass for every hit (git runs at most once per search); detail only for expand_top.
  const fields = await ownedHitFields(c, found.map((h) => h.doc), expand);
  const hits: SearchHit[] = found.map((h, i) => {
    const { path_drift, commit_drift, ...common } = fields[i] as HitFields & { path_drift?: unknown; commit_drift?: unknown };
    const hit: SearchHit = { ...common, snippet: h.snippet, score: h.score, relevance: h.relevance, match_terms: h.matchTerms };
    if (expand && i === 0) Object.assign(hit, { body: h.doc.body, path_drift, commit_drift });
    if (input.explain === true) hit.explain = explainHit(h, parts(h), nowMs, c.config.behavior.recency_half_life_days, alternates.length > 0);
    return hit;
  });
  const lean = hits.map((h) => leanHit(h as unknown as Record<string, unknown>));
  const out = fitBudget({ hits: lean, ...staleAfter(lean, c.config.behavior.verification_stale_days) }, budget, {
    key: 'hits', textKeys: ['body', 'snippet'], dropKey: 'hits_dropped', shortKey: 'snippets_shortened', optionalKeys: ['match_terms'],
  }) as unknown as SearchOutput;
  c.log('search', {
    query: input.query,
    ...(alternates.length > 0 ? { alternates } : {}),
    scopes: filters,
    ...(tags.length > 0 ? { tags } : {}),
    ...(category !== null ? { category } : {}),
    auto_scope: autoScope,
    max_results: max,
    hits: out.hits.map((h) => ({ id: h.id, relevance: h.relevance })),
    actor,
  });
  return out;
}

/**
 * The team store's filter also leaves out an id the personal store holds (active or removed): the
 * personal memory answers for it (README "Team memory"), so it is never listed twice.
 */
function teamShadowed(c: Context, s: Context, f: { filter?: (m: StoredMemory) => boolean; filterKey?: string }): { filter?: (m: StoredMemory) => boolean; filterKey?: string } {
  if (s === c) return f;
  const inner = f.filter;
  const own = c.store;
  // No filterKey: the answer now also depends on the personal store, which the team index does not track.
  return { filter: (m) => !own.holds(m.id) && (inner === undefined || inner(m)) };
}

/** From this many memories a server reads its feedback fold in the background (see feedbackFold). */
const FEEDBACK_PRIME_MIN = 10_000;

/** Candidates beyond max_results that feedback may lift into the answer. */
const FEEDBACK_POOL_EXTRA = 5;

/** The process's feedback fold, brought up to the end of the event log; null when ranking.feedback is off. */
function feedbackFold(c: Context): FeedbackFold | null {
  const r = c.config.ranking;
  if (!r.feedback || r.feedback_max_percent === 0) return null;
  let fb = c.services.feedback;
  if (!fb) {
    const fold = new FeedbackFold(c.dir, { halfLifeDays: r.feedback_half_life_days, maxFraction: r.feedback_max_percent / 100 }, c.now().getTime());
    c.services.feedback = fb = fold;
    // This process's own events (a search logs one) are folded as they are written, not read back.
    c.services.events?.onAppend((line, size, ino) => fold.ownAppend(line, size, ino));
    // A server's big store: its first searches do not wait for the fold's first read (it lists
    // the store directory for the log's archives: ~85 ms at 50k memories, blocking), which runs
    // in the background; they rank without feedback meanwhile, as without a log.
    if (c.watch && c.store.activeCount >= FEEDBACK_PRIME_MIN) {
      void fold.prime();
      return null;
    }
  }
  fb.refresh();
  // No outcome or retrieval logged yet: the plain ranking, exactly.
  return fb.tracked > 0 ? fb : null;
}

function explainHit(h: FusedHit<StoredMemory>, fb: { multiplier: number; applied: number; sunk: number; idle: number }, now: number, halfLifeDays: number, fused: boolean): HitExplain {
  const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
  const recency = fused || h.fused ? 1 : 1 + RECENCY_WEIGHT * Math.pow(0.5, Math.max(0, now - recencyOf(h.doc)) / (halfLifeDays * 86_400_000));
  return { bm25: r4(h.score / recency), ...(h.semantic !== undefined ? { semantic: h.semantic } : {}), recency: r4(recency), feedback: fb, final: r4(h.score * fb.multiplier) };
}

/** One store's part in a search: its index, its semantic leg and its filter. */
export interface RankSource {
  l: LiveIndex;
  sem: SemanticLeg | null;
  opts: SearchOptions<StoredMemory>;
}

/**
 * One ranking over one or more stores (README "Team memory"): each leg's lists from every store
 * are merged first (lexical by BM25F score, semantic by cosine: the same embedder everywhere), and
 * the merged legs are fused once. So a store's best hit is never promoted for being first in its
 * own store: it competes on the same score as every other store's hits.
 */
export async function rankedAcross(sources: readonly RankSource[], query: string, alternates: string[], limit: number): Promise<FusedHit<StoredMemory>[]> {
  const byScore = (a: { score: number; doc: StoredMemory }, b: { score: number; doc: StoredMemory }) => b.score - a.score || (a.doc.id < b.doc.id ? 1 : a.doc.id > b.doc.id ? -1 : 0);
  const ready = await Promise.all(sources.map(async (s) => (s.sem && (await s.sem.readyForSearch()) && s.sem.complete ? s.sem.index : null)));
  // Cosines of two embedders are not comparable: while one store's model vectors are still being
  // made (its built-in table answering), only the stores answering like the first one are merged.
  const firstId = ready.find((v) => v !== null)?.embedderId;
  const vecs = ready.map((v) => (v !== null && v.embedderId === firstId ? v : null));
  const anyVec = vecs.some((v) => v !== null && v.size > 0);
  if (alternates.length === 0 && !anyVec) {
    if (sources.length === 1) return sources[0]!.l.index.search(query, sources[0]!.opts);
    return sources.flatMap((s) => s.l.index.search(query, s.opts)).sort(byScore).slice(0, limit);
  }
  const pool = Math.max(limit, FUSION_POOL);
  // The query's own legs, and with alternates the legs of the query and alternates joined.
  const texts = alternates.length > 0 ? [query, joinedQuery(query, alternates)] : [query];
  // One store (the usual case): its lists as they are; several: merged on the same score.
  const merged = <T,>(lists: T[][], order: (a: T, b: T) => number): T[] => (lists.length === 1 ? lists[0]! : lists.flat().sort(order).slice(0, pool));
  const lexical = texts.map((t) => merged(sources.map((s) => s.l.index.search(t, { ...s.opts, limit: pool })), byScore));
  const perSource = await Promise.all(
    sources.map((s, i) => {
      const v = vecs[i];
      return s.sem && v && v.size > 0 ? s.sem.search(texts, pool, { now: s.opts.now ?? Date.now(), allow: s.opts.filter }) : Promise.resolve(texts.map(() => []));
    }),
  );
  const semantic = texts.map((_, k) => merged(perSource.map((r) => r[k] ?? []), (a, b) => b.sim - a.sim || (a.doc.id < b.doc.id ? 1 : -1)));
  // Every store embeds with the same embedder: the first open leg's calibration holds for all.
  const embedderId = sources.find((s) => s.sem?.index)?.sem?.index?.embedderId;
  return fuse({
    limit,
    main: { lexical: lexical[0]!, semantic: semantic[0]! },
    alternates,
    ...(alternates.length > 0 ? { joined: { lexical: lexical[1]!, semantic: semantic[1]! } } : {}),
    calibration: embedderId !== undefined ? calibrationFor(embedderId) : DEFAULT_CALIBRATION,
  });
}
/** Hits each leg contributes to a fusion. */
const FUSION_POOL = 20;

