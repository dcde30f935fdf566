// Near-duplicate candidates among tombstones. The search index covers active memories only, and
// the previously-removed gate must not scan every tombstone on every write, so this keeps a small
// inverted index (dedup token -> tombstone ids) per store, kept current by the store's change feed.
import type { Store, StoreChange } from '../../store/store.ts';
import type { StoredMemory } from '../../types.ts';
import { dedupTokenSet, jaccard } from './dedup.ts';

/** Upper bound on posting entries walked per lookup (bounded work whatever the store size). */
const MAX_WALK = 50_000;

export class TombstoneIndex {
  private readonly tokens = new Map<string, ReadonlySet<string>>();
  private readonly postings = new Map<string, Set<string>>();

  get size(): number {
    return this.tokens.size;
  }

  add(m: StoredMemory): void {
    this.delete(m.id);
    const set = dedupTokenSet(m.body);
    this.tokens.set(m.id, set);
    for (const t of set) {
      let ids = this.postings.get(t);
      if (!ids) this.postings.set(t, (ids = new Set()));
      ids.add(m.id);
    }
  }

  delete(id: string): void {
    const set = this.tokens.get(id);
    if (!set) return;
    this.tokens.delete(id);
    for (const t of set) {
      const ids = this.postings.get(t);
      ids?.delete(id);
      if (ids && ids.size === 0) this.postings.delete(t);
    }
  }

  apply(change: StoreChange): void {
    if (change.kind === 'delete') {
      if (change.prev.tombstoned) this.delete(change.prev.id);
    } else if (change.mem.tombstoned) {
      this.add(change.mem);
    } else {
      this.delete(change.mem.id); // restored: no longer a tombstone
    }
  }

  /**
   * Tombstones with Jaccard >= minSimilarity to `tokens`, best first. Only the rarest terms are
   * walked: a set with Jaccard >= s to A shares at least s·|A| of A's terms, so it misses at
   * most (1 - s)·|A| of them and must appear in the lists of the floor((1 - s)·|A|) + 1 rarest.
   */
  similar(tokens: readonly string[], minSimilarity: number): { id: string; similarity: number }[] {
    const query = new Set(tokens);
    if (query.size === 0 || this.tokens.size === 0) return [];
    const lists = [...query]
      .map((t) => this.postings.get(t))
      .filter((l): l is Set<string> => l !== undefined)
      .sort((a, b) => a.size - b.size);
    const need = Math.floor((1 - minSimilarity) * query.size) + 1;
    const seen = new Set<string>();
    let walked = 0;
    for (const list of lists.slice(0, need)) {
      for (const id of list) {
        if (walked++ >= MAX_WALK) break;
        seen.add(id);
      }
    }
    const out: { id: string; similarity: number }[] = [];
    for (const id of seen) {
      const sim = jaccard(query, this.tokens.get(id)!);
      if (sim >= minSimilarity) out.push({ id, similarity: sim });
    }
    return out.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
  }
}

const built = new WeakMap<Store, TombstoneIndex>();

/** The tombstone index of this store, built on first use and then kept current by store changes. */
export function tombstoneIndex(store: Store): TombstoneIndex {
  let ix = built.get(store);
  if (!ix) {
    const fresh = new TombstoneIndex();
    for (const t of store.tombstones()) fresh.add(t);
    store.onChange((ch) => fresh.apply(ch));
    built.set(store, fresh);
    ix = fresh;
  }
  return ix;
}
