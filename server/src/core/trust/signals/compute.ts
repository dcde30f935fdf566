// The common hit fields of tools.md (verification, path drift, commit drift, staleness verdict),
// computed for a whole batch of memories at once: search, show and list call this once per tool
// call, so git runs at most once per call however many hits there are.
import { homedir } from 'node:os';
import type { Config } from '../../config.ts';
import type { Caller } from '../../origin.ts';
import { repoKeyOf } from '../../memory.ts';
import type { MemoryRecord } from '../../types.ts';
import { checkPaths, extractCitedPaths, isDirectory } from './citedPaths.ts';
import { defaultCommitDriftCache, type CommitDriftCache, type CommitDriftStatus } from './commitDrift.ts';
import { stalenessVerdict, type StalenessVerdict } from './verdict.ts';
import { verificationOf, type Verification } from './verification.ts';

export type { VerificationStatus } from './verification.ts';
export type Verdict = StalenessVerdict;

export interface SignalContext {
  config: Config;
  caller: Caller;
  now: Date;
  /** HOME expands `~/` in cited paths. */
  env: NodeJS.ProcessEnv;
  /** Commit-time cache; defaults to the process-wide one. Tests pass their own to count git calls. */
  drift?: CommitDriftCache;
}

/**
 * Commit drift with detail. `not_applicable`: the memory is not from the caller's repo, the caller
 * is in no repo, or the memory was never verified (its verification already says `never`, and
 * tools.md counts commits since last_verified_at). `unknown`: git failed or hit its time limit.
 */
export interface CommitDriftDetail {
  commits_since_verify: number | null;
  status: CommitDriftStatus | 'not_applicable';
}

export interface HitSignals {
  verification: Verification;
  path_drift_checked: number;
  path_drift_missing: number;
  /** Present only when commit drift applies and git answered. */
  commit_drift_count?: number;
  staleness_verdict: Verdict;
  /** With detail (show, expand_top): the missing paths themselves. */
  path_drift?: { checked: number; missing: string[] };
  /** With detail: always present, status says whether it applies. */
  commit_drift?: CommitDriftDetail;
}

type SignalMemory = Pick<MemoryRecord, 'id' | 'body' | 'last_verified_at' | 'origin' | 'verified_head'>;

/** Is this memory from the repo the caller is in (same normalized remote, or same root without one)? The key is kept per origin (memory.ts repoKeyOf). */
function fromCallerRepo(ctx: SignalContext, m: SignalMemory): boolean {
  if (!ctx.caller.repoRoot || !ctx.caller.repoKey) return false;
  return repoKeyOf(m) === ctx.caller.repoKey;
}

/**
 * Relative cited paths resolve against the memory's origin worktree when the caller is in that
 * repo; when that worktree is gone (another machine, a deleted worktree) the caller's own
 * checkout of the same repo stands in. Outside the repo they are not checked at all. `seen`:
 * whether each worktree was a directory, asked once per batch (a few worktrees, many memories).
 */
function relativeRootFor(ctx: SignalContext, m: SignalMemory, sameRepo: boolean, seen: Map<string, boolean>): string | null {
  if (!sameRepo) return null;
  const root = m.origin.worktree_root;
  if (!root) return ctx.caller.repoRoot;
  let isDir = seen.get(root);
  if (isDir === undefined) seen.set(root, (isDir = isDirectory(root)));
  return isDir ? root : ctx.caller.repoRoot;
}

/** The verifications commit drift applies to: memories verified, written in the caller's repo. */
function driftInputs(mems: readonly SignalMemory[], same: readonly boolean[]) {
  const applies = mems.filter((m, i) => m.last_verified_at !== null && same[i]);
  return { applies, verified: applies.map((m) => ({ at: m.last_verified_at!, head: m.verified_head ?? null })) };
}

/**
 * Runs the one `git log` commit drift needs for all of `mems` (back to the oldest verification)
 * ahead of computeSignals calls over parts of them (list --all's pages), which then run none:
 * one git log per page reached further back each time, a process spawn per page.
 */
export async function warmCommitDrift(ctx: SignalContext, mems: readonly SignalMemory[]): Promise<void> {
  const { verified } = driftInputs(mems, mems.map((m) => fromCallerRepo(ctx, m)));
  if (verified.length > 0 && ctx.caller.repoRoot) await (ctx.drift ?? defaultCommitDriftCache).driftFor(ctx.caller.repoRoot, verified);
}

export async function computeSignals(
  ctx: SignalContext,
  mems: readonly SignalMemory[],
  opts: { detail: boolean } = { detail: false },
): Promise<Map<string, HitSignals>> {
  const home = ctx.env.HOME ?? homedir();
  const staleDays = ctx.config.behavior.verification_stale_days;

  // Commit drift first, for every memory it applies to, in one git invocation.
  const same = mems.map((m) => fromCallerRepo(ctx, m));
  const { applies, verified } = driftInputs(mems, same);
  const drifts = new Map<string, { commits_since_verify: number | null; status: CommitDriftStatus }>();
  if (applies.length > 0 && ctx.caller.repoRoot) {
    const res = await (ctx.drift ?? defaultCommitDriftCache).driftFor(ctx.caller.repoRoot, verified);
    applies.forEach((m, i) => drifts.set(m.id, res[i]!));
  }

  const out = new Map<string, HitSignals>();
  const worktrees = new Map<string, boolean>();
  for (let i = 0; i < mems.length; i++) {
    const m = mems[i]!;
    const verification = verificationOf(m.last_verified_at, ctx.now, staleDays);
    // Extracted again on every call (citedPaths.ts remembers what each candidate yields; keying a
    // memo by whole bodies cost more than it saved over list --all); the files are checked every time.
    const paths = checkPaths(extractCitedPaths(m.body), { home, relativeRoot: relativeRootFor(ctx, m, same[i]!, worktrees) });
    const drift = drifts.get(m.id);
    const count = drift?.commits_since_verify ?? null;
    // Key by key, in the order tools.md shows them (a spread in the middle took a slow path).
    const s = { verification, path_drift_checked: paths.checked, path_drift_missing: paths.missing.length } as HitSignals;
    if (count !== null) s.commit_drift_count = count;
    s.staleness_verdict = stalenessVerdict({ verification: verification.status, pathMissing: paths.missing.length, commitsSinceVerify: count });
    if (opts.detail) {
      s.path_drift = { checked: paths.checked, missing: paths.missing };
      s.commit_drift = drift ?? { commits_since_verify: null, status: 'not_applicable' };
    }
    out.set(m.id, s);
  }
  return out;
}
