// The compact storage behind the search index: a vocabulary, one growable Int32Array of
// [slot, packedTf] pairs per term (the inverted lists), and per-slot typed arrays.
//
// Slots are append-only: replacing a document kills its old slot and appends a new one, so no
// inverted list is ever edited in place. Dead entries are skipped at query time through `alive`
// and dropped by compact(), which rebuilds every list from the per-slot forward lists once dead
// slots outnumber live ones. Invariant: df[t] counts live slots containing t, and `live`,
// `sumBody`, `sumScope` cover live slots only, so BM25 statistics never see deleted documents.

export const TF_MASK = 0xffff;
export const SCOPE_SHIFT = 16;
const MAX_BODY_TF = 0xffff;
const MAX_SCOPE_TF = 0x7fff;

export function packTf(body: number, scope: number): number {
  return Math.min(body, MAX_BODY_TF) | (Math.min(scope, MAX_SCOPE_TF) << SCOPE_SHIFT);
}

/** Bucket key for prefix lookups: query prefixes are at least 4 characters long. */
export const PREFIX_KEY = 4;

function grownInt32(a: Int32Array, need: number): Int32Array {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}
function grownFloat64(a: Float64Array, need: number): Float64Array {
  if (need <= a.length) return a;
  const b = new Float64Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}
function grownUint8(a: Uint8Array, need: number): Uint8Array {
  if (need <= a.length) return a;
  const b = new Uint8Array(Math.max(need, a.length * 2, 16));
  b.set(a);
  return b;
}

const EMPTY = new Int32Array(0);

export class Postings {
  // vocabulary
  readonly termIds = new Map<string, number>();
  readonly terms: string[] = [];
  df: Int32Array = new Int32Array(0);
  lists: Int32Array[] = [];
  /** used length of lists[t], in Int32 units (2 per entry) */
  listLen: Int32Array = new Int32Array(0);
  readonly prefixBuckets = new Map<string, number[]>();

  // slots
  slots = 0;
  live = 0;
  sumBody = 0;
  sumScope = 0;
  alive: Uint8Array = new Uint8Array(0);
  bodyLen: Int32Array = new Int32Array(0);
  scopeLen: Int32Array = new Int32Array(0);
  /** max(created, updated) in epoch ms */
  recency: Float64Array = new Float64Array(0);
  /** expiry in epoch ms, +Infinity for none: expired memories never match */
  expires: Float64Array = new Float64Array(0);
  /** bumped whenever slots are renumbered, so per-slot caches elsewhere know to start over */
  epoch = 0;
  /** per slot: [termId, packedTf] pairs sorted by termId; null once dead */
  fwd: Array<Int32Array | null> = [];

  intern(term: string): number {
    let id = this.termIds.get(term);
    if (id !== undefined) return id;
    id = this.terms.length;
    this.termIds.set(term, id);
    this.terms.push(term);
    this.df = grownInt32(this.df, id + 1);
    this.listLen = grownInt32(this.listLen, id + 1);
    this.lists.push(EMPTY);
    if (term.length >= PREFIX_KEY) {
      const key = term.slice(0, PREFIX_KEY);
      const b = this.prefixBuckets.get(key);
      if (b) b.push(id);
      else this.prefixBuckets.set(key, [id]);
    }
    return id;
  }

  /**
   * Appends a document; `fwd` must be sorted by termId with one entry per term. With
   * `lists=false` only the slot is recorded (bulk loads call rebuildLists() once at the end).
   */
  add(fwd: Int32Array, bodyLen: number, scopeLen: number, recency: number, expires: number, lists = true): number {
    const slot = this.slots++;
    this.alive = grownUint8(this.alive, slot + 1);
    this.bodyLen = grownInt32(this.bodyLen, slot + 1);
    this.scopeLen = grownInt32(this.scopeLen, slot + 1);
    this.recency = grownFloat64(this.recency, slot + 1);
    this.expires = grownFloat64(this.expires, slot + 1);
    this.alive[slot] = 1;
    this.bodyLen[slot] = bodyLen;
    this.scopeLen[slot] = scopeLen;
    this.recency[slot] = recency;
    this.expires[slot] = expires;
    this.fwd[slot] = fwd;
    this.live++;
    this.sumBody += bodyLen;
    this.sumScope += scopeLen;
    if (!lists) return slot;
    for (let i = 0; i < fwd.length; i += 2) {
      const t = fwd[i]!;
      const len = this.listLen[t]!;
      let list = this.lists[t]!;
      if (len + 2 > list.length) list = this.lists[t] = grownInt32(list, len + 2);
      list[len] = slot;
      list[len + 1] = fwd[i + 1]!;
      this.listLen[t] = len + 2;
      this.df[t]!++;
    }
    return slot;
  }

  kill(slot: number): void {
    if (!this.alive[slot]) return;
    this.alive[slot] = 0;
    this.live--;
    this.sumBody -= this.bodyLen[slot]!;
    this.sumScope -= this.scopeLen[slot]!;
    const fwd = this.fwd[slot]!;
    for (let i = 0; i < fwd.length; i += 2) this.df[fwd[i]!]!--;
    this.fwd[slot] = null;
  }

  needsCompaction(): boolean {
    const dead = this.slots - this.live;
    return dead > 1024 && dead > this.live;
  }

  /**
   * Renumbers live slots densely and rebuilds every inverted list at its exact size.
   * Returns old slot -> new slot (-1 for dead ones) so the owner can remap its documents.
   */
  compact(): Int32Array {
    const remap = new Int32Array(this.slots).fill(-1);
    let n = 0;
    for (let s = 0; s < this.slots; s++) if (this.alive[s]) remap[s] = n++;
    const fwd: Array<Int32Array | null> = new Array(n);
    const bodyLen = new Int32Array(n);
    const scopeLen = new Int32Array(n);
    const recency = new Float64Array(n);
    const expires = new Float64Array(n);
    for (let s = 0; s < this.slots; s++) {
      const d = remap[s]!;
      if (d < 0) continue;
      fwd[d] = this.fwd[s]!;
      bodyLen[d] = this.bodyLen[s]!;
      scopeLen[d] = this.scopeLen[s]!;
      recency[d] = this.recency[s]!;
      expires[d] = this.expires[s]!;
    }
    this.fwd = fwd;
    this.bodyLen = bodyLen;
    this.scopeLen = scopeLen;
    this.recency = recency;
    this.expires = expires;
    this.epoch++;
    this.alive = new Uint8Array(n).fill(1);
    this.slots = n;
    this.rebuildLists();
    return remap;
  }

  /** Rebuilds df and every inverted list from the forward lists (exact sizes, slot order). */
  rebuildLists(): void {
    const nt = this.terms.length;
    const df = new Int32Array(nt);
    for (let s = 0; s < this.slots; s++) {
      const f = this.fwd[s];
      if (!f || !this.alive[s]) continue;
      for (let i = 0; i < f.length; i += 2) df[f[i]!]!++;
    }
    const lists: Int32Array[] = new Array(nt);
    for (let t = 0; t < nt; t++) lists[t] = df[t]! > 0 ? new Int32Array(df[t]! * 2) : EMPTY;
    const fill = new Int32Array(nt);
    let live = 0;
    let sumBody = 0;
    let sumScope = 0;
    for (let s = 0; s < this.slots; s++) {
      const f = this.fwd[s];
      if (!f || !this.alive[s]) continue;
      live++;
      sumBody += this.bodyLen[s]!;
      sumScope += this.scopeLen[s]!;
      for (let i = 0; i < f.length; i += 2) {
        const t = f[i]!;
        const list = lists[t]!;
        list[fill[t]!] = s;
        list[fill[t]! + 1] = f[i + 1]!;
        fill[t]! += 2;
      }
    }
    this.df = df;
    this.lists = lists;
    this.listLen = fill;
    this.live = live;
    this.sumBody = sumBody;
    this.sumScope = sumScope;
  }

  /** Binary search in a slot's forward list; returns the packed tf or 0. */
  tfOf(slot: number, term: number): number {
    const f = this.fwd[slot];
    if (!f) return 0;
    let lo = 0;
    let hi = (f.length >> 1) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const t = f[mid * 2]!;
      if (t === term) return f[mid * 2 + 1]!;
      if (t < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }
}
