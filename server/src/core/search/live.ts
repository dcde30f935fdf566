// The index of one open store, kept equal to the store's active memories for the life of the
// process: loaded from the persisted cache when it is still valid, updated on every store change
// (own writes at once, outside changes through Freshness), and saved back to the cache.
//
// Invariant: index content == store.active() after every store change, because the index only
// ever changes in the store's onChange callback (and in open(), from store.active() itself).
import { existsSync } from 'node:fs';
import type { Store, StoreChange } from '../store.ts';
import type { StoredMemory } from '../types.ts';
import { readCache, writeCache, type CacheContent } from './cache.ts';
import { Freshness } from './freshness.ts';
import { SearchIndex, type IndexSnapshot } from './index.ts';

// When the cache is written. Always at close, if anything changed. Before that only when a lot
// would otherwise be re-read at the next start: after a full rebuild, or once SAVE_AFTER_CHANGES
// memories changed. A few changed files cost the next start next to nothing (only they are
// re-parsed), while a save stalls this process for about 10 ms per 1,000 memories.
const SAVE_DELAY_MS = 30_000;
const SAVE_AFTER_CHANGES = 1000;

export interface LiveIndexOptions {
  synonyms?: Record<string, string[]>;
  /** false for one-shot commands: no watcher, the store keeps its default freshness (full sync). */
  watch: boolean;
  warn: (msg: string) => void;
}

export class LiveIndex {
  readonly index: SearchIndex<StoredMemory>;
  private freshness: Freshness | null = null;
  private unsubscribe: (() => void) | null = null;
  private dirty = false;
  private changesSinceSave = 0;
  private saveTimer: NodeJS.Timeout | null = null;
  /** How the last open went, for tests and the bench: 'cache' | 'partial' | 'rebuilt'. */
  loadedFrom: 'cache' | 'partial' | 'rebuilt' = 'rebuilt';

  constructor(
    private readonly store: Store,
    private readonly opts: LiveIndexOptions,
  ) {
    this.index = new SearchIndex<StoredMemory>({ synonyms: opts.synonyms });
  }

  async open(): Promise<void> {
    if (this.opts.watch) {
      this.freshness = new Freshness(this.store, this.opts.warn);
      this.freshness.start();
    }
    const cache = readCache<StoredMemory>(this.store.dir, (why) => this.opts.warn(`index cache ignored (${why}); rebuilding it`));
    await this.store.load(cache?.records);
    let snapshot: IndexSnapshot<StoredMemory> | undefined;
    if (cache) snapshot = { terms: cache.terms, docs: cache.entries.map((e) => ({ ...e, doc: cache.records[e.record]! })) };
    try {
      this.index.load(this.store.active(), snapshot);
    } catch (err) {
      this.opts.warn(`index cache ignored (${(err as Error).message}); rebuilding it`);
      this.index.load(this.store.active());
      snapshot = undefined;
    }
    this.loadedFrom = !cache || !snapshot ? 'rebuilt' : this.reusedAll(cache) ? 'cache' : 'partial';
    if (this.loadedFrom !== 'cache') this.markDirty(this.loadedFrom === 'rebuilt' ? SAVE_AFTER_CHANGES : 1);
    this.unsubscribe = this.store.onChange((ch) => this.apply(ch));
    this.freshness?.install();
  }

  /** True when the store now holds exactly the cached records, each reused unparsed. */
  private reusedAll(cache: CacheContent<StoredMemory>): boolean {
    const seeded = new Set(cache.records);
    let n = 0;
    for (const group of [this.store.active(), this.store.tombstones()]) {
      for (const m of group) {
        if (!seeded.has(m)) return false;
        n++;
      }
    }
    return n === cache.records.length;
  }

  private apply(ch: StoreChange): void {
    if (ch.kind === 'upsert' && !ch.mem.tombstoned) this.index.upsert(ch.mem);
    else this.index.remove(ch.kind === 'upsert' ? ch.mem.id : ch.prev.id);
    this.freshness?.noteDirs();
    this.markDirty();
  }

  private markDirty(changes = 1): void {
    this.dirty = true;
    this.changesSinceSave += changes;
    if (this.saveTimer !== null || !this.opts.watch || this.changesSinceSave < SAVE_AFTER_CHANGES) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.save();
    }, SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  /** Writes the cache if the index changed since it was read or last written. Never throws. */
  save(): void {
    if (!this.dirty) return;
    // The store directory is created by the first write, never as a side effect of a cache.
    if (!existsSync(this.store.dir)) return;
    try {
      const records = [...this.store.active(), ...this.store.tombstones()];
      const at = new Map<string, number>();
      records.forEach((r, i) => {
        if (!r.tombstoned) at.set(r.id, i);
      });
      const snap = this.index.snapshot();
      const entries = [];
      for (const d of snap.docs) {
        const record = at.get(d.doc.id);
        if (record !== undefined) entries.push({ record, fwd: d.fwd, bodyLen: d.bodyLen, scopeLen: d.scopeLen });
      }
      writeCache(this.store.dir, { records, terms: snap.terms, entries });
      this.dirty = false;
      this.changesSinceSave = 0;
    } catch (err) {
      this.opts.warn(`could not save the index cache: ${(err as Error).message}`);
    }
  }

  async close(): Promise<void> {
    this.freshness?.stop();
    this.freshness = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    this.save();
  }
}
