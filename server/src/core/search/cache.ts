// The persisted index cache: `<store>/.cache/search-index.bin`. Derived data only: deleting it
// loses nothing, and any doubt about it (missing, truncated, bad checksum, other format or
// tokenizer version, malformed entries) means "no cache", never a partially trusted one.
//
// Layout: magic "CAIRNIDX" | u32 LE header length | header JSON | payload. The payload is the
// records as JSON arrays (columnar keys in the header), the vocabulary as '\n'-joined UTF-8, zero
// padding to a 4-byte boundary, then Int32 LE entries: record index, body length, scope length,
// forward-list length n, then n ints. The header carries the SHA-1 of the payload.
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { STEMMER_VERSION } from './stem.ts';
import { TOKENIZER_VERSION } from './tokenize.ts';

export const CACHE_DIR = '.cache';
export const CACHE_FILE = 'search-index.bin';
const MAGIC = Buffer.from('CAIRNIDX', 'latin1');
const FORMAT = 1;

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
}

interface Header {
  format: number;
  tokenizer: number;
  stemmer: number;
  keys: string[];
  recordsBytes: number;
  termsBytes: number;
  ints: number;
  sha1: string;
}

export function cachePath(storeDir: string): string {
  return join(storeDir, CACHE_DIR, CACHE_FILE);
}

export function encodeCache<R extends object>(c: CacheContent<R>): Buffer {
  const keys = [...new Set(c.records.flatMap((r) => Object.keys(r)))].sort();
  if (keys.length > 50) throw new Error(`records have ${keys.length} distinct keys; the cache supports 50`);
  // Row = [presence mask, ...values of present keys]: an absent key stays absent on decode
  // (not null), so `removed === undefined` means the same before and after the cache.
  const rows = c.records.map((r) => {
    const row: unknown[] = [0];
    let mask = 0;
    keys.forEach((k, i) => {
      if (Object.hasOwn(r, k) && (r as Record<string, unknown>)[k] !== undefined) {
        mask += 2 ** i;
        row.push((r as Record<string, unknown>)[k]);
      }
    });
    row[0] = mask;
    return row;
  });
  const recordsBuf = Buffer.from(JSON.stringify(rows), 'utf8');
  const termsBuf = Buffer.from(c.terms.join('\n'), 'utf8');
  let ints = 0;
  for (const e of c.entries) ints += 4 + e.fwd.length;
  const data = new Int32Array(ints);
  let o = 0;
  for (const e of c.entries) {
    data[o++] = e.record;
    data[o++] = e.bodyLen;
    data[o++] = e.scopeLen;
    data[o++] = e.fwd.length;
    data.set(e.fwd, o);
    o += e.fwd.length;
  }
  const dataBuf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (!isLittleEndian()) swap32(dataBuf);
  // Pad so the Int32 region starts 4-byte aligned relative to the payload start.
  const pad = Buffer.alloc((4 - ((recordsBuf.length + termsBuf.length) % 4)) % 4);
  const payload = Buffer.concat([recordsBuf, termsBuf, pad, dataBuf]);
  const header: Header = {
    format: FORMAT,
    tokenizer: TOKENIZER_VERSION,
    stemmer: STEMMER_VERSION,
    keys,
    recordsBytes: recordsBuf.length,
    termsBytes: termsBuf.length,
    ints,
    sha1: createHash('sha1').update(payload).digest('hex'),
  };
  const headerBuf = Buffer.from(JSON.stringify(header), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(headerBuf.length);
  return Buffer.concat([MAGIC, len, headerBuf, payload]);
}

/** Decodes a cache file's bytes; throws with the reason when it cannot be trusted. */
export function decodeCache<R extends object>(buf: Buffer): CacheContent<R> {
  if (buf.length < 12 || !buf.subarray(0, 8).equals(MAGIC)) throw new Error('not a cairn index cache');
  const hlen = buf.readUInt32LE(8);
  if (12 + hlen > buf.length) throw new Error('truncated header');
  let h: Header;
  try {
    h = JSON.parse(buf.subarray(12, 12 + hlen).toString('utf8')) as Header;
  } catch {
    throw new Error('unreadable header');
  }
  if (h.format !== FORMAT || h.tokenizer !== TOKENIZER_VERSION || h.stemmer !== STEMMER_VERSION) {
    throw new Error('written by another version');
  }
  const payload = buf.subarray(12 + hlen);
  const pad = (4 - ((h.recordsBytes + h.termsBytes) % 4)) % 4;
  if (payload.length !== h.recordsBytes + h.termsBytes + pad + h.ints * 4) throw new Error('truncated or extended payload');
  if (createHash('sha1').update(payload).digest('hex') !== h.sha1) throw new Error('checksum mismatch');

  const rows = JSON.parse(payload.subarray(0, h.recordsBytes).toString('utf8')) as unknown[][];
  const records = rows.map((row) => {
    if (!Array.isArray(row) || typeof row[0] !== 'number') throw new Error('malformed record');
    const r: Record<string, unknown> = {};
    let mask = row[0];
    let v = 1;
    for (let i = 0; i < h.keys.length && mask > 0; i++) {
      if (mask % 2 === 1) r[h.keys[i]!] = row[v++];
      mask = Math.floor(mask / 2);
    }
    return r as R;
  });
  const termsText = payload.subarray(h.recordsBytes, h.recordsBytes + h.termsBytes).toString('utf8');
  const terms = termsText === '' ? [] : termsText.split('\n');
  const start = h.recordsBytes + h.termsBytes + pad;
  const dataBuf = Buffer.from(payload.subarray(start, start + h.ints * 4)); // copy: aligned, owned
  if (!isLittleEndian()) swap32(dataBuf);
  const data = new Int32Array(dataBuf.buffer, dataBuf.byteOffset, h.ints);
  const entries: CacheEntry[] = [];
  for (let o = 0; o < data.length; ) {
    if (o + 4 > data.length) throw new Error('truncated entry');
    const record = data[o]!;
    const n = data[o + 3]!;
    if (record < 0 || record >= records.length || n < 0 || o + 4 + n > data.length) throw new Error('malformed entry');
    entries.push({ record, bodyLen: data[o + 1]!, scopeLen: data[o + 2]!, fwd: data.subarray(o + 4, o + 4 + n) });
    o += 4 + n;
  }
  return { records, terms, entries };
}

/** Reads the cache; null when absent or untrustworthy (the reason goes to `onReject`). */
export function readCache<R extends object>(storeDir: string, onReject?: (reason: string) => void): CacheContent<R> | null {
  let buf: Buffer;
  try {
    buf = readFileSync(cachePath(storeDir));
  } catch {
    return null;
  }
  try {
    return decodeCache<R>(buf);
  } catch (err) {
    onReject?.(err instanceof Error ? err.message : String(err));
    return null;
  }
}

/** Writes the cache atomically (temp file, fsync, rename), file mode 0600, directory 0700. */
export function writeCache<R extends object>(storeDir: string, c: CacheContent<R>): void {
  const dir = join(storeDir, CACHE_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const target = cachePath(storeDir);
  const tmp = `${target}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const buf = encodeCache(c);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, buf);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, target);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw err;
  }
}

function isLittleEndian(): boolean {
  return new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
}

function swap32(b: Buffer): void {
  b.swap32();
}
