// The vector cache file (server/src/core/index/vectorCache.ts) made the plain way, for tests: one
// buffer, field by field, independent of the streamed writer it checks; and a read file's rows.
import { createHash } from 'node:crypto';
import { newChecksum } from '../../src/core/index/checksum.ts';
import type { VectorFile } from '../../src/core/index/vectorCache.ts';
import type { VectorIndex } from '../../src/core/index/vectors.ts';
import type { IndexDoc } from '../../src/core/index/analyze.ts';

export interface VectorRows {
  embedder: string;
  dim: number;
  keys: string[];
  scales: Float32Array;
  rows: Int8Array;
  codeWords: number;
  codes: Uint32Array;
}

/** The file's bytes, sealed with the current checksum or, `sha1`, as an older cairn sealed it. */
export function encodeVectors(v: VectorRows, opts: { sha1?: boolean } = {}): Buffer {
  const keys = Buffer.from(v.keys.join('\n'), 'utf8');
  const header = Buffer.from(JSON.stringify({ format: 2, embedder: v.embedder, dim: v.dim, count: v.keys.length, keysBytes: keys.length, codeWords: v.codeWords }), 'utf8');
  const headLen = 8 + 40 + 4 + header.length;
  const pad = (4 - ((headLen + keys.length) % 4)) % 4;
  const rowsEnd = headLen + keys.length + pad + v.scales.length * 4 + v.rows.length;
  const pad2 = (4 - (rowsEnd % 4)) % 4;
  const out = Buffer.alloc(rowsEnd + pad2 + v.codes.length * 4);
  out.write('CAIRNVEC', 0, 'latin1');
  out.writeUInt32LE(header.length, 48);
  header.copy(out, 52);
  keys.copy(out, headLen);
  let at = headLen + keys.length + pad;
  for (let i = 0; i < v.scales.length; i++, at += 4) out.writeFloatLE(v.scales[i]!, at);
  Buffer.from(v.rows.buffer, v.rows.byteOffset, v.rows.length).copy(out, at);
  at = rowsEnd + pad2;
  for (let i = 0; i < v.codes.length; i++, at += 4) out.writeUInt32LE(v.codes[i]!, at);
  if (opts.sha1) out.write(createHash('sha1').update(out.subarray(48)).digest('hex'), 8, 'latin1');
  else {
    const sum = newChecksum();
    sum.update(out.subarray(48));
    out.write(sum.digest(), 8, 'latin1');
  }
  return out;
}

/** Every row of a read cache, in order, as one array. */
export function allRows(v: VectorFile): Int8Array {
  const out = new Int8Array(v.count * v.dim);
  for (let i = 0; i < v.count; i++) out.set(v.row(i), i * v.dim);
  return out;
}

/** The keys of a read cache. */
export const keysOf = (v: VectorFile): string[] => (v.count === 0 ? [] : v.keyText.split('\n'));

/** The given rows of an index (its data, scales and sign codes, in that order), read as the cache save reads them (copyRows). */
export function indexRows<D extends IndexDoc>(ix: VectorIndex<D>, rows: readonly number[]): { data: Int8Array; scales: Float32Array; codes: Uint32Array } {
  const n = rows.length;
  const out = { data: Buffer.alloc(n * ix.dim), scales: Buffer.alloc(n * 4), codes: Buffer.alloc(n * ix.codeWords * 4) };
  ix.copyRows(rows, 0, n, out);
  return { data: new Int8Array(out.data.buffer, out.data.byteOffset, n * ix.dim), scales: new Float32Array(out.scales.buffer, out.scales.byteOffset, n), codes: new Uint32Array(out.codes.buffer, out.codes.byteOffset, n * ix.codeWords) };
}
