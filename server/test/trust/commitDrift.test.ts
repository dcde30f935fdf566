// Commit drift against real repositories with real commits: counts, one git call per batch,
// the per-HEAD cache, and reading HEAD without git (loose, packed, detached, linked worktree).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CommitDriftCache, countNewer, readHeadSha } from '../../src/core/trust/signals/commitDrift.ts';
import { day, makeRepo } from './gitRepo.ts';

const cleanup: string[] = [];
after(() => cleanup.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('countNewer', () => {
  it('counts entries strictly greater than t in an ascending array', () => {
    const xs = [1, 2, 2, 3, 5, 8];
    assert.equal(countNewer(xs, 0), 6);
    assert.equal(countNewer(xs, 2), 3);
    assert.equal(countNewer(xs, 4), 2);
    assert.equal(countNewer(xs, 8), 0);
    assert.equal(countNewer([], 1), 0);
  });
});

describe('CommitDriftCache.driftFor', () => {
  const repo = makeRepo();
  cleanup.push(repo.root);
  for (let i = 1; i <= 5; i++) repo.commit(day(i * 10)); // commits on days 10, 20, 30, 40, 50

  it('counts commits on HEAD newer than each verification time, in one git call', async () => {
    const cache = new CommitDriftCache();
    const got = await cache.driftFor(repo.root, [day(5).toISOString(), day(25).toISOString(), day(50).toISOString(), day(60).toISOString()]);
    assert.deepEqual(got, [
      { commits_since_verify: 5, status: 'behind' },
      { commits_since_verify: 3, status: 'behind' },
      { commits_since_verify: 0, status: 'up_to_date' },
      { commits_since_verify: 0, status: 'up_to_date' },
    ]);
    assert.equal(cache.gitCalls, 1);
  });

  it('reuses the commit times while HEAD does not move, and reruns git once it does', async () => {
    const r = makeRepo();
    cleanup.push(r.root);
    r.commit(day(1));
    r.commit(day(2));
    const cache = new CommitDriftCache();
    const v = day(1).toISOString();
    assert.equal((await cache.driftFor(r.root, [v]))[0]!.commits_since_verify, 1);
    assert.equal((await cache.driftFor(r.root, [v, v]))[0]!.commits_since_verify, 1);
    assert.equal(cache.gitCalls, 1);
    r.commit(day(3));
    assert.equal((await cache.driftFor(r.root, [v]))[0]!.commits_since_verify, 2);
    assert.equal(cache.gitCalls, 2);
  });

  it('reruns git when an older verification needs history the cached log was cut before', async () => {
    const cache = new CommitDriftCache();
    assert.equal((await cache.driftFor(repo.root, [day(45).toISOString()]))[0]!.commits_since_verify, 1);
    assert.equal((await cache.driftFor(repo.root, [day(1).toISOString()]))[0]!.commits_since_verify, 5);
    assert.equal(cache.gitCalls, 2);
    assert.equal((await cache.driftFor(repo.root, [day(45).toISOString()]))[0]!.commits_since_verify, 1);
    assert.equal(cache.gitCalls, 2);
  });

  it('is unknown outside a repository and for an empty repository', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-norepo-'));
    cleanup.push(dir);
    const empty = makeRepo();
    cleanup.push(empty.root);
    const cache = new CommitDriftCache();
    for (const root of [dir, empty.root]) {
      assert.deepEqual(await cache.driftFor(root, [day(1).toISOString()]), [{ commits_since_verify: null, status: 'unknown' }]);
    }
  });

  it('makes no git call for an empty batch', async () => {
    const cache = new CommitDriftCache();
    assert.deepEqual(await cache.driftFor(repo.root, []), []);
    assert.equal(cache.gitCalls, 0);
  });
});

describe('readHeadSha', () => {
  it('reads a loose ref, a packed ref and a detached HEAD like git rev-parse', () => {
    const r = makeRepo();
    cleanup.push(r.root);
    const first = r.commit(day(1));
    const second = r.commit(day(2));
    assert.equal(readHeadSha(r.root), second);
    r.git('pack-refs', '--all');
    assert.equal(readHeadSha(r.root), second);
    r.git('checkout', '-q', '--detach', first);
    assert.equal(readHeadSha(r.root), first);
  });

  it('reads HEAD of a linked worktree', () => {
    const r = makeRepo();
    cleanup.push(r.root);
    r.commit(day(1));
    const wt = join(mkdtempSync(join(tmpdir(), 'cairn-wt-')), 'wt');
    cleanup.push(wt);
    r.git('worktree', 'add', '-q', '-b', 'side', wt);
    const side = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: wt, encoding: 'utf8' }).trim();
    assert.equal(readHeadSha(wt), side);
  });

  it('is null outside a repository or before the first commit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-norepo-'));
    cleanup.push(dir);
    assert.equal(readHeadSha(dir), null);
    const empty = makeRepo();
    cleanup.push(empty.root);
    assert.equal(readHeadSha(empty.root), null);
  });
});
