// memory_consolidate: candidate groups for the host model to act on: near-duplicate clusters,
// contradiction pairs, superseded chains (curation/consolidate.ts), among memories that apply to
// the same place (curation/consolidationContext.ts). Read-only. The pairs live in a
// ConsolidationIndex per store, built on first need and then kept current by the store's change
// feed: a call judges only the memories changed since the last one, in slices that let other
// calls answer meanwhile. What it judged is kept in the store's cache (.cache/consolidation.json)
// and taken back by the next process, which judges only the memories changed since.
import { existsSync } from 'node:fs';
import type { ReadContext, WriteContext } from './context.ts';
import { ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { isVisible, repoKeyOf, stripStored } from '../memory.ts';
import { ConsolidationIndex, type SemanticSource } from '../curation/consolidationIndex.ts';
import type { ConsolidateGroup, ConsolidateMemory, GroupKind } from '../curation/consolidate.ts';
import { encodeSnapshot, encodeSteps, readSnapshot, writeSnapshot } from '../curation/consolidationSnapshot.ts';
import { runSliced } from '../curation/steps.ts';
import { backgroundPause, foreground } from '../foreground.ts';
import { calibrationFor } from '../index/calibration.ts';
import { interimOf } from '../embed/config.ts';
import type { Embedder } from '../embed/embedder.ts';
import type { BuiltinEmbedder } from '../embed/builtin.ts';
import type { Store, StoreChange } from '../store/store.ts';
import { scopeFilterMatcher } from '../scopes.ts';
import { checkId, checkLimit, checkNote, requireActive } from './common.ts';
import { MAX_SCOPES } from '../scopes.ts';
import type { Confidence, MemoryRecord, StoredMemory, ValidWrite } from '../types.ts';
import { runWriteGates } from '../trust/gates/writeGates.ts';
import { committedShape, newRecord } from './writing.ts';
import { checkAliases, checkBool, checkContent, checkScopes } from './writeChecks.ts';
import { checkScopeFilters } from './retrieval.ts';

export interface ConsolidateInput {
  scopes?: string[];
  limit?: number;
  cursor?: string;
}

/** Reports how far the consolidation work is: memories taken in and judged, of how many. */
export type ConsolidateProgress = (done: number, total: number) => void;

interface Held {
  ix: ConsolidationIndex;
  /** bumped by every change of the store (scopes and expiry decide what a report admits) */
  storeVersion: number;
  /** the last report's groups, and what they were made from */
  last: { key: string; groups: ConsolidateGroup[]; scanned: number } | null;
  /** the last summary's counts per kind, and what they were made from */
  counted?: { key: string; counts: Record<GroupKind, number> };
  /** the index's `changes` the cache holds (a save is due when they moved on) */
  saved: number;
  saveTimer: NodeJS.Timeout | null;
  /** a save under way (a close waits for it: no temp file left behind) */
  saving: Promise<void> | null;
  /** the store is closing: background work no longer waits for calls in flight */
  closing: boolean;
}
const indexes = new WeakMap<Store, Held>();
const judged = (m: StoredMemory) => m.note === undefined;
/** What the index is given of a memory: its text and where it applies. */
const forIndex = (m: StoredMemory): ConsolidateMemory => ({ id: m.id, body: m.body, scopes: m.scopes, repo: repoKeyOf(m) });

/**
 * The store's ConsolidationIndex: built from the active memories on first need (taking what the
 * cache's snapshot holds of them), then fed by its changes.
 */
function heldOf(c: Pick<ReadContext, 'store' | 'config' | 'dir' | 'index' | 'watch'>): Held {
  const had = indexes.get(c.store);
  if (had) return had;
  const made = new ConsolidationIndex({ globalScopes: c.config.scopes.global });
  const held: Held = { ix: made, storeVersion: 0, last: null, saved: -1, saveTimer: null, saving: null, closing: false };
  c.store.onChange((ch: StoreChange) => {
    held.storeVersion++;
    if (ch.kind === 'delete') made.remove(ch.prev.id);
    else {
      if (ch.prev && ch.prev.id !== ch.mem.id) made.remove(ch.prev.id);
      if (judged(ch.mem)) made.upsert(forIndex(ch.mem));
      else made.remove(ch.mem.id);
    }
  });
  // By id, so the order pairs are judged in (and so the groups) does not depend on the listing's.
  const all = [...c.store.active()].filter(judged).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let snap = readSnapshot(c.dir);
  // Pairs the rewording check judged hold only for the embedder and threshold that judged them.
  if (snap?.semantic != null && snap.semantic !== semanticKey(semanticSource(c))) snap = null;
  made.addLater(all.map(forIndex), snap);
  // Taken back as it is, the snapshot needs no save; anything judged since makes one due.
  if (snap !== null) held.saved = made.changes;
  indexes.set(c.store, held);
  return held;
}

/**
 * A server saves the judged pairs this long after a call that judged some: out of the call's
 * answer, one save for a burst of calls, and early enough that a server stopped soon after (a
 * client that asked once and left) has saved them.
 */
const SAVE_AFTER_MS = 250;

/**
 * Keeps what the index judged in the store's cache: at once in a one-shot command (it is about
 * to exit), a moment later in a server. A cache that cannot be written (a read-only store) is
 * left as it is: it only saves time.
 */
async function saveJudged(c: Pick<ReadContext, 'watch' | 'dir'>, held: Held): Promise<void> {
  if (held.saved === held.ix.changes) return;
  if (!c.watch) return saveNow(c, held);
  if (held.saveTimer === null) {
    held.saveTimer = setTimeout(() => {
      held.saveTimer = null;
      void saveNow(c, held);
    }, SAVE_AFTER_MS);
    held.saveTimer.unref();
  }
}

async function saveNow(c: Pick<ReadContext, 'watch' | 'dir'>, held: Held): Promise<void> {
  // A server's save is background work: it waits for the calls in flight (core/foreground.ts).
  const pause = backgroundPause(c.watch, () => held.closing);
  if (c.watch) await foreground.idle(() => held.closing);
  await held.saving; // one save at a time
  const changes = held.ix.changes;
  const snap = held.ix.snapshot();
  if (snap === null || held.saved === changes) return;
  const save = (async () => {
    try {
      const text = c.watch ? await runSliced(encodeSteps(c.dir, snap), pause) : encodeSnapshot(c.dir, snap);
      await writeSnapshot(c.dir, text);
      held.saved = changes;
    } catch {
      // the cache stays as it was; the next process judges again what this one judged
    }
  })();
  held.saving = save;
  await save;
  if (held.saving === save) held.saving = null;
}

/** A server's close: a save still waiting is done now. */
export async function closeConsolidation(c: Pick<ReadContext, 'store' | 'watch' | 'dir'>): Promise<void> {
  const held = indexes.get(c.store);
  if (!held) return;
  held.closing = true;
  if (held.saveTimer) {
    clearTimeout(held.saveTimer);
    held.saveTimer = null;
    await saveNow(c, held);
  }
  await held.saving;
}

/** Before a server's first memory_health asks, and with no call waiting, the pairs are judged already. */
const WARM_AFTER_MS = 3000;

/**
 * A server (watch) judges the store's pairs in the background once it has been idle a moment
 * after its start, in the same slices a call would: the first memory_health or
 * memory_consolidate then finds them judged, and later ones judge only what changed.
 */
export function warmInBackground(c: Pick<ReadContext, 'store' | 'watch' | 'index' | 'config' | 'dir'>): void {
  if (!c.watch || warmed.has(c.store)) return;
  warmed.add(c.store);
  const timer = setTimeout(() => {
    const held = heldOf(c);
    // Work nobody waits for yet: it waits while a call is in flight, unless a call joins it.
    void held.ix
      .settle({ semantic: semanticSource(c), background: backgroundPause(true, () => held.closing) })
      .then(() => saveJudged(c, held))
      .catch(() => {});
  }, WARM_AFTER_MS);
  timer.unref();
}
const warmed = new WeakSet<Store>();

/**
 * The embedder of the rewording check, at the write gates' rewording threshold for it; null when
 * semantic search is off. The built-in table when it is installed, whatever the search uses: it
 * answers in this thread in microseconds, the same in a server and in a command (so the cache's
 * pairs hold for both), and its rule was measured (docs/performance.md, consolidation quality).
 * Without the table (the npm package), the store's embedder: a model in a worker, or a server.
 */
function semanticSource(c: Pick<ReadContext, 'index' | 'watch'>): SemanticSource | null {
  const e = c.index.semantic?.embedder;
  if (!e) return null;
  const table = tableOf(e);
  if (table) {
    return {
      id: () => table.id,
      min: () => calibrationFor(table.id).gate.cos,
      embed: async (texts) => texts.map((t) => table.embedSync(t)),
      embedSync: (texts) => texts.map((t) => table.embedSync(t)),
    };
  }
  // The embedder's id loads it: asked only once a pair needs it.
  let id: string | null = null;
  const loading = () => (e as { ready?: boolean }).ready === false;
  return {
    id: () => (id ??= e.id),
    min: () => calibrationFor((id ??= e.id)).gate.cos,
    // A server does not wait for a model still loading: those pairs are judged by a later call.
    ...(c.watch ? { ready: () => !loading() } : {}),
    async embed(texts) {
      const was = (id ??= e.id);
      const v = await e.embed(texts);
      // A provider that switched models meanwhile answers in other units: not comparable.
      return e.id === was ? v : null;
    },
  };
}

/** The built-in table behind an embedder (itself, the local model's interim, a provider's fallback), when its file is installed. */
function tableOf(e: Embedder): BuiltinEmbedder | null {
  const t = interimOf(e) ?? (e as { fallback?: Embedder }).fallback ?? e;
  const b = t as Partial<BuiltinEmbedder>;
  return typeof b.file === 'string' && typeof b.embedSync === 'function' && existsSync(b.file) ? (t as BuiltinEmbedder) : null;
}

const semanticKey = (s: SemanticSource | null): string | null => {
  if (s === null) return null;
  try {
    return `${s.id()}@${s.min()}`;
  } catch {
    return null; // an embedder that cannot load: pairs it judged are judged again
  }
};

/**
 * The judged pairs brought up to date, and the visible memories matching `filters`: `key` names
 * what a report made from them holds for (the same pairs and the same memories admitted give the
 * same groups).
 */
async function judgedView(c: ReadContext, filters: ReturnType<typeof checkScopeFilters>, progress?: ConsolidateProgress) {
  await c.store.ensureFresh({ read: true });
  const held = heldOf(c);
  await held.ix.settle({ semantic: semanticSource(c), ...(progress ? { progress } : {}) });
  await saveJudged(c, held);
  // Whatever changed while the last slices ran is in the store's view now; the pairs of those
  // memories are judged by the next call.
  const match = scopeFilterMatcher(filters);
  const now = c.now();
  const inSet = new Set<string>();
  let hidden = 0;
  for (const m of c.store.active()) {
    if (m.note) continue;
    if (isVisible(c.disabledScopes, m, now) && match(m.scopes)) inSet.add(m.id);
    else hidden++;
  }
  // The store's version and the number left out (it grows as memories expire) say both.
  const key = `${held.ix.version}|${held.storeVersion}|${hidden}|${inSet.size}|${JSON.stringify(filters)}|${[...c.disabledScopes].sort().join(',')}`;
  return { held, key, include: (id: string) => inSet.has(id), scanned: inSet.size };
}

/** Every group among the visible memories matching `filters`; `scanned` is how many those are. */
async function allGroups(c: ReadContext, filters: ReturnType<typeof checkScopeFilters>) {
  const { held, key, include, scanned } = await judgedView(c, filters);
  if (held.last?.key !== key) {
    const groups = c.watch ? await held.ix.groups(include, true) : held.ix.groups(include);
    held.last = { key, groups, scanned };
  }
  return { groups: held.last.groups, scanned: held.last.scanned };
}

/**
 * memory_consolidate: near-duplicate clusters, contradiction pairs and superseded chains among
 * the visible memories (curation/consolidate.ts), paged by group. Read-only.
 */
export async function consolidate(c: ReadContext, input: ConsolidateInput, opts: { log: boolean } = { log: true }) {
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, 'limit', LIMITS.consolidateGroups, LIMITS.defaultConsolidateGroups);
  let start = 0;
  if (input.cursor !== undefined && input.cursor !== null) {
    const m = typeof input.cursor === 'string' ? /^c1:(\d{1,6})$/.exec(Buffer.from(input.cursor, 'base64url').toString('utf8')) : null;
    if (!m) throw new ValidationError('cursor must be the next_cursor string from a previous memory_consolidate page');
    start = Number(m[1]);
  }
  const { groups, scanned } = await allGroups(c, filters);
  const page = groups.slice(start, start + limit);
  const next = start + limit < groups.length ? Buffer.from(`c1:${start + limit}`).toString('base64url') : null;
  const out = { total_groups: groups.length, scanned, groups: page, next_cursor: next };
  if (opts.log) c.log('consolidate', { scopes: filters, groups: groups.length, returned: page.length });
  return out;
}

/** memory_health's `consolidation` section: counts per kind and where to act on them. */
export async function consolidationSummary(c: ReadContext, progress?: ConsolidateProgress) {
  const { held, key, include } = await judgedView(c, checkScopeFilters(undefined), progress);
  // Counted without making the groups (their clusters and order are memory_consolidate's).
  if (held.counted?.key !== key) held.counted = { key, counts: c.watch ? await held.ix.counts(include, true) : held.ix.counts(include) };
  const n = held.counted.counts;
  progress?.(1, 1);
  // Memories whose rewording check waits for a model still loading: counted by a later call.
  const later = semanticSource(c) !== null ? held.ix.semanticPending : 0;
  return {
    groups: n.contradiction + n.superseded + n.duplicates,
    contradictions: n.contradiction,
    superseded: n.superseded,
    duplicates: n.duplicates,
    ...(later > 0 ? { rewording_pending: later } : {}),
    next_step: n.contradiction + n.superseded + n.duplicates > 0 ? 'run /memory-consolidate (or call memory_consolidate) to review and merge them' : 'nothing to consolidate',
  };
}

export interface MergeInput {
  ids: string[];
  content: string;
  scopes?: string[];
  reason: string;
  aliases?: string[];
  acknowledge_transient?: boolean;
}

const CONFIDENCE_RANK = { low: 0, medium: 1, high: 2 } as const;

/**
 * memory_merge: one new memory (through the write gates; the duplicate and previously-removed
 * gates ignore the ids being merged, and the pending gate is skipped: the sources were already
 * stored) and the sources tombstoned with `merged into <new id>`, in one locked step whose every
 * crash point resolves to the old set or the merged result (store.ts, "merging").
 */
export async function merge(c: WriteContext, input: MergeInput) {
  const rawIds: unknown = input.ids;
  if (!Array.isArray(rawIds)) throw new ValidationError(`ids must be an array of 2 to ${LIMITS.mergeIds} memory ids to merge`);
  if (rawIds.length < 2) throw new ValidationError(`ids has ${rawIds.length} ${rawIds.length === 1 ? 'entry' : 'entries'}: a merge needs at least 2 memory ids`);
  if (rawIds.length > LIMITS.mergeIds) throw new ValidationError(`ids has ${rawIds.length} entries: at most ${LIMITS.mergeIds} memories per merge`);
  const ids = rawIds.map((r, i) => checkId(r, `ids[${i}]`));
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new ValidationError(`ids lists ${dup} twice: name each memory to merge once`);
  const content = checkContent(c, input.content);
  const reason = checkNote(input.reason, 'reason', true)!;
  const extraAliases = checkAliases(input.aliases);
  const ack = checkBool(input.acknowledge_transient, 'acknowledge_transient');
  const given = input.scopes === undefined || input.scopes === null ? null : checkScopes(c, input.scopes);
  await c.store.ensureFresh();
  await c.stores.settle(ids);
  const sources = ids.map((id, i) => {
    const m = requireActive(c, id, `ids[${i}]`);
    if (m.note !== undefined) throw new ValidationError(`ids[${i}] ${id} is the note ${m.note}: notes are not memories and cannot be merged (use the memory tool)`);
    return m;
  });
  let scopes = given;
  if (scopes === null) {
    const union: string[] = [];
    for (const m of sources) for (const s of m.scopes) if (!union.includes(s)) union.push(s);
    if (union.length > MAX_SCOPES) throw new ValidationError(`the memories to merge have ${union.length} scopes between them, over the ${MAX_SCOPES} a memory may have: pass scopes`);
    scopes = union;
  }
  const aliases: string[] = [...extraAliases];
  for (const m of sources) for (const a of m.aliases ?? []) if (!aliases.includes(a)) aliases.push(a);
  const w: ValidWrite = {
    content,
    scopes,
    // The strongest the sources held; a claim about the user stays one only if every source was.
    confidence: sources.reduce<Confidence>((best, m) => (CONFIDENCE_RANK[m.confidence] > CONFIDENCE_RANK[best] ? m.confidence : best), 'low'),
    source: sources.every((m) => m.source === sources[0]!.source) ? sources[0]!.source : 'explicit-statement',
    category: sources.every((m) => m.category === 'user-inference') ? 'user-inference' : 'fact',
    expires: null,
  };
  if (aliases.length > 0) w.aliases = aliases.slice(0, LIMITS.aliases);
  const exclude = new Set(ids);
  const gate = await runWriteGates(c, w, { force: false, acknowledge_transient: ack, candidates: (text, limit) => c.index.candidateRecordsFor(text, limit), exclude, confirmed: true });
  if (gate.outcome) return gate.outcome;
  const rec: MemoryRecord = { ...(await newRecord(c, w)), merged_from: ids };
  const removed = c.now().toISOString();
  const m = await c.store.merge(
    rec,
    ids,
    (cur) => {
      if (cur.tombstoned || cur.note !== undefined) requireActive(c, cur.id);
    },
    (cur) => ({ ...stripStored(cur), removed, removed_reason: `merged into ${rec.id}`, removed_session: c.session }),
  );
  c.log('merge', { id: m.id, merged_from: ids, reason, scopes: m.scopes, ...gate.logFields });
  return { ...committedShape(m, gate.related), merged_from: ids, tombstoned: ids };
}
