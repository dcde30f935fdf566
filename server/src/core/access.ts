// Folder permission problems told as what they are: which folder, which permission is missing,
// and what to do. Node's own message (`EACCES: permission denied, open '<store>/config.toml'`)
// names a file that may not even exist and says nothing of the folder that refused.
import { accessSync, constants, statSync } from 'node:fs';
import { StoreAccessError } from './errors.ts';

export type Access = 'read' | 'write';

const CODES = new Set(['EACCES', 'EPERM', 'EROFS']);

/** True for the error codes a folder's permissions or a read-only mount produce. */
export function isAccessError(err: unknown): boolean {
  return CODES.has((err as NodeJS.ErrnoException | null)?.code ?? '');
}

const lacks = (dir: string, bit: number): boolean => {
  try {
    accessSync(dir, bit);
    return false;
  } catch {
    return true;
  }
};

/**
 * One line naming `dir`, what cairn tried (`doing`), and the permission it lacks there, or null
 * when the folder itself grants what `doing` needs (then the problem is elsewhere: the caller keeps
 * its own message). Reading a store needs read and search (r-x) on its folder; writing needs
 * read, write and search (rwx): every write is a temp file renamed into place, beside a lock file.
 */
export function folderAccessProblem(dir: string, doing: Access, err: unknown, what = 'store folder'): string | null {
  const code = (err as NodeJS.ErrnoException | null)?.code ?? '';
  if (code === 'EROFS') {
    return `cannot write to the ${what} ${dir}: it is on a read-only file system (EROFS); remount it read-write or point CAIRN_DIR at a writable folder. Nothing was changed`;
  }
  if (!CODES.has(code)) return null;
  const missing: string[] = [];
  if (lacks(dir, constants.R_OK)) missing.push('read');
  if (doing === 'write' && lacks(dir, constants.W_OK)) missing.push('write');
  if (lacks(dir, constants.X_OK)) missing.push('search (x)');
  if (missing.length === 0) return null;
  let mode = '';
  try {
    const st = statSync(dir);
    mode = `it is mode 0${(st.mode & 0o777).toString(8).padStart(3, '0')}, owned by uid ${st.uid}; `;
  } catch {
    // the parent folder hides it too: the names of the missing permissions still say enough
  }
  const uid = process.getuid?.();
  const who = uid === undefined ? 'cairn' : `cairn (uid ${uid})`;
  const fix = doing === 'write' ? 'chmod u+rwx' : 'chmod u+rx';
  return `cannot ${doing === 'write' ? 'write to' : 'read'} the ${what} ${dir}: permission denied, ${who} lacks ${missing.join(' and ')} permission there (${mode}${fix} ${dir} as its owner). Nothing was changed`;
}

/** Throws a StoreAccessError for a folder permission problem; otherwise returns (the caller rethrows). */
export function throwIfFolderAccess(dir: string, doing: Access, err: unknown, what?: string): void {
  const msg = folderAccessProblem(dir, doing, err, what);
  if (msg !== null) throw new StoreAccessError(msg);
}
