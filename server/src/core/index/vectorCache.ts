// The persisted vectors: `<store>/.cache/vectors.bin`. Derived data only: deleting it costs a
// re-embedding, never data. Any doubt (missing, short, bad checksum, other format, another
// embedder or dimension) means "no cache"; a row whose (id, updated) no longer matches the store
// is simply not used (that memory is embedded again).
//
// Layout: magic "CAIRNVEC", a 40-character checksum slot over everything after it (checksum.ts),
// u32 LE header length, header JSON {format, embedder, dim, count, keysBytes}, the keys ("id\tupdated" joined
// by '\n', UTF-8), zero padding to 4 bytes, Float32 LE scales (count), Int8 rows (count x dim),
// zero padding to 4 bytes, Uint32 LE sign codes (count x codeWords; vectors.ts: what the
// approximate search compares, kept so a start does not recompute them).
// A load checksums the file in one streamed pass and reads the rows a block at a time (readVectors);
// rows are copied straight into the index's arrays, no object per record.
import { checksumFor, newChecksum } from './checksum.ts';
import { LITTLE_ENDIAN } from './cache.ts';
import { closeSync, constants, fchmodSync, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_MODE, ensureOwnDirSync, fsyncDir, fsyncFd, isOwnDirSync, tempPathFor } from '../store/fsatomic.ts';

export const VECTOR_FILE = 'vectors.bin';
const MAGIC = 'CAIRNVEC';
const FORMAT = 2;

/**
 * Finds a memory's row in a read cache by (id, updated). A load asks in the store's order, which
 * is the order the rows were saved in (both follow the order memories were first loaded): each
 * answer is then the next key, compared in place. A key out of that order is looked up in a map
 * of every key (made at the first such miss) and the walk goes on from there. At 200k memories
 * that spares a string and a map entry per key (~35 MB beside the rows while the vectors load).
 */
export function rowFinder(v: Pick<VectorFile, 'keyText' | 'keyAt'>): (id: string, updated: string) => number | undefined {
  const { keyText: t, keyAt } = v;
  const n = keyAt.length - 1;
  let next = 0;
  let byKey: Map<string, number> | null = null;
  const isAt = (i: number, id: string, updated: string): boolean => {
    const o = keyAt[i]!;
    return keyAt[i + 1]! - 1 - o === id.length + 1 + updated.length && t.startsWith(id, o) && t.charCodeAt(o + id.length) === 9 && t.startsWith(updated, o + id.length + 1);
  };
  return (id, updated) => {
    if (next < n && isAt(next, id, updated)) return next++;
    if (byKey === null) {
      byKey = new Map();
      for (let i = 0; i < n; i++) byKey.set(t.slice(keyAt[i]!, keyAt[i + 1]! - 1), i);
    }
    const i = byKey.get(`${id}\t${updated}`);
    if (i !== undefined) next = i + 1;
    return i;
  };
}

/** `file`: the cache's name in .cache/ (VECTOR_FILE for the built-in table; each transformer model has its own, vectorFileFor). */
export function vectorCachePath(storeDir: string, file = VECTOR_FILE): string {
  return join(storeDir, '.cache', file);
}

/**
 * The cache file of a model embedder's vectors: its own file beside the built-in table's, so the
 * table's vectors (searched while the model's are still being made) and the model's are both
 * kept. The embedder id is also in each file's header: a file of another model is never used.
 */
export function vectorFileFor(embedderId: string): string {
  return `vectors-${embedderId.replace(/[^A-Za-z0-9._-]+/g, '_')}.bin`;
}

interface Layout {
  embedder: string;
  dim: number;
  count: number;
  codeWords: number;
  headLen: number;
  keysBytes: number;
  scalesAt: number;
  rowsAt: number;
  rowsEnd: number;
  codesAt: number;
  size: number;
}

/** The sections' places from the 52 fixed bytes and the header JSON (`head` holds at least those), or why not. */
function layoutOf(head: Buffer, size: number): Layout | string {
  if (size < 52 || head.length < 52 || head.toString('latin1', 0, 8) !== MAGIC) return 'not a vector cache';
  const hl = head.readUInt32LE(48);
  if (head.length < 52 + hl) return 'truncated';
  let h: { format?: unknown; embedder?: unknown; dim?: unknown; count?: unknown; keysBytes?: unknown; codeWords?: unknown };
  try {
    h = JSON.parse(head.toString('utf8', 52, 52 + hl)) as typeof h;
  } catch {
    return 'unreadable header';
  }
  if (h.format !== FORMAT) return `format ${String(h.format)}, expected ${FORMAT}`;
  const { embedder, dim, count, keysBytes, codeWords } = h;
  if (typeof embedder !== 'string' || !Number.isInteger(dim) || !Number.isInteger(count) || !Number.isInteger(keysBytes) || !Number.isInteger(codeWords)) return 'malformed header';
  if ((dim as number) < 1 || (count as number) < 0 || (keysBytes as number) < 0 || (codeWords as number) < 0) return 'malformed header';
  const n = count as number;
  const headLen = 52 + hl;
  const pad = (4 - ((headLen + (keysBytes as number)) % 4)) % 4;
  const scalesAt = headLen + (keysBytes as number) + pad;
  const rowsAt = scalesAt + n * 4;
  const rowsEnd = rowsAt + n * (dim as number);
  const codesAt = rowsEnd + ((4 - (rowsEnd % 4)) % 4);
  if (size !== codesAt + n * (codeWords as number) * 4) return 'truncated';
  return { embedder, dim: dim as number, count: n, codeWords: codeWords as number, headLen, keysBytes: keysBytes as number, scalesAt, rowsAt, rowsEnd, codesAt, size };
}

/** Where each key starts in the keys section's text (count + 1 entries), or null when the count is not the header's. */
function keyStarts(keyText: string, n: number): Int32Array | null {
  const keyAt = new Int32Array(n + 1);
  let found = 0;
  if (n > 0) {
    for (let nl = keyText.indexOf('\n'); nl >= 0 && found < n; nl = keyText.indexOf('\n', nl + 1)) keyAt[++found] = nl + 1;
    keyAt[++found] = keyText.length + 1;
  }
  return found === n ? keyAt : null;
}

/** Bytes per read of the streamed checksum pass, and rows per read of row(). */
const READ_BYTES = 1 << 20;
const ROWS_PER_READ = 4096;

/** A vector cache being read: everything but the rows in memory, the rows read a block at a time. */
export interface VectorFile {
  embedder: string;
  dim: number;
  count: number;
  codeWords: number;
  /** the keys section as one string ("id\tupdated" joined by '\n') */
  keyText: string;
  /** where key i starts in keyText; count + 1 entries, the last keyText.length + 1 */
  keyAt: Int32Array;
  scales: Float32Array;
  codes: Uint32Array;
  /** row i's int8 values: a view valid until the next call */
  row(i: number): Int8Array;
  /** closes the file (row() may not be called after) */
  close(): void;
}

/** Reads `len` bytes at `at` into `buf` (from its start); returns how many it got. */
type ReadAt = (buf: Uint8Array, at: number, len: number) => number;

/**
 * A cache of `size` bytes read through `readAt`: the whole of it checksummed in one streamed
 * pass (1 MB at a time) that also keeps the keys, scales and sign codes; the rows stay where they
 * are and row() reads them a block of ROWS_PER_READ at a time (a load asks in file order). At 200k
 * memories a load then holds ~20 MB beside the index instead of the whole 70 MB file. The reason,
 * when the cache cannot be used.
 */
function openVectors(size: number, readAt: ReadAt, close: () => void): VectorFile | string {
  const fixed = Buffer.alloc(52);
  readAt(fixed, 0, Math.min(52, size));
  const hl = size >= 52 ? fixed.readUInt32LE(48) : 0;
  const head = Buffer.alloc(Math.min(size, 52 + hl));
  readAt(head, 0, head.length);
  const l = layoutOf(head, size);
  if (typeof l === 'string') return l;
  const stored = head.toString('latin1', 8, 48);
  const sum = checksumFor(stored);
  if (sum === null) return 'checksum of a kind this Node cannot compute';
  const n = l.count;
  const keyBytes = Buffer.allocUnsafe(l.keysBytes);
  const scales = new Float32Array(n);
  const codes = new Uint32Array(n * l.codeWords);
  // Each section kept is copied out of the streamed pass as it goes by.
  const kept: Array<[from: number, to: number, into: Uint8Array]> = [
    [l.headLen, l.headLen + l.keysBytes, keyBytes],
    [l.scalesAt, l.rowsAt, new Uint8Array(scales.buffer)],
    [l.codesAt, l.size, new Uint8Array(codes.buffer)],
  ];
  const chunk = Buffer.allocUnsafe(Math.min(READ_BYTES, Math.max(1, size)));
  for (let at = 48; at < size; ) {
    const len = readAt(chunk, at, Math.min(chunk.length, size - at));
    if (len === 0) return 'truncated';
    const part = chunk.subarray(0, len);
    sum.update(part);
    for (const [from, to, into] of kept) {
      const a = Math.max(from, at);
      const b = Math.min(to, at + len);
      if (a < b) into.set(part.subarray(a - at, b - at), a - from);
    }
    at += len;
  }
  if (sum.digest() !== stored) return 'checksum mismatch';
  if (!LITTLE_ENDIAN) {
    Buffer.from(scales.buffer).swap32();
    Buffer.from(codes.buffer).swap32();
  }
  const keyText = keyBytes.toString('utf8');
  const keyAt = keyStarts(keyText, n);
  if (keyAt === null) return 'key count mismatch';
  const dim = l.dim;
  const block = new Int8Array(Math.max(1, Math.min(n, ROWS_PER_READ)) * dim);
  const blockBytes = new Uint8Array(block.buffer);
  let blockFrom = -1;
  let blockRows = 0;
  return {
    embedder: l.embedder,
    dim,
    count: n,
    codeWords: l.codeWords,
    keyText,
    keyAt,
    scales,
    codes,
    row(i) {
      if (i < 0 || i >= n) throw new RangeError(`no row ${i} in the vector cache`);
      if (blockFrom < 0 || i < blockFrom || i >= blockFrom + blockRows) {
        blockFrom = i - (i % ROWS_PER_READ);
        blockRows = Math.min(ROWS_PER_READ, n - blockFrom);
        if (readAt(blockBytes, l.rowsAt + blockFrom * dim, blockRows * dim) !== blockRows * dim) throw new Error('the vector cache shrank while it was read');
      }
      return block.subarray((i - blockFrom) * dim, (i - blockFrom + 1) * dim);
    },
    close,
  };
}

/** A cache held in memory (a file's bytes), read as readVectors reads the file; the reason when it cannot be used. */
export function decodeVectors(buf: Buffer): VectorFile | string {
  return openVectors(buf.length, (into, at, len) => buf.copy(into, 0, at, Math.min(buf.length, at + len)), () => undefined);
}

/** The store's vector cache (openVectors), or null with the reason told; close() it when done. Never throws. */
export function readVectors(storeDir: string, warn: (why: string) => void, file = VECTOR_FILE): VectorFile | null {
  // A symlinked .cache (or file) would be read from outside the store: not trusted.
  if (!isOwnDirSync(join(storeDir, '.cache'))) return null;
  let fd: number;
  try {
    fd = openSync(vectorCachePath(storeDir, file), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  const readAt: ReadAt = (buf, at, len) => {
    let got = 0;
    while (got < len) {
      const n = readSync(fd, buf, got, len - got, at + got);
      if (n === 0) break;
      got += n;
    }
    return got;
  };
  let opened: VectorFile | string;
  try {
    opened = openVectors(fstatSync(fd).size, readAt, () => closeSync(fd));
  } catch (err) {
    opened = (err as Error).message;
  }
  if (typeof opened !== 'string') return opened;
  closeSync(fd);
  warn(opened);
  return null;
}

/** The rows to save, copied a range at a time out of their owner's arrays (no copy of the whole set, no object per row). */
export interface VectorSource {
  embedder: string;
  dim: number;
  codeWords: number;
  count: number;
  /** row i's key ("id\tupdated"), asked twice per save (its length, then its bytes): no array of every key */
  key(i: number): string;
  /**
   * Copies rows [from, to) into whichever outputs are given, from their starts: scales as
   * float32 LE, int8 values (dim per row), sign codes as uint32 LE (codeWords per row).
   */
  copyRows(from: number, to: number, out: RowOutputs): void;
}

export interface RowOutputs {
  scales?: Buffer;
  data?: Buffer;
  codes?: Buffer;
}

/** copyRows over plain arrays: `at(i)` is the array row of saved row i. */
export function copyRowsFrom(a: { dim: number; codeWords: number; scales: Float32Array; rows: Int8Array; codes: Uint32Array }, at: (i: number) => number, from: number, to: number, out: RowOutputs): void {
  const { dim, codeWords: cw } = a;
  const data = Buffer.from(a.rows.buffer, a.rows.byteOffset, a.rows.byteLength);
  for (let i = from; i < to; i++) {
    const r = at(i);
    const k = i - from;
    out.scales?.writeFloatLE(a.scales[r]!, k * 4);
    if (out.data) data.copy(out.data, k * dim, r * dim, (r + 1) * dim);
    if (out.codes) for (let w = 0; w < cw; w++) out.codes.writeUInt32LE(a.codes[r * cw + w]!, (k * cw + w) * 4);
  }
}

/** Rows per chunk of the streamed write. */
const WRITE_ROWS = 4096;

/**
 * The cache file (layout above), streamed to a temp file in chunks of WRITE_ROWS rows (checksum
 * computed as it goes, written last), then fsync, rename, fsync of the directory: a save holds a
 * few MB beside the index instead of two copies of every vector (at 200k memories the whole-buffer
 * save was +140 MB of peak RSS).
 */
export async function writeVectorSource(storeDir: string, v: VectorSource, file = VECTOR_FILE): Promise<void> {
  ensureOwnDirSync(join(storeDir, '.cache'));
  const target = vectorCachePath(storeDir, file);
  const count = v.count;
  // The keys section's size first, then its bytes a chunk at a time: no string of every key
  // joined (at 200k memories 10 MB, with its buffer and the 14 MB of keys it was joined from).
  let keysBytes = Math.max(0, count - 1);
  for (let i = 0; i < count; i++) keysBytes += Buffer.byteLength(v.key(i), 'utf8');
  const header = Buffer.from(JSON.stringify({ format: FORMAT, embedder: v.embedder, dim: v.dim, count, keysBytes, codeWords: v.codeWords }), 'utf8');
  const headLen = 8 + 40 + 4 + header.length;
  const pad = (4 - ((headLen + keysBytes) % 4)) % 4;
  const rowsEnd = headLen + keysBytes + pad + count * 4 + count * v.dim;
  const pad2 = (4 - (rowsEnd % 4)) % 4;
  const sum = newChecksum();
  const tmp = tempPathFor(target);
  const fd = openSync(tmp, 'wx', FILE_MODE);
  let pos = 0;
  const put = (b: Buffer, hashed = true) => {
    if (hashed) sum.update(b);
    for (let at = 0; at < b.length; ) at += writeSync(fd, b, at, b.length - at, pos + at);
    pos += b.length;
  };
  try {
    const head = Buffer.alloc(52);
    head.write(MAGIC, 0, 'latin1');
    head.writeUInt32LE(header.length, 48);
    put(head.subarray(0, 48), false);
    put(head.subarray(48));
    put(header);
    let keyed = 0;
    for (let from = 0; from < count; from += WRITE_ROWS) {
      const to = Math.min(count, from + WRITE_ROWS);
      const part: string[] = [];
      for (let i = from; i < to; i++) part.push(v.key(i));
      const bytes = Buffer.from((from > 0 ? '\n' : '') + part.join('\n'), 'utf8');
      keyed += bytes.length;
      put(bytes);
    }
    if (keyed !== keysBytes) throw new Error('a vector key changed while the cache was written');
    put(Buffer.alloc(pad));
    const chunk = Buffer.allocUnsafe(WRITE_ROWS * Math.max(4, v.dim, v.codeWords * 4));
    // scales, then rows, then (after pad2) codes: each streamed WRITE_ROWS at a time
    for (let from = 0; from < count; from += WRITE_ROWS) {
      const to = Math.min(count, from + WRITE_ROWS);
      v.copyRows(from, to, { scales: chunk });
      put(chunk.subarray(0, (to - from) * 4));
    }
    for (let from = 0; from < count; from += WRITE_ROWS) {
      const to = Math.min(count, from + WRITE_ROWS);
      v.copyRows(from, to, { data: chunk });
      put(chunk.subarray(0, (to - from) * v.dim));
    }
    put(Buffer.alloc(pad2));
    const cb = v.codeWords * 4;
    for (let from = 0; from < count && cb > 0; from += WRITE_ROWS) {
      const to = Math.min(count, from + WRITE_ROWS);
      v.copyRows(from, to, { codes: chunk });
      put(chunk.subarray(0, (to - from) * cb));
    }
    const digest = Buffer.from(sum.digest(), 'latin1');
    for (let at = 0; at < digest.length; ) at += writeSync(fd, digest, at, digest.length - at, 8 + at);
    fchmodSync(fd, FILE_MODE);
    await fsyncFd(fd); // off the event loop (17 MB at 50k memories, 70 MB at 200k)
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
      // already failing: the temp file is removed below
    }
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  await fsyncDir(join(storeDir, '.cache'));
}
