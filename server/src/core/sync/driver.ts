// The git merge driver (`merge.cairn.driver` in the store's .git/config, `merge=cairn` in its
// .gitattributes): git calls it for a memory file both sides changed, with the ancestor (%O),
// ours (%A, where the result goes) and theirs (%B). Three readable memory files with one id merge
// by the same rules as `cairn sync` (merge.ts), and a body conflict is written to .conflicts/ of
// the store the file is in (committed by the next `cairn sync` or `git add`): the work tree's root
// for a personal store, `.cairn/.conflicts/` for a team store inside a code repository (%P tells). Anything else falls back to
// git's own line merge, so the driver never does worse than git would.
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseMemoryText, serializeMemory } from '../store/memfile.ts';
import { ensureDir, writeFileAtomic } from '../store/fsatomic.ts';
import { conflictFileName, conflictFileText, mergeMemory, type MemFile } from './merge.ts';
import { runGit } from './git.ts';
import { CONFLICTS_DIR } from './repo.ts';

function parse(text: string): MemFile | null {
  try {
    const { record, extra } = parseMemoryText(text);
    if (record.id === null || record.created === null || record.updated === null) return null;
    return { record: { ...record, id: record.id, created: record.created, updated: record.updated }, extra };
  } catch {
    return null;
  }
}

export interface DriverFiles {
  base: string;
  ours: string;
  theirs: string;
  /** The path being merged (%P), for messages. */
  path?: string;
}

/**
 * The store folder of a merged file, relative to the work tree: the file's folder, or its parent
 * for a removed memory in .tombstones/ ('.' when git gave no path: the store is the work tree).
 */
export function storeRootOf(path: string | undefined): string {
  if (path === undefined || path === '') return '.';
  const d = dirname(path);
  return basename(d) === '.tombstones' ? dirname(d) : d;
}

/** Returns git's expected exit code: 0 merged, non-zero conflicts left in %A. */
export async function mergeDriver(files: DriverFiles, workTree: string): Promise<{ code: number; note: string }> {
  const [b, o, t] = await Promise.all([files.base, files.ours, files.theirs].map((f) => fsp.readFile(f, 'utf8').catch(() => '')));
  const ours = parse(o!);
  const theirs = parse(t!);
  const base = b!.trim() === '' ? null : parse(b!);
  if (ours && theirs && ours.record.id === theirs.record.id && (base === null || base.record.id === ours.record.id) && (b!.trim() === '' || base !== null)) {
    const { merged, conflict } = mergeMemory(base, ours, theirs);
    await fsp.writeFile(files.ours, serializeMemory(merged.record, merged.extra));
    if (conflict) {
      const dir = join(workTree, storeRootOf(files.path), CONFLICTS_DIR);
      await ensureDir(dir);
      await writeFileAtomic(join(dir, conflictFileName(conflict)), conflictFileText(conflict), 0o644);
      return { code: 0, note: `cairn: ${files.path ?? ours.record.id}: merged; the two bodies differed, the other one is kept in ${join(storeRootOf(files.path), CONFLICTS_DIR, conflictFileName(conflict))}` };
    }
    return { code: 0, note: '' };
  }
  // Not a memory on every side (a hand-broken file, a note): git's line merge, markers and all.
  const r = await runGit(workTree, ['merge-file', '-L', 'ours', '-L', 'base', '-L', 'theirs', files.ours, files.base, files.theirs]);
  return { code: r.code === 0 ? 0 : 1, note: r.code === 0 ? '' : `cairn: ${files.path ?? files.ours}: not a cairn memory on every side; merged line by line with conflict markers` };
}
