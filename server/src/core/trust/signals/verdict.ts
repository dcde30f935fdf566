// The one word a caller branches on: how far to trust a memory right now (tools.md, Staleness
// signals). Verification dominates drift: an unverified memory needs a check whatever else holds.
import type { VerificationStatus } from './verification.ts';

export const VERDICTS = ['fresh', 'spot_check_recommended', 'spot_check_required'] as const;
export type StalenessVerdict = (typeof VERDICTS)[number];

export interface VerdictInput {
  verification: VerificationStatus;
  /** Cited paths that no longer exist. */
  pathMissing: number;
  /** Commits on HEAD since verification; undefined/null when commit drift does not apply or is unknown. */
  commitsSinceVerify?: number | null;
}

/** never/stale -> spot_check_required; else any drift -> spot_check_recommended; else fresh. */
export function stalenessVerdict(input: VerdictInput): StalenessVerdict {
  if (input.verification === 'never' || input.verification === 'stale') return 'spot_check_required';
  if (input.pathMissing > 0 || (input.commitsSinceVerify ?? 0) > 0) return 'spot_check_recommended';
  return 'fresh';
}
