// The session-start summary: `<store>/.cache/overview.json`, written beside the index cache at
// every save, so the SessionStart hook (`cairn overview --hook`) counts the memories in view
// without reading the whole cache (46 MB at 50k memories: its read and checksum alone were most
// of the hook's 0.8 s).
//
// It holds what the overview counts and nothing else: the active memories of that cache grouped
// by (repo key of their origin, scopes, expiry), with a count per group; no body, no id. It names
// the cache it was made from (the cache's checksum, read from the cache's 4 KB header) and the store
// directory: any mismatch, a missing or malformed file, or another format means "no summary", and
// the hook counts from the cache as before. Derived data: deleting it loses nothing.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureOwnDirSync, isOwnDirSync, readOwnFileSync } from '../store/fsatomic.ts';
import { CACHE_DIR, readCacheId } from './cache.ts';

export const OVERVIEW_FILE = 'overview.json';
const FORMAT = 1;
/** A summary bigger than this is not one this code wrote (it is ~2 KB for a typical store). */
const MAX_BYTES = 64 << 20;

export interface OverviewGroup {
  /** repo key of the memories' origin (core/origin.ts originRepoKey), null for none */
  repo: string | null;
  scopes: string[];
  /** expiry (ISO), null for none */
  expires: string | null;
  n: number;
}

interface OverviewFile {
  format: number;
  cache: string;
  dir: string;
  groups: OverviewGroup[];
}

/** Groups records by what the overview looks at. */
export function overviewGroups<R extends { scopes: readonly string[]; expires: string | null }>(records: Iterable<R>, repoKey: (r: R) => string | null): OverviewGroup[] {
  const at = new Map<string, OverviewGroup>();
  for (const r of records) {
    const repo = repoKey(r);
    const key = `${repo ?? ''}\u0000${repo === null ? 0 : 1}\u0000${r.scopes.join('\n')}\u0000${r.expires ?? ''}`;
    const g = at.get(key);
    if (g) g.n++;
    else at.set(key, { repo, scopes: [...r.scopes], expires: r.expires, n: 1 });
  }
  return [...at.values()];
}

/** Writes the summary of the cache whose id is `cacheId` (atomic: temp file, rename; mode 0600). */
export function writeOverview(storeDir: string, cacheId: string, groups: OverviewGroup[]): void {
  const dir = join(storeDir, CACHE_DIR);
  ensureOwnDirSync(dir);
  const target = join(dir, OVERVIEW_FILE);
  const tmp = `${target}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const body: OverviewFile = { format: FORMAT, cache: cacheId, dir: storeDir, groups };
  try {
    writeFileSync(tmp, JSON.stringify(body), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

const isText = (v: unknown): v is string => typeof v === 'string';

/** The summary of the store's current index cache, or null (absent, stale, malformed, foreign). */
export function readOverview(storeDir: string): OverviewGroup[] | null {
  if (!isOwnDirSync(join(storeDir, CACHE_DIR))) return null;
  const cacheId = readCacheId(storeDir);
  if (cacheId === null) return null;
  const text = readOwnFileSync(join(storeDir, CACHE_DIR, OVERVIEW_FILE), MAX_BYTES);
  if (text === null) return null;
  let f: OverviewFile;
  try {
    f = JSON.parse(text) as OverviewFile;
  } catch {
    return null;
  }
  if (typeof f !== 'object' || f === null || f.format !== FORMAT || f.cache !== cacheId || f.dir !== storeDir || !Array.isArray(f.groups)) return null;
  for (const g of f.groups as unknown[]) {
    const o = g as Partial<OverviewGroup>;
    if (typeof o !== 'object' || o === null) return null;
    if (!(o.repo === null || isText(o.repo)) || !(o.expires === null || isText(o.expires))) return null;
    if (!Array.isArray(o.scopes) || !o.scopes.every(isText) || !Number.isSafeInteger(o.n) || o.n! < 1) return null;
  }
  return f.groups;
}
