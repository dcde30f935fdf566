// The store lock belongs to whoever wrote it. A live holder on this host is never
// broken by age (a slow holder makes the next writer wait), and a release removes the lock only
// while it still holds the releaser's token. Real processes, a real store, the built bundle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { removeDir, tempDir } from '../helpers/env.ts';
import { startServer } from '../helpers/mcp.ts';

const lockUrl = new URL('../../src/core/store/lock.ts', import.meta.url).href;

/** Runs an ES module script in a child node (with tsx); resolves each stdout line through `onLine`. */
function child(script: string, onLine: (line: string) => void, tsx = false): { proc: ChildProcess; exit: Promise<number> } {
  const proc = spawn(process.execPath, [...(tsx ? ['--import', 'tsx'] : []), '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  proc.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      onLine(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
  });
  return { proc, exit: new Promise((res) => proc.on('exit', (c) => res(c ?? 1))) };
}

test('a slow live holder keeps the lock past the 30 s age limit: the bundle waits, then writes; the holder\'s lock is never deleted under it', { timeout: 120_000 }, async () => {
  const root = tempDir('cairn-lock-');
  const store = join(root, 'store');
  mkdirSync(store, { mode: 0o700 });
  const lock = join(store, '.lock');
  try {
    const s = await startServer({ store, cwd: root });
    // The slow holder: cairn's own lock code in another process, holding the lock 32.5 s, longer
    // than the age limit (30 s). The writer arrives 20.5 s in, so its 15 s wait spans the moment
    // the lock turns 30 s old (where an age rule breaks it) and ends after the holder releases.
    const log: { what: string; at: number; lock?: string }[] = [];
    const holder = child(
      `import { StoreLock } from ${JSON.stringify(lockUrl)};
       import { readFileSync } from 'node:fs';
       const f = ${JSON.stringify(lock)};
       const read = () => { try { return readFileSync(f, 'utf8'); } catch { return ''; } };
       await new StoreLock(${JSON.stringify(store)}).run(async () => {
         console.log(JSON.stringify({ what: 'in', at: Date.now(), lock: read() }));
         await new Promise((r) => setTimeout(r, 32500));
         console.log(JSON.stringify({ what: 'out', at: Date.now(), lock: read() }));
       });`,
      (line) => log.push(JSON.parse(line)),
      true,
    );
    while (!log.some((e) => e.what === 'in')) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 20500));
    const w = await s.call('memory_write', { content: 'The widgets service deploys from the release branch every Tuesday.', scopes: ['widgets'] });
    const wrote = Date.now();
    assert.equal(await holder.exit, 0);
    const at = (what: string) => log.find((e) => e.what === what)!;
    assert.equal(w.status, 'committed');
    assert.equal(at('out').lock, at('in').lock, 'the slow holder still finds its own lock at the end of its critical section');
    assert.ok(wrote >= at('out').at, `the write finished ${at('out').at - wrote} ms before the holder left: it broke a live lock`);
    assert.equal(existsSync(lock), false, 'the lock is released afterwards');
    await s.close();
  } finally {
    removeDir(root);
  }
});

test('two real holders with a short age limit: the second waits for the first, and the first never deletes the second\'s lock', { timeout: 60_000 }, async () => {
  const dir = tempDir('cairn-lock-');
  try {
    const log: { who: string; what: string; at: number; lock?: string }[] = [];
    const holder = (who: string, holdMs: number) =>
      child(
        `import { StoreLock } from ${JSON.stringify(lockUrl)};
         import { readFileSync } from 'node:fs';
         // Age limit 200 ms, far below the hold time: only liveness may keep the lock.
         const lock = new StoreLock(${JSON.stringify(dir)}, 20000, 200);
         console.log(JSON.stringify({ who: '${who}', what: 'start', at: Date.now() }));
         await lock.run(async () => {
           console.log(JSON.stringify({ who: '${who}', what: 'in', at: Date.now(), lock: readFileSync(${JSON.stringify(join(dir, '.lock'))}, 'utf8') }));
           await new Promise((r) => setTimeout(r, ${holdMs}));
           let text = '';
           try { text = readFileSync(${JSON.stringify(join(dir, '.lock'))}, 'utf8'); } catch {}
           console.log(JSON.stringify({ who: '${who}', what: 'out', at: Date.now(), lock: text }));
         });
         console.log(JSON.stringify({ who: '${who}', what: 'released', at: Date.now() }));`,
        (line) => log.push(JSON.parse(line)),
        true,
      );
    const a = holder('a', 2500);
    while (!log.some((e) => e.who === 'a' && e.what === 'in')) await new Promise((r) => setTimeout(r, 20));
    const b = holder('b', 1500);
    assert.deepEqual(await Promise.all([a.exit, b.exit]), [0, 0]);
    const at = (who: string, what: string) => log.find((e) => e.who === who && e.what === what)!;
    assert.ok(at('b', 'in').at >= at('a', 'out').at, 'b entered only after a left its critical section');
    // Each holder, at the end of its critical section, still finds its own lock line in place.
    assert.equal(at('a', 'out').lock, at('a', 'in').lock);
    assert.equal(at('b', 'out').lock, at('b', 'in').lock);
    assert.notEqual(at('a', 'in').lock, at('b', 'in').lock);
    assert.equal(existsSync(join(dir, '.lock')), false);
  } finally {
    removeDir(dir);
  }
});

test('a release leaves alone a lock that is no longer ours', { timeout: 30_000 }, async () => {
  const dir = tempDir('cairn-lock-');
  const file = join(dir, '.lock');
  try {
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    const a = child(
      `import { StoreLock } from ${JSON.stringify(lockUrl)};
       const lock = new StoreLock(${JSON.stringify(dir)});
       await lock.run(async () => {
         console.log('in');
         await new Promise((r) => setTimeout(r, 1500));
       });`,
      (line) => line === 'in' && inside(),
      true,
    );
    await entered;
    // Meanwhile the lock was broken and retaken by a writer on another host (the one case where
    // age still breaks a lock): the first holder's release must not delete it.
    const foreign = `4242 some-other-host ${Date.now()} othertoken\n`;
    writeFileSync(file, foreign);
    assert.equal(await a.exit, 0);
    assert.equal(readFileSync(file, 'utf8'), foreign, 'the other writer\'s lock survives the first holder\'s release');
  } finally {
    removeDir(dir);
  }
});

test('a lock whose pid now names a younger process (a reused pid) is broken, not waited on', { timeout: 30_000 }, async (t) => {
  if (process.platform !== 'linux') return t.skip('process start times are read from /proc');
  const dir = tempDir('cairn-lock-');
  const sleeper = spawn('sleep', ['30']);
  try {
    // The lock says it was taken a minute ago by a pid that is alive but started just now.
    writeFileSync(join(dir, '.lock'), `${sleeper.pid} ${(await import('node:os')).hostname()} ${Date.now() - 60_000} oldtoken\n`);
    const { StoreLock } = await import('../../src/core/store/lock.ts');
    assert.equal(await new StoreLock(dir, 5000).run(async () => 'entered'), 'entered');
  } finally {
    sleeper.kill();
    removeDir(dir);
  }
});
