// Durable file primitives. Invariant: a crash at any instant leaves either the old or the new
// file, never a torn one (format.md "Every write is atomic").
//
// The small steps (open, write, close, rename) are synchronous calls: each is a few microseconds,
// while a round trip through libuv's thread pool costs 50-100 us on a busy machine, and a write
// makes about twenty of them. Only the fsyncs, which wait for the disk, leave the event loop.
import { promises as fsp, closeSync, constants, fchmodSync, fsync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
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
 * writeFileAtomic for many files at once: every temp file is written, their fsyncs run side by
 * side (one disk wait instead of one per file), then each is renamed over its target (atomic),
 * and each directory is fsynced once. A failure before the renames removes the temp files.
 */
export async function writeFilesAtomic(files: readonly { file: string; data: string }[], mode = FILE_MODE): Promise<void> {
  const temps: { tmp: string; file: string; fd: number }[] = [];
  try {
    for (const f of files) {
      const tmp = tempPathFor(f.file);
      const fd = openSync(tmp, 'wx', mode);
      temps.push({ tmp, file: f.file, fd });
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
  for (let i = 0; i < temps.length; i++) {
    try {
      renameSync(temps[i]!.tmp, temps[i]!.file);
    } catch (err) {
      for (const t of temps.slice(i)) rmSync(t.tmp, { force: true });
      throw err;
    }
  }
  await Promise.all([...new Set(temps.map((t) => dirname(t.file)))].map((d) => fsyncDir(d)));
}

/** Moves a file atomically (same filesystem) and makes both directory entries durable. */
export async function moveFileDurable(from: string, to: string): Promise<void> {
  await fsp.rename(from, to);
  await fsyncDir(dirname(to));
  if (dirname(from) !== dirname(to)) await fsyncDir(dirname(from));
}
