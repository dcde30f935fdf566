// The common hit fields for a batch: path drift resolved per origin, commit drift only for the
// caller's repo and verified memories, one git call per batch, and the verdict that follows.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { defaultConfig } from '../../src/core/config.ts';
import { originRepoKey, type Caller } from '../../src/core/origin.ts';
import { CommitDriftCache } from '../../src/core/trust/signals/commitDrift.ts';
import { computeSignals, type SignalContext } from '../../src/core/trust/signals/compute.ts';
import type { MemoryRecord, Origin } from '../../src/core/types.ts';
import { day, makeRepo } from './gitRepo.ts';

const REMOTE = 'git@github.com:acme/widgets.git';
const repo = makeRepo('cairn-signals-', REMOTE);
repo.commit(day(1), 'README.md');
mkdirSync(join(repo.root, 'src'));
repo.commit(day(10), 'src/kept.ts');
repo.commit(day(20));
repo.commit(day(30));
const home = mkdtempSync(join(tmpdir(), 'cairn-home-'));
writeFileSync(join(home, '.present'), '');
after(() => [repo.root, home].forEach((d) => rmSync(d, { recursive: true, force: true })));

const caller: Caller = { cwd: repo.root, repoRoot: repo.root, repoUrl: REMOTE, repoKey: originRepoKey({ repo: REMOTE, worktree_root: repo.root }) };
const here: Origin = { cwd: repo.root, repo: 'https://github.com/acme/widgets', branch: 'main', worktree_root: repo.root };
const elsewhere: Origin = { cwd: '/x', repo: 'git@github.com:acme/other.git', branch: 'main', worktree_root: '/nonexistent/other' };
const noRepo: Origin = { cwd: '/x', repo: null, branch: null, worktree_root: null };

let seq = 0;
function mem(body: string, origin: Origin, verified: Date | null): MemoryRecord {
  const id = `01JQ3Z8V7M2K4T6Y9B1C3D5F${String(seq++).padStart(2, '0')}`;
  return {
    id, created: day(0).toISOString(), updated: day(0).toISOString(), scopes: ['tools'], confidence: 'medium',
    source: 'explicit-statement', category: 'fact', last_verified_at: verified?.toISOString() ?? null, expires: null, origin, body,
  };
}

function ctx(over: Partial<SignalContext> = {}): SignalContext {
  return { config: defaultConfig(), caller, now: day(35), env: { HOME: home }, drift: new CommitDriftCache(), ...over };
}

describe('computeSignals', () => {
  it('fresh: verified after the last commit, every cited path present', async () => {
    const m = mem('See `src/kept.ts` and `README.md` and ~/.present', here, day(31));
    const s = (await computeSignals(ctx(), [m])).get(m.id)!;
    assert.deepEqual(s, {
      verification: { status: 'fresh', age_days: 4, stale_after_days: 30 },
      path_drift_checked: 3,
      path_drift_missing: 0,
      commit_drift_count: 0,
      staleness_verdict: 'fresh',
    });
  });

  it('commit drift in the caller repo (remote URL forms compared by host/owner/name)', async () => {
    const m = mem('Plain fact with no paths.', here, day(15));
    const s = (await computeSignals(ctx(), [m], { detail: true })).get(m.id)!;
    assert.equal(s.commit_drift_count, 2);
    assert.equal(s.staleness_verdict, 'spot_check_recommended');
    assert.deepEqual(s.commit_drift, { commits_since_verify: 2, status: 'behind' });
  });

  it('path drift: missing paths counted on hits and listed with detail', async () => {
    const m = mem('Moved `src/gone.ts`; config in ~/.absent and `src/kept.ts`.', here, day(31));
    const plain = (await computeSignals(ctx(), [m])).get(m.id)!;
    assert.equal(plain.path_drift_checked, 3);
    assert.equal(plain.path_drift_missing, 2);
    assert.equal(plain.path_drift, undefined);
    assert.equal(plain.staleness_verdict, 'spot_check_recommended');
    const detailed = (await computeSignals(ctx(), [m], { detail: true })).get(m.id)!;
    assert.deepEqual(detailed.path_drift, { checked: 3, missing: ['src/gone.ts', '~/.absent'] });
  });

  it('another repo: no commit drift, relative paths not checked, absolute ones still are', async () => {
    const m = mem('Uses `src/gone.ts` and ~/.present.', elsewhere, day(15));
    const s = (await computeSignals(ctx(), [m], { detail: true })).get(m.id)!;
    assert.equal(s.commit_drift_count, undefined);
    assert.deepEqual(s.commit_drift, { commits_since_verify: null, status: 'not_applicable' });
    assert.deepEqual(s.path_drift, { checked: 1, missing: [] });
    assert.equal(s.staleness_verdict, 'fresh');
  });

  it('a memory from no repo and a caller outside any repo: no commit drift', async () => {
    const a = mem('fact', noRepo, day(15));
    const b = mem('fact', here, day(15));
    const outside: Caller = { cwd: home, repoRoot: null, repoUrl: null, repoKey: null };
    const sa = (await computeSignals(ctx(), [a])).get(a.id)!;
    const sb = (await computeSignals(ctx({ caller: outside }), [b])).get(b.id)!;
    assert.equal(sa.commit_drift_count, undefined);
    assert.equal(sb.commit_drift_count, undefined);
  });

  it('never verified: spot_check_required and no commit drift', async () => {
    const m = mem('fact in `src/kept.ts`', here, null);
    const s = (await computeSignals(ctx(), [m], { detail: true })).get(m.id)!;
    assert.equal(s.verification.status, 'never');
    assert.equal(s.commit_drift_count, undefined);
    assert.equal(s.commit_drift?.status, 'not_applicable');
    assert.equal(s.staleness_verdict, 'spot_check_required');
  });

  it('stale verification wins over no drift', async () => {
    const m = mem('fact', here, day(31));
    const s = (await computeSignals(ctx({ now: day(80) }), [m])).get(m.id)!;
    assert.equal(s.verification.status, 'stale');
    assert.equal(s.staleness_verdict, 'spot_check_required');
  });

  it('relative paths fall back to the caller root when the origin worktree is gone', async () => {
    const moved: Origin = { ...here, worktree_root: '/nonexistent/old/checkout' };
    const m = mem('See `src/kept.ts`.', moved, day(31));
    const s = (await computeSignals(ctx(), [m])).get(m.id)!;
    assert.equal(s.path_drift_checked, 1);
    assert.equal(s.path_drift_missing, 0);
  });

  it('one git invocation for a whole batch', async () => {
    const drift = new CommitDriftCache();
    const mems = Array.from({ length: 40 }, (_, i) => mem(`fact ${i}`, here, day(5 + (i % 30))));
    const out = await computeSignals(ctx({ drift }), mems);
    assert.equal(out.size, 40);
    assert.equal(drift.gitCalls, 1);
    await computeSignals(ctx({ drift }), mems);
    assert.equal(drift.gitCalls, 1, 'HEAD unchanged: served from the cache');
  });
});
