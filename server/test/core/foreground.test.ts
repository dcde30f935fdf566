// The foreground gate (core/foreground.ts): background loops wait while a call is in flight and
// go on once none is; a store closing does not wait; a caller joining a background consolidation
// run lifts its pause (no call waits on work that waits on it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backgroundPause, Foreground, foreground } from '../../src/core/foreground.ts';
import { ConsolidationIndex } from '../../src/core/curation/consolidationIndex.ts';
import { Cairn } from '../../src/core/cairn.ts';
import { join } from 'node:path';
import { removeDir, tempDir } from '../helpers/env.ts';
import { handWrite } from '../index/memfiles.ts';

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};

/** A background loop counting its steps, pausing between them like the server's loops. */
function loop(pause: () => Promise<void>, steps: number) {
  const s = { done: 0, finished: false, stop: false };
  void (async () => {
    for (let i = 0; i < steps && !s.stop; i++) {
      await pause();
      s.done++;
    }
    s.finished = true;
  })();
  return s;
}

test('the count of calls in flight: enter and leave (once each), shared for worker threads', () => {
  const g = new Foreground();
  assert.equal(g.busy, false);
  const a = g.enter();
  const b = g.enter();
  assert.equal(g.calls, 2);
  assert.equal(Atomics.load(g.shared, 0), 2);
  a();
  a(); // a second leave of the same call changes nothing
  assert.equal(g.calls, 1);
  b();
  assert.equal(g.busy, false);
});

test('idle() resolves at once with no call in flight, else when the last call ends', async () => {
  const g = new Foreground();
  let resolved = false;
  await g.idle();
  const leave1 = g.enter();
  const leave2 = g.enter();
  const p = g.idle().then(() => (resolved = true));
  await turns(20);
  leave1();
  await turns(20);
  assert.equal(resolved, false, 'one call is still in flight');
  leave2();
  await p;
  assert.equal(resolved, true);
});

test('idle(stop) resolves once stop() turns true, with the call still in flight (a store closing)', async () => {
  const g = new Foreground();
  const leave = g.enter();
  let closing = false;
  const p = g.idle(() => closing);
  closing = true;
  await p; // would never resolve if stop() were not looked at again
  assert.equal(g.busy, true);
  leave();
});

test('a background loop pauses while a call is in flight and resumes after it', async () => {
  const s = loop(backgroundPause(true), 1_000_000);
  await turns(50);
  assert.ok(s.done > 0, 'the loop runs while no call is in flight');
  const leave = foreground.enter();
  await turns(5);
  const held = s.done;
  await turns(200);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(s.done, held, 'no step while the call is in flight');
  leave();
  await turns(50);
  assert.ok(s.done > held, 'the loop goes on once the call ended');
  s.stop = true;
  // stopped by a call that never ends, closing it down: a stop condition lets it run out
  const never = foreground.enter();
  const t = loop(backgroundPause(true, () => true), 10);
  await turns(200);
  assert.equal(t.finished, true);
  never();
});

test('a one-shot command (gate false) never waits for the count', async () => {
  const leave = foreground.enter();
  try {
    const s = loop(backgroundPause(false), 20);
    await turns(100);
    assert.equal(s.finished, true);
  } finally {
    leave();
  }
});

const mem = (i: number) => ({ id: `m${String(i).padStart(5, '0')}`, body: `The ${['alpha', 'beta', 'gamma'][i % 3]} service caches API responses in redis for ${i % 7} minutes`, scopes: ['projects'], repo: null });

test('a consolidation run nobody waits for pauses while a call is in flight; a caller joining it lifts the pause', async () => {
  const ix = new ConsolidationIndex();
  ix.addLater(Array.from({ length: 3000 }, (_, i) => mem(i)));
  const leave = foreground.enter();
  let backgroundDone = false;
  const bg = ix.settle({ background: backgroundPause(true) }).then(() => (backgroundDone = true));
  await new Promise((r) => setTimeout(r, 100));
  const waiting = ix.pending;
  assert.ok(waiting > 0 && !backgroundDone, 'the background run is paused by the call in flight');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(ix.pending, waiting, 'and makes no progress while it is');
  // The call itself needs the pairs: it joins the run, which finishes without waiting for the call.
  await ix.settle();
  await bg;
  assert.equal(ix.pending, 0);
  leave();
});

test('a server\'s embedding pass over a store waits while a call is in flight and finishes after it (built-in table, real store)', async () => {
  const root = tempDir();
  const dir = join(root, 'store');
  for (let i = 0; i < 400; i++) handWrite(dir, `Project ${i} deploys with pnpm and caches its API responses in redis for ${i % 9} minutes`, { scopes: ['projects'] });
  const c = await Cairn.open({ dir, cwd: root, env: { HOME: root, CAIRN_EMBED_PROVIDER: 'builtin' }, watch: true, warn: () => {} });
  try {
    const leg = c.index.semantic!;
    let inCall = 0;
    let held = -1;
    await c.during(async () => {
      // the leg opens (the cached vectors: none) with the call in flight; its pass is due
      await leg.ready();
      inCall = leg.backlog;
      await new Promise((r) => setTimeout(r, 200));
      held = leg.backlog;
    });
    assert.ok(inCall > 64, `a backlog bigger than one batch: ${inCall}`);
    assert.equal(held, inCall, 'nothing embedded while the call was in flight');
    await leg.settle();
    assert.equal(leg.backlog, 0, 'embedded once the call ended');
    assert.equal(leg.coverage()!.embedded, 400);
  } finally {
    await c.close();
    removeDir(root);
  }
});
