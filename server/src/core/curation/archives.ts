// Rotation, compression and reading of the event log files.
//
// Rotation scheme, chosen so two processes rotating at once lose nothing:
// 1. Under a try-lock (.events.lock, O_EXCL; a busy lock means someone else is rotating, so we
//    simply skip), re-check the size and rename .events.jsonl to .events-<stamp>.jsonl. rename(2)
//    moves the whole inode atomically: every line already written goes with it, and appenders
//    that open the path afterwards create a fresh active file.
// 2. A writer that opened the old inode just before the rename may still land its line in the
//    plain archive a moment later. So a plain archive is gzipped (temp file, fsync, rename to
//    .jsonl.gz, then unlink) only after it has been quiet for a grace period; until then readers
//    read it as plain text.
import {
  closeSync,
  fsyncSync,
  openSync,
  lstatSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  existsSync,
} from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';

/** One line of the event log (docs/events.md): when, which process, what kind, and its fields. */
export interface CairnEvent {
  ts: string;
  session: string;
  kind: string;
  [field: string]: unknown;
}

export const ACTIVE_LOG = '.events.jsonl';
const LOCK = '.events.lock';
/** A lock older than this belongs to a dead rotator: rotation takes milliseconds. */
const LOCK_STALE_MS = 60_000;
export const DEFAULT_GRACE_MS = 10_000;
/** .events-20260314T102300123Z.jsonl(.gz), optionally with -N before .jsonl on a stamp collision. */
const ARCHIVE_RE = /^\.events-(\d{8}T\d{9}Z)(?:-(\d+))?\.jsonl(\.gz)?$/;

export function archiveStamp(d: Date): string {
  return d.toISOString().replace(/[-:.]/g, '');
}

function stampTime(stamp: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/.exec(stamp);
  if (!m) return NaN;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!);
}

/** Runs fn under the rotation lock, or returns null at once if another process holds it. */
function withTryLock<T>(dir: string, fn: () => T): T | null {
  const file = join(dir, LOCK);
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    try {
      if (Date.now() - statSync(file).mtimeMs < LOCK_STALE_MS) return null;
      // Move the stale lock aside first so two breakers cannot both enter.
      const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      renameSync(file, aside);
      rmSync(aside, { force: true });
      fd = openSync(file, 'wx', 0o600);
    } catch {
      return null;
    }
  }
  try {
    writeSync(fd, `${process.pid} ${Date.now()}\n`);
    closeSync(fd);
    return fn();
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * Renames the active log to a plain archive if it is past maxBytes; returns the archive path.
 * The clock is read under the lock: a stamp taken before it could be older than the one a
 * rotator that got the lock first gave the earlier file, and readers order archives by stamp.
 */
export function rotateActive(dir: string, maxBytes: number, now: () => Date): string | null {
  return withTryLock(dir, () => {
    const active = join(dir, ACTIVE_LOG);
    let size: number;
    try {
      size = statSync(active).size;
    } catch {
      return null;
    }
    if (size <= maxBytes) return null; // another process rotated it meanwhile
    const stamp = archiveStamp(now());
    let target = join(dir, `.events-${stamp}.jsonl`);
    for (let n = 1; existsSync(target) || existsSync(`${target}.gz`); n++) {
      target = join(dir, `.events-${stamp}-${n}.jsonl`);
    }
    renameSync(active, target);
    return target;
  });
}

export interface CompressOptions {
  graceMs: number;
  now: Date;
}

/** Gzips every plain archive that has been quiet for graceMs. Returns the archives written. */
export function compressArchives(dir: string, opts: CompressOptions): string[] {
  return (
    withTryLock(dir, () => {
      const done: string[] = [];
      const names = new Set(readdirSync(dir).filter((n) => n.startsWith('.events-')));
      for (const name of names) {
        const m = ARCHIVE_RE.exec(name);
        if (!m || m[3]) continue;
        const plain = join(dir, name);
        const gz = `${plain}.gz`;
        if (names.has(`${name}.gz`)) {
          // A previous run crashed after publishing the .gz: it is complete, drop the copy.
          rmSync(plain, { force: true });
          continue;
        }
        const now = opts.now.getTime();
        const rotatedAt = stampTime(m[1]!);
        const st = statSync(plain);
        // The stamp is on cairn's clock, mtime on the filesystem's: compare each with its own.
        const quiet = Math.min(now - rotatedAt, Date.now() - st.mtimeMs);
        if (opts.graceMs > 0 && quiet < opts.graceMs) continue;
        const data = gzipSync(readFileSync(plain));
        const tmp = join(dir, `.${name}.gz.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
        const fd = openSync(tmp, 'wx', 0o600);
        try {
          writeSync(fd, data);
          // Synchronous, unlike a memory write's fsyncs (store/fsatomic.ts, which wait off the
          // event loop): compression runs once per rotated log (every telemetry.max_bytes of
          // events), from rotate() and its timer, and keeping it one synchronous step is worth
          // that rare wait for the disk.
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        renameSync(tmp, gz);
        rmSync(plain, { force: true });
        done.push(gz);
      }
      return done;
    }) ?? []
  );
}

export interface LogFile {
  file: string;
  compressed: boolean;
  /** When it was rotated (epoch ms); null for the active log. */
  rotatedAt: number | null;
}

/**
 * The log's names in a store directory. The directory holds every memory file too (a listing is
 * ~50 ms at 20,000), so the names are kept while the directory's mtime stays what it was when
 * they were read, and that mtime was already RACY_MS in the past then (a change within the
 * mtime's granularity of the listing would otherwise go unseen).
 */
const listings = new Map<string, { mtimeMs: number; names: string[] }>();
const RACY_MS = 3000;
function logNames(dir: string): string[] {
  const mtimeMs = statSync(dir).mtimeMs;
  const had = listings.get(dir);
  if (had && had.mtimeMs === mtimeMs) return had.names;
  const names = readdirSync(dir).filter((n) => n.startsWith('.events'));
  if (Date.now() - mtimeMs > RACY_MS) listings.set(dir, { mtimeMs, names });
  else listings.delete(dir);
  return names;
}

/** The archives oldest first, then the active log. A plain archive with a .gz twin is skipped. */
export function listLogFiles(dir: string, listed?: readonly string[]): LogFile[] {
  let names: string[];
  try {
    names = listed ? listed.filter((n) => n.startsWith('.events')) : logNames(dir);
  } catch {
    return [];
  }
  // Only regular files: a symlinked log would be read (or compressed) from outside the store.
  names = names.filter((n) => {
    try {
      return lstatSync(join(dir, n)).isFile();
    } catch {
      return false;
    }
  });
  const present = new Set(names);
  const archives: { name: string; stamp: string; n: number }[] = [];
  for (const name of names) {
    const m = ARCHIVE_RE.exec(name);
    if (!m || (m[3] === undefined && present.has(`${name}.gz`))) continue;
    archives.push({ name, stamp: m[1]!, n: Number(m[2] ?? 0) });
  }
  // Rotation order: by stamp, then collision suffix (".events-X-1" came after ".events-X").
  archives.sort((a, b) => (a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : a.n - b.n));
  const out: LogFile[] = archives.map(({ name, stamp }) => ({ file: join(dir, name), compressed: name.endsWith('.gz'), rotatedAt: stampTime(stamp) }));
  if (present.has(ACTIVE_LOG)) out.push({ file: join(dir, ACTIVE_LOG), compressed: false, rotatedAt: null });
  return out;
}

export interface ReadEventsResult {
  events: CairnEvent[];
  /** Lines that did not parse as an event, and archives that did not decompress. */
  corruptLines: number;
  unreadableFiles: string[];
  files: string[];
}

function isEvent(v: unknown): v is CairnEvent {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return typeof o.ts === 'string' && typeof o.kind === 'string' && !Number.isNaN(Date.parse(o.ts));
}

export interface ReadEventsOptions {
  /**
   * Epoch ms: archives rotated before this hold only older events and are not read (the events
   * returned may still include some older ones). Bounds the cost of a windowed count.
   */
  since?: number;
}

/** Reads the active log plus every archive, skipping corrupt lines; events come out in ts order. */
export function readEvents(dir: string, opts: ReadEventsOptions = {}): ReadEventsResult {
  // A rotation or compression between listing and reading moves a file away; listing again
  // finds it under its new name. Three attempts is plenty: each race window is milliseconds.
  for (let attempt = 1; ; attempt++) {
    const result = readOnce(dir, opts, attempt === 3);
    if (result !== null) return result;
  }
}

function readOnce(dir: string, opts: ReadEventsOptions, tolerateMissing: boolean): ReadEventsResult | null {
  const result: ReadEventsResult = { events: [], corruptLines: 0, unreadableFiles: [], files: [] };
  for (const { file, compressed, rotatedAt } of listLogFiles(dir)) {
    if (opts.since !== undefined && rotatedAt !== null && rotatedAt < opts.since) continue;
    let text: string;
    try {
      const raw = readFileSync(file);
      text = (compressed ? gunzipSync(raw) : raw).toString('utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        if (tolerateMissing) continue;
        return null;
      }
      result.unreadableFiles.push(file);
      continue;
    }
    result.files.push(file);
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const v: unknown = JSON.parse(line);
        if (isEvent(v)) result.events.push(v);
        else result.corruptLines++;
      } catch {
        result.corruptLines++;
      }
    }
  }
  // Stable sort: lines of one process keep their order when clocks tie.
  result.events.sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
  return result;
}
