// The semantic leg's data: one embedding per memory, int8-quantised (a scale per row) in one
// contiguous Int8Array, rows reused through a free list. Every vector in one VectorIndex comes
// from one embedder (`embedderId`): a ranking never compares vectors of two models.
//
// Search is exact: the query (float, unit length) against every live row. A row's cosine is
// scale x (query . int8 row); the quantisation error is below 0.01 of cosine for unit vectors,
// far under the gap between any two thresholds that use it.
import type { IndexDoc } from './analyze.ts';
import { expiresOf } from './analyze.ts';

/** The embedder contract (core/embed/embedder.ts), structurally: index/ does not depend on embed/. */
export interface VectorEmbedder {
  readonly id: string;
  readonly dim: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  embedSync?(text: string): Float32Array;
}

/** What gets embedded for a memory: its body, then its scopes and aliases (words it is known by). */
export function embedText(doc: Pick<IndexDoc, 'body' | 'scopes' | 'aliases'>): string {
  const scopes = doc.scopes.map((s) => s.replace(/[:_-]+/g, ' ')).join(', ');
  const aliases = doc.aliases && doc.aliases.length > 0 ? `\n${doc.aliases.join(', ')}` : '';
  return `${doc.body}\n${scopes}${aliases}`;
}

export interface VectorHit<D> {
  doc: D;
  sim: number;
}

/** The key that says a stored vector is still the one for this memory. */
export const vectorKey = (d: Pick<IndexDoc, 'id' | 'updated'>): string => `${d.id}\t${d.updated}`;

export class VectorIndex<D extends IndexDoc> {
  private data: Int8Array;
  private scale: Float32Array;
  private expires: Float64Array;
  private docs: Array<D | undefined> = [];
  private rowOf = new Map<string, number>();
  private free: number[] = [];
  private rows = 0;

  constructor(
    readonly embedderId: string,
    readonly dim: number,
    capacity = 64,
  ) {
    this.data = new Int8Array(capacity * dim);
    this.scale = new Float32Array(capacity);
    this.expires = new Float64Array(capacity);
  }

  get size(): number {
    return this.rowOf.size;
  }
  /** The doc whose vector is held for `id`, if any (compare it with the store's to know it is current). */
  docOf(id: string): D | undefined {
    const r = this.rowOf.get(id);
    return r === undefined ? undefined : this.docs[r];
  }
  has(doc: D): boolean {
    const d = this.docOf(doc.id);
    return d !== undefined && (d === doc || vectorKey(d) === vectorKey(doc));
  }
  *entries(): IterableIterator<{ doc: D; row: number }> {
    for (const row of this.rowOf.values()) yield { doc: this.docs[row]!, row };
  }

  private grow(need: number): void {
    const cap = this.scale.length;
    if (need <= cap) return;
    const next = Math.max(need, cap * 2);
    const d = new Int8Array(next * this.dim);
    d.set(this.data);
    this.data = d;
    const s = new Float32Array(next);
    s.set(this.scale);
    this.scale = s;
    const e = new Float64Array(next);
    e.set(this.expires);
    this.expires = e;
  }

  /** Stores `vec` (unit length, `dim` floats) for `doc`, replacing any vector for its id. */
  set(doc: D, vec: Float32Array): void {
    if (vec.length !== this.dim) throw new Error(`vector for ${doc.id} has ${vec.length} dimensions, expected ${this.dim}`);
    let row = this.rowOf.get(doc.id);
    if (row === undefined) {
      row = this.free.pop() ?? this.rows++;
      this.grow(row + 1);
      this.rowOf.set(doc.id, row);
    }
    let max = 0;
    for (let i = 0; i < vec.length; i++) max = Math.max(max, Math.abs(vec[i]!));
    const q = max > 0 ? 127 / max : 0;
    const base = row * this.dim;
    for (let i = 0; i < vec.length; i++) this.data[base + i] = Math.round(vec[i]! * q);
    this.scale[row] = max > 0 ? max / 127 : 0;
    this.expires[row] = expiresOf(doc);
    this.docs[row] = doc;
  }

  /** Stores an already quantised row (from the vector cache). */
  setRaw(doc: D, row8: Int8Array, scale: number): void {
    let row = this.rowOf.get(doc.id);
    if (row === undefined) {
      row = this.free.pop() ?? this.rows++;
      this.grow(row + 1);
      this.rowOf.set(doc.id, row);
    }
    this.data.set(row8, row * this.dim);
    this.scale[row] = scale;
    this.expires[row] = expiresOf(doc);
    this.docs[row] = doc;
  }

  /** The quantised row and scale of `row`, for the cache. */
  raw(row: number): { data: Int8Array; scale: number } {
    return { data: this.data.subarray(row * this.dim, (row + 1) * this.dim), scale: this.scale[row]! };
  }

  /** Points the row at a newer record object with the same content (no re-embedding). */
  retarget(doc: D): void {
    const row = this.rowOf.get(doc.id);
    if (row === undefined) return;
    this.docs[row] = doc;
    this.expires[row] = expiresOf(doc);
  }

  remove(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    this.rowOf.delete(id);
    this.docs[row] = undefined;
    this.scale[row] = 0;
    this.free.push(row);
    return true;
  }

  /** Cosine of `q` with the stored vector of `id` (null when none). */
  similarity(q: Float32Array, id: string): number | null {
    const row = this.rowOf.get(id);
    return row === undefined ? null : this.dotRow(q, row);
  }

  private dotRow(q: Float32Array, row: number): number {
    const d = this.data;
    const dim = this.dim;
    const base = row * dim;
    let s = 0;
    for (let i = 0; i < dim; i++) s += q[i]! * d[base + i]!;
    return s * this.scale[row]!;
  }

  /**
   * The `k` rows most similar to `q` (unit length), best first, among those `allow` accepts and
   * not expired at `now`. The filter is asked only for rows that would enter the top k.
   */
  search(q: Float32Array, k: number, opts: { now?: number; allow?: (doc: D) => boolean; minSim?: number } = {}): VectorHit<D>[] {
    if (q.length !== this.dim || k <= 0 || this.rowOf.size === 0) return [];
    const now = opts.now ?? Date.now();
    const allow = opts.allow;
    const minSim = opts.minSim ?? -Infinity;
    const d = this.data;
    const dim = this.dim;
    const scale = this.scale;
    const expires = this.expires;
    const docs = this.docs;
    const topRow = new Int32Array(k);
    const topSim = new Float64Array(k).fill(-Infinity);
    let n = 0;
    let worst = minSim;
    for (let row = 0, base = 0; row < this.rows; row++, base += dim) {
      const sc = scale[row]!;
      if (sc === 0) continue; // free row (or a zero vector: similar to nothing)
      let s = 0;
      for (let i = 0; i < dim; i++) s += q[i]! * d[base + i]!;
      s *= sc;
      if (s < worst || (n === k && s === worst)) continue;
      if (expires[row]! <= now) continue;
      if (allow && !allow(docs[row]!)) continue;
      // insert into the sorted top list
      let j = n < k ? n++ : k - 1;
      while (j > 0 && topSim[j - 1]! < s) {
        topSim[j] = topSim[j - 1]!;
        topRow[j] = topRow[j - 1]!;
        j--;
      }
      topSim[j] = s;
      topRow[j] = row;
      if (n === k) worst = Math.max(minSim, topSim[k - 1]!);
    }
    const out: VectorHit<D>[] = [];
    for (let i = 0; i < n; i++) out.push({ doc: docs[topRow[i]!]!, sim: topSim[i]! });
    return out;
  }
}
