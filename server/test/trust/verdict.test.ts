// Verification age and the staleness verdict table of tools.md.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stalenessVerdict, type StalenessVerdict } from '../../src/core/trust/signals/verdict.ts';
import { verificationOf, type VerificationStatus } from '../../src/core/trust/signals/verification.ts';

const NOW = new Date('2026-03-31T12:00:00.000Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

describe('verificationOf', () => {
  it('never verified', () => {
    assert.deepEqual(verificationOf(null, NOW, 30), { status: 'never', age_days: null, stale_after_days: 30 });
  });

  it('fresh up to and including the limit, stale one millisecond past it', () => {
    assert.deepEqual(verificationOf(daysAgo(0), NOW, 30), { status: 'fresh', age_days: 0, stale_after_days: 30 });
    assert.deepEqual(verificationOf(daysAgo(29.9), NOW, 30), { status: 'fresh', age_days: 29, stale_after_days: 30 });
    assert.deepEqual(verificationOf(daysAgo(30), NOW, 30), { status: 'fresh', age_days: 30, stale_after_days: 30 });
    const justPast = new Date(NOW.getTime() - 30 * 86_400_000 - 1).toISOString();
    assert.deepEqual(verificationOf(justPast, NOW, 30), { status: 'stale', age_days: 30, stale_after_days: 30 });
    assert.deepEqual(verificationOf(daysAgo(400), NOW, 30), { status: 'stale', age_days: 400, stale_after_days: 30 });
  });

  it('follows behavior.verification_stale_days', () => {
    assert.equal(verificationOf(daysAgo(8), NOW, 7).status, 'stale');
    assert.equal(verificationOf(daysAgo(8), NOW, 90).status, 'fresh');
  });

  it('a verification time minutes in the future (clock skew) is age 0 and fresh', () => {
    const skewed = new Date(NOW.getTime() + 5 * 60_000).toISOString();
    assert.deepEqual(verificationOf(skewed, NOW, 30), { status: 'fresh', age_days: 0, stale_after_days: 30 });
  });

  it('a verification time days in the future vouches for nothing: stale, with a warning', () => {
    const v = verificationOf(daysAgo(-2), NOW, 30);
    assert.equal(v.status, 'stale');
    assert.equal(v.age_days, 0);
    assert.match(v.warning ?? '', /^last_verified_at \S+ is in the future \(2 days ahead\): a clock set wrong or a hand edit/);
    assert.equal(stalenessVerdict({ verification: v.status, pathMissing: 0 }), 'spot_check_required');
  });

  it('an unparseable time counts as never verified', () => {
    assert.equal(verificationOf('not a date', NOW, 30).status, 'never');
  });
});

describe('stalenessVerdict: the whole table', () => {
  // [verification, missing paths, commits since verify (undefined: does not apply, null: unknown), verdict]
  const R = 'spot_check_required';
  const REC = 'spot_check_recommended';
  const table: [VerificationStatus, number, number | null | undefined, StalenessVerdict][] = [
    ['never', 0, undefined, R], ['never', 0, null, R], ['never', 0, 0, R], ['never', 0, 3, R],
    ['never', 2, undefined, R], ['never', 2, null, R], ['never', 2, 0, R], ['never', 2, 3, R],
    ['stale', 0, undefined, R], ['stale', 0, null, R], ['stale', 0, 0, R], ['stale', 0, 3, R],
    ['stale', 2, undefined, R], ['stale', 2, null, R], ['stale', 2, 0, R], ['stale', 2, 3, R],
    ['fresh', 0, undefined, 'fresh'], ['fresh', 0, null, 'fresh'], ['fresh', 0, 0, 'fresh'], ['fresh', 0, 1, REC],
    ['fresh', 1, undefined, REC], ['fresh', 1, null, REC], ['fresh', 1, 0, REC], ['fresh', 1, 1, REC],
  ];
  for (const [v, m, c, want] of table) {
    it(`verification=${v} missing=${m} commits=${c} -> ${want}`, () => {
      assert.equal(stalenessVerdict({ verification: v, pathMissing: m, commitsSinceVerify: c }), want);
    });
  }
});
