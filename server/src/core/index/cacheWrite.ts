// Writing the persisted index cache (cache.ts gives its layout and reads it): the payload
// streamed in chunks, with a pause between them so a live server keeps answering while a big
// store's cache is written; the header filled in last, then the file fsynced and renamed into
// place (atomic: readers see the old file or the new one).
import { closeSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { newChecksum } from './checksum.ts';
import { STEMMER_VERSION } from './stem.ts';
import { TOKENIZER_VERSION } from './tokenize.ts';
import { pidAlive } from '../store/pid.ts';
import { ensureOwnDirSync, fsyncFd } from '../store/fsatomic.ts';
import {
  CACHE_DIR, CHUNK, FORMAT, HEADER_SLOT, JSON_AT, LEN_AT, LITTLE_ENDIAN, MAGIC, SHARED, SUM_AT, cachePath,
  type CacheContent, type CacheHeader as Header, type LazyCacheContent,
} from './cache.ts';

type Section = 'records' | 'terms' | 'pad' | 'ints';

function* chunksOf<T>(xs: readonly T[]): Generator<T[]> {
  for (let i = 0; i < xs.length; i += CHUNK) yield xs.slice(i, i + CHUNK);
}

/** The payload, section by section, in chunks; `keys` receives the record columns. */
function* payloadParts<R extends object>(c: CacheContent<R> | LazyCacheContent<R>, keys: string[]): Generator<[Section, Buffer]> {
  // A Set filled record by record: a flatMap of every record's keys is one array of ~1.6M
  // entries at 100k memories, allocated just to be deduplicated.
  const seen = new Set<string>();
  for (const r of c.records) for (const k in r) if (Object.hasOwn(r, k)) seen.add(k);
  keys.push(...[...seen].sort());
  if (keys.length > 50) throw new Error(`records have ${keys.length} distinct keys; the cache supports 50`);
  // The shared values, by identity (equal values in distinct objects just take two entries).
  const isShared = keys.map((k) => SHARED.includes(k));
  const table: unknown[] = [];
  const at = new Map<unknown, number>();
  for (const r of c.records) {
    for (let i = 0; i < keys.length; i++) {
      if (!isShared[i]) continue;
      const v = (r as Record<string, unknown>)[keys[i]!];
      if (v !== undefined && !at.has(v)) {
        at.set(v, table.length);
        table.push(v);
      }
    }
  }
  // Row = [presence mask, ...values of present keys]: an absent key stays absent on decode
  // (not null), so `removed === undefined` means the same before and after the cache.
  const row = (r: R): unknown[] => {
    const out: unknown[] = [0];
    let mask = 0;
    for (let i = 0; i < keys.length; i++) {
      const v = (r as Record<string, unknown>)[keys[i]!];
      if (v !== undefined && Object.hasOwn(r, keys[i]!)) {
        mask += 2 ** i;
        out.push(isShared[i] ? at.get(v) : v);
      }
    }
    out[0] = mask;
    return out;
  };
  let recordsBytes = 0;
  const emit = (s: string): Buffer => {
    const b = Buffer.from(s, 'utf8');
    recordsBytes += b.length;
    return b;
  };
  yield ['records', emit(`${JSON.stringify(table)}\n`)];
  // One JSON array of rows per line, CHUNK rows each: decoding never holds one giant string.
  for (let i = 0; i < c.records.length; i += CHUNK) {
    yield ['records', emit(`[${c.records.slice(i, i + CHUNK).map((r) => JSON.stringify(row(r))).join(',')}]\n`)];
  }
  const a = 'analysis' in c ? c.analysis() : { terms: c.terms, parts: chunksOf(c.entries) };
  const terms = Buffer.from(a.terms.join('\n'), 'utf8');
  yield ['terms', terms];
  yield ['pad', Buffer.alloc((4 - ((recordsBytes + terms.length) % 4)) % 4)];
  for (const part of a.parts) {
    if (part.length === 0) continue;
    let n = 0;
    for (const e of part) n += 4 + e.fwd.length;
    const data = new Int32Array(n);
    let o = 0;
    for (const e of part) {
      data[o++] = e.record;
      data[o++] = e.bodyLen;
      data[o++] = e.scopeLen;
      data[o++] = e.fwd.length;
      data.set(e.fwd, o);
      o += e.fwd.length;
    }
    const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (!LITTLE_ENDIAN) buf.swap32();
    yield ['ints', buf];
  }
}

/** The header region with its checksum field blank; `seal` fills the checksum in. */
function headerBytes(h: Header): Buffer {
  const json = Buffer.from(JSON.stringify(h), 'utf8');
  if (JSON_AT + json.length > HEADER_SLOT) throw new Error('cache header does not fit its slot');
  const out = Buffer.alloc(HEADER_SLOT, 0x20);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(json.length, LEN_AT);
  json.copy(out, JSON_AT);
  return out;
}

/**
 * Encodes into `write(buf, position)`; `pause` (if given) is awaited between chunks. Returns the
 * header region, which the caller writes at position 0 last.
 */
async function encodeInto<R extends object>(c: CacheContent<R> | LazyCacheContent<R>, write: (b: Buffer) => void, pause?: () => Promise<void>): Promise<Buffer> {
  const keys: string[] = [];
  const sum = newChecksum();
  const size: Record<Section, number> = { records: 0, terms: 0, pad: 0, ints: 0 };
  for (const [section, buf] of payloadParts(c, keys)) {
    sum.update(buf);
    size[section] += buf.length;
    write(buf);
    if (pause) await pause();
  }
  const header = headerBytes({
    format: FORMAT,
    tokenizer: TOKENIZER_VERSION,
    stemmer: STEMMER_VERSION,
    keys,
    shared: keys.filter((k) => SHARED.includes(k)),
    recordsBytes: size.records,
    termsBytes: size.terms,
    ints: size.ints / 4,
    ...(c.uniqueIds === true ? { uniqueIds: true } : {}),
  });
  sum.update(header.subarray(LEN_AT));
  header.write(sum.digest(), SUM_AT, 'latin1');
  return header;
}

/** The whole cache file in memory (tests, small stores). */
export async function encodeCache<R extends object>(c: CacheContent<R>): Promise<Buffer> {
  const parts: Buffer[] = [];
  const header = await encodeInto(c, (b) => parts.push(b));
  return Buffer.concat([header, ...parts]);
}

/** Temp files of writers that died mid-way (killed during a save) are never used: remove them. */
function removeDeadTemps(dir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const m = /^search-index\.bin\.(\d+)\.[0-9a-z]+\.tmp$/.exec(n);
    if (m && Number(m[1]) !== process.pid && !pidAlive(Number(m[1]))) rmSync(join(dir, n), { force: true });
  }
}

/**
 * Writes the cache atomically (temp file, fsync, rename), file mode 0600, directory 0700.
 * `pause` is awaited between chunks (a live server passes a yield to its event loop). Returns the
 * cache's id (its SHA-1, see readCacheId).
 */
export async function writeCache<R extends object>(storeDir: string, c: CacheContent<R> | LazyCacheContent<R>, pause?: () => Promise<void>): Promise<string> {
  const dir = join(storeDir, CACHE_DIR);
  ensureOwnDirSync(dir); // refuses a symlinked .cache: nothing is written outside the store
  removeDeadTemps(dir);
  const target = cachePath(storeDir);
  const tmp = `${target}.${process.pid}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  let ok = false;
  let id = '';
  try {
    let pos = HEADER_SLOT;
    const header = await encodeInto(
      c,
      (b) => {
        writeSync(fd, b, 0, b.length, pos);
        pos += b.length;
      },
      pause,
    );
    writeSync(fd, header, 0, header.length, 0);
    // Off the event loop: flushing the whole file (40 MB at 50k memories, 160 MB at 200k) must not
    // hold up the calls a server answers meanwhile.
    await fsyncFd(fd);
    id = header.subarray(SUM_AT, LEN_AT).toString('latin1');
    ok = true;
  } finally {
    closeSync(fd);
    if (!ok) rmSync(tmp, { force: true });
  }
  try {
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return id;
}
