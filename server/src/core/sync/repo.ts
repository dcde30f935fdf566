// The store as a git repository (README "Sync"). Everything here runs git in the store directory
// and works on whole trees:
//   commitLocal  stages every change (the .gitignore keeps caches, the event log and pending
//                writes per machine) and makes one commit whose message lists what changed;
//   treeMerge.ts merges two commits by memory id and writes the result into the store.
// The caller (core/ops/sync.ts) holds the store lock around the local phases.
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { EMPTY_TREE, SyncError, git, readBlobs, runGit } from './git.ts';
import type { MemFile } from './merge.ts';
import { parseMemoryText } from '../store/memfile.ts';
import { writeFileAtomic } from '../store/fsatomic.ts';
import { summarize } from '../memory.ts';

/** What stays on each machine (never committed). */
export const GITIGNORE_LINES = ['.cache/', '.events.jsonl*', '.events-*.jsonl*', '.pending/', '.lock', '*.tmp', '*.claim', '.events.lock'];
/** Memory files (active and removed) merge through the cairn driver in a plain `git pull`. */
export const GITATTRIBUTES_LINES = ['/*.md merge=cairn', '/.tombstones/*.md merge=cairn'];
export const CONFLICTS_DIR = '.conflicts';
export const TOMB = '.tombstones';

/** A memory file's place in the tree: a top-level *.md or one in .tombstones/. */
export function isMemoryTreePath(p: string): boolean {
  const slash = p.indexOf('/');
  const name = slash === -1 ? p : p.slice(slash + 1);
  if (slash !== -1 && p.slice(0, slash) !== TOMB) return false;
  return name.endsWith('.md') && !name.startsWith('.') && !name.includes('/');
}

/** A tree path that is safe to write under the store (no escape, nothing in .git). */
export function safeTreePath(p: string): boolean {
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

export function parseMem(buf: Buffer | undefined): MemFile | null {
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

