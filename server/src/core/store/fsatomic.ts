// Durable file primitives. Invariant: a crash at any instant leaves either the old or the new
// file, never a torn one (format.md "Every write is atomic").
//
// The small steps (open, write, close, rename) are synchronous calls: each is a few microseconds,
// while a round trip through libuv's thread pool costs 50-100 us on a busy machine, and a write
// makes about twenty of them. Only the fsyncs, which wait for the disk, leave the event loop.
import { promises as fsp, closeSync, constants, fchmodSync, fstatSync, fsync, lstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** Temp files start with '.' and end in '.tmp', so no loader ever mistakes them for memories. */
export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

/** fsync of an open descriptor, off the event loop. */
export function fsyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
}

export async function fsyncDir(dir: string): Promise<void> {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    await fsyncFd(fd);
  } catch (err) {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic there.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM') throw err;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export async function ensureDir(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
}

/**
 * A directory cairn owns inside the store (.tombstones, .cache, .pending), created 0700 if
 * missing. Invariant: nothing cairn writes may land outside the store, so a symlink (or a file)
 * in that place is refused rather than followed.
 */
export function ensureOwnDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  if (!lstatSync(dir).isDirectory()) {
    throw new Error(`${dir} is not a real directory (a symbolic link or a file); cairn does not follow links out of the store, so replace it with a directory`);
  }
}

/** lstat, or null when the path cannot be looked at (gone, or a folder on the way is not one). */
export function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** true when `dir` exists and is a real directory (not a symlink): safe to read or clean. */
export function isOwnDirSync(dir: string): boolean {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * temp file + fsync + rename over the target + fsync of the directory. `mode` defaults to 0600;
 * it is set explicitly so the umask can neither narrow nor widen it.
 */
export async function writeFileAtomic(target: string, data: string | Buffer, mode = FILE_MODE): Promise<void> {
  const tmp = tempPathFor(target);
  // 'wx': never follow or clobber something already at the temp name (it is random anyway).
  const fd = openSync(tmp, 'wx', mode);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let at = 0; at < buf.length; ) at += writeSync(fd, buf, at, buf.length - at);
    if (mode !== FILE_MODE) fchmodSync(fd, mode);
    await fsyncFd(fd);
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
  await fsyncDir(dirname(target));
}

/**
 * The first half of writeFileAtomic for many files: each `data` written to a temp file beside its
 * target, the fsyncs side by side (one disk wait instead of one per file), each closed. Returns
 * the temp paths, in order. A failure removes every temp file it wrote.
 */
export async function writeTemps(files: readonly { file: string; data: string }[], mode = FILE_MODE): Promise<string[]> {
  const temps: { tmp: string; fd: number }[] = [];
  try {
    for (const f of files) {
      const tmp = tempPathFor(f.file);
      const fd = openSync(tmp, 'wx', mode);
      temps.push({ tmp, fd });
      const buf = Buffer.from(f.data, 'utf8');
      for (let at = 0; at < buf.length; ) at += writeSync(fd, buf, at, buf.length - at);
    }
    await Promise.all(temps.map((t) => fsyncFd(t.fd)));
  } catch (err) {
    for (const t of temps) {
      try {
        closeSync(t.fd);
      } catch {
        // already failing
      }
      rmSync(t.tmp, { force: true });
    }
    throw err;
  }
  for (const t of temps) closeSync(t.fd);
  return temps.map((t) => t.tmp);
}

/**
 * The second half: each temp renamed over its target (each atomic), then each directory fsynced
 * once (`later`: the directories are added to it instead, for the caller to fsync when it is
 * done, e.g. after releasing the store lock). The renames run side by side in the thread pool, unlike the single write's steps: under
 * load a rename waits on the filesystem's journal, and the waits of many renames overlap (400
 * renames: ~80 ms side by side, 250-800 ms one after another on a busy machine). A temp whose
 * rename failed is removed, and the first failure is thrown once the rest are done.
 */
export async function renameTemps(pairs: readonly { tmp: string; file: string }[], later?: Set<string>): Promise<void> {
  const done = await Promise.allSettled(pairs.map((p) => fsp.rename(p.tmp, p.file)));
  let failure: unknown = null;
  done.forEach((r, i) => {
    if (r.status === 'fulfilled') return;
    failure ??= r.reason;
    rmSync(pairs[i]!.tmp, { force: true });
  });
  const dirs = new Set(pairs.map((p) => dirname(p.file)));
  if (later) for (const d of dirs) later.add(d);
  else await Promise.all([...dirs].map((d) => fsyncDir(d)));
  if (failure !== null) throw failure;
}

/** writeFileAtomic for many files at once: writeTemps, then renameTemps. */
export async function writeFilesAtomic(files: readonly { file: string; data: string }[], mode = FILE_MODE): Promise<void> {
  const temps = await writeTemps(files, mode);
  await renameTemps(files.map((f, i) => ({ tmp: temps[i]!, file: f.file })));
}

/** Moves a file atomically (same filesystem) and makes both directory entries durable. */
export async function moveFileDurable(from: string, to: string): Promise<void> {
  await fsp.rename(from, to);
  await fsyncDir(dirname(to));
  if (dirname(from) !== dirname(to)) await fsyncDir(dirname(from));
}

/**
 * A cache file's text, read without following a symlink; null when it is absent, a link, larger
 * than `maxBytes`, or cut short while read (a cache is rebuilt, never trusted half-read).
 */
export function readOwnFileSync(file: string, maxBytes: number): string | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) return null;
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n === 0) return null;
      got += n;
    }
    return buf.toString('utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
