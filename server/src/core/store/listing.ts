// Listing the store's directories: names and size/mtime of every *.md file, without following
// links or reading anything; leftover temp files of dead writers are cleaned on the way.
import { throwIfFolderAccess } from '../access.ts';
import { promises as fsp, lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isTempName } from './fsatomic.ts';
import { pidAlive } from './pid.ts';
import { type DirListing, type NameStats, isListedName, listDir, nameStats, statInto, statNames } from './fileWorker.ts';

/**
 * One directory listing, compact: names, which directory, and size/mtime pairs in one typed
 * array. No object, Map entry or joined path per file is held while a 100k store is listed;
 * a path is joined only when it is looked at.
 */
export class Listing {
  private readonly names: string[] = [];
  private readonly inDir: number[] = [];
  private stats = new Float64Array(256);
  private pathSet: Set<string> | null = null;
  /** Each directory as path.join would start a path in it (normalized, with its separator): a path is then one concatenation (join normalizes every time: ~40 ms per 50k paths). */
  private readonly prefixes: string[];
  constructor(dirs: readonly string[]) {
    this.prefixes = dirs.map(dirPrefix);
  }
  get length(): number {
    return this.names.length;
  }
  add(dir: number, name: string, size: number, mtimeMs: number): void {
    const i = this.names.length;
    if (2 * i + 2 > this.stats.length) {
      const grown = new Float64Array(this.stats.length * 2);
      grown.set(this.stats);
      this.stats = grown;
    }
    this.names.push(name);
    this.inDir.push(dir);
    this.stats[2 * i] = size;
    this.stats[2 * i + 1] = mtimeMs;
  }
  path(i: number): string {
    return this.pathIn(this.inDir[i]!, this.names[i]!);
  }
  /** join(dirs[dir], name), as one concatenation for a plain file name */
  pathIn(dir: number, name: string): string {
    // a note's place ("projects/a.md") goes through join, which turns its slashes into the platform's
    return name.includes('/') ? join(this.prefixes[dir]!, name) : this.prefixes[dir]! + name;
  }
  size(i: number): number {
    return this.stats[2 * i]!;
  }
  mtimeMs(i: number): number {
    return this.stats[2 * i + 1]!;
  }
  /** Builds the path set has() uses, yielding every `every` paths (a server's background check). */
  async index(pause: () => Promise<void>, every: number): Promise<void> {
    if (this.pathSet) return;
    const set = new Set<string>();
    for (let i = 0; i < this.names.length; i++) {
      if (i % every === every - 1) await pause();
      set.add(this.path(i));
    }
    this.pathSet = set;
  }
  has(p: string): boolean {
    if (!this.pathSet) {
      this.pathSet = new Set();
      for (let i = 0; i < this.names.length; i++) this.pathSet.add(this.path(i));
    }
    return this.pathSet.has(p);
  }
}

function pidOfTemp(name: string): number {
  const m = /\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name);
  return m ? Number(m[1]) : 0;
}

/** A temp file left by a write killed mid-way is never a memory; removed once its writer is gone. */
export function removeIfDeadTemp(dir: string, name: string): void {
  const pid = pidOfTemp(name);
  if (pid && pid !== process.pid && !pidAlive(pid)) rmSync(join(dir, name), { force: true });
}

/** Removes the temp files of dead writers in `dirs` (names only: no stat), as a load does. */
export function cleanDeadTemps(dirs: readonly string[]): void {
  for (const d of dirs) {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    for (const name of names) if (isTempName(name)) removeIfDeadTemp(d, name);
  }
}

/** `dir` normalized and ending in a separator: prefix + name equals join(dir, name) for a plain file name. */
function dirPrefix(dir: string): string {
  return join(dir, 'x').slice(0, -1);
}

/** Entries listed between two calls of `pause` (each lstat is ~4 us). */
const PAUSE_EVERY = 16;

/**
 * A big directory listed ahead, by a worker thread (fileWorker.ts, listDir): a command starts it
 * before it decodes the cache, so the readdir and the lstat of every file (~0.3 s at 50k
 * memories, ~1.2 s at 200k) overlap the decoding instead of following it. The listing that takes
 * it sees the directory as it was then, as if the command had started that much earlier.
 */
export type ListedAhead = Promise<DirListing | null>;

/**
 * A directory's own size from which it is listed ahead: a worker's start (~20 ms, ~15 MB) pays
 * from a few thousand entries. The size is a hint only (ext4 ~110 bytes an entry, tmpfs 20).
 */
const AHEAD_MIN_DIR_BYTES = 64 * 1024;

/** Starts listing `dir` ahead (ListedAhead), or null: missing, not a real directory, or too small for a worker to pay. */
export function listAhead(dir: string): ListedAhead | null {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory() || st.size < AHEAD_MIN_DIR_BYTES) return null;
  const listed = listDir(dir, dirPrefix(dir));
  listed.catch(() => undefined);
  return listed;
}

/**
 * Lists the first `flat` of `dirs` (missing ones are skipped); the rest are only named, for the
 * caller to add to (the notes area). `onSymlink` hears of each *.md symlink, which is never
 * followed (it could point outside the store). `pause`, if given, is awaited every PAUSE_EVERY
 * entries. `ahead`: directories listed ahead (listAhead), by path, taken instead of listing them.
 */
export async function listStoreFiles(dirs: readonly string[], cleanTemps: boolean, onSymlink: (path: string) => void, flat = dirs.length, pause?: () => Promise<void>, ahead?: ReadonlyMap<string, ListedAhead>): Promise<Listing> {
  const found = new Listing(dirs);
  for (let di = 0; di < flat; di++) {
    const d = dirs[di]!;
    const prefix = found.pathIn(di, '');
    const listed = (await ahead?.get(d)) ?? (await listHere(d, prefix, pause));
    if (listed === null) continue;
    // Dead writers' temp files are removed on the way.
    if (cleanTemps) for (const name of listed.temps) removeIfDeadTemp(d, name);
    const { md, kinds, stats } = listed;
    for (let i = 0; i < md.length; i++) {
      const kind = kinds[i];
      if (kind === 1) found.add(di, md[i]!, stats[2 * i]!, stats[2 * i + 1]!);
      else if (kind === 2) onSymlink(prefix + md[i]!);
    }
  }
  return found;
}

/** One directory listed by this thread (a worker stats a big one's files), or null if it is missing. */
async function listHere(d: string, prefix: string, pause?: () => Promise<void>): Promise<DirListing | null> {
  let names: string[];
  try {
    names = await fsp.readdir(d);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throwIfFolderAccess(d, 'read', err);
    throw err;
  }
  // Only *.md names are stat'ed.
  const md: string[] = [];
  const temps: string[] = [];
  let k = 0;
  for (const name of names) {
    if (pause && ++k % (PAUSE_EVERY * 64) === 0) await pause();
    if (isTempName(name)) temps.push(name);
    else if (isListedName(name)) md.push(name);
  }
  return { md, temps, ...(await statAll(prefix, md, pause)) };
}

/** Names from which a listing stats in a worker thread (fileWorker.ts): below, its start (~20 ms) is not worth it. */
const STAT_AHEAD_MIN = 4000;
/**
 * The same for a server's background check, which a worker spares ~0.5 s of its own thread at
 * 200k memories but costs ~20 MB of peak RSS (an isolate of its own) for ~0.13 s at 50k.
 */
const STAT_AHEAD_MIN_PAUSED = 100_000;

/**
 * The lstat of each name (never following a link: a symlink could point outside the store).
 * Synchronous, PAUSE_EVERY at a time between pauses: an async stat per file (Promise.all) costs
 * ~6x the time and hundreds of MB of transient promises on a 100k store, for no overlap the
 * kernel gives back. Many names go to a worker thread: without pauses (a load, a command) this
 * thread stats the first half meanwhile; with them (a server's background check) the worker
 * stats them all and this thread stays free for calls.
 */
async function statAll(prefix: string, names: readonly string[], pause?: () => Promise<void>): Promise<NameStats> {
  const n = names.length;
  const s = nameStats(n);
  if (n >= (pause ? STAT_AHEAD_MIN_PAUSED : STAT_AHEAD_MIN)) {
    const cut = pause ? 0 : n >> 1;
    const theirs = statNames(prefix, cut === 0 ? names : names.slice(cut));
    statInto(prefix, names, 0, cut, s);
    const t = await theirs;
    s.stats.set(t.stats, 2 * cut);
    s.kinds.set(t.kinds, cut);
    return s;
  }
  for (let from = 0; from < n; from += PAUSE_EVERY) {
    // a sliced pause (store/slices.ts) yields only once its slice is used up
    if (pause && from > 0) await pause();
    statInto(prefix, names, from, Math.min(n, from + PAUSE_EVERY), s);
  }
  return s;
}
