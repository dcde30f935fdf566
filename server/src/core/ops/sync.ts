// Sync use cases (README "Sync"): `cairn sync init`, `cairn sync`, `cairn sync --status`, the git
// merge driver, and the automatic sync the MCP server runs when [sync] auto = true.
//
// A sync: (1) under the store lock, commit every local change (one commit); (2) without the lock,
// fetch; (3) under the store lock again, commit anything written meanwhile, then merge the
// remote branch by memory id (core/sync/treeMerge.ts) and write the result into the store atomically;
// (4) without the lock, push; a push refused because the remote moved on goes back to (2). Local
// writes only ever wait for steps 1 and 3, which are local git work. A failure at any step is
// reported with the error (URLs without credentials); local commits stay and the next sync
// retries. Syncs of one store take turns (a lock inside .git/).
import { existsSync, readFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { StoredMemory } from '../types.ts';
import type { StoreContext } from './context.ts';
import { LockTimeoutError, ValidationError, errorMessage } from '../errors.ts';
import { redactRemoteUrl } from '../origin.ts';
import { StoreLock } from '../store/lock.ts';
import { ensureDir, writeFileAtomic } from '../store/fsatomic.ts';
import { REMOTE_TIMEOUT_MS, SyncError, firstLines, git, gitEnv, redactUrls, runGit } from '../sync/git.ts';
import {
  CONFLICTS_DIR, GITATTRIBUTES_LINES, GITIGNORE_LINES, aheadBehind, changeCount, commitLocal, currentBranch, dirtyPaths,
  ensureLines, headCommit, registerMergeDriver, identityEnv, isAncestor, remoteUrl, repoTop, revParse, type ChangeSummary,
} from '../sync/repo.ts';
import { applyChanges, mergeTrees, treeDiff } from '../sync/treeMerge.ts';
import { listConflicts } from '../sync/conflicts.ts';
import { mergeDriver as runDriver, type DriverFiles } from '../sync/driver.ts';
import { conflictFileName, type SyncConflict } from '../sync/merge.ts';
import { readRename, renameIds } from '../sync/renames.ts';
import { renameScope } from './curation.ts';
import { NotFoundError } from '../errors.ts';

export interface SyncInitInput {
  remote?: string;
  /** The merge driver's command line, without the %-arguments: [node, bundle]. */
  driver: readonly string[];
}

export interface SyncInitResult {
  store: string;
  created_repo: boolean;
  remote: string | null;
  branch: string;
  gitignore_updated: boolean;
  gitattributes_updated: boolean;
  merge_driver: string;
}

export interface SyncReport {
  ok: boolean;
  store: string;
  remote: string | null;
  branch: string | null;
  /** What this sync committed from this machine (null: nothing new). */
  committed: ChangeSummary | null;
  /** How the remote's changes came in. */
  merge: 'none' | 'up-to-date' | 'fast-forward' | 'merge';
  /** Memories and files changed in the store by what came in. */
  incoming: number;
  conflicts: { id: string; kind: SyncConflict['kind']; file: string }[];
  file_conflicts: string[];
  pushed: boolean;
  ahead: number;
  behind: number;
  /** Why the sync did not finish (URLs shown without credentials); null when ok. */
  error: string | null;
  /** Scope renames made on another machine, applied here to memories that machine did not have. */
  renames_applied?: { old_scope: string; new_scope: string; ids: string[] }[];
}

export interface SyncStatus {
  store: string;
  repo: boolean;
  remote: string | null;
  branch: string | null;
  /** Commits not yet pushed / not yet merged, as of the last fetch. */
  ahead: number;
  behind: number;
  /** Files changed since the last sync's commit. */
  dirty: number;
  last_sync: string | null;
  last_attempt: string | null;
  last_error: string | null;
  auto: boolean;
  conflicts: number;
}

interface SyncState {
  last_sync: string | null;
  last_attempt: string | null;
  last_error: string | null;
}

const stateDir = (dir: string) => join(dir, '.git', 'cairn-sync');
const stateFile = (dir: string) => join(stateDir(dir), 'state.json');

function readState(dir: string): SyncState {
  try {
    const s = JSON.parse(readFileSync(stateFile(dir), 'utf8')) as Partial<SyncState>;
    return { last_sync: s.last_sync ?? null, last_attempt: s.last_attempt ?? null, last_error: s.last_error ?? null };
  } catch {
    return { last_sync: null, last_attempt: null, last_error: null };
  }
}

async function writeState(dir: string, s: SyncState): Promise<void> {
  await ensureDir(stateDir(dir));
  await writeFileAtomic(stateFile(dir), `${JSON.stringify(s, null, 2)}\n`);
}

/** sh-quoting for the driver line git runs through the shell. */

async function ownRepo(dir: string): Promise<boolean> {
  if (!existsSync(join(dir, '.git'))) return false;
  const top = await repoTop(dir);
  return top !== null && (await realpathOf(top)) === (await realpathOf(dir));
}

async function realpathOf(p: string): Promise<string> {
  return realpath(p).catch(() => p);
}

export async function syncInit(c: StoreContext, input: SyncInitInput): Promise<SyncInitResult> {
  const dir = c.dir;
  if (input.remote !== undefined && (typeof input.remote !== 'string' || input.remote.trim() === '' || /[\s\0]/.test(input.remote.trim()) || input.remote.startsWith('-'))) {
    throw new ValidationError(`--remote must be a git URL or path, got ${JSON.stringify(redactRemoteUrl(String(input.remote)))}`);
  }
  await ensureDir(dir);
  let created = false;
  if (!(await ownRepo(dir))) {
    const top = await repoTop(dir);
    if (top !== null) {
      throw new ValidationError(`the store ${dir} is inside the git repository ${top}: it travels with that repository's own commits (a team store); cairn sync init makes a store its own repository, so use a store outside any repository`);
    }
    await git(dir, ['init', '-q']);
    created = true;
  }
  const remote = input.remote?.trim();
  if (remote !== undefined) {
    const cur = await remoteUrl(dir);
    if (cur === null) await git(dir, ['remote', 'add', 'origin', remote]);
    else if (cur !== remote) await git(dir, ['remote', 'set-url', 'origin', remote]);
  }
  // A new repository takes the remote's default branch name, so the first sync joins it.
  if ((await headCommit(dir)) === null && (remote ?? (await remoteUrl(dir))) !== null) {
    const r = await runGit(dir, ['ls-remote', '--symref', 'origin', 'HEAD'], { timeoutMs: REMOTE_TIMEOUT_MS });
    const m = /^ref: refs\/heads\/(\S+)\s+HEAD/m.exec(r.stdout.toString());
    if (m) await git(dir, ['symbolic-ref', 'HEAD', `refs/heads/${m[1]}`]);
  }
  const gitignore_updated = await ensureLines(join(dir, '.gitignore'), GITIGNORE_LINES, '# cairn: per-machine files, never synced');
  const gitattributes_updated = await ensureLines(join(dir, '.gitattributes'), GITATTRIBUTES_LINES, '# cairn: memory files merge field by field (cairn merge-driver)');
  const driver = await registerMergeDriver(dir, input.driver);
  const branch = await currentBranch(dir);
  c.log('sync_init', { created_repo: created, remote: redactRemoteUrl(await remoteUrl(dir)) });
  return { store: dir, created_repo: created, remote: redactRemoteUrl(await remoteUrl(dir)), branch, gitignore_updated, gitattributes_updated, merge_driver: driver };
}

const MAX_PUSH_TRIES = 5;
/** Another process is syncing this store: not a failure of the remote. */
export const BUSY = 'another cairn sync of this store is running; this one did nothing (run it again when that one ends)';

export async function sync(c: StoreContext): Promise<SyncReport> {
  const dir = c.dir;
  const report: SyncReport = { ok: false, store: dir, remote: null, branch: null, committed: null, merge: 'none', incoming: 0, conflicts: [], file_conflicts: [], pushed: false, ahead: 0, behind: 0, error: null };
  if (!(await ownRepo(dir))) throw new ValidationError(`the store ${dir} is not set up for sync: run cairn sync init [--remote URL] first`);
  const syncLock = new StoreLock(stateDir(dir), 5_000);
  const state = readState(dir);
  state.last_attempt = c.now().toISOString();
  let entered = false;
  try {
    await syncLock.run(async () => {
      entered = true;
      const host = hostname() || 'localhost';
      const env = await identityEnv(dir, gitEnv());
      const branch = await currentBranch(dir);
      report.branch = branch;
      const url = await remoteUrl(dir);
      report.remote = redactRemoteUrl(url);
      // (1) local changes, one commit
      const first = await c.store.lock.run(() => commitLocal(dir, env, host));
      if (first) report.committed = first.changes;
      if (url === null) throw new SyncError('no remote is configured: run cairn sync init --remote URL (your changes are committed locally)');
      for (let attempt = 1; ; attempt++) {
        // (2) fetch
        const f = await runGit(dir, ['fetch', '--prune', '--no-tags', 'origin'], { timeoutMs: REMOTE_TIMEOUT_MS, env });
        if (f.code !== 0) throw new SyncError(`fetch from ${report.remote} failed: ${firstLines(f.stderr) || `exit ${f.code}`} (your changes are committed locally; the next sync retries)`);
        // (3) merge under the store lock
        const knownRenames = new Set(renameIds(dir));
        let incomingTree: string | null = null;
        await c.store.lock.run(async () => {
          const late = await commitLocal(dir, env, host);
          if (late) report.committed = mergeSummaries(report.committed, late.changes);
          const ours = await headCommit(dir);
          const theirs = await revParse(dir, `refs/remotes/origin/${branch}`);
          incomingTree = theirs;
          if (theirs === null || theirs === ours || (ours !== null && (await isAncestor(dir, theirs, ours)))) {
            if (report.merge === 'none') report.merge = theirs === null ? 'none' : 'up-to-date';
            return;
          }
          if (ours === null || (await isAncestor(dir, ours, theirs))) {
            const changes = await treeDiff(dir, ours, theirs);
            await applyChanges(dir, changes, (m) => c.warn(m));
            await git(dir, ['update-ref', '-m', 'cairn sync: fast-forward', `refs/heads/${branch}`, theirs, ours ?? '0'.repeat(40)]);
            await git(dir, ['read-tree', theirs]);
            report.merge = report.merge === 'merge' ? 'merge' : 'fast-forward';
            report.incoming += changes.size;
            return;
          }
          const base = (await runGit(dir, ['merge-base', ours, theirs])).stdout.toString().trim() || null;
          const m = await mergeTrees(dir, base, ours, theirs);
          await applyChanges(dir, m.changes, (w) => c.warn(w));
          await git(dir, ['add', '-A', '--', '.']);
          const tree = (await git(dir, ['write-tree'])).trim();
          const msg = `cairn sync (${host}): merged ${m.incoming} change(s) from origin/${branch}${m.conflicts.length ? `, ${m.conflicts.length} conflict(s) kept in .conflicts/` : ''}\n`;
          const commit = (await git(dir, ['commit-tree', tree, '-p', ours, '-p', theirs, '-F', '-'], { input: msg, env })).trim();
          await git(dir, ['update-ref', '-m', 'cairn sync: merge', `refs/heads/${branch}`, commit, ours]);
          report.merge = 'merge';
          report.incoming += m.incoming;
          for (const k of m.conflicts) report.conflicts.push({ id: k.id, kind: k.kind, file: `${CONFLICTS_DIR}/${conflictFileName(k)}` });
          report.file_conflicts.push(...m.fileConflicts);
        });
        // (3b) scope renames made elsewhere reach what this machine wrote meanwhile
        const applied = incomingTree === null ? [] : await applyIncomingRenames(c, knownRenames, incomingTree);
        if (applied.length > 0) {
          report.renames_applied = [...(report.renames_applied ?? []), ...applied];
          const fix = await c.store.lock.run(() => commitLocal(dir, env, host));
          if (fix) report.committed = mergeSummaries(report.committed, fix.changes);
        }
        // (4) push
        const head = await headCommit(dir);
        const theirs = await revParse(dir, `refs/remotes/origin/${branch}`);
        if (head === null || head === theirs) break;
        const p = await runGit(dir, ['push', '--porcelain', 'origin', `HEAD:refs/heads/${branch}`], { timeoutMs: REMOTE_TIMEOUT_MS, env });
        if (p.code === 0) {
          report.pushed = true;
          await runGit(dir, ['update-ref', `refs/remotes/origin/${branch}`, head]);
          if (!(await revParse(dir, `refs/heads/${branch}@{upstream}`))) await runGit(dir, ['branch', '--set-upstream-to', `origin/${branch}`]);
          break;
        }
        const out = `${p.stdout.toString()}\n${p.stderr}`;
        const rejected = /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*(?:lock|stale)/i.test(out);
        if (!rejected || attempt >= MAX_PUSH_TRIES) throw new SyncError(`push to ${report.remote} failed: ${firstLines(redactUrls(p.stderr)) || `exit ${p.code}`} (your changes are committed locally; the next sync retries)`);
      }
      const ab = await aheadBehind(dir, branch);
      report.ahead = ab.ahead;
      report.behind = ab.behind;
      report.ok = true;
    });
  } catch (err) {
    report.error = !entered && err instanceof LockTimeoutError ? BUSY : redactUrls(errorMessage(err));
  }
  if (report.ok) {
    state.last_sync = state.last_attempt;
    state.last_error = null;
  } else state.last_error = report.error;
  await writeState(dir, state).catch(() => {});
  c.log('sync', { ok: report.ok, merge: report.merge, incoming: report.incoming, committed: report.committed ? changeCount(report.committed) : 0, conflicts: report.conflicts.length, pushed: report.pushed, error: report.error });
  return report;
}

/**
 * Applies the renames whose records arrived in this pull (sync/renames.ts) to the local store,
 * oldest first; the memories they change are committed and pushed by the same sync.
 */
async function applyIncomingRenames(c: StoreContext, known: ReadonlySet<string>, theirs: string): Promise<{ old_scope: string; new_scope: string; ids: string[] }[]> {
  const fresh = renameIds(c.dir).filter((id) => !known.has(id));
  if (fresh.length === 0) return [];
  await c.store.lock.run(() => c.store.sync());
  // Only what the renaming side did not have: a memory it had already carries its decision (a
  // scope reused on purpose after the rename stays as it is there).
  const theirFiles = new Set((await git(c.dir, ['ls-tree', '-r', '--name-only', '-z', theirs])).split('\0').filter(Boolean));
  const only = (m: StoredMemory) => !theirFiles.has(relative(c.dir, m.file).split(sep).join('/'));
  const out: { old_scope: string; new_scope: string; ids: string[] }[] = [];
  for (const id of fresh) {
    const r = readRename(c.dir, id);
    if (r === null) continue;
    try {
      const res = await renameScope(c, { old_scope: r.old_scope, new_scope: r.new_scope, include_tombstones: r.include_tombstones }, { record: false, only });
      const ids = [...res.active, ...res.tombstoned];
      if (ids.length > 0) out.push({ old_scope: r.old_scope, new_scope: r.new_scope, ids });
    } catch (err) {
      if (!(err instanceof NotFoundError)) c.warn(`sync: the scope rename ${r.old_scope} -> ${r.new_scope} from another machine was not applied: ${errorMessage(err)}`);
    }
  }
  return out;
}

function mergeSummaries(a: ChangeSummary | null, b: ChangeSummary): ChangeSummary {
  if (!a) return b;
  return { added: [...a.added, ...b.added], updated: [...a.updated, ...b.updated], removed: [...a.removed, ...b.removed], restored: [...a.restored, ...b.restored], purged: [...a.purged, ...b.purged], files: [...a.files, ...b.files] };
}

export async function status(c: StoreContext): Promise<SyncStatus> {
  const dir = c.dir;
  const st = readState(dir);
  const conflicts = await listConflicts(dir);
  const base: SyncStatus = { store: dir, repo: false, remote: null, branch: null, ahead: 0, behind: 0, dirty: 0, last_sync: null, last_attempt: null, last_error: null, auto: c.config.sync.auto, conflicts: conflicts.memories.length + conflicts.files.length };
  if (!(await ownRepo(dir))) return base;
  const branch = await currentBranch(dir).catch(() => null);
  const ab = branch ? await aheadBehind(dir, branch) : { ahead: 0, behind: 0 };
  return { ...base, repo: true, remote: redactRemoteUrl(await remoteUrl(dir)), branch, ahead: ab.ahead, behind: ab.behind, dirty: (await dirtyPaths(dir)).length, last_sync: st.last_sync, last_attempt: st.last_attempt, last_error: st.last_error };
}

export function mergeDriver(files: DriverFiles, workTree: string) {
  return runDriver(files, workTree);
}

/**
 * The automatic sync of a running server ([sync] auto = true): after a write it waits
 * debounce_seconds of quiet, and it also runs every interval_minutes. It never runs inside a tool
 * call (a timer starts it), one at a time, and a failure is warned once until a sync succeeds.
 */
export class AutoSync {
  private timer: NodeJS.Timeout | null = null;
  private interval: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private again = false;
  private lastError: string | null = null;
  private stopped = false;

  constructor(private readonly c: StoreContext, private readonly run: () => Promise<SyncReport> = () => sync(c)) {}

  start(): void {
    const ms = this.c.config.sync.interval_minutes * 60_000;
    this.interval = setInterval(() => this.kick(), ms);
    this.interval.unref();
    this.schedule();
  }

  /** A write happened: sync after the debounce. */
  schedule(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), this.c.config.sync.debounce_seconds * 1000);
    this.timer.unref();
  }

  private kick(): void {
    this.timer = null;
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run()
      .then((r) => this.report(r.ok || r.error === BUSY ? null : r.error))
      .catch((err) => this.report(errorMessage(err)))
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.schedule();
        }
      });
  }

  private report(error: string | null): void {
    if (error === null) {
      if (this.lastError !== null) this.c.warn('sync: working again');
      this.lastError = null;
      return;
    }
    if (this.lastError === null) this.c.warn(`sync failed (retrying every ${this.c.config.sync.interval_minutes} min; said once): ${error}`);
    this.lastError = error;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.interval) clearInterval(this.interval);
    await this.running?.catch(() => {});
  }
}
