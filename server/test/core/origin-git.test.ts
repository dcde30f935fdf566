// git through origin.ts: its time limit stops a git that hangs, and never throws away the answer
// of one that finished while this thread was busy (a command decoding its index cache on a loaded
// machine: the timer then fires before the exit is seen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { git, resolveCaller } from '../../src/core/origin.ts';
import { busy, removeDir, tempDir } from '../helpers/env.ts';

test('a git that answered while the thread was busy past the time limit still counts', async () => {
  const repo = realpathSync(tempDir('cairn-origin-git-'));
  try {
    execFileSync('git', ['init', '-q'], { cwd: repo });
    execFileSync('git', ['remote', 'add', 'origin', 'https://github.com/acme/widgets.git'], { cwd: repo });
    const out = git(repo, ['rev-parse', '--show-toplevel'], 200);
    busy(1500);
    assert.equal((await out)?.trim(), repo);
    const caller = resolveCaller({}, repo);
    busy(2500); // past origin.ts's own 2 s limit
    assert.deepEqual(await caller, { cwd: repo, repoRoot: repo, repoUrl: 'https://github.com/acme/widgets.git', repoKey: 'github.com/acme/widgets' });
  } finally {
    removeDir(repo);
  }
});

test('a git that does not answer within the time limit is stopped and reads as failed', async () => {
  const dir = tempDir('cairn-origin-git-');
  try {
    // A shell alias that sleeps: git waits for it, its output pipe held open by the sleep.
    const started = Date.now();
    assert.equal(await git(dir, ['-c', 'alias.wait=!sleep 5', 'wait'], 300), null);
    assert.ok(Date.now() - started < 4000, 'stopped at its limit, not when it ended');
  } finally {
    removeDir(dir);
  }
});
