// Writers waiting for the store lock take turns in arrival order (store/lockQueue.ts): a process
// that takes the lock back to back does not shut out one that is waiting, a waiter that died or
// stopped does not hold up the others, and the queue's folder is never written through a link.
// Real processes and a real directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { StoreLock } from '../../src/core/store/lock.ts';
import { QUEUE_DIR } from '../../src/core/store/lockQueue.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

const lockUrl = new URL('../../src/core/store/lock.ts', import.meta.url).href;
const hostTag = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const ticketName = (ms: number, pid: number) => `${String(ms).padStart(14, '0')}-${hostTag}-${pid}-0badc0de`;

/** A child node (with tsx) running `script`; resolves each stdout line through `onLine`. */
function child(script: string, onLine: (line: string) => void): Promise<number> {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  proc.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      onLine(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
  });
  return new Promise((res) => proc.on('exit', (c) => res(c ?? 1)));
}

test('a process taking the lock back to back lets a waiting process in at its next turns, not after it stops', { timeout: 120_000 }, async (t) => {
  const dir = tempDir('cairn-turns-');
  const stop = join(dir, 'stop');
  try {
    const events: string[] = [];
    // The hog re-takes the lock the moment it releases it, 40 ms each time, until told to stop
    // (at most 500 turns: without turns the waiter would only get in after those).
    const hog = child(
      `import { StoreLock } from ${JSON.stringify(lockUrl)};
       import { existsSync } from 'node:fs';
       const lock = new StoreLock(${JSON.stringify(dir)}, 60000);
       for (let i = 0; i < 500 && !existsSync(${JSON.stringify(stop)}); i++) {
         await lock.run(async () => { console.log('hog'); await new Promise((r) => setTimeout(r, 40)); });
       }`,
      (line) => events.push(line),
    );
    while (events.filter((e) => e === 'hog').length < 3) await new Promise((r) => setTimeout(r, 10));
    const waiter = child(
      `import { StoreLock } from ${JSON.stringify(lockUrl)};
       import { writeFileSync } from 'node:fs';
       const lock = new StoreLock(${JSON.stringify(dir)}, 60000);
       console.log('asks');
       const t0 = Date.now();
       await lock.run(async () => { console.log('in ' + (Date.now() - t0)); });
       writeFileSync(${JSON.stringify(stop)}, '');`,
      (line) => events.push(line),
    );
    assert.deepEqual(await Promise.all([hog, waiter]), [0, 0]);
    const asked = events.indexOf('asks');
    const entered = events.findIndex((e) => e.startsWith('in '));
    const hogTurnsWhileWaiting = events.slice(asked, entered).filter((e) => e === 'hog').length;
    t.diagnostic(`the waiter got in after ${events[entered]!.slice(3)} ms, ${hogTurnsWhileWaiting} turns of the hog`);
    // The turn in progress, and one the hog may have started before the waiter's ticket was written.
    assert.ok(hogTurnsWhileWaiting <= 3, `the hog took the lock ${hogTurnsWhileWaiting} times while the waiter waited`);
    assert.deepEqual(readdirSync(join(dir, QUEUE_DIR)), [], 'both left the queue');
    assert.equal(statSync(join(dir, QUEUE_DIR)).mode & 0o777, 0o700, 'the queue folder is private like the store');
    assert.equal(existsSync(join(dir, '.lock')), false);
  } finally {
    removeDir(dir);
  }
});

test('a newcomer queues behind a live waiter even when the lock is free; a dead or stopped waiter holds up no one', { timeout: 60_000 }, async () => {
  const dir = tempDir('cairn-turns-');
  const queue = join(dir, QUEUE_DIR);
  mkdirSync(queue, { mode: 0o700 });
  try {
    // A waiter of this host whose process has exited: its ticket is deleted, not waited on.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const dead = join(queue, ticketName(Date.now() - 1000, gone));
    writeFileSync(dead, '');
    let t0 = Date.now();
    await new StoreLock(dir, 10_000).run(async () => {});
    assert.ok(Date.now() - t0 < 2000, `entered after ${Date.now() - t0} ms behind a dead waiter`);
    assert.equal(existsSync(dead), false, 'the dead waiter\'s ticket is deleted');

    // A stopped waiter (alive, but its ticket untouched for 10 s): skipped, left in place.
    // (Its name says it arrived just now: a ticket older than its process would be a reused pid.)
    const stoppedName = ticketName(Date.now() - 100, process.pid);
    const stopped = join(queue, stoppedName);
    writeFileSync(stopped, '');
    const old = new Date(Date.now() - 10_000);
    utimesSync(stopped, old, old);
    t0 = Date.now();
    await new StoreLock(dir, 10_000).run(async () => {});
    assert.ok(Date.now() - t0 < 2000, `entered after ${Date.now() - t0} ms behind a stopped waiter`);
    assert.equal(existsSync(stopped), true, 'a live process\'s ticket is never deleted');

    // A live waiter that arrived first (ticket fresh): the lock is free, yet the newcomer waits
    // until that waiter takes its turn or stops touching its ticket (3 s).
    const firstName = ticketName(Date.now() - 5, process.pid);
    const first = join(queue, firstName);
    writeFileSync(first, '');
    t0 = Date.now();
    await new StoreLock(dir, 10_000).run(async () => {});
    const waited = Date.now() - t0;
    assert.ok(waited >= 2500 && waited < 8000, `waited ${waited} ms behind a waiter that never took its turn`);
    assert.deepEqual(readdirSync(queue).sort(), [stoppedName, firstName].sort(), 'the newcomer left no ticket of its own');
  } finally {
    removeDir(dir);
  }
});

test('a symlinked queue folder is not written through: waiters poll without it', { timeout: 60_000 }, async () => {
  const root = tempDir('cairn-turns-');
  const dir = join(root, 'store');
  const elsewhere = join(root, 'elsewhere');
  mkdirSync(dir, { mode: 0o700 });
  mkdirSync(elsewhere);
  symlinkSync(elsewhere, join(dir, QUEUE_DIR));
  try {
    const a = new StoreLock(dir, 10_000);
    const b = new StoreLock(dir, 10_000);
    const order: string[] = [];
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    const first = a.run(async () => {
      order.push('a in');
      inside();
      await new Promise((r) => setTimeout(r, 300));
      order.push('a out');
    });
    await entered;
    await b.run(async () => void order.push('b in'));
    await first;
    assert.deepEqual(order, ['a in', 'a out', 'b in']);
    assert.deepEqual(readdirSync(elsewhere), [], 'nothing was written through the link');
  } finally {
    removeDir(root);
  }
});
