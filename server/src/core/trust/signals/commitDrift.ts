// Commit drift: how many commits landed on the caller's HEAD since a memory was last verified.
// A search returns up to 50 hits and must stay fast, so this costs at most ONE `git log` per call
// for all hits (never one per hit), bounded by a timeout, and nothing at all when HEAD has not
// moved since the last call: the commit times are cached per (repo root, HEAD sha).
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export type CommitDriftStatus = 'up_to_date' | 'behind' | 'unknown';

export interface CommitDrift {
  /** Commits on HEAD newer than last_verified_at; null when git could not tell (status unknown). */
  commits_since_verify: number | null;
  status: CommitDriftStatus;
}

export const GIT_TIMEOUT_MS = 2000;
const MAX_BUFFER = 64 * 1024 * 1024;

interface LogEntry {
  head: string | null;
  /** Committer times (epoch seconds) of every commit reachable from HEAD newer than `since`, ascending. */
  times: number[];
  /** Epoch seconds the log was cut at (--since); counts are exact only for verify times >= since. */
  since: number;
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

function gitLogTimes(root: string, since: number, timeoutMs: number): Promise<number[]> {
  const args = ['-C', root, 'log', '--format=%ct', 'HEAD'];
  if (since > 0) args.push(`--since=${new Date(since * 1000).toISOString()}`);
  return new Promise((done, fail) => {
    execFile(
      'git',
      args,
      { timeout: timeoutMs, maxBuffer: MAX_BUFFER, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' } },
      (err, stdout) => {
        if (err) return fail(err);
        const times = stdout
          .split('\n')
          .filter((l) => l !== '')
          .map(Number)
          .filter((n) => Number.isFinite(n));
        // Committer times are not monotonic along history (rebases, clock skew): sort to search.
        done(times.sort((a, b) => a - b));
      },
    );
  });
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
   * Commit drift for each verification time (ISO strings) against HEAD of the repo at `root`.
   * The result array is parallel to `verifiedAt`. At most one git invocation.
   */
  async driftFor(root: string, verifiedAt: readonly string[]): Promise<CommitDrift[]> {
    const secs = verifiedAt.map((v) => Math.floor(Date.parse(v) / 1000));
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
        entry = { head, times: await gitLogTimes(root, needSince, this.timeoutMs), since: needSince };
        if (head !== null) this.entries.set(root, entry);
      } catch {
        return secs.map(() => ({ commits_since_verify: null, status: 'unknown' }));
      }
    }
    const times = entry.times;
    return secs.map((s) => {
      if (!Number.isFinite(s)) return { commits_since_verify: null, status: 'unknown' };
      const n = countNewer(times, s);
      return { commits_since_verify: n, status: n > 0 ? 'behind' : 'up_to_date' };
    });
  }
}

/** The process-wide cache used when a caller does not bring its own. */
export const defaultCommitDriftCache = new CommitDriftCache();
