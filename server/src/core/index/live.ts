// The index of one open store, kept equal to the store's active memories for the life of the
// process: loaded from the persisted cache when it is still valid, updated on every store change
// (own writes at once, outside changes through Freshness), and saved back to the cache.
//
// Invariant: once built, index content == store.active() after every store change, because the
// index only changes in the store's onChange callback (and when built, from store.active()).
//
// A server (watch: true) builds the index while opening. A one-shot command (watch: false)
// builds it on first use: `cairn overview`, `list` or `show` never pay for tokenizing the store.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureOwnDirSync } from '../store/fsatomic.ts';
import type { Store, StoreChange } from '../store/store.ts';
import type { OneShotFreshness, PhaseProgress, StoredMemory } from '../types.ts';
import { CACHE_DIR, readCache, type CacheEntry } from './cache.ts';
import { writeCache } from './cacheWrite.ts';
import { analyzedOf, cacheContentOf, saveOverview } from './liveSave.ts';
import { Freshness } from '../store/freshness.ts';
import { sliceYield, nextTurn } from '../store/slices.ts';
import { collectGarbage } from './gc.ts';
import { SearchIndex, type IndexSnapshot } from './searchIndex.ts';
import { reviveStored } from './revive.ts';
import { cacheReadProgress } from './cacheProgress.ts';

// When the cache is written: soon after a full rebuild (SAVE_SOON_MS: the next start should not
// parse every file again), and once SAVE_AFTER_CHANGES memories changed since the last save (at
// the next lull, SAVE_DELAY_MS, or at close). A few changed files are not worth a save: the next
// start re-reads only those files. Saving streams in chunks and yields to the event loop between
// them, so searches keep being answered while a large store is written.
const SAVE_SOON_MS = 1_000;
const SAVE_DELAY_MS = 30_000;
const SAVE_AFTER_CHANGES = 1000;
/** ...or once this share of the store changed: a small store's cache always converges. */
const SAVE_AFTER_SHARE = 0.05;
/**
 * A server started from the cache below this many memories checks the files behind it before
 * its first answer (well under a tenth of a second): exact from its first answer. A bigger one
 * answers from the snapshot at once, and a hand edit made before the start shows once the check
 * reaches it (within a second at 50k memories). New memories are written without waiting for the
 * check; other writes wait for it (Store.ensureFresh).
 */
const EXACT_BELOW = 10_000;

/**
 * A server holding at least this many memories runs a full garbage collection after each bulk
 * phase (store loaded, index built, cache saved). Each phase leaves tens of MB of dead
 * temporaries (decoded cache, listing, per-document analysis, the save's forward lists) that V8
 * would otherwise let pile up across phases before collecting: at 100k memories that was ~60-90
 * MB of peak RSS, for ~50-100 ms of collection per phase. Below it, a collection is not worth
 * its time.
 */
const BULK_GC_MIN = 10_000;
/** A server started from the cache collects after its check of the files from this size on. */
const ADOPTED_GC_MIN = 100_000;
/**
 * When a start's background work begins if nobody calls startBackground() first (Cairn does once
 * the calls it was opened for are answered, or after 100 ms without one): the latest it begins.
 */
const START_FALLBACK_MS = 1000;

export interface LiveIndexOptions {
  synonyms?: Record<string, string[]>;
  /** false for one-shot commands: no watcher, the store keeps its default freshness (full sync). */
  watch: boolean;
  /**
   * With watch: false (types.ts OneShotFreshness): 'once' makes the open's load the only check of the files;
   * 'cache' (a peek: the session-start hook) takes the cache's records as the view unchecked and
   * never saves (without a cache the store loads as usual).
   */
  oneShot?: OneShotFreshness;
  /** Told how the load goes: reading the index cache (MB), checking the files against it, loading files. */
  progress?: PhaseProgress;
  warn: (msg: string) => void;
  /** EXACT_BELOW for this index (tests make a small store behave as a big one). */
  exactBelow?: number;
  /** START_FALLBACK_MS for this index (tests lengthen it to show nothing waits for it). */
  startFallbackMs?: number;
}

export class LiveIndex {
  private readonly ix: SearchIndex<StoredMemory>;
  private built = false;
  /** the cache's analysis, kept until the index is built (or to re-save it unbuilt) */
  private snapshot: IndexSnapshot<StoredMemory> | undefined;
  private freshness: Freshness | null = null;
  private unsubscribe: (() => void) | null = null;
  private changesSinceSave = 0;
  private savedOnce = false;
  private closed = false;
  private saving: Promise<void> = Promise.resolve();
  private saveTimer: NodeJS.Timeout | null = null;
  /** How the last open went, for tests and the bench: 'cache' | 'partial' | 'rebuilt'. */
  loadedFrom: 'cache' | 'partial' | 'rebuilt' = 'rebuilt';
  private adopted = false;
  /** resolved by startBackground() */
  private started: Promise<void> = Promise.resolve();
  /** A server's start from the cache: what the background check counts stale records from, first. */
  private countLater: { records: readonly StoredMemory[]; analyzed: Uint8Array } | null = null;
  /** A server started from the cache checks the files behind it; settles when that is done. */
  validated: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly opts: LiveIndexOptions,
  ) {
    this.ix = new SearchIndex<StoredMemory>({ synonyms: opts.synonyms });
  }

  /** The index, built now if this is its first use. */
  get index(): SearchIndex<StoredMemory> {
    if (!this.built) this.build();
    return this.ix;
  }

  async open(): Promise<void> {
    if (this.opts.watch) {
      // .cache/ is made before the directory mtimes are noted: made by the first save instead, it
      // moves the store directory's mtime, and the next read then diffs a listing of the whole
      // store against every known path (~25 MB of transient sets at 100k memories) for nothing.
      // Only in an existing store: the store directory is made by the first write, never here.
      if (existsSync(this.store.dir)) {
        try {
          ensureOwnDirSync(join(this.store.dir, CACHE_DIR));
        } catch {
          // a .cache that is not a real directory: the save reports it
        }
      }
      this.freshness = new Freshness(this.store, this.opts.warn);
      this.freshness.start();
    }
    // A server with a cache answers from it at once and checks the files in the background (a
    // hand edit made before the start is seen when the check reaches it, well within a second at
    // 50k memories); a one-shot command checks them before its one answer.
    const mode = this.opts.watch ? 'background' : this.opts.oneShot === 'cache' ? 'trust' : 'now';
    const stale = await this.loadStore(mode);
    this.loadedFrom = stale === Infinity ? 'rebuilt' : stale === 0 ? 'cache' : 'partial';
    const adopted = this.adopted;
    const bulk = this.store.activeCount >= BULK_GC_MIN;
    // Below EXACT_BELOW the first answer waits for the check (below), so the check begins at
    // once: held back until the calls are answered, it would wait for that very answer (until
    // the fallback).
    const answerWaits = this.store.activeCount < (this.opts.exactBelow ?? EXACT_BELOW);
    if (adopted && mode === 'background' && !answerWaits) {
      // begun by startBackground()
      this.started = new Promise<void>((r) => (this.go = r));
      this.fallback = setTimeout(() => this.startBackground(), this.opts.startFallbackMs ?? START_FALLBACK_MS);
    }
    if (this.opts.watch) {
      if (bulk && !adopted) collectGarbage();
      this.build();
      if (bulk && !adopted) collectGarbage();
      // The index's map by id, made between calls, before the first write needs it.
      void this.started.then(() => this.ix.mapIds(() => (this.closed ? Promise.reject(new Error('closed')) : sliceYield()))).catch(() => undefined);
    }
    // (A one-shot command's unanalyzed records count once it builds the index: build().)
    const toSave = stale === Infinity ? stale : stale - this.unanalyzedAtOpen;
    if (toSave > 0 && !(adopted && mode === 'trust')) this.markDirty(Math.min(toSave, SAVE_AFTER_CHANGES));
    this.unsubscribe = this.store.onChange((ch) => this.apply(ch));
    this.freshness?.install();
    if (!this.opts.watch && this.opts.oneShot !== undefined && this.opts.oneShot !== 'every-read') this.store.setFreshness(() => Promise.resolve());
    if (adopted && mode === 'background') {
      this.validated = this.validateInBackground(bulk);
      this.store.setValidation(this.validated);
      if (answerWaits) this.freshness?.waitFor(this.validated, Infinity);
    }
  }

  /**
   * Lets the background work of a start from the cache begin (Cairn calls it once the calls it was
   * opened for are answered, Cairn.during): begun earlier, it ran inside the first answer. A
   * LiveIndex nobody starts starts itself after START_FALLBACK_MS.
   */
  startBackground(): void {
    const go = this.go;
    this.go = null;
    if (this.fallback) clearTimeout(this.fallback);
    this.fallback = null;
    go?.();
  }
  private go: (() => void) | null = null;
  private fallback: NodeJS.Timeout | null = null;

  private async validateInBackground(bulk: boolean): Promise<void> {
    const closed = new Error('closed');
    try {
      await this.started;
      await nextTurn();
      if (this.countLater) {
        const { records, analyzed } = this.countLater;
        this.countLater = null;
        const stale = this.staleCount(records, analyzed).all;
        if (stale > 0) {
          if (this.loadedFrom === 'cache') this.loadedFrom = 'partial';
          this.markDirty(Math.min(stale, SAVE_AFTER_CHANGES));
        }
      }
      // In a store big enough that the decoded cache's leftovers matter (~150 MB at 200k
      // memories: its JSON lines, its forward lists once the index is built), they are collected
      // right after the first answer, before the check adds its own garbage to them (collected
      // only at the check's end, the 200k later start peaked ~40 MB higher). A full collection
      // blocks every call (~80 ms at 50k), so a mid-size store does without.
      const big = bulk && this.store.activeCount >= ADOPTED_GC_MIN;
      if (big) collectGarbage();
      const changed = await this.store.validate(() => (this.closed ? Promise.reject(closed) : sliceYield()));
      if (changed > 0) {
        if (this.loadedFrom === 'cache') this.loadedFrom = 'partial';
        this.markDirty(Math.min(changed, SAVE_AFTER_CHANGES));
      }
      // Again once the check is done (its own garbage, or the old records of the files it re-read),
      // before the semantic leg loads its vectors.
      if (big || (bulk && changed >= SAVE_AFTER_CHANGES)) collectGarbage();
    } catch (err) {
      if (err !== closed) this.opts.warn(`checking the store against the index cache failed: ${(err as Error).message}`);
    }
  }

  /**
   * Loads the store, seeded from the cache; keeps the cache's analysis as `snapshot` for build().
   * Returns how many records the cache got wrong (Infinity: no usable cache). A method of its
   * own so that no closure open() leaves behind (the change listener) shares a context with
   * the decoded cache and keeps it alive.
   */
  private async loadStore(mode: 'now' | 'background' | 'trust'): Promise<number> {
    // A command checks every file before its answer: a big store's directories are stat'ed by a
    // worker thread while this one decodes the cache (Store.listAhead).
    if (mode === 'now') this.store.listAhead();
    const report = this.opts.progress;
    const cache = readCache<StoredMemory>(this.store.dir, (why) => this.opts.warn(`index cache ignored (${why}); rebuilding it`), reviveStored, report && cacheReadProgress(report));
    const progress = report && ((done: number, total: number) => report('loading files', done, total));
    // The cache's records are taken as they are; a command (mode 'now') checks every file against
    // them at once (only changed files are read again), a server in the background, a peek never.
    // `adopted` says the check is still to come.
    const taken = cache !== null && this.store.adopt(cache.records, { cleanTemps: mode === 'background' && cache.records.length < EXACT_BELOW, uniqueIds: cache.uniqueIds === true });
    this.adopted = taken && mode !== 'now';
    if (taken && mode === 'now') {
      // Every file's size and time against its record (a worker stats them meanwhile); the changed ones are read again.
      report?.('checking files', 0, cache.records.length);
      await this.store.validate(undefined, progress);
      report?.('checking files', cache.records.length, cache.records.length);
    }
    else if (!taken) await this.store.load(cache?.records, progress);
    if (!cache) return Infinity;
    // A peek saves nothing, so how stale the cache is does not matter to it.
    // A server answers before it counts (~50 ms at 200k memories): the background check counts
    // first, from the records and which of them the cache analyzed (not the analysis itself).
    if (this.adopted && mode === 'background') this.countLater = { records: cache.records, analyzed: analyzedOf(cache) };
    const { all: stale = 0, unanalyzed = 0 } = (this.adopted && mode === 'trust') || this.countLater ? {} : this.staleCount(cache.records, analyzedOf(cache));
    if (mode === 'now' && !this.opts.watch) this.unanalyzedAtOpen = unanalyzed;
    // The entries become the snapshot's docs in place: no second object per memory.
    const docs = cache.entries as Array<CacheEntry & { doc: StoredMemory }>;
    for (const d of docs) d.doc = cache.records[d.record]!;
    this.snapshot = { terms: cache.terms, docs };
    return stale;
  }

  private build(): void {
    // A command builds it on its first search, a phase of its progress line (a server, while it opens).
    const n = this.store.activeCount;
    this.opts.progress?.('indexing', 0, n);
    try {
      this.ix.load(this.store.active(), this.snapshot, { uniqueIds: true });
    } catch (err) {
      this.opts.warn(`index cache ignored (${(err as Error).message}); rebuilding it`);
      this.ix.load(this.store.active(), undefined, { uniqueIds: true });
      if (this.loadedFrom !== 'rebuilt') this.markDirty(SAVE_AFTER_CHANGES);
      this.loadedFrom = 'rebuilt';
    }
    this.snapshot = undefined;
    this.built = true;
    if (this.unanalyzedAtOpen > 0) this.markDirty(Math.min(this.unanalyzedAtOpen, SAVE_AFTER_CHANGES));
    this.unanalyzedAtOpen = 0;
    this.opts.progress?.('indexing', n, n);
  }

  /**
   * Records that differ between the cache and the store now (re-read, new or gone) plus active ones
   * the cache holds no index entry for (saved by a command that never searched): `all`; the latter: `unanalyzed`.
   */
  private staleCount(records: readonly StoredMemory[], analyzed: Uint8Array): { all: number; unanalyzed: number } {
    // Where each cache record is now (Store.whereIs: by identity, no Set of every record).
    const { store } = this;
    let reusedActive = 0;
    let reusedTomb = 0;
    let analyzedActive = 0;
    for (let i = 0; i < records.length; i++) {
      const r = records[i]!;
      const w = store.whereIs(r);
      if (w === 1) {
        reusedActive++;
        if (analyzed[i] === 1) analyzedActive++;
      } else if (w === 2) reusedTomb++;
    }
    let tombs = 0;
    for (const _ of store.tombstones()) tombs++;
    const freshActive = store.activeCount - reusedActive; // re-read or new
    const freshTomb = tombs - reusedTomb;
    const gone = records.length - reusedActive - reusedTomb; // re-read or deleted since
    const unanalyzed = reusedActive - analyzedActive;
    return { all: freshActive + freshTomb + gone + unanalyzed, unanalyzed };
  }
  /**
   * A one-shot command's cache records the index has no analysis for: worth a save only once the
   * command builds the index (a search). A command that never builds it would save the records
   * without analysis again, and the next one would find them unanalyzed again: every `cairn list`
   * rewrote the whole cache (10 MB, ~0.5 s at 20,000 memories).
   */
  private unanalyzedAtOpen = 0;

  private apply(ch: StoreChange): void {
    if (this.built) {
      // no `prev`: the store held no record with this id, so neither does the index
      if (ch.kind === 'upsert' && !ch.mem.tombstoned) this.ix.upsert(ch.mem, ch.prev === undefined);
      else this.ix.remove(ch.kind === 'upsert' ? ch.mem.id : ch.prev.id);
    }
    this.freshness?.noteDirs();
    this.markDirty();
  }

  private markDirty(changes = 1): void {
    this.changesSinceSave += changes;
    if (this.saveTimer !== null || !this.opts.watch || !this.worthSaving()) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.save();
    }, this.loadedFrom === 'rebuilt' && !this.savedOnce ? SAVE_SOON_MS : SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  private worthSaving(): boolean {
    const size = this.store.activeCount;
    return this.changesSinceSave >= Math.min(SAVE_AFTER_CHANGES, Math.max(1, Math.ceil(size * SAVE_AFTER_SHARE)));
  }

  /**
   * Writes the cache now (one save at a time; a second call waits for the running one and then
   * saves again only if more changed). Never throws: a cache is an optimization.
   */
  save(): Promise<void> {
    this.saving = this.saving.then(() => this.saveNow());
    return this.saving;
  }

  private async saveNow(): Promise<void> {
    if (this.changesSinceSave === 0) return;
    // The store directory is created by the first write, never as a side effect of a cache.
    if (!existsSync(this.store.dir)) return;
    try {
      const content = cacheContentOf(this.store, this.built ? this.ix : null, this.snapshot);
      const changes = this.changesSinceSave;
      const id = await writeCache(this.store.dir, content, this.closed ? undefined : nextTurn);
      this.changesSinceSave -= changes; // changes made while writing still count
      saveOverview(this.store, id, content.records, this.opts.warn);
      this.savedOnce = true;
      if (this.opts.watch && content.records.length >= BULK_GC_MIN) collectGarbage();
    } catch (err) {
      this.opts.warn(`could not save the index cache: ${(err as Error).message}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.startBackground(); // a check never begun ends at once
    await this.validated;
    this.freshness?.stop();
    this.freshness = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (this.worthSaving()) await this.save();
    else await this.saving;
  }
}
