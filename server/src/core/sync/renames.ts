// Scope renames that travel with sync (README "Sync across machines"). A rename rewrites the
// memories the renaming machine has; a memory another machine wrote offline in the old scope is
// not among them, so after a plain file merge it would keep the old name forever. Each rename in a
// synced store therefore also leaves a small record, `.renames/<ULID>.json`, committed like any
// file (one file per rename: two machines never edit the same file, so it never conflicts). A
// sync that brings in a record it did not have applies that rename to the local store (README
// "What is merged how"). Records already known are never re-applied: a scope name reused on
// purpose after a rename stays as written.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir, writeFileAtomic } from '../store/fsatomic.ts';

export const RENAMES_DIR = '.renames';

export interface RenameRecord {
  id: string;
  old_scope: string;
  new_scope: string;
  include_tombstones: boolean;
  at: string;
}

/** The rename record names in the store, sorted (ULIDs: oldest first). */
export function renameIds(storeDir: string): string[] {
  const dir = join(storeDir, RENAMES_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => /^[0-9A-HJKMNP-TV-Z]{26}\.json$/.test(f)).map((f) => f.slice(0, 26)).sort();
}

export function readRename(storeDir: string, id: string): RenameRecord | null {
  try {
    const r = JSON.parse(readFileSync(join(storeDir, RENAMES_DIR, `${id}.json`), 'utf8')) as RenameRecord;
    return typeof r.old_scope === 'string' && typeof r.new_scope === 'string' ? { ...r, id, include_tombstones: r.include_tombstones !== false } : null;
  } catch {
    return null;
  }
}

/** Records a rename, only in a store that syncs (a .git directory): elsewhere nothing would read it. */
export async function recordRename(storeDir: string, r: RenameRecord): Promise<boolean> {
  if (!existsSync(join(storeDir, '.git'))) return false;
  await ensureDir(join(storeDir, RENAMES_DIR));
  await writeFileAtomic(join(storeDir, RENAMES_DIR, `${r.id}.json`), `${JSON.stringify(r, null, 2)}\n`, 0o644);
  return true;
}
