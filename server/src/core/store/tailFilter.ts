// A filter of names (paths, ids) for the store's first seconds after a start from the cache: which
// names the records still to enter may hold (table.ts, stillToEnter).
import type { StoredMemory } from '../types.ts';
import { SLICE_MS, type Backlog } from './slices.ts';

/** Records made into the filter between two looks at the clock. */
const STEP = 64;

/**
 * Whether any record a backlog still has to enter has a given path or id. A filter of their paths
 * and ids says "certainly not" for nearly every name; a "maybe" is looked for (a scan of them),
 * so the answer is exact. The filter is made a slice at a time by make(), or by the first
 * question at once (~90 ms at 200k memories, most of it reading each record's strings; sets of
 * the strings took longer: each add hashes a whole path and may grow the set). It holds the
 * records from the one the backlog was at when it was begun (those before are entered: their
 * maps know them) up to `to`.
 */
export class NamesToEnter {
  private filter: TailFilter | null = null;
  private to = 0;
  constructor(
    private readonly recs: readonly StoredMemory[],
    private readonly left: Backlog,
  ) {}

  holds(p: string, id: string | null): boolean {
    const f = this.upTo(this.recs.length);
    if (!f.mayHold(p) && (id === null || !f.mayHold(id))) return false;
    return this.left.someLeft((i) => this.recs[i]!.file === p || (id !== null && this.recs[i]!.id === id));
  }

  /** Makes the filter in slices of SLICE_MS, `pause` between them, while `live()`. */
  async make(pause: () => Promise<void>, live: () => boolean): Promise<void> {
    this.begun();
    while (live() && this.to < this.recs.length) {
      const t0 = performance.now();
      do this.upTo(Math.min(this.recs.length, this.to + STEP));
      while (this.to < this.recs.length && performance.now() - t0 < SLICE_MS);
      await pause();
    }
  }

  /** The filter, begun at the record the backlog is at (those before are entered). */
  private begun(): TailFilter {
    if (this.filter === null) {
      this.filter = new TailFilter(2 * this.left.left);
      this.to = this.left.at;
    }
    return this.filter;
  }

  private upTo(end: number): TailFilter {
    const f = this.begun();
    for (let i = this.to; i < end; i++) {
      const m = this.recs[i]!;
      f.add(m.file);
      f.add(m.id);
    }
    this.to = Math.max(this.to, end);
    return f;
  }
}

/**
 * A set of strings that answers "certainly not" or "maybe", by a 32-bit hash of each string's
 * last TAIL characters in an open-addressing table (a store's paths and ids differ in their
 * ends: the name's slug and id suffix, the id's random part). No string is kept, and adding one
 * reads TAIL characters of it, not all of it.
 */
export class TailFilter {
  private readonly table: Int32Array;
  private readonly mask: number;
  constructor(capacity: number) {
    let size = 16;
    while (size < 2 * capacity) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
  }
  add(s: string): void {
    const h = tailHash(s);
    const t = this.table;
    let i = h & this.mask;
    while (t[i] !== 0 && t[i] !== h) i = (i + 1) & this.mask;
    t[i] = h;
  }
  mayHold(s: string): boolean {
    const h = tailHash(s);
    const t = this.table;
    for (let i = h & this.mask; t[i] !== 0; i = (i + 1) & this.mask) if (t[i] === h) return true;
    return false;
  }
}

const TAIL = 24;

/** FNV-1a over the last TAIL UTF-16 units, never 0 (the table's empty mark). */
function tailHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = Math.max(0, s.length - TAIL); i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h === 0 ? 1 : h;
}
