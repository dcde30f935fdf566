// The store as a git repository (README "Sync"). Everything here runs git in the store directory
// and works on whole trees:
//   commitLocal  stages every change (the .gitignore keeps caches, the event log and pending
//                writes per machine) and makes one commit whose message lists what changed;
//   mergeTrees   merges two commits BY MEMORY ID, not by path: a remove moves a file into
//                .tombstones/ and a restore moves it back, so one memory may sit at different
//                paths on the two sides; every other file merges by path (git merge-file);
//   applyChanges writes the merged files into the store atomically (temp + rename), so a running
//                server's watcher sees whole files, never a half-written one.
// The caller (core/ops/sync.ts) holds the store lock around the local phases.
import { promises as fsp, existsSync, readFileSync } from 'node:fs';
import { tmpdir, hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { EMPTY_TREE, SyncError, git, readBlobs, runGit, treeOf, type TreeEntry } from './git.ts';
import { mergeMemory, conflictFileName, conflictFileText, type MemFile, type SyncConflict } from './merge.ts';
import { parseMemoryText, serializeMemory } from '../store/memfile.ts';
import { ensureDir, writeFileAtomic } from '../store/fsatomic.ts';
import { summarize } from '../memory.ts';

/** What stays on each machine (never committed). */
export const GITIGNORE_LINES = ['.cache/', '.events.jsonl*', '.events-*.jsonl*', '.pending/', '.lock', '*.tmp', '*.claim', '.events.lock'];
/** Memory files (active and removed) merge through the cairn driver in a plain `git pull`. */
export const GITATTRIBUTES_LINES = ['/*.md merge=cairn', '/.tombstones/*.md merge=cairn'];
export const CONFLICTS_DIR = '.conflicts';
const WRITE_CONCURRENCY = 16;
const TOMB = '.tombstones';

/** A memory file's place in the tree: a top-level *.md or one in .tombstones/. */
export function isMemoryTreePath(p: string): boolean {
  const slash = p.indexOf('/');
  const name = slash === -1 ? p : p.slice(slash + 1);
  if (slash !== -1 && p.slice(0, slash) !== TOMB) return false;
  return name.endsWith('.md') && !name.startsWith('.') && !name.includes('/');
}

/** A tree path that is safe to write under the store (no escape, nothing in .git). */
function safeTreePath(p: string): boolean {
  const parts = p.split('/');
  if (p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  if (!parts.every((s) => s !== '' && s !== '.' && s !== '..' && s.toLowerCase() !== '.git')) return false;
  // What stays per machine is never taken from a remote either (a pending write, a cache, a lock).
  const top = parts[0]!;
  return !(top === '.cache' || top === '.pending' || top === '.lock' || top.startsWith('.events') || /\.(tmp|claim)$/.test(p));
}

// ---- repository state ---------------------------------------------------------------------

export async function headCommit(dir: string): Promise<string | null> {
  const r = await runGit(dir, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  return r.code === 0 ? r.stdout.toString().trim() : null;
}

export async function currentBranch(dir: string): Promise<string> {
  const r = await runGit(dir, ['symbolic-ref', '--short', '-q', 'HEAD']);
  const b = r.stdout.toString().trim();
  if (r.code !== 0 || b === '') throw new SyncError(`the store repository at ${dir} is not on a branch (detached HEAD): check out a branch there (git -C ${dir} switch main)`);
  return b;
}

/** The top of the git work tree holding `dir`, or null outside any repository. */
export async function repoTop(dir: string): Promise<string | null> {
  const r = await runGit(dir, ['rev-parse', '--show-toplevel']);
  return r.code === 0 ? r.stdout.toString().trim() : null;
}

export async function remoteUrl(dir: string): Promise<string | null> {
  const r = await runGit(dir, ['config', '--get', 'remote.origin.url']);
  const u = r.stdout.toString().trim();
  return r.code === 0 && u !== '' ? u : null;
}

export async function isAncestor(dir: string, a: string, b: string): Promise<boolean> {
  return (await runGit(dir, ['merge-base', '--is-ancestor', a, b])).code === 0;
}

export async function revParse(dir: string, ref: string): Promise<string | null> {
  const r = await runGit(dir, ['rev-parse', '--verify', '-q', `${ref}^{commit}`]);
  return r.code === 0 ? r.stdout.toString().trim() : null;
}

/**
 * Author and committer for cairn's commits: the user's git identity, else "cairn on <host>"
 * <cairn@host>. Each role is checked on its own: git may know a committer (GIT_COMMITTER_* set)
 * and no author, or the reverse, and `commit-tree` needs both. cairn never asks the user to
 * configure git (README "Sync", docs/troubleshooting.md).
 */
export async function identityEnv(dir: string, base: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  const [author, committer] = await Promise.all([runGit(dir, ['var', 'GIT_AUTHOR_IDENT'], { env: base }), runGit(dir, ['var', 'GIT_COMMITTER_IDENT'], { env: base })]);
  if (author.code === 0 && committer.code === 0) return base;
  const host = hostname().replace(/[<>\n]/g, '') || 'localhost';
  const own = { name: `cairn on ${host}`, email: `cairn@${host}` };
  return {
    ...base,
    ...(author.code === 0 ? {} : { GIT_AUTHOR_NAME: own.name, GIT_AUTHOR_EMAIL: own.email }),
    ...(committer.code === 0 ? {} : { GIT_COMMITTER_NAME: own.name, GIT_COMMITTER_EMAIL: own.email }),
  };
}

const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Registers cairn's merge driver in the repository at `cwd` (.git/config: per clone, never
 * committed; the store's .gitattributes names it). `argv` runs cairn (node and the bundle, by
 * absolute path). Returns the driver command line.
 */
export async function registerMergeDriver(cwd: string, argv: readonly string[]): Promise<string> {
  const driver = `${argv.map(shq).join(' ')} merge-driver %O %A %B %P`;
  await git(cwd, ['config', 'merge.cairn.name', 'cairn memory merge (field by field, by id)']);
  await git(cwd, ['config', 'merge.cairn.driver', driver]);
  return driver;
}

/** Adds the missing lines to a line-list file (.gitignore, .gitattributes); true when changed. */
export async function ensureLines(file: string, lines: readonly string[], header: string): Promise<boolean> {
  const cur = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const have = new Set(cur.split(/\r?\n/).map((l) => l.trim()));
  const missing = lines.filter((l) => !have.has(l));
  if (missing.length === 0) return false;
  const sepNl = cur === '' || cur.endsWith('\n') ? '' : '\n';
  await writeFileAtomic(file, `${cur}${sepNl}${cur === '' ? `${header}\n` : ''}${missing.join('\n')}\n`, 0o644);
  return true;
}

// ---- committing local changes -------------------------------------------------------------

export interface ChangeEntry {
  id: string;
  summary: string;
}
export interface ChangeSummary {
  added: ChangeEntry[];
  updated: ChangeEntry[];
  removed: ChangeEntry[];
  restored: ChangeEntry[];
  /** Deleted for good (tombstones pruned). */
  purged: ChangeEntry[];
  /** Other files (notes, config, conflict records): their paths. */
  files: string[];
}

const emptySummary = (): ChangeSummary => ({ added: [], updated: [], removed: [], restored: [], purged: [], files: [] });
export const changeCount = (s: ChangeSummary) => s.added.length + s.updated.length + s.removed.length + s.restored.length + s.purged.length + s.files.length;

function parseMem(buf: Buffer | undefined): MemFile | null {
  if (!buf) return null;
  try {
    const { record, extra } = parseMemoryText(buf.toString('utf8'));
    if (record.id === null || record.created === null || record.updated === null) return null;
    return { record: { ...record, id: record.id, created: record.created, updated: record.updated }, extra };
  } catch {
    return null;
  }
}

/** What a diff between two trees means, memory by memory (moves between the two folders included). */
export async function describeDiff(dir: string, from: string | null, to: string, cached: boolean): Promise<ChangeSummary> {
  const args = ['diff', '--raw', '-z', '--no-renames', '--no-abbrev'];
  if (cached) args.push('--cached', from ?? EMPTY_TREE);
  else args.push(from ?? EMPTY_TREE, to);
  const raw = await git(dir, args);
  const parts = raw.split('\0');
  const rows: { path: string; oldSha: string; newSha: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]!.split(' ');
    rows.push({ path: parts[i + 1]!, oldSha: meta[2]!, newSha: meta[3]! });
  }
  const zero = /^0+$/;
  const mems = rows.filter((r) => isMemoryTreePath(r.path));
  const blobs = await readBlobs(dir, mems.flatMap((r) => [r.oldSha, r.newSha].filter((s) => !zero.test(s))));
  const out = emptySummary();
  const byId = new Map<string, { old?: MemFile; neu?: MemFile }>();
  for (const r of rows) {
    const o = zero.test(r.oldSha) ? null : parseMem(blobs.get(r.oldSha));
    const n = zero.test(r.newSha) ? null : parseMem(blobs.get(r.newSha));
    if (!isMemoryTreePath(r.path) || (!o && !n)) {
      out.files.push(r.path);
      continue;
    }
    for (const [m, k] of [[o, 'old'], [n, 'neu']] as const) {
      if (!m) continue;
      const e = byId.get(m.record.id) ?? {};
      e[k] = m;
      byId.set(m.record.id, e);
    }
  }
  for (const [id, { old, neu }] of [...byId].sort((a, b) => a[0].localeCompare(b[0]))) {
    const summary = summarize((neu ?? old)!.record.body, 70);
    const e = { id, summary };
    if (!old) out.added.push(e);
    else if (!neu) out.purged.push(e);
    else if (old.record.removed === undefined && neu.record.removed !== undefined) out.removed.push(e);
    else if (old.record.removed !== undefined && neu.record.removed === undefined) out.restored.push(e);
    else out.updated.push(e);
  }
  return out;
}

const MESSAGE_LINES = 400;

export function commitMessage(s: ChangeSummary, host: string): string {
  const counts = (['added', 'updated', 'removed', 'restored', 'purged'] as const).filter((k) => s[k].length > 0).map((k) => `${s[k].length} ${k}`);
  if (s.files.length > 0) counts.push(`${s.files.length} other file${s.files.length === 1 ? '' : 's'}`);
  const lines: string[] = [];
  for (const k of ['added', 'updated', 'removed', 'restored', 'purged'] as const) for (const e of s[k]) lines.push(`${k.padEnd(8)} ${e.id}  ${e.summary}`);
  for (const f of s.files) lines.push(`file     ${f}`);
  const shown = lines.slice(0, MESSAGE_LINES);
  if (lines.length > MESSAGE_LINES) shown.push(`... and ${lines.length - MESSAGE_LINES} more`);
  return `cairn sync (${host}): ${counts.join(', ') || 'no changes'}\n\n${shown.join('\n')}\n`;
}

/** One commit of everything changed in the store since HEAD; null when nothing changed. */
export async function commitLocal(dir: string, env: NodeJS.ProcessEnv, host: string): Promise<{ commit: string; changes: ChangeSummary } | null> {
  await git(dir, ['add', '-A', '--', '.']);
  // Per-machine files someone committed by hand (tracked files escape .gitignore) leave the index.
  const stray = (await git(dir, ['ls-files', '-z'])).split('\0').filter((p) => p !== '' && !safeTreePath(p));
  for (let i = 0; i < stray.length; i += 500) await git(dir, ['rm', '-q', '--cached', '--ignore-unmatch', '--', ...stray.slice(i, i + 500)]);
  const head = await headCommit(dir);
  const quiet = await runGit(dir, ['diff', '--cached', '--quiet', head ?? EMPTY_TREE]);
  if (quiet.code === 0) return null;
  const changes = await describeDiff(dir, head, '', true);
  const tree = (await git(dir, ['write-tree'])).trim();
  const commit = (await git(dir, ['commit-tree', tree, ...(head ? ['-p', head] : []), '-F', '-'], { input: commitMessage(changes, host), env })).trim();
  await updateBranch(dir, commit, head);
  return { commit, changes };
}

async function updateBranch(dir: string, commit: string, old: string | null): Promise<void> {
  const branch = await currentBranch(dir);
  await git(dir, ['update-ref', '-m', 'cairn sync', `refs/heads/${branch}`, commit, old ?? '0'.repeat(40)]);
}

// ---- merging two commits by memory id -------------------------------------------------------

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

/** Ahead/behind of HEAD against the remote-tracking branch (as of the last fetch). */
export async function aheadBehind(dir: string, branch: string): Promise<{ ahead: number; behind: number; tracking: boolean }> {
  const theirs = await revParse(dir, `refs/remotes/origin/${branch}`);
  const head = await headCommit(dir);
  if (!head) return { ahead: 0, behind: theirs ? Number((await git(dir, ['rev-list', '--count', theirs])).trim()) : 0, tracking: theirs !== null };
  if (!theirs) return { ahead: Number((await git(dir, ['rev-list', '--count', head])).trim()), behind: 0, tracking: false };
  const [a, b] = (await git(dir, ['rev-list', '--left-right', '--count', `${head}...${theirs}`])).trim().split(/\s+/).map(Number);
  return { ahead: a ?? 0, behind: b ?? 0, tracking: true };
}

/** Paths changed in the work tree against HEAD (ignored files excluded). */
export async function dirtyPaths(dir: string): Promise<string[]> {
  const out = await git(dir, ['status', '--porcelain', '-z', '--untracked-files=all']);
  const paths: string[] = [];
  const parts = out.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const rec = parts[i]!;
    if (rec === '') continue;
    paths.push(rec.slice(3));
    if (rec[0] === 'R' || rec[0] === 'C') i++;
  }
  return paths;
}

