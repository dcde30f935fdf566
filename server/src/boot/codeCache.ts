// V8's code cache for the bundle (docs/config.md, "Code cache"). Every start of the server, the
// CLI and the SessionStart hook would otherwise compile the same ~1.7 MB program again: parsing it
// and compiling the functions a start runs is ~50-100 ms of each start. The loader (loader.ts)
// compiles the program with the bytes V8 handed back after an earlier run and saves new ones when
// there were none it could use.
//
// One file per program, Node and role (the server, or a command: each compiles its own part of the
// program): code-<version>-<program hash>-<node version>-<arch>-<role>.bin, in
// $CAIRN_CODE_CACHE, else the platform's cache folder (~/.cache/cairn, $XDG_CACHE_HOME/cairn,
// ~/Library/Caches/cairn, %LOCALAPPDATA%\cairn\Cache). V8 checks that the bytes suit the running
// V8 and flags, and that they were made from a source of the same length; the program hash in
// the name tells apart two programs of one length. Cached bytes are compiled code: a folder
// someone else could write into is never used (POSIX: not ours, a symbolic link, or writable by
// group or others). Caching is best effort: anything failing leaves the program compiled from
// source, and nothing is reported.
//
//   const dir = codeCacheDir(process.env, process.platform, homedir());   // null: off
//   const name = codeCacheName(version, hash, roleOf(process.argv.slice(2)));
//   const data = readCodeCache(dir, name);                                 // Buffer or undefined
//   writeCodeCache(dir, name, script.createCachedData());
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the cache lives, or null when it is off (CAIRN_CODE_CACHE=0) or there is no home to put it in. */
export function codeCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string | null {
  const set = env.CAIRN_CODE_CACHE;
  if (set !== undefined && set !== '') return set === '0' || set.toLowerCase() === 'off' ? null : set;
  if (platform === 'win32') {
    const base = env.LOCALAPPDATA || (home ? join(home, 'AppData', 'Local') : '');
    return base ? join(base, 'cairn', 'Cache') : null;
  }
  if (platform === 'darwin') return home ? join(home, 'Library', 'Caches', 'cairn') : null;
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && xdg.startsWith('/')) return join(xdg, 'cairn');
  return home ? join(home, '.cache', 'cairn') : null;
}

/** What a run is, for its cache: `serve` (no arguments, or serve), a command's name, or `cli` (an option first, or anything else). */
export function roleOf(argv: readonly string[]): string {
  const first = argv[0] ?? 'serve';
  return /^[a-z][a-z-]{0,23}$/.test(first) ? first : 'cli';
}

/** The file for one program (its version and content hash) under the running Node, for one role. */
export function codeCacheName(version: string, programHash: string, role: string, nodeVersion = process.version, arch = process.arch): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9.]+/g, '_');
  return `code-${safe(version)}-${safe(programHash)}-${safe(nodeVersion)}-${safe(arch)}-${safe(role)}.bin`;
}

/** Whether `st` is a folder only its owner (this user) can write into. Windows: no such test. */
function isPrivateDir(st: { isDirectory(): boolean; uid: number; mode: number }): boolean {
  if (!st.isDirectory()) return false;
  if (typeof process.getuid !== 'function') return true;
  return st.uid === process.getuid() && (st.mode & 0o022) === 0;
}

/** Makes the folder (0700) if it is missing; true if it is there and private. A symbolic link is refused. */
export function usableDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return isPrivateDir(lstatSync(dir));
  } catch {
    return false;
  }
}

/** The saved bytes for `name`, if the folder is private and the file is a regular file of this user's. */
export function readCodeCache(dir: string | null, name: string): Buffer | undefined {
  if (dir === null) return undefined;
  let fd: number | undefined;
  try {
    if (!isPrivateDir(lstatSync(dir))) return undefined;
    fd = openSync(join(dir, name), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Saves `data` as `name` (a temp file renamed over it: a reader sees the old bytes or the new),
 * and removes the files of other versions of the program under this Node for this role. Never throws.
 */
export function writeCodeCache(dir: string | null, name: string, data: Uint8Array): boolean {
  if (dir === null || data.length === 0 || !usableDir(dir)) return false;
  const tmp = join(dir, `.${name}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, join(dir, name));
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
  // Files of other programs under this Node are stale (an update replaced the program): gone.
  const tail = (f: string) => f.split('-').slice(3).join('-'); // node version, arch and role
  const mine = tail(name);
  const underThisNode = (f: string) => f.startsWith('code-') && f.endsWith('.bin') && tail(f) === mine;
  try {
    for (const f of readdirSync(dir)) if (f !== name && underThisNode(f)) rmSync(join(dir, f), { force: true });
  } catch {
    // a folder that cannot be listed keeps its old files: they are only unused
  }
  return true;
}
