// The compact storage behind the search index: a vocabulary, one growable Int32Array of postings
// per term (the inverted lists), and per-slot typed arrays. No forward lists stay in memory: a
// document's terms are re-derived from its text when it is removed, and from the lists when a
// snapshot is taken.
//
// A posting is one int: slot (low 24 bits) | body tf (5 bits) | scope tf (2 bits) | alias
// present (1 bit). Term frequencies saturate in BM25 long before 31 and 3, so capping them
// changes no ranking that matters and halves the lists.
//
// Slots are append-only: replacing a document kills its old slot and appends a new one, so no
// inverted list is edited in place and every list stays sorted by slot. Dead entries are skipped
// at query time through `alive` and dropped by compact() once dead slots outnumber live ones.
// Invariant: df[t] counts live slots containing t, and `live`, `sumBody`, `sumScope` cover live
// slots only, so BM25 statistics never see deleted documents.

/**
 * Packed (body tf, scope tf, alias tf) as produced by analysis and stored in the cache:
 * body | scope << 16 | alias << 24 (a cache written before aliases holds alias 0: still valid).
 */
export const TF_MASK = 0xffff;
export const SCOPE_SHIFT = 16;
export const ALIAS_SHIFT = 24;

export function packTf(body: number, scope: number, alias = 0): number {
  return Math.min(body, 0xffff) | (Math.min(scope, 0xff) << SCOPE_SHIFT) | (Math.min(alias, 0x7f) << ALIAS_SHIFT);
}

// Posting layout.
export const SLOT_BITS = 24;
export const SLOT_MASK = 0xffffff;
export const MAX_SLOTS = 1 << SLOT_BITS;
const BODY_TF_MAX = 31;
const SCOPE_TF_MAX = 3;

/** One posting from a slot and an analysis tf pair. */
export function posting(slot: number, packed: number): number {
  const tb = Math.min(packed & TF_MASK, BODY_TF_MAX);
  const ts = Math.min((packed >>> SCOPE_SHIFT) & 0xff, SCOPE_TF_MAX);
  const ta = packed >>> ALIAS_SHIFT === 0 ? 0 : 1;
  return slot | (tb << 24) | (ts << 29) | (ta << 31);
}
/** The analysis tf pair back from a posting. */
export function postingTf(e: number): number {
  return ((e >>> 24) & BODY_TF_MAX) | (((e >>> 29) & SCOPE_TF_MAX) << SCOPE_SHIFT) | ((e >>> 31) << ALIAS_SHIFT);
}

/** Bucket key for prefix lookups: query prefixes are at least 4 characters long. */
export const PREFIX_KEY = 4;

// Per-slot meta word, everything the hot loop needs about a slot in one read:
// body length (16 bits, capped) | scope length (8 bits, capped) << 16 | ALIVE | HAS_EXPIRY.
export const META_ALIVE = 1 << 24;
export const META_EXPIRES = 1 << 25;
function metaOf(bodyLen: number, scopeLen: number, expires: number): number {
  return Math.min(bodyLen, 0xffff) | (Math.min(scopeLen, 0xff) << 16) | META_ALIVE | (Number.isFinite(expires) ? META_EXPIRES : 0);
}

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
  /** used length of lists[t] (postings) */
  listLen: Int32Array = new Int32Array(0);
  readonly prefixBuckets = new Map<string, number[]>();

  // slots
  slots = 0;
  live = 0;
  sumBody = 0;
  sumScope = 0;
  alive: Uint8Array = new Uint8Array(0);
  /** see metaOf */
  meta: Int32Array = new Int32Array(0);
  bodyLen: Int32Array = new Int32Array(0);
  scopeLen: Int32Array = new Int32Array(0);
  /** max(created, updated) in epoch ms */
  recency: Float64Array = new Float64Array(0);
  /** expiry in epoch ms, +Infinity for none: expired memories never match */
  expires: Float64Array = new Float64Array(0);
  /** bumped whenever slots are renumbered, so per-slot caches elsewhere know to start over */
  epoch = 0;

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

  /** Makes room for `n` slots and `terms` terms at once (a bulk load that knows its size skips the doublings). */
  reserve(n: number, terms = 0): void {
    this.df = grownInt32(this.df, terms);
    this.listLen = grownInt32(this.listLen, terms);
    this.alive = grownUint8(this.alive, n);
    this.meta = grownInt32(this.meta, n);
    this.bodyLen = grownInt32(this.bodyLen, n);
    this.scopeLen = grownInt32(this.scopeLen, n);
    this.recency = grownFloat64(this.recency, n);
    this.expires = grownFloat64(this.expires, n);
  }

  /** Records a new slot's field data; its postings come from append() or buildLists(). */
  addSlot(bodyLen: number, scopeLen: number, recency: number, expires: number): number {
    const slot = this.slots;
    if (slot >= MAX_SLOTS) throw new Error(`the search index holds at most ${MAX_SLOTS} slots`);
    this.slots++;
    this.alive = grownUint8(this.alive, slot + 1);
    this.meta = grownInt32(this.meta, slot + 1);
    this.bodyLen = grownInt32(this.bodyLen, slot + 1);
    this.scopeLen = grownInt32(this.scopeLen, slot + 1);
    this.recency = grownFloat64(this.recency, slot + 1);
    this.expires = grownFloat64(this.expires, slot + 1);
    this.alive[slot] = 1;
    this.meta[slot] = metaOf(bodyLen, scopeLen, expires);
    this.bodyLen[slot] = bodyLen;
    this.scopeLen[slot] = scopeLen;
    this.recency[slot] = recency;
    this.expires[slot] = expires;
    this.live++;
    this.sumBody += bodyLen;
    this.sumScope += scopeLen;
    return slot;
  }

  /** Appends a slot's postings; `fwd` = [termId, packedTf] pairs sorted by term id. */
  append(slot: number, fwd: Int32Array): void {
    for (let i = 0; i < fwd.length; i += 2) {
      const t = fwd[i]!;
      const len = this.listLen[t]!;
      let list = this.lists[t]!;
      if (len === list.length) list = this.lists[t] = grownInt32(list, len + 1);
      list[len] = posting(slot, fwd[i + 1]!);
      this.listLen[t] = len + 1;
      this.df[t]!++;
    }
  }

  /** Kills a slot; `fwd` = its analysis (re-derived from its text by the caller), for df. */
  kill(slot: number, fwd: Int32Array): void {
    if (!this.alive[slot]) return;
    this.alive[slot] = 0;
    this.meta[slot] = 0;
    this.live--;
    this.sumBody -= this.bodyLen[slot]!;
    this.sumScope -= this.scopeLen[slot]!;
    for (let i = 0; i < fwd.length; i += 2) this.df[fwd[i]!]!--;
  }

  needsCompaction(): boolean {
    const dead = this.slots - this.live;
    return (dead > 1024 && dead > this.live) || this.slots >= MAX_SLOTS - 1024;
  }

  /**
   * Renumbers live slots densely and drops dead postings from every list (order is kept: the
   * renumbering is monotonic). Returns old slot -> new slot (-1 for dead ones).
   */
  compact(): Int32Array {
    const remap = new Int32Array(this.slots).fill(-1);
    let n = 0;
    for (let s = 0; s < this.slots; s++) if (this.alive[s]) remap[s] = n++;
    const bodyLen = new Int32Array(n);
    const scopeLen = new Int32Array(n);
    const recency = new Float64Array(n);
    const expires = new Float64Array(n);
    const meta = new Int32Array(n);
    for (let s = 0; s < this.slots; s++) {
      const d = remap[s]!;
      if (d < 0) continue;
      meta[d] = this.meta[s]!;
      bodyLen[d] = this.bodyLen[s]!;
      scopeLen[d] = this.scopeLen[s]!;
      recency[d] = this.recency[s]!;
      expires[d] = this.expires[s]!;
    }
    for (let t = 0; t < this.terms.length; t++) {
      const list = this.lists[t]!;
      const len = this.listLen[t]!;
      const out = this.df[t]! > 0 ? new Int32Array(this.df[t]!) : EMPTY;
      let o = 0;
      for (let i = 0; i < len; i++) {
        const e = list[i]!;
        const d = remap[e & SLOT_MASK]!;
        if (d >= 0) out[o++] = (e & ~SLOT_MASK) | d;
      }
      this.lists[t] = out;
      this.listLen[t] = o;
    }
    this.bodyLen = bodyLen;
    this.scopeLen = scopeLen;
    this.recency = recency;
    this.expires = expires;
    this.meta = meta;
    this.alive = new Uint8Array(n).fill(1);
    this.slots = n;
    this.epoch++;
    return remap;
  }

  /** Builds df and every list at its exact size from each slot's analysis (bulk loads). */
  buildLists(fwdBySlot: ArrayLike<Int32Array | undefined>): void {
    const nt = this.terms.length;
    const df = new Int32Array(nt);
    for (let s = 0; s < this.slots; s++) {
      const f = fwdBySlot[s];
      if (!f || !this.alive[s]) continue;
      for (let i = 0; i < f.length; i += 2) df[f[i]!]!++;
    }
    const lists: Int32Array[] = new Array(nt);
    for (let t = 0; t < nt; t++) lists[t] = df[t]! > 0 ? new Int32Array(df[t]!) : EMPTY;
    const fill = new Int32Array(nt);
    for (let s = 0; s < this.slots; s++) {
      const f = fwdBySlot[s];
      if (!f || !this.alive[s]) continue;
      for (let i = 0; i < f.length; i += 2) {
        const t = f[i]!;
        lists[t]![fill[t]!++] = posting(s, f[i + 1]!);
      }
    }
    this.df = df;
    this.lists = lists;
    this.listLen = fill;
  }

  /** Each live slot's analysis ([termId, packedTf] pairs by term id), rebuilt from the lists: one read of every slot. */
  forwardLists(): Array<Int32Array | undefined> {
    return this.forwardReader().read(0, this.slots);
  }

  /**
   * A reader of each live slot's analysis a slot range at a time, ascending (0..a, a..b, ...), over
   * the lists as they are now: later appends (new slots), kills and compactions do not show
   * (the list arrays are never edited in place below their recorded length). The cache save
   * streams with it instead of holding every forward list at once (~70 MB at 200k memories).
   */
  forwardReader(): { slots: number; alive: Uint8Array; read: (from: number, to: number) => Array<Int32Array | undefined> } {
    const nt = this.terms.length;
    const lists = this.lists.slice(0, nt);
    const lens = this.listLen.slice(0, nt);
    const slots = this.slots;
    const alive = this.alive.slice(0, slots);
    const pos = new Int32Array(nt);
    const read = (from: number, to: number): Array<Int32Array | undefined> => {
      const count = new Int32Array(to - from);
      for (let t = 0; t < nt; t++) {
        const list = lists[t]!;
        const len = lens[t]!;
        for (let i = pos[t]!; i < len; i++) {
          const s = list[i]! & SLOT_MASK;
          if (s >= to) break;
          count[s - from]!++;
        }
      }
      // One buffer for the range, each slot's list a view of it: a buffer of its own per slot is
      // an allocation outside V8's heap each, and 200,000 of them fragmented the C heap.
      let total = 0;
      for (let s = from; s < to; s++) if (alive[s]) total += count[s - from]! * 2;
      const all = new Int32Array(total);
      const out: Array<Int32Array | undefined> = new Array(to - from);
      for (let s = from, o = 0; s < to; s++) {
        if (!alive[s]) continue;
        const n = count[s - from]! * 2;
        out[s - from] = all.subarray(o, o + n);
        o += n;
      }
      const fill = new Int32Array(to - from);
      for (let t = 0; t < nt; t++) {
        const list = lists[t]!;
        const len = lens[t]!;
        let i = pos[t]!;
        for (; i < len; i++) {
          const e = list[i]!;
          const s = e & SLOT_MASK;
          if (s >= to) break;
          const f = out[s - from];
          if (!f) continue;
          const k = fill[s - from]!;
          f[k] = t;
          f[k + 1] = postingTf(e);
          fill[s - from] = k + 2;
        }
        pos[t] = i;
      }
      return out;
    };
    return { slots, alive, read };
  }

  /** The analysis tf pair of `term` in `slot`, or 0: binary search in the term's list. */
  tfOf(slot: number, term: number): number {
    const list = this.lists[term]!;
    let lo = 0;
    let hi = this.listLen[term]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = list[mid]! & SLOT_MASK;
      if (s === slot) return postingTf(list[mid]!);
      if (s < slot) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }
}
