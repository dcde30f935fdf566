// Commit drift: how many commits landed on the caller's HEAD since a memory was last verified.
// A search returns up to 50 hits and must stay fast, so this costs at most ONE `git log` per call
// for all hits (never one per hit), bounded by a timeout, and nothing at all when HEAD has not
// moved since the last call: the commit times are cached per (repo root, HEAD sha).
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { git } from '../../origin.ts';

export type CommitDriftStatus = 'up_to_date' | 'behind' | 'unknown';

export interface CommitDrift {
  /** Commits on HEAD since the verify; null when git could not tell (status unknown). */
  commits_since_verify: number | null;
  status: CommitDriftStatus;
}

export const GIT_TIMEOUT_MS = 2000;

interface LogEntry {
  head: string | null;
  /** Committer times (epoch seconds) of every commit reachable from HEAD newer than `since`, ascending. */
  times: number[];
  /** Epoch seconds the log was cut at (--since); counts are exact only for verify times >= since. */
  since: number;
  /** The same commits by sha: committer time and parents, for ancestry walks. */
  commits: Map<string, { time: number; parents: string[] }>;
  /** Per verified head found in `commits`: how many listed commits are NOT it or its ancestors. */
  after: Map<string, number>;
}

/**
 * One memory's verification as commit drift sees it: when (ISO time) and, when it was recorded,
 * the caller's HEAD commit at that moment (`verified_head`).
 */
export interface VerifiedAt {
  at: string;
  head?: string | null;
}

/** The git directory (and common directory, for linked worktrees) of a work tree, read without git. */
function gitDirs(root: string): { gitDir: string; commonDir: string } | null {
  try {
    const dotGit = join(root, '.git');
    let gitDir = dotGit;
    if (!statSync(dotGit).isDirectory()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
      if (!m) return null;
      gitDir = isAbsolute(m[1]!.trim()) ? m[1]!.trim() : resolve(root, m[1]!.trim());
    }
    let commonDir = gitDir;
    try {
      const c = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
      commonDir = isAbsolute(c) ? c : resolve(gitDir, c);
    } catch {
      // not a linked worktree
    }
    return { gitDir, commonDir };
  } catch {
    return null;
  }
}

/** HEAD's commit sha: from the files under .git, else from `git rev-parse HEAD`; null outside a repo. */
export async function headSha(root: string, timeoutMs = GIT_TIMEOUT_MS): Promise<string | null> {
  const fast = readHeadSha(root);
  if (fast) return fast;
  const sha = (await git(root, ['rev-parse', '--verify', '-q', 'HEAD'], timeoutMs, { LC_ALL: 'C' }))?.trim() ?? '';
  return /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
}

/**
 * HEAD's commit sha read from the files under .git (loose ref, then packed-refs), so the cache
 * check costs no process spawn. null when it cannot be read that way; the caller then runs git.
 */
export function readHeadSha(root: string): string | null {
  const dirs = gitDirs(root);
  if (!dirs) return null;
  try {
    const head = readFileSync(join(dirs.gitDir, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40,64}$/.test(head)) return head;
    const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
    if (!ref) return null;
    for (const dir of [dirs.gitDir, dirs.commonDir]) {
      try {
        const sha = readFileSync(join(dir, ref), 'utf8').trim();
        if (/^[0-9a-f]{40,64}$/.test(sha)) return sha;
      } catch {
        // not a loose ref here
      }
    }
    const packed = readFileSync(join(dirs.commonDir, 'packed-refs'), 'utf8');
    for (const line of packed.split('\n')) {
      const [sha, name] = line.split(' ');
      if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
    }
  } catch {
    // unreadable: fall through
  }
  return null;
}

interface LogLines {
  times: number[];
  commits: Map<string, { time: number; parents: string[] }>;
}

async function gitLogTimes(root: string, since: number, timeoutMs: number): Promise<LogLines> {
  const args = ['log', '--format=%H %ct %P', 'HEAD'];
  if (since > 0) args.push(`--since=${new Date(since * 1000).toISOString()}`);
  const stdout = await git(root, args, timeoutMs, { LC_ALL: 'C' });
  if (stdout === null) throw new Error('git log failed');
  const times: number[] = [];
  const commits = new Map<string, { time: number; parents: string[] }>();
  for (const line of stdout.split('\n')) {
    const [sha, ct, ...parents] = line.split(' ');
    const time = Number(ct);
    if (!sha || !Number.isFinite(time)) continue;
    times.push(time);
    commits.set(sha, { time, parents: parents.filter((p) => p !== '') });
  }
  // Committer times are not monotonic along history (rebases, clock skew): sort to search.
  return { times: times.sort((a, b) => a - b), commits };
}

/** Number of entries in ascending `times` strictly greater than t (binary search). */
export function countNewer(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return times.length - lo;
}

/** Number of entries in ascending `times` greater than or equal to t. */
function countAtOrAfter(times: readonly number[], t: number): number {
  return countNewer(times, t - 1);
}

/** How many listed commits are neither `head` nor one of its ancestors (walking listed commits only). */
function countNotReachable(entry: LogEntry, head: string): number {
  const cached = entry.after.get(head);
  if (cached !== undefined) return cached;
  const seen = new Set<string>();
  const stack = [head];
  while (stack.length > 0) {
    const sha = stack.pop()!;
    if (seen.has(sha)) continue;
    const c = entry.commits.get(sha);
    if (!c) continue; // older than the cut: its ancestors are too
    seen.add(sha);
    for (const p of c.parents) if (!seen.has(p)) stack.push(p);
  }
  const n = entry.commits.size - seen.size;
  entry.after.set(head, n);
  return n;
}

/**
 * Commits since one verification. git's committer time has whole seconds, so time alone cannot
 * order a commit made in the same second as the verify. Exact when the HEAD at verify time is
 * known and within the log: the commits on HEAD that are not that commit or its ancestors. When
 * the head is known but older than the log's cut (or off this HEAD's history), commits of the
 * verify's own second count as after it (they cannot be ancestors of an older head). Without a
 * recorded head (memories verified before cairn recorded it) strictly newer seconds count, so a
 * verify made right after a commit never reports that commit.
 */
function commitsSince(entry: LogEntry, secs: number, head: string | null | undefined): number {
  if (head && entry.commits.has(head)) return countNotReachable(entry, head);
  if (head) return countAtOrAfter(entry.times, secs);
  return countNewer(entry.times, secs);
}

/**
 * Commit times per repo, cached per HEAD. One instance per process is enough (it holds derived
 * data only: a stale entry is impossible because the key is the HEAD sha itself).
 */
export class CommitDriftCache {
  private readonly entries = new Map<string, LogEntry>();
  /** git invocations so far (tests assert one per batch). */
  gitCalls = 0;

  constructor(private readonly timeoutMs = GIT_TIMEOUT_MS) {}

  /**
   * Commit drift for each verification (ISO time, or time plus the HEAD recorded at verify time)
   * against HEAD of the repo at `root`. The result array is parallel to `verified`. At most one
   * git invocation.
   */
  async driftFor(root: string, verified: readonly (string | VerifiedAt)[]): Promise<CommitDrift[]> {
    const items = verified.map((v) => (typeof v === 'string' ? { at: v, head: null } : v));
    const secs = items.map((v) => Math.floor(Date.parse(v.at) / 1000));
    if (secs.length === 0) return [];
    const valid = secs.filter((s) => Number.isFinite(s));
    // Only commits newer than the oldest verification matter; --since keeps the log small in
    // huge repos. A day of slack absorbs committer-date skew around the cut.
    const needSince = valid.length > 0 ? Math.max(0, Math.min(...valid) - 86400) : 0;
    const head = readHeadSha(root);
    let entry = this.entries.get(root);
    if (!entry || head === null || entry.head !== head || entry.since > needSince) {
      try {
        this.gitCalls++;
        const log = await gitLogTimes(root, needSince, this.timeoutMs);
        entry = { head, times: log.times, commits: log.commits, after: new Map(), since: needSince };
        if (head !== null) this.entries.set(root, entry);
      } catch {
        return secs.map(() => ({ commits_since_verify: null, status: 'unknown' }));
      }
    }
    const log = entry;
    return secs.map((s, i) => {
      if (!Number.isFinite(s)) return { commits_since_verify: null, status: 'unknown' };
      const n = commitsSince(log, s, items[i]!.head);
      return { commits_since_verify: n, status: n > 0 ? 'behind' : 'up_to_date' };
    });
  }
}

/** The process-wide cache used when a caller does not bring its own. */
export const defaultCommitDriftCache = new CommitDriftCache();
