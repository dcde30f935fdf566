// Merging two commits of the store BY MEMORY ID, not by path (README "Sync"): a remove moves a
// file into .tombstones/ and a restore moves it back, so one memory may sit at different paths on
// the two sides; every other file merges by path (git merge-file). applyChanges writes the merged
// files into the store atomically (temp + rename), so a running server's watcher sees whole files,
// never a half-written one. The caller (core/ops/sync.ts) holds the store lock around it.
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { readBlobs, runGit, treeOf, type TreeEntry } from './git.ts';
import { mergeMemory, conflictFileName, conflictFileText, type MemFile, type SyncConflict } from './merge.ts';
import { serializeMemory } from '../store/memfile.ts';
import { ensureDir, writeFileAtomic } from '../store/fsatomic.ts';
import { CONFLICTS_DIR, TOMB, isMemoryTreePath, parseMem, safeTreePath } from './repo.ts';

const WRITE_CONCURRENCY = 16;

export interface TreeMerge {
  /** path -> new content (null: delete), relative to the store. */
  changes: Map<string, Buffer | null>;
  /** Memory disagreements recorded in .conflicts/. */
  conflicts: SyncConflict[];
  /** Other files both sides changed beyond a clean text merge: ours kept, theirs saved in .conflicts/files/. */
  fileConflicts: string[];
  /** Memories (by id) and other files the merge brought in from the other side. */
  incoming: number;
}

interface Version {
  path: string;
  sha: string;
  mem: MemFile;
}

export async function mergeTrees(dir: string, base: string | null, ours: string | null, theirs: string): Promise<TreeMerge> {
  const [B, O, T] = await Promise.all([treeOf(dir, base), treeOf(dir, ours), treeOf(dir, theirs)]);
  const touched = new Set<string>();
  for (const M of [O, T]) for (const [p, e] of M) if (B.get(p)?.sha !== e.sha) touched.add(p);
  for (const [p, e] of B) if (O.get(p)?.sha !== e.sha || T.get(p)?.sha !== e.sha) touched.add(p);

  const memPaths = [...touched].filter(isMemoryTreePath);
  const shas: string[] = [];
  for (const p of memPaths) for (const M of [B, O, T]) { const e = M.get(p); if (e) shas.push(e.sha); }
  const blobs = await readBlobs(dir, shas);
  const parsed = new Map<string, MemFile | null>();
  const memOfSha = (sha: string) => {
    if (!parsed.has(sha)) parsed.set(sha, parseMem(blobs.get(sha)));
    return parsed.get(sha)!;
  };

  const pathLevel: string[] = [...touched].filter((p) => !isMemoryTreePath(p));
  const groups = new Map<string, { b?: Version; o?: Version; t?: Version }>();
  for (const p of memPaths) {
    const vs = ([[B, 'b'], [O, 'o'], [T, 't']] as const).map(([M, k]) => ({ k, e: M.get(p) }));
    if (vs.some(({ e }) => e && !memOfSha(e.sha))) {
      pathLevel.push(p); // not a readable memory on some side: merged as a plain file
      continue;
    }
    for (const { k, e } of vs) {
      if (!e) continue;
      const mem = memOfSha(e.sha)!;
      const g = groups.get(mem.record.id) ?? {};
      if (g[k] === undefined) g[k] = { path: p, sha: e.sha, mem };
      groups.set(mem.record.id, g);
    }
  }

  const changes = new Map<string, Buffer | null>();
  const present = new Set(O.keys());
  const put = (p: string, data: Buffer | null) => {
    changes.set(p, data);
    if (data === null) present.delete(p);
    else present.add(p);
  };
  const conflicts: SyncConflict[] = [];
  const fileConflicts: string[] = [];
  let incoming = 0;
  const eq = (x?: Version, y?: Version) => x?.path === y?.path && x?.sha === y?.sha;

  for (const [id, { b, o, t }] of [...groups].sort((x, y) => x[0].localeCompare(y[0]))) {
    if (eq(o, t) || eq(b, t)) continue; // same on both sides, or theirs did not touch it
    if (eq(b, o) || !o) {
      // Only theirs changed it (or ours deleted it for good and theirs still has it: kept).
      if (o && o.path !== t?.path) put(o.path, null);
      if (t) put(t.path, blobs.get(t.sha)!);
      incoming++;
      continue;
    }
    if (!t) continue; // theirs deleted it for good, ours changed it: ours kept
    const { merged, conflict } = mergeMemory(b?.mem ?? null, o.mem, t.mem);
    const text = Buffer.from(serializeMemory(merged.record, merged.extra));
    const wantDir = merged.record.removed !== undefined ? TOMB : '';
    const inDir = (v: Version) => (dirname(v.path) === '.' ? '' : dirname(v.path)) === wantDir;
    let target = inDir(o) ? o.path : inDir(t) ? t.path : (wantDir ? `${wantDir}/` : '') + basename(o.path);
    if (target !== o.path && target !== t.path && present.has(target)) target = target.replace(/\.md$/, `-${id.slice(-6).toLowerCase()}.md`);
    if (o.path !== target) put(o.path, null);
    put(target, text);
    incoming++;
    if (conflict) {
      conflicts.push(conflict);
      put(`${CONFLICTS_DIR}/${conflictFileName(conflict)}`, Buffer.from(conflictFileText(conflict)));
    }
  }

  const theirsWhole: string[] = [];
  const needText: { p: string; b?: TreeEntry; o: TreeEntry; t: TreeEntry }[] = [];
  for (const p of pathLevel) {
    const b = B.get(p);
    const o = O.get(p);
    const t = T.get(p);
    if (o?.sha === t?.sha || b?.sha === t?.sha) continue;
    if (b?.sha === o?.sha || !o) {
      if (t) theirsWhole.push(p);
      else put(p, null);
      incoming++;
      continue;
    }
    if (!t) continue;
    needText.push({ p, ...(b ? { b } : {}), o, t });
  }
  // Files taken whole from theirs, and the both-changed ones merged as text.
  const blobs2 = await readBlobs(dir, [...theirsWhole.map((p) => T.get(p)!.sha), ...needText.flatMap((n) => [n.o.sha, n.t.sha, ...(n.b ? [n.b.sha] : [])])]);
  for (const p of theirsWhole) put(p, blobs2.get(T.get(p)!.sha)!);
  for (const n of needText) {
    const merged = await textMerge(blobs2.get(n.o.sha)!, n.b ? blobs2.get(n.b.sha)! : Buffer.alloc(0), blobs2.get(n.t.sha)!);
    if (merged !== null) put(n.p, merged);
    else {
      const saved = `${CONFLICTS_DIR}/files/${n.p.split('/').join('__')}.${n.t.sha.slice(0, 8)}`;
      put(saved, blobs2.get(n.t.sha)!);
      fileConflicts.push(n.p);
    }
    incoming++;
  }
  return { changes, conflicts, fileConflicts, incoming };
}

/** git merge-file on three texts; null when it leaves conflicts. */
async function textMerge(ours: Buffer, base: Buffer, theirs: Buffer): Promise<Buffer | null> {
  if (ours.includes(0) || theirs.includes(0) || base.includes(0)) return null;
  const tmp = await fsp.mkdtemp(join(tmpdir(), 'cairn-merge-'));
  try {
    const [o, b, t] = ['ours', 'base', 'theirs'].map((n) => join(tmp, n));
    await Promise.all([fsp.writeFile(o!, ours), fsp.writeFile(b!, base), fsp.writeFile(t!, theirs)]);
    const r = await runGit(tmp, ['merge-file', '-p', o!, b!, t!]);
    return r.code === 0 ? r.stdout : null;
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

/** The changes between two commits as writes and deletes (a fast-forward). */
export async function treeDiff(dir: string, from: string | null, to: string): Promise<Map<string, Buffer | null>> {
  const [F, T] = await Promise.all([treeOf(dir, from), treeOf(dir, to)]);
  const changes = new Map<string, Buffer | null>();
  const want: string[] = [];
  for (const [p, e] of T) if (F.get(p)?.sha !== e.sha) want.push(p);
  const blobs = await readBlobs(dir, want.map((p) => T.get(p)!.sha));
  for (const p of want) changes.set(p, blobs.get(T.get(p)!.sha)!);
  for (const p of F.keys()) if (!T.has(p)) changes.set(p, null);
  return changes;
}

/**
 * Writes merged files into the store: every write atomic. A memory that moves between the store
 * and .tombstones/ is rewritten in place and then renamed, as the store itself does, so a reader
 * never sees it twice or not at all. Unsafe paths are refused.
 */
export async function applyChanges(dir: string, changes: Map<string, Buffer | null>, warn: (m: string) => void): Promise<number> {
  let n = 0;
  const writes = [...changes].filter(([p, d]) => d !== null && safeTreePath(p)) as [string, Buffer][];
  for (const [p, d] of changes) if (!safeTreePath(p) && d !== null) warn(`sync skipped ${JSON.stringify(p)}: not a path cairn writes`);
  const deletes = new Set([...changes].filter(([p, d]) => d === null && safeTreePath(p)).map(([p]) => p));
  // Moves: a deleted memory file whose id is written at another path.
  const deletedById = new Map<string, string>();
  for (const p of deletes) {
    if (!isMemoryTreePath(p)) continue;
    const mem = parseMem(await fsp.readFile(join(dir, ...p.split('/'))).catch(() => undefined));
    if (mem) deletedById.set(mem.record.id, p);
  }
  // Several files in flight at once: each write waits on its own fsync, so a pull of thousands
  // of files is bound by the disk's latency, not paid once per file in turn.
  const made = new Set<string>();
  const one = async ([p, data]: [string, Buffer]) => {
    const file = join(dir, ...p.split('/'));
    const parent = dirname(file);
    if (!made.has(parent)) {
      await ensureDir(parent);
      made.add(parent);
    }
    const id = isMemoryTreePath(p) ? parseMem(data)?.record.id : undefined;
    const from = id === undefined ? undefined : deletedById.get(id);
    if (from !== undefined && deletes.has(from)) {
      deletes.delete(from);
      const src = join(dir, ...from.split('/'));
      await writeFileAtomic(src, data);
      await fsp.rename(src, file);
    } else {
      await writeFileAtomic(file, data);
    }
    n++;
  };
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, writes.length) }, async () => {
    while (next < writes.length) await one(writes[next++]!);
  }));
  for (const p of deletes) {
    await fsp.rm(join(dir, ...p.split('/')), { force: true });
    n++;
  }
  return n;
}
