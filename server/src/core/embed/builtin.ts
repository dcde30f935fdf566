// The built-in embedder: a static word table (distilled from a sentence encoder by
// scripts/embed/build.mjs) shipped as one data file, server/dist/cairn-embed.bin, next to the
// bundle. A text's vector is the sum of its words' rows, unit-normalised; a word the table does
// not know gets the mean of its hashed character n-gram rows. No network, no native code.
//
// File format, version 1 (little-endian):
//   0   8 bytes  magic "CAIRNEMB"
//   8   u32      format version (1)
//   12  u32      dim
//   16  u32      vocabulary size V
//   20  u32      n-gram buckets B
//   24  u32      byte length of the name (UTF-8)
//   28  u32      byte length of the vocabulary (UTF-8, words joined by "\n")
//   32  f32      weight of an unknown word relative to a known one
//   36  28 bytes reserved (zero)
//   64  name, vocabulary, zero padding to a multiple of 4
//       f32[V + B]        row scales
//       i8[(V + B) * dim] rows (row r, component k = scale[r] * q[r * dim + k])
//   end 20 bytes  SHA-1 of every byte before it
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EmbedError, normalize, type SyncEmbedder } from './embedder.ts';
import { simdKernels, type SimdKernels } from '../index/simd.ts';
import { ngramIds } from './ngrams.ts';
import { embedWords } from './tokenize.ts';

export const EMBED_MAGIC = 'CAIRNEMB';
export const EMBED_FORMAT_VERSION = 1;
const HEADER_BYTES = 64;
/** Unknown words whose vectors are kept (256-d: 1 KB each). */
const OOV_CACHE_MAX = 4096;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const SHA1_BYTES = 20;

export interface EmbedTable {
  /** e.g. 'use-distill-256' (the embedder id is `builtin:<name>-v<version>`) */
  name: string;
  dim: number;
  vocab: string[];
  buckets: number;
  oovWeight: number;
  /** (V + B) row scales */
  scales: Float32Array;
  /** (V + B) * dim quantised rows */
  rows: Int8Array;
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}

/** Serialises a table (the build script's writer; the reader below is the only other user of the layout). */
export function encodeEmbedFile(t: EmbedTable): Uint8Array {
  const enc = new TextEncoder();
  const name = enc.encode(t.name);
  const vocab = enc.encode(t.vocab.join('\n'));
  const nRows = t.vocab.length + t.buckets;
  if (t.scales.length !== nRows || t.rows.length !== nRows * t.dim) throw new Error('encodeEmbedFile: table shape mismatch');
  const textEnd = pad4(HEADER_BYTES + name.length + vocab.length);
  const total = textEnd + nRows * 4 + pad4(nRows * t.dim) + SHA1_BYTES;
  const buf = new Uint8Array(total);
  const dv = new DataView(buf.buffer);
  buf.set(enc.encode(EMBED_MAGIC), 0);
  dv.setUint32(8, EMBED_FORMAT_VERSION, true);
  dv.setUint32(12, t.dim, true);
  dv.setUint32(16, t.vocab.length, true);
  dv.setUint32(20, t.buckets, true);
  dv.setUint32(24, name.length, true);
  dv.setUint32(28, vocab.length, true);
  dv.setFloat32(32, t.oovWeight, true);
  buf.set(name, HEADER_BYTES);
  buf.set(vocab, HEADER_BYTES + name.length);
  for (let r = 0; r < nRows; r++) dv.setFloat32(textEnd + r * 4, t.scales[r]!, true);
  buf.set(new Uint8Array(t.rows.buffer, t.rows.byteOffset, t.rows.byteLength), textEnd + nRows * 4);
  const sha = createHash('sha1').update(buf.subarray(0, total - SHA1_BYTES)).digest();
  buf.set(sha, total - SHA1_BYTES);
  return buf;
}

/** Parses and verifies a table file; any defect is an EmbedError naming `path`. */
export function decodeEmbedFile(buf: Uint8Array, path: string): EmbedTable {
  const bad = (why: string) => new EmbedError(`built-in embedding file ${path} is damaged (${why}); reinstall cairn or rebuild it with 'node --import tsx scripts/embed/build.mjs'`);
  if (buf.length < HEADER_BYTES + SHA1_BYTES) throw bad(`only ${buf.length} bytes`);
  if (new TextDecoder().decode(buf.subarray(0, 8)) !== EMBED_MAGIC) throw bad('not a cairn embedding file');
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== EMBED_FORMAT_VERSION) {
    throw new EmbedError(`built-in embedding file ${path} has format version ${version}; this cairn reads version ${EMBED_FORMAT_VERSION}`);
  }
  const dim = dv.getUint32(12, true);
  const nVocab = dv.getUint32(16, true);
  const buckets = dv.getUint32(20, true);
  const nameLen = dv.getUint32(24, true);
  const vocabLen = dv.getUint32(28, true);
  const oovWeight = dv.getFloat32(32, true);
  const nRows = nVocab + buckets;
  const textEnd = pad4(HEADER_BYTES + nameLen + vocabLen);
  const expect = textEnd + nRows * 4 + pad4(nRows * dim) + SHA1_BYTES;
  if (dim === 0 || dim > 4096 || expect !== buf.length) throw bad(`size ${buf.length} bytes, header says ${expect}`);
  const sha = createHash('sha1').update(buf.subarray(0, buf.length - SHA1_BYTES)).digest();
  if (!sha.equals(buf.subarray(buf.length - SHA1_BYTES))) throw bad('checksum mismatch');
  const dec = new TextDecoder();
  const name = dec.decode(buf.subarray(HEADER_BYTES, HEADER_BYTES + nameLen));
  const vocab = nVocab === 0 ? [] : dec.decode(buf.subarray(HEADER_BYTES + nameLen, HEADER_BYTES + nameLen + vocabLen)).split('\n');
  if (vocab.length !== nVocab) throw bad(`vocabulary has ${vocab.length} words, header says ${nVocab}`);
  // Views into the file's bytes (no copy) when the platform is little-endian and the scales are
  // 4-byte aligned, as they are for a file read whole; otherwise a copy.
  const start = textEnd + nRows * 4;
  let scales: Float32Array;
  if (LITTLE_ENDIAN && (buf.byteOffset + textEnd) % 4 === 0) {
    scales = new Float32Array(buf.buffer, buf.byteOffset + textEnd, nRows);
  } else {
    scales = new Float32Array(nRows);
    for (let r = 0; r < nRows; r++) scales[r] = dv.getFloat32(textEnd + r * 4, true);
  }
  const rows = new Int8Array(buf.buffer, buf.byteOffset + start, nRows * dim);
  return { name, dim, vocab, buckets, oovWeight, scales, rows };
}

/** Where the data file is: $CAIRN_EMBED_FILE, else next to the bundle, else (running from source) server/dist/. */
export function defaultEmbedFile(): string {
  const env = process.env.CAIRN_EMBED_FILE;
  if (env) return env;
  const here = import.meta.url;
  const fromSource = here.endsWith('.ts');
  return fileURLToPath(new URL(fromSource ? '../../../dist/cairn-embed.bin' : './cairn-embed.bin', here));
}

/** Rows summed per call of the SIMD kernel. */
const ACCUM_BATCH = 256;

/**
 * The table's rows in WebAssembly memory, summed 16 dimensions a step by index/simd.ts's `accum`
 * (f32 arithmetic: the JavaScript loop's f64 sums differ from it in the last bits only). Rows
 * are queued and summed in order; `flush` before anything else touches the sum.
 */
class RowSummer {
  /** the running sum (a view into the kernel's memory) */
  readonly acc: Float32Array;
  /** a second sum, for an unknown word's n-grams */
  readonly tmp: Float32Array;
  private readonly ids: Int32Array;
  private readonly weights: Float32Array;
  private n = 0;
  private target: number;

  private constructor(
    private readonly k: SimdKernels,
    private readonly dim: number,
    private readonly accAt: number,
    private readonly tmpAt: number,
    private readonly idsAt: number,
    private readonly weightsAt: number,
  ) {
    const buf = k.memory.buffer;
    this.acc = new Float32Array(buf, accAt, dim);
    this.tmp = new Float32Array(buf, tmpAt, dim);
    this.ids = new Int32Array(buf, idsAt, ACCUM_BATCH);
    this.weights = new Float32Array(buf, weightsAt, ACCUM_BATCH);
    this.target = accAt;
  }

  /** null where WebAssembly SIMD is missing (or CAIRN_NO_SIMD=1): the JavaScript loop then sums. */
  static create(rows: Int8Array, dim: number): RowSummer | null {
    if (dim % 16 !== 0) return null;
    const accAt = Math.ceil(rows.length / 16) * 16;
    const tmpAt = accAt + dim * 4;
    const idsAt = tmpAt + dim * 4;
    const weightsAt = idsAt + ACCUM_BATCH * 4;
    const k = simdKernels(weightsAt + ACCUM_BATCH * 4);
    if (!k) return null;
    new Int8Array(k.memory.buffer, 0, rows.length).set(rows);
    return new RowSummer(k, dim, accAt, tmpAt, idsAt, weightsAt);
  }

  /** Queues row r x w for the sum `into` (acc or tmp). */
  add(into: 'acc' | 'tmp', r: number, w: number): void {
    const at = into === 'acc' ? this.accAt : this.tmpAt;
    if (at !== this.target) {
      this.flush();
      this.target = at;
    }
    this.ids[this.n] = r;
    this.weights[this.n] = w;
    if (++this.n === ACCUM_BATCH) this.flush();
  }

  flush(): void {
    if (this.n === 0) return;
    this.k.accum(this.target, 0, this.dim, this.idsAt, this.weightsAt, this.n);
    this.n = 0;
  }
}

/** A loaded table, ready to embed. */
export class StaticEmbedModel {
  readonly name: string;
  readonly dim: number;
  readonly id: string;
  private readonly index: Map<string, number>;
  private readonly nVocab: number;
  private readonly buckets: number;
  private readonly oovWeight: number;
  private readonly scales: Float32Array;
  /** The rows for the JavaScript loop (null when the SIMD kernel holds them). */
  private readonly rows: Int8Array | null;
  private readonly summer: RowSummer | null;
  private readonly words: string[] = [];
  private readonly grams: number[] = [];
  private readonly oovCache = new Map<string, Float32Array>();

  constructor(t: EmbedTable) {
    this.name = t.name;
    this.dim = t.dim;
    this.id = `builtin:${t.name}-v${EMBED_FORMAT_VERSION}`;
    this.index = new Map();
    for (let i = 0; i < t.vocab.length; i++) this.index.set(t.vocab[i]!, i);
    this.nVocab = t.vocab.length;
    this.buckets = t.buckets;
    this.oovWeight = t.oovWeight;
    this.summer = process.env.CAIRN_EMBED_JS === '1' ? null : RowSummer.create(t.rows, t.dim);
    // With the kernel the rows live in its memory: own copies of the rest, so the file's bytes can go.
    this.scales = this.summer ? new Float32Array(t.scales) : t.scales;
    this.rows = this.summer ? null : t.rows;
  }

  private addRow(acc: Float32Array, r: number, w: number): void {
    const s = this.scales[r]! * w;
    const d = this.dim;
    const rows = this.rows!;
    const off = r * d;
    for (let k = 0; k < d; k++) acc[k] = acc[k]! + s * rows[off + k]!;
  }

  /** An unknown word's vector (mean of its n-gram rows), cached: identifiers repeat across texts. */
  private oovVector(w: string): Float32Array {
    const hit = this.oovCache.get(w);
    if (hit) return hit;
    const grams = this.grams;
    grams.length = 0;
    ngramIds(w, this.buckets, grams);
    const share = this.oovWeight / grams.length;
    const sum = this.summer;
    let v: Float32Array;
    if (sum) {
      sum.flush(); // the text's sum so far, before tmp is reused
      sum.tmp.fill(0);
      for (const g of grams) sum.add('tmp', this.nVocab + g, this.scales[this.nVocab + g]! * share);
      sum.flush();
      v = sum.tmp.slice();
    } else {
      v = new Float32Array(this.dim);
      for (const g of grams) this.addRow(v, this.nVocab + g, share);
    }
    if (this.oovCache.size >= OOV_CACHE_MAX) this.oovCache.clear();
    this.oovCache.set(w, v);
    return v;
  }

  /**
   * The last text embedded and its sum before normalizing: a write embeds its text for the gates,
   * then the index embeds `text + "\n" + scopes`, and the words of that are the text's words then
   * the scopes' (a newline always ends a word), so the sum goes on from the cached one, with the
   * same additions in the same order: the same vector, bit for bit.
   */
  private lastText: string | null = null;
  private lastAny = false;
  /** its sum, overwritten in place by every text (no allocation per embedding) */
  private lastAcc: Float32Array | null = null;

  /**
   * Unit vector of `text`; a text with no word at all gets the same fixed unit vector every time.
   * `into` (dim floats, zeroed), when given, receives it and is returned: a batch's vectors are
   * then views of one buffer instead of a buffer outside V8's heap each (200,000 of them in a
   * first start's pass at 200k memories, which fragmented the C heap).
   */
  embed(text: string, into?: Float32Array): Float32Array {
    const sum = this.summer;
    const acc = sum ? sum.acc.fill(0) : (into ?? new Float32Array(this.dim));
    const words = this.words;
    words.length = 0;
    let any = false;
    const last = this.lastText;
    if (last !== null && text.length > last.length && text.charCodeAt(last.length) === 10 && text.startsWith(last)) {
      acc.set(this.lastAcc!);
      any = this.lastAny;
      embedWords(text.slice(last.length + 1), words);
    } else embedWords(text, words);
    for (const w of words) {
      const id = this.index.get(w);
      if (id !== undefined) {
        if (sum) sum.add('acc', id, this.scales[id]!);
        else this.addRow(acc, id, 1);
        any = true;
        continue;
      }
      // unknown word: its n-grams; bare numbers carry no meaning worth guessing at
      if (this.buckets === 0 || w.length < 2 || /^[0-9]+$/.test(w)) continue;
      const v = this.oovVector(w);
      sum?.flush(); // in order: the rows queued so far first
      for (let k = 0; k < acc.length; k++) acc[k] = acc[k]! + v[k]!;
      any = true;
    }
    sum?.flush();
    (this.lastAcc ??= new Float32Array(this.dim)).set(acc);
    this.lastText = text;
    this.lastAny = any;
    // the kernel's sum is a view into its memory, which the next text reuses: a copy goes out
    const out = !sum ? acc : into ? (into.set(acc), into) : acc.slice();
    let s = 0;
    for (let k = 0; k < out.length; k++) s += out[k]! * out[k]!;
    if (!any || s === 0) {
      out.fill(1 / Math.sqrt(this.dim));
      return out;
    }
    return normalize(out);
  }
}

/** Reads, verifies and indexes a table file. */
export function loadEmbedModel(file: string): StaticEmbedModel {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new EmbedError(
      code === 'ENOENT'
        ? `built-in embedding file ${file} is missing; reinstall cairn, or set CAIRN_EMBED_FILE to its path`
        : `cannot read built-in embedding file ${file}: ${(err as Error).message}`,
    );
  }
  return new StaticEmbedModel(decodeEmbedFile(buf, file));
}

/** Embedder id and dim are known only once the file is loaded; before that `id` reads it. */
export interface BuiltinEmbedder extends SyncEmbedder {
  /** Path of the data file this embedder reads. */
  readonly file: string;
  /** Loads the file now (it is otherwise loaded by the first embed, or by reading id / dim); throws EmbedError if missing or damaged. */
  load(): StaticEmbedModel;
}

/**
 * The built-in embedder. The file is read lazily, on the first embed (or first read of id/dim).
 * A missing or damaged file makes that call throw (embedSync) or reject (embed) with an
 * EmbedError naming the path; the caller then runs lexical-only.
 */
export function builtinEmbedder(opts: { file?: string } = {}): BuiltinEmbedder {
  const file = opts.file ?? defaultEmbedFile();
  let model: StaticEmbedModel | null = null;
  const load = (): StaticEmbedModel => (model ??= loadEmbedModel(file));
  return {
    file,
    load,
    get id() {
      return load().id;
    },
    get dim() {
      return load().dim;
    },
    embedSync(text: string): Float32Array {
      return load().embed(text);
    },
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      const m = load();
      // One buffer for the batch; each vector a view of it (see StaticEmbedModel.embed).
      const buf = new Float32Array(texts.length * m.dim);
      return texts.map((t, i) => m.embed(t, buf.subarray(i * m.dim, (i + 1) * m.dim)));
    },
  };
}
