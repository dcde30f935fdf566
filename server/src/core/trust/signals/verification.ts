// Verification age: how long since someone checked a memory against reality. A memory never
// verified, or verified longer ago than `behavior.verification_stale_days`, must be spot-checked
// before it is acted on.

export type VerificationStatus = 'never' | 'stale' | 'fresh';

export interface Verification {
  status: VerificationStatus;
  /** Whole days since last_verified_at (floored, never negative); null when never verified. */
  age_days: number | null;
  stale_after_days: number;
  /** Present only when last_verified_at lies in the future beyond clock skew: what is wrong. */
  warning?: string;
}

const DAY_MS = 86_400_000;
/** Clocks of machines sharing a store disagree by seconds, not by this much. */
export const FUTURE_SKEW_MS = 10 * 60_000;

/**
 * `stale` means strictly older than staleAfterDays (a memory verified exactly 30 days ago with a
 * 30-day limit is still fresh). A verification time slightly in the future (clock skew between
 * machines sharing a store, up to FUTURE_SKEW_MS) counts as age 0. Further in the future it cannot
 * be a real check (a clock set wrong, or a hand edit): it vouches for nothing, so the status is
 * `stale` (a spot check is required) and `warning` says why, rather than "fresh, 0 days ago".
 */
export function verificationOf(lastVerifiedAt: string | null, now: Date, staleAfterDays: number): Verification {
  if (lastVerifiedAt === null) return { status: 'never', age_days: null, stale_after_days: staleAfterDays };
  const t = Date.parse(lastVerifiedAt);
  if (!Number.isFinite(t)) return { status: 'never', age_days: null, stale_after_days: staleAfterDays };
  if (t - now.getTime() > FUTURE_SKEW_MS) {
    const ahead = Math.ceil((t - now.getTime()) / DAY_MS);
    return {
      status: 'stale',
      age_days: 0,
      stale_after_days: staleAfterDays,
      warning: `last_verified_at ${lastVerifiedAt} is in the future${ahead > 1 ? ` (${ahead} days ahead)` : ''}: a clock set wrong or a hand edit, so it vouches for nothing; check the memory and verify it again`,
    };
  }
  const ageMs = Math.max(0, now.getTime() - t);
  return {
    status: ageMs > staleAfterDays * DAY_MS ? 'stale' : 'fresh',
    age_days: Math.floor(ageMs / DAY_MS),
    stale_after_days: staleAfterDays,
  };
}
