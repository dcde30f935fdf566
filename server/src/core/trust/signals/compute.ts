// The common hit fields of tools.md (verification, path drift, commit drift, staleness verdict),
// computed for a whole batch of memories at once: search, show and list call this once per tool
// call, so git runs at most once per call however many hits there are.
import { homedir } from 'node:os';
import type { Config } from '../../config.ts';
import { originRepoKey, type Caller } from '../../origin.ts';
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

/** Is this memory from the repo the caller is in (same normalized remote, or same root without one)? */
function fromCallerRepo(ctx: SignalContext, m: SignalMemory): boolean {
  if (!ctx.caller.repoRoot || !ctx.caller.repoKey) return false;
  return originRepoKey(m.origin) === ctx.caller.repoKey;
}

/**
 * Relative cited paths resolve against the memory's origin worktree when the caller is in that
 * repo; when that worktree is gone (another machine, a deleted worktree) the caller's own
 * checkout of the same repo stands in. Outside the repo they are not checked at all.
 */
function relativeRootFor(ctx: SignalContext, m: SignalMemory, sameRepo: boolean): string | null {
  if (!sameRepo) return null;
  return isDirectory(m.origin.worktree_root) ? m.origin.worktree_root : ctx.caller.repoRoot;
}

// The paths a body cites, remembered for the last bodies seen: a search asks for the same few
// hits again and again, and the extraction is a long regex over the body (the files themselves
// are checked on every call).
const CITED_MEMO = 1024;
const citedMemo = new Map<string, string[]>();
function citedPathsOf(body: string): string[] {
  let paths = citedMemo.get(body);
  if (paths === undefined) {
    paths = extractCitedPaths(body);
    if (citedMemo.size >= CITED_MEMO) citedMemo.delete(citedMemo.keys().next().value!);
    citedMemo.set(body, paths);
  }
  return paths;
}

export async function computeSignals(
  ctx: SignalContext,
  mems: readonly SignalMemory[],
  opts: { detail: boolean } = { detail: false },
): Promise<Map<string, HitSignals>> {
  const home = ctx.env.HOME ?? homedir();
  const staleDays = ctx.config.behavior.verification_stale_days;

  // Commit drift first, for every memory it applies to, in one git invocation.
  const applies = mems.filter((m) => m.last_verified_at !== null && fromCallerRepo(ctx, m));
  const drifts = new Map<string, { commits_since_verify: number | null; status: CommitDriftStatus }>();
  if (applies.length > 0 && ctx.caller.repoRoot) {
    const cache = ctx.drift ?? defaultCommitDriftCache;
    const res = await cache.driftFor(ctx.caller.repoRoot, applies.map((m) => ({ at: m.last_verified_at!, head: m.verified_head ?? null })));
    applies.forEach((m, i) => drifts.set(m.id, res[i]!));
  }

  const out = new Map<string, HitSignals>();
  for (const m of mems) {
    const sameRepo = fromCallerRepo(ctx, m);
    const verification = verificationOf(m.last_verified_at, ctx.now, staleDays);
    const paths = checkPaths(citedPathsOf(m.body), { home, relativeRoot: relativeRootFor(ctx, m, sameRepo) });
    const drift = drifts.get(m.id);
    const count = drift?.commits_since_verify ?? null;
    const s: HitSignals = {
      verification,
      path_drift_checked: paths.checked,
      path_drift_missing: paths.missing.length,
      ...(count !== null ? { commit_drift_count: count } : {}),
      staleness_verdict: stalenessVerdict({
        verification: verification.status,
        pathMissing: paths.missing.length,
        commitsSinceVerify: count,
      }),
    };
    if (opts.detail) {
      s.path_drift = { checked: paths.checked, missing: paths.missing };
      s.commit_drift = drift ?? { commits_since_verify: null, status: 'not_applicable' };
    }
    out.set(m.id, s);
  }
  return out;
}
