// Listing the conflicts a sync preserved (.conflicts/ in the store, committed and so on every
// machine): memory_health shows them with both texts; deleting a file marks it resolved.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { CONFLICTS_DIR } from './repo.ts';
import type { SyncConflict } from './merge.ts';

export interface ListedConflict extends SyncConflict {
  /** The conflict file, relative to the store. */
  file: string;
}

export interface ListedFileConflict {
  /** The other side's copy, relative to the store. */
  file: string;
}

export async function listConflicts(storeDir: string): Promise<{ memories: ListedConflict[]; files: ListedFileConflict[] }> {
  const dir = join(storeDir, CONFLICTS_DIR);
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const memories: ListedConflict[] = [];
  for (const n of names.sort()) {
    if (!n.endsWith('.json')) continue;
    try {
      const doc = JSON.parse(await fsp.readFile(join(dir, n), 'utf8')) as SyncConflict;
      if (typeof doc.id !== 'string' || !doc.kept || !doc.other) continue;
      memories.push({ id: doc.id, kind: doc.kind, kept: doc.kept, other: doc.other, file: `${CONFLICTS_DIR}/${n}` });
    } catch {
      // an unreadable record is skipped here; the file stays for the user to look at
    }
  }
  const fileNames = await fsp.readdir(join(dir, 'files')).catch(() => [] as string[]);
  const files = fileNames.sort().map((n) => ({ file: `${CONFLICTS_DIR}/files/${n}` }));
  return { memories, files };
}
