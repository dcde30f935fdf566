// What a LiveIndex (live.ts) writes to the index cache and beside it: the records and the
// analysis the index holds (streamed from its snapshot, or the loaded cache's still-current entries
// while it is unbuilt), and the session-start summary of the active records.
import type { Store } from '../store/store.ts';
import type { StoredMemory } from '../types.ts';
import { originRepoKey } from '../origin.ts';
import type { CacheContent, CacheEntry, LazyCacheContent } from './cache.ts';
import { overviewGroups, writeOverview } from './overviewCache.ts';
import type { IndexSnapshot, SearchIndex } from './searchIndex.ts';

/** Slots whose analysis a save takes from the index at a time (see Postings.forwardReader). */
const CACHE_CHUNK = 2000;

/** Which cache records have an index entry. */
export function analyzedOf(cache: CacheContent<StoredMemory>): Uint8Array {
  const analyzed = new Uint8Array(cache.records.length);
  for (const e of cache.entries) analyzed[e.record] = 1;
  return analyzed;
}

/**
 * What the cache gets: every active record and tombstone, and index entries for the active
 * records the analysis is current for. One record per id (`uniqueIds`): they come from the
 * store's views, which hold one per id, the active and the removed apart. Built index: its
 * snapshot's entries become the cache entries in place (no map from record to position, no
 * second object per memory).
 */
export function cacheContentOf(store: Store, ix: SearchIndex<StoredMemory> | null, snapshot: IndexSnapshot<StoredMemory> | undefined): CacheContent<StoredMemory> | LazyCacheContent<StoredMemory> {
  if (ix === null) {
    const records = [...store.active(), ...store.tombstones()];
    return { records, uniqueIds: true, ...entriesFor(records, snapshot) };
  }
  // Records in the index's order (its snapshot's order too), then active records the index
  // lacks, then tombstones. The snapshot is taken only when the records are written.
  const records: StoredMemory[] = [];
  for (const d of ix.values()) if (store.get(d.id) === d) records.push(d); // only what the store holds is saved
  const indexed = records.length;
  for (const m of store.active()) if (ix.get(m.id) !== m) records.push(m);
  for (const m of store.tombstones()) records.push(m);
  const analysis = () => {
    const snap = ix.snapshotStream(CACHE_CHUNK);
    // The index may have changed while the records were written (the save pauses): a doc
    // that is no longer at its position is looked up, one no longer among the records skipped.
    let at: Map<StoredMemory, number> | null = null;
    let k = 0;
    function* parts(): Generator<CacheEntry[]> {
      for (const docs of snap.docs()) {
        const entries: CacheEntry[] = [];
        for (const d of docs) {
          let record = k < indexed && records[k] === d.doc ? k : undefined;
          k++;
          if (record === undefined) {
            at ??= new Map(records.slice(0, indexed).map((r, i) => [r, i]));
            record = at.get(d.doc);
          }
          if (record === undefined) continue;
          const e = d as typeof d & CacheEntry;
          e.record = record;
          entries.push(e);
        }
        yield entries;
      }
    }
    return { terms: snap.terms, parts: parts() };
  };
  return { records, uniqueIds: true, analysis };
}

/** Index entries for the cache from the loaded cache's still-current ones (index not built). */
function entriesFor(records: StoredMemory[], snapshot: IndexSnapshot<StoredMemory> | undefined): { terms: string[]; entries: CacheEntry[] } {
  const at = new Map<StoredMemory, number>();
  records.forEach((r, i) => {
    if (!r.tombstoned) at.set(r, i);
  });
  const snap = snapshot ?? { terms: [], docs: [] };
  const entries: CacheEntry[] = [];
  for (const d of snap.docs) {
    const record = at.get(d.doc);
    if (record !== undefined) entries.push({ record, fwd: d.fwd, bodyLen: d.bodyLen, scopeLen: d.scopeLen });
  }
  return { terms: snap.terms, entries };
}

/**
 * The session-start summary of the cache just written (overviewCache.ts): what a peek at that
 * cache (oneShot 'cache') counts, i.e. its active records, notes left out as adopt() leaves them.
 */
export function saveOverview(store: Store, cacheId: string, records: readonly StoredMemory[], warn: (msg: string) => void): void {
  try {
    const active = records.filter((m) => !m.tombstoned && store.noteRel(m.file) === null);
    // Origins are shared objects (canonical.ts): each one's repo key is worked out once.
    const keys = new Map<object, string | null>();
    const repoKey = (m: StoredMemory): string | null => {
      let k = keys.get(m.origin);
      if (k === undefined) keys.set(m.origin, (k = originRepoKey(m.origin)));
      return k;
    };
    writeOverview(store.dir, cacheId, overviewGroups(active, repoKey));
  } catch (err) {
    warn(`could not save the overview summary: ${(err as Error).message}`);
  }
}
