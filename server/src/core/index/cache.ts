// The persisted index cache: `<store>/.cache/search-index.bin`. Derived data only: deleting it
// loses nothing, and any doubt about it (missing, truncated, bad checksum, other format or
// tokenizer version, malformed entries) means "no cache", never a partially trusted one.
//
// Layout: a HEADER_SLOT-byte header region — magic "CAIRNIDX", a 40-character checksum slot
// (checksum.ts: CRC-32, or SHA-1's hex digest), u32 LE header length, header JSON, space padding —
// then the payload: the records as lines of JSON arrays of rows (columnar: the keys are in the
// header), the vocabulary as '\n'-joined UTF-8, zero padding to a 4-byte boundary, then Int32 LE
// entries: record index, body length, scope length, forward-list length n, then n ints. The header
// carries the section sizes. The checksum covers every byte after itself: the payload, then the
// rest of the header region (hashed in that order, since the header is written last).
//
// This file gives the layout and reads it; cacheWrite.ts writes it.
import { checksumFor, isChecksumSlot } from './checksum.ts';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { STEMMER_VERSION } from './stem.ts';
import { TOKENIZER_VERSION } from './tokenize.ts';
import { isOwnDirSync } from '../store/fsatomic.ts';

export const CACHE_DIR = '.cache';
export const CACHE_FILE = 'search-index.bin';
export const MAGIC = Buffer.from('CAIRNIDX', 'latin1');
// 5: origins are read redacted (no credential in a URL); an older cache may hold a credential in a URL.
// 6: values of SHARED keys (origin, scopes) are stored once, in a table ahead of the rows.
export const FORMAT = 6;
/**
 * Record keys whose values many records share (the same object: canonical.ts shares origins and
 * scope lists): each distinct value is stored once, in a table line ahead of the rows, and a row
 * holds its index. At 50k memories that is ~25 % fewer bytes to parse and one origin object per
 * distinct origin instead of one per record.
 */
export const SHARED = ['origin', 'scopes'];
export const HEADER_SLOT = 4096;
export const SUM_AT = 8;
export const LEN_AT = 48;
export const JSON_AT = 52;
/** Records (or index entries) encoded between two pauses. */
export const CHUNK = 2000;

export interface CacheEntry {
  /** index into records */
  record: number;
  fwd: Int32Array;
  bodyLen: number;
  scopeLen: number;
}

export interface CacheContent<R extends object> {
  records: R[];
  terms: string[];
  entries: CacheEntry[];
  /** The saver's word that no two records share an id (what a reader may then skip checking). */
  uniqueIds?: boolean;
}

/**
 * What writeCache also takes: the records now, the analysis only once the records section is
 * written. A built index's analysis (its forward lists, ~40 MB at 100k memories) then never
 * coexists with the records' JSON encoding.
 */
export interface LazyCacheContent<R extends object> {
  records: R[];
  uniqueIds?: boolean;
  /** the vocabulary, and the entries in parts (each written, then dropped) */
  analysis: () => { terms: string[]; parts: Iterable<CacheEntry[]> };
}

export interface CacheHeader {
  format: number;
  tokenizer: number;
  stemmer: number;
  keys: string[];
  /** keys of `keys` whose row values are indexes into the table (the records section's first line) */
  shared: string[];
  recordsBytes: number;
  termsBytes: number;
  ints: number;
  /** CacheContent.uniqueIds (absent: not said, as in a cache of an older cairn) */
  uniqueIds?: boolean;
}

export function cachePath(storeDir: string): string {
  return join(storeDir, CACHE_DIR, CACHE_FILE);
}

/** Int32 sections are little-endian on disk: read in place on such a machine, swapped elsewhere. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Reads `len` bytes at `pos` of the cache file (a buffer in memory, or a file descriptor). With
 * `into`, the bytes land there (at offset 0) and the result is a view of it: the streamed
 * sections reuse one scratch buffer instead of leaving a 1 MB buffer of garbage per chunk.
 */
type ReadAt = (pos: number, len: number, into?: Buffer) => Buffer;

/**
 * Turns one decoded row (its present keys; an absent one reads undefined) into the caller's
 * record, or throws when the row is not one (the cache is then rejected). Lets the caller give
 * every record one fixed shape and share its common strings while the rows stream by, instead of
 * rebuilding them afterwards. `raw` is the same object for every row: copy out of it, never keep it.
 */
export type Revive<R> = (raw: Record<string, unknown>) => R;

const READ_CHUNK = 1 << 20;

/**
 * Decodes a cache, reading it piece by piece (the records a line at a time), so a large cache is
 * never in memory twice. The checksum covers everything and is checked before anything is
 * returned; throws with the reason when the cache cannot be trusted.
 */
function decodeFrom<R extends object>(read: ReadAt, size: number, revive?: Revive<R>): CacheContent<R> {
  if (size < 8) throw new Error('not a cairn index cache');
  const head = read(0, Math.min(HEADER_SLOT, size));
  if (!head.subarray(0, 8).equals(MAGIC)) throw new Error('not a cairn index cache');
  if (size < HEADER_SLOT) throw new Error('truncated header');
  const hlen = head.readUInt32LE(LEN_AT);
  if (JSON_AT + hlen > HEADER_SLOT) throw new Error('unreadable header');
  let h: CacheHeader;
  try {
    h = JSON.parse(head.subarray(JSON_AT, JSON_AT + hlen).toString('utf8')) as CacheHeader;
  } catch {
    throw new Error('unreadable header');
  }
  if (h.format !== FORMAT || h.tokenizer !== TOKENIZER_VERSION || h.stemmer !== STEMMER_VERSION) {
    throw new Error('written by another version');
  }
  const pad = (4 - ((h.recordsBytes + h.termsBytes) % 4)) % 4;
  if (size - HEADER_SLOT !== h.recordsBytes + h.termsBytes + pad + h.ints * 4) throw new Error('truncated or extended payload');
  const stored = head.subarray(SUM_AT, LEN_AT).toString('latin1');
  const sum = checksumFor(stored);
  if (sum === null) throw new Error('checksum of a kind this Node cannot compute');

  if (!Array.isArray(h.keys) || !Array.isArray(h.shared) || !h.shared.every((k) => h.keys.includes(k))) throw new Error('unreadable header');
  const isShared = h.keys.map((k) => h.shared.includes(k));
  const records: R[] = [];
  let table: unknown[] | null = null;
  const nKeys = h.keys.length;
  let rowObject: Record<string, unknown> | null = null;
  if (revive) {
    rowObject = {};
    for (const k of h.keys) rowObject[k] = undefined;
  }
  const takeLine = (line: Buffer): void => {
    let rows: unknown;
    try {
      rows = JSON.parse(line.toString('utf8'));
    } catch {
      throw new Error('malformed records');
    }
    if (!Array.isArray(rows)) throw new Error('malformed records');
    if (table === null) {
      table = rows; // the first line: the shared values
      return;
    }
    const tab = table;
    for (const row of rows as unknown[]) {
      if (!Array.isArray(row) || typeof row[0] !== 'number') throw new Error('malformed record');
      // A reviver copies what it needs: every row goes through the one `rowObject` (absent keys
      // undefined), not an object of its own (50,000 objects of 16 keys at 50k memories, each
      // filled key by key, were work for the decode and garbage right after).
      const r: Record<string, unknown> = rowObject ?? {};
      let mask = row[0];
      let v = 1;
      for (let i = 0; i < nKeys; i++) {
        if (mask % 2 === 1) {
          const x = row[v++];
          if (!isShared[i]) r[h.keys[i]!] = x;
          else if (typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < tab.length) r[h.keys[i]!] = tab[x];
          else throw new Error('malformed record');
        } else if (rowObject !== null) r[h.keys[i]!] = undefined;
        else if (mask === 0) break;
        mask = Math.floor(mask / 2);
      }
      if (!revive) records.push(r as R);
      else {
        try {
          records.push(revive(r));
        } catch {
          throw new Error('malformed record');
        }
      }
    }
  };
  let pos = HEADER_SLOT;
  // The records are read a chunk at a time into one scratch buffer; the unfinished line at its
  // end moves to the front and the next chunk lands behind it (no concatenation, no copy per
  // chunk), and the buffer grows only for a line longer than what it holds.
  let scratch = Buffer.allocUnsafe(Math.max(2 * READ_CHUNK, Math.min(READ_CHUNK, h.ints * 4)));
  let carry = 0;
  for (let left = h.recordsBytes; left > 0; ) {
    if (scratch.length - carry < Math.min(READ_CHUNK, left)) {
      const grown = Buffer.allocUnsafe(Math.max(2 * scratch.length, carry + Math.min(READ_CHUNK, left)));
      scratch.copy(grown, 0, 0, carry);
      scratch = grown;
    }
    const want = Math.min(READ_CHUNK, left, scratch.length - carry);
    const target = scratch.subarray(carry, carry + want);
    const chunk = read(pos, want, target);
    if (chunk.buffer !== target.buffer || chunk.byteOffset !== target.byteOffset) chunk.copy(target);
    sum.update(target);
    pos += want;
    left -= want;
    const data = scratch.subarray(0, carry + want);
    let start = 0;
    for (let nl = data.indexOf(0x0a, carry); nl >= 0; nl = data.indexOf(0x0a, start)) {
      takeLine(data.subarray(start, nl));
      start = nl + 1;
    }
    carry = data.length - start;
    if (start > 0 && carry > 0) scratch.copyWithin(0, start, data.length);
  }
  if (carry > 0) takeLine(scratch.subarray(0, carry));

  const termsBuf = read(pos, h.termsBytes + pad);
  sum.update(termsBuf);
  pos += termsBuf.length;
  const termsText = termsBuf.subarray(0, h.termsBytes).toString('utf8');
  const terms = termsText === '' ? [] : termsText.split('\n');

  const data = new Int32Array(h.ints);
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  for (let o = 0; o < bytes.length; ) {
    const chunk = read(pos, Math.min(READ_CHUNK, bytes.length - o), scratch);
    sum.update(chunk);
    chunk.copy(bytes, o);
    o += chunk.length;
    pos += chunk.length;
  }
  sum.update(head.subarray(LEN_AT));
  if (sum.digest() !== stored) throw new Error('checksum mismatch');
  if (!LITTLE_ENDIAN) bytes.swap32();

  const entries: CacheEntry[] = [];
  for (let o = 0; o < data.length; ) {
    if (o + 4 > data.length) throw new Error('truncated entry');
    const record = data[o]!;
    const n = data[o + 3]!;
    if (record < 0 || record >= records.length || n < 0 || o + 4 + n > data.length) throw new Error('malformed entry');
    entries.push({ record, bodyLen: data[o + 1]!, scopeLen: data[o + 2]!, fwd: data.subarray(o + 4, o + 4 + n) });
    o += 4 + n;
  }
  return { records, terms, entries, ...(h.uniqueIds === true ? { uniqueIds: true } : {}) };
}

/**
 * The id of the store's cache (its SHA-1, from the header alone: 4 KB read, nothing verified
 * beyond the magic and the versions), or null. What a summary made at the same save names.
 */
export function readCacheId(storeDir: string): string | null {
  if (!isOwnDirSync(join(storeDir, CACHE_DIR))) return null;
  let fd: number;
  try {
    fd = openSync(cachePath(storeDir), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(HEADER_SLOT);
    if (readSync(fd, head, 0, HEADER_SLOT, 0) !== HEADER_SLOT || !head.subarray(0, 8).equals(MAGIC)) return null;
    const hlen = head.readUInt32LE(LEN_AT);
    if (JSON_AT + hlen > HEADER_SLOT) return null;
    const h = JSON.parse(head.subarray(JSON_AT, JSON_AT + hlen).toString('utf8')) as CacheHeader;
    if (h.format !== FORMAT || h.tokenizer !== TOKENIZER_VERSION || h.stemmer !== STEMMER_VERSION) return null;
    const slot = head.subarray(SUM_AT, LEN_AT).toString('latin1');
    return isChecksumSlot(slot) ? slot : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Decodes a cache file's bytes; throws with the reason when it cannot be trusted. */
export function decodeCache<R extends object>(buf: Buffer, revive?: Revive<R>): CacheContent<R> {
  return decodeFrom<R>((pos, len) => {
    if (pos + len > buf.length) throw new Error('truncated or extended payload');
    return buf.subarray(pos, pos + len);
  }, buf.length, revive);
}

/** Reads the cache; null when absent or untrustworthy (the reason goes to `onReject`). `progress` hears the bytes read of the file's size. */
export function readCache<R extends object>(storeDir: string, onReject?: (reason: string) => void, revive?: Revive<R>, progress?: (done: number, total: number) => void): CacheContent<R> | null {
  // A symlinked .cache (or cache file) would be read from outside the store: not trusted.
  if (!isOwnDirSync(join(storeDir, CACHE_DIR))) return null;
  let fd: number;
  try {
    fd = openSync(cachePath(storeDir), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    return decodeFrom<R>((pos, len, into) => {
      const b = into ? into.subarray(0, len) : Buffer.allocUnsafe(len);
      for (let got = 0, n = 0; got < len; got += n) {
        n = readSync(fd, b, got, len - got, pos + got);
        if (n === 0) throw new Error('truncated or extended payload');
      }
      progress?.(pos + len, size);
      return b;
    }, size, revive);
  } catch (err) {
    onReject?.(err instanceof Error ? err.message : String(err));
    return null;
  } finally {
    closeSync(fd);
  }
}
