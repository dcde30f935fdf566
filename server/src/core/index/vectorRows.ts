// The semantic leg's storage: one embedding per memory, int8-quantised (a scale per row) in one
// contiguous Int8Array, rows reused through a free list, each with its sign code (the signs of the
// row after a fixed randomised Hadamard rotation, 1 bit per dimension: what vectors.ts's
// approximate search compares first). Every vector in one index comes from one embedder
// (`embedderId`): a ranking never compares vectors of two models. Where WebAssembly SIMD is
// available, the rows and codes live in the memory of simd.ts's kernels (simdSpace below).
import type { IndexDoc } from './analyze.ts';
import { expiresOf } from './analyze.ts';
import { simdKernels, type SimdKernels } from './simd.ts';
import { copyRowsFrom, type RowOutputs } from './vectorCache.ts';

/** The embedder contract (core/embed/embedder.ts), structurally: index/ does not depend on embed/. */
export interface VectorEmbedder {
  readonly id: string;
  readonly dim: number;
  /** `urgent`: a query someone waits for (an embedder with a queue answers it first); `background`: the store's pass (paused during calls). */
  embed(texts: readonly string[], opts?: { urgent?: boolean; background?: boolean }): Promise<Float32Array[]>;
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

export class VectorRows<D extends IndexDoc> {
  protected data: Int8Array;
  protected scale: Float32Array;
  protected expires: Float64Array;
  /** sign codes, `words` uint32 per row */
  protected codes: Uint32Array;
  protected readonly words: number;
  protected readonly rot: Rotation;
  /** per-search scratch: Hamming distance per row */
  protected dist: Uint16Array;
  /** The WebAssembly SIMD kernels (simd.ts) and their memory, which then holds data, codes and the scratch; null: JS loops. */
  protected simd: SimdSpace | null = null;
  protected docs: Array<D | undefined> = [];
  protected rowOf = new Map<string, number>();
  protected free: number[] = [];
  protected rows = 0;

  constructor(
    readonly embedderId: string,
    readonly dim: number,
    capacity = 64,
  ) {
    this.data = new Int8Array(capacity * dim);
    this.scale = new Float32Array(capacity);
    this.expires = new Float64Array(capacity);
    this.rot = rotationFor(dim);
    this.words = this.rot.size >>> 5;
    this.codes = new Uint32Array(capacity * this.words);
    this.dist = new Uint16Array(capacity);
    if (dim % 8 === 0 && this.words % 4 === 0) this.simd = simdSpace(capacity, dim, this.words, null, this);
  }

  get size(): number {
    return this.rowOf.size;
  }
  /** Rows it holds room for before it grows (a copy of every row into a memory twice the size). */
  get capacity(): number {
    return this.scale.length;
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
    const s = new Float32Array(next);
    s.set(this.scale);
    this.scale = s;
    const e = new Float64Array(next);
    e.set(this.expires);
    this.expires = e;
    if (this.simd) {
      this.simd = simdSpace(next, this.dim, this.words, this.simd, this);
      if (this.simd) return;
    }
    const d = new Int8Array(next * this.dim);
    d.set(this.data);
    this.data = d;
    const c = new Uint32Array(next * this.words);
    c.set(this.codes);
    this.codes = c;
    this.dist = new Uint16Array(next);
  }

  /** Points data/codes/dist at the SIMD memory's regions (simdSpace calls it after (re)allocating). */
  adoptSpace(data: Int8Array, codes: Uint32Array, dist: Uint16Array): void {
    this.data = data;
    this.codes = codes;
    this.dist = dist;
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
    signCode(this.rot, this.data.subarray(base, base + this.dim), this.codes, row * this.words);
    this.expires[row] = expiresOf(doc);
    this.docs[row] = doc;
  }

  /** Stores an already quantised row (from the vector cache), with its sign code when the cache has it. */
  setRaw(doc: D, row8: Int8Array, scale: number, code?: Uint32Array): void {
    let row = this.rowOf.get(doc.id);
    if (row === undefined) {
      row = this.free.pop() ?? this.rows++;
      this.grow(row + 1);
      this.rowOf.set(doc.id, row);
    }
    this.data.set(row8, row * this.dim);
    this.scale[row] = scale;
    if (code && code.length === this.words) this.codes.set(code, row * this.words);
    else signCode(this.rot, row8, this.codes, row * this.words);
    this.expires[row] = expiresOf(doc);
    this.docs[row] = doc;
  }

  /** Uint32 words per sign code. */
  get codeWords(): number {
    return this.words;
  }

  /** For the cache save: rows[from..to)'s scales, values and codes into the outputs (vectorCache.ts), no object per row. */
  copyRows(rows: ArrayLike<number>, from: number, to: number, out: RowOutputs): void {
    copyRowsFrom({ dim: this.dim, codeWords: this.words, scales: this.scale, rows: this.data, codes: this.codes }, (i) => rows[i]!, from, to, out);
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
}

/** Rows scored per call of the SIMD dot-product kernel. */
export const SIMD_BATCH = 2048;

/** The SIMD kernels' memory, carved into the index's arrays and the per-search scratch. */
export interface SimdSpace {
  k: SimdKernels;
  data: Int8Array;
  dataAt: number;
  codes: Uint32Array;
  codesAt: number;
  dist: Uint16Array;
  distAt: number;
  hist: Int32Array;
  histAt: number;
  qc: Uint32Array;
  qcAt: number;
  qf: Float64Array;
  qfAt: number;
  /** the query quantised to int16 for dots16 (null when dim is not a multiple of 16) */
  q16: Int16Array | null;
  q16At: number;
  /** 1 / the query's int16 scale: an i32 dot x qInv x the row's scale is its cosine (to ~1e-4) */
  qInv: number;
  out32: Int32Array;
  out32At: number;
  cand: Int32Array;
  candAt: number;
  out: Float64Array;
  outAt: number;
}

/**
 * Lays out (or grows, copying `prev`'s rows) the SIMD memory for `capacity` rows and hands the
 * index its views; null when WebAssembly SIMD is not available (the index keeps plain arrays).
 */
function simdSpace(capacity: number, dim: number, words: number, prev: SimdSpace | null, ix: { adoptSpace(d: Int8Array, c: Uint32Array, t: Uint16Array): void }): SimdSpace | null {
  const a16 = (x: number) => (x + 15) & ~15;
  let at = 0;
  const place = (bytes: number) => {
    const p = at;
    at = a16(at + bytes);
    return p;
  };
  const qcAt = place(words * 4);
  const qfAt = place(dim * 8);
  const q16At = place(dim * 2);
  const out32At = place(SIMD_BATCH * 4);
  const histAt = place((words * 32 + 2) * 4);
  // every row can be a candidate (collect() writes a pass's whole selection at once)
  const candCap = Math.max(SIMD_BATCH, capacity);
  const candAt = place(candCap * 4);
  const outAt = place(SIMD_BATCH * 8);
  const distAt = place(capacity * 2);
  const codesAt = place(capacity * words * 4);
  const dataAt = place(capacity * dim);
  const k = simdKernels(at);
  if (!k) return null;
  const buf = k.memory.buffer;
  const sp: SimdSpace = {
    k,
    data: new Int8Array(buf, dataAt, capacity * dim),
    dataAt,
    codes: new Uint32Array(buf, codesAt, capacity * words),
    codesAt,
    dist: new Uint16Array(buf, distAt, capacity),
    distAt,
    hist: new Int32Array(buf, histAt, words * 32 + 2),
    histAt,
    qc: new Uint32Array(buf, qcAt, words),
    qcAt,
    qf: new Float64Array(buf, qfAt, dim),
    qfAt,
    q16: dim % 16 === 0 ? new Int16Array(buf, q16At, dim) : null,
    q16At,
    qInv: 0,
    out32: new Int32Array(buf, out32At, SIMD_BATCH),
    out32At,
    cand: new Int32Array(buf, candAt, candCap),
    candAt,
    out: new Float64Array(buf, outAt, SIMD_BATCH),
    outAt,
  };
  if (prev) {
    sp.data.set(prev.data);
    sp.codes.set(prev.codes);
  }
  ix.adoptSpace(sp.data, sp.codes, sp.dist);
  return sp;
}

/** A fixed randomised Hadamard rotation: three rounds of (random signs, Walsh-Hadamard transform) over `size` = dim padded to a power of two. */
export interface Rotation {
  size: number;
  signs: Float64Array[];
  tmp: Float64Array;
}

const ROTATIONS = new Map<number, Rotation>();
function rotationFor(dim: number): Rotation {
  let r = ROTATIONS.get(dim);
  if (r) return r;
  let size = 32;
  while (size < dim) size <<= 1;
  // mulberry32, fixed seed: the same rotation in every process, so cached codes stay valid
  let a = 0x9e3779b9;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const signs = [0, 1, 2].map(() => Float64Array.from({ length: size }, () => (rand() < 0.5 ? -1 : 1)));
  r = { size, signs, tmp: new Float64Array(size) };
  ROTATIONS.set(dim, r);
  return r;
}

/** Writes the sign code of `v` (any scale: only signs matter) at `out[at..]`. */
export function signCode(rot: Rotation, v: ArrayLike<number>, out: Uint32Array, at: number): void {
  const x = rot.tmp;
  const size = rot.size;
  x.fill(0);
  for (let i = 0; i < v.length; i++) x[i] = v[i]!;
  for (const sg of rot.signs) {
    for (let i = 0; i < size; i++) x[i] = x[i]! * sg[i]!;
    for (let h = 1; h < size; h <<= 1) {
      for (let i = 0; i < size; i += h << 1) {
        for (let j = i; j < i + h; j++) {
          const p = x[j]!;
          const q = x[j + h]!;
          x[j] = p + q;
          x[j + h] = p - q;
        }
      }
    }
  }
  for (let w = 0, i = 0; w < size >>> 5; w++) {
    let c = 0;
    for (let b = 0; b < 32; b++, i++) if (x[i]! > 0) c |= 1 << b;
    out[at + w] = c >>> 0;
  }
}
