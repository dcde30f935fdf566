// git through sync/git.ts: its time limit stops a git that hangs, and never turns the answer of
// one that finished while this thread was busy into a time-out (the timer then fires before the
// exit is seen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { runGit } from '../../src/core/sync/git.ts';
import { busy, removeDir, tempDir } from '../helpers/env.ts';

test('a sync git that answered while the thread was busy past its limit keeps its answer', async () => {
  const repo = realpathSync(tempDir('cairn-sync-git-'));
  try {
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const out = runGit(repo, ['rev-parse', '--show-toplevel'], { timeoutMs: 200 });
    busy(1500);
    const r = await out;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.toString('utf8').trim(), repo);
  } finally {
    removeDir(repo);
  }
});

test('a sync git still running at its limit is stopped and reported as timed out', async () => {
  const dir = tempDir('cairn-sync-git-');
  try {
    const started = Date.now();
    const r = await runGit(dir, ['-c', 'alias.wait=!sleep 5', 'wait'], { timeoutMs: 300 });
    assert.equal(r.code, 124);
    assert.match(r.stderr, /timed out after/);
    assert.ok(Date.now() - started < 4000, 'stopped at its limit, not when it ended');
  } finally {
    removeDir(dir);
  }
});
