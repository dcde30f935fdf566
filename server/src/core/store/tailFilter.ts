// A filter of names (paths, ids) for the store's first seconds after a start from the cache: which
// names the records still to enter may hold (table.ts, stillToEnter).
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
