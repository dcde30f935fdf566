// Verification age: how long since someone checked a memory against reality. A memory never
// verified, or verified longer ago than `behavior.verification_stale_days`, must be spot-checked
// before it is acted on.

export type VerificationStatus = 'never' | 'stale' | 'fresh';

export interface Verification {
  status: VerificationStatus;
  /** Whole days since last_verified_at (floored, never negative); null when never verified. */
  age_days: number | null;
  stale_after_days: number;
}

const DAY_MS = 86_400_000;

/**
 * `stale` means strictly older than staleAfterDays (a memory verified exactly 30 days ago with a
 * 30-day limit is still fresh). A verification time in the future (clock skew between machines
 * sharing a store) counts as age 0, not as an error.
 */
export function verificationOf(lastVerifiedAt: string | null, now: Date, staleAfterDays: number): Verification {
  if (lastVerifiedAt === null) return { status: 'never', age_days: null, stale_after_days: staleAfterDays };
  const t = Date.parse(lastVerifiedAt);
  if (!Number.isFinite(t)) return { status: 'never', age_days: null, stale_after_days: staleAfterDays };
  const ageMs = Math.max(0, now.getTime() - t);
  return {
    status: ageMs > staleAfterDays * DAY_MS ? 'stale' : 'fresh',
    age_days: Math.floor(ageMs / DAY_MS),
    stale_after_days: staleAfterDays,
  };
}
