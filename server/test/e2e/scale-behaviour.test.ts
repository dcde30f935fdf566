// What keeps a big store fast, checked as behaviour through the built bundle (the timings
// themselves live in `npm run bench`): a write costs no walk of the store, and the freshness
// promise (a hand edit is seen within a second) still holds on every path made faster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../helpers/mcp.ts';
import { auditEnv, readAudit } from '../helpers/audit.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { handWrite } from '../index/memfiles.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('own writes never make the server list the store directory again', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  const log = join(root, 'audit.jsonl');
  try {
    for (let i = 0; i < 20; i++) handWrite(store, `Seed memory number ${i} about the deploy pipeline stage ${i}.`);
    const s = await startServer({ store, cwd: root, env: auditEnv(log) });
    try {
      await s.call('memory_search', { query: 'deploy', auto_scope: false });
      // The first logged call creates the event log file (a one-off directory change).
      await s.call('memory_write', { content: 'Warm-up fact: the zorblax queue is drained hourly.', scopes: ['tools'] });
      await sleep(1100);
      await s.call('memory_search', { query: 'zorblax', auto_scope: false });
      const listingsBefore = readAudit(log).filter((e) => e.kind === 'fs' && e.op === 'readdir' && e.path === store).length;
      // Spaced past the directory-diff interval (1 s): before the fix, each write's own lock file
      // and rename moved the directory mtime, and the next write's freshness check re-listed the
      // whole store to diff it (~1 s per write at 200k memories).
      for (let i = 0; i < 3; i++) {
        const r = await s.call('memory_write', { content: `Distinct fact ${i}: the quux${i} service retries ${i + 2} times.`, scopes: ['tools'] });
        assert.equal(r.status, 'committed');
        await sleep(1100);
      }
      await s.call('memory_search', { query: 'quux0', auto_scope: false });
      const listings = readAudit(log).filter((e) => e.kind === 'fs' && e.op === 'readdir' && e.path === store).length;
      assert.equal(listings, listingsBefore, 'a write or the read after it listed the store directory');
      // .tombstones/ does not exist yet: calls do not try to watch it again each time (that was a
      // fixed cost of every call); only once it exists is it watched.
      const tombWatches = () => readAudit(log).filter((e) => e.kind === 'fs' && e.op === 'watch' && e.path === join(store, '.tombstones')).length;
      const watchesBefore = tombWatches();
      for (let i = 0; i < 10; i++) await s.call('memory_search', { query: `deploy ${i}`, auto_scope: false });
      assert.equal(tombWatches(), watchesBefore, 'reads tried to watch the missing .tombstones/ again');
      // Nor after writes (each moves the store directory's mtime, which used to trigger a try).
      for (let i = 0; i < 3; i++) {
        await s.call('memory_write', { content: `Another fact ${i}: the wibble${i} job runs every ${i + 3} hours.`, scopes: ['tools'] });
        await s.call('memory_search', { query: `wibble${i}`, auto_scope: false });
      }
      assert.equal(tombWatches(), watchesBefore, 'calls after writes tried to watch the missing .tombstones/ again');

      // ...while an outside change is still seen within a second.
      handWrite(store, 'The frobnicator cache is flushed nightly at 03:00 UTC.');
      await sleep(1000);
      const hits = await s.call('memory_search', { query: 'frobnicator', auto_scope: false });
      assert.equal(hits.hits.length, 1);
    } finally {
      await s.close();
    }
  } finally {
    removeDir(root);
  }
});

test('a server started from the cache answers at once and still sees hand edits made before it started', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  try {
    const edited = handWrite(store, 'The billing export runs at noon every weekday.');
    const deleted = handWrite(store, 'The legacy zeppelin dashboard lives on port 8081.');
    for (let i = 0; i < 30; i++) handWrite(store, `Filler memory ${i} about routine maintenance window ${i}.`);
    let s = await startServer({ store, cwd: root });
    await s.call('memory_search', { query: 'billing', auto_scope: false });
    // The index cache is written in the background after a rebuild.
    for (let i = 0; i < 100 && !existsSync(join(store, '.cache', 'search-index.bin')); i++) await sleep(50);
    assert.ok(existsSync(join(store, '.cache', 'search-index.bin')), 'no cache written');
    await s.close();

    // While no server runs: an in-place edit, a new file, a deleted file.
    writeFileSync(edited, readFileSync(edited, 'utf8').replace('billing export runs at noon', 'billing export runs at midnight via quasar'));
    handWrite(store, 'The ostrich queue drains into cold storage weekly.', {}, 'dropped-in-by-hand.md');
    unlinkSync(deleted);

    s = await startServer({ store, cwd: root });
    try {
      const t0 = Date.now();
      const seen = async () => {
        // lexical hits only: the semantic leg may add loose neighbours
        const q = (query: string) => s.call('memory_search', { query, auto_scope: false }).then((r) => r.hits.filter((h: { match_terms?: string[] }) => h.match_terms).length);
        return (await q('quasar')) === 1 && (await q('ostrich')) === 1 && (await q('zeppelin')) === 0 && (await q('noon')) === 0;
      };
      let ok = await seen();
      while (!ok && Date.now() - t0 < 1000) {
        await sleep(50);
        ok = await seen();
      }
      assert.ok(ok, 'the edits made before the start were not all seen within a second');
    } finally {
      await s.close();
    }
  } finally {
    removeDir(root);
  }
});

test('a big store started from the cache takes writes at once: the gates see every cached memory, the check still runs', async () => {
  // 12,000 memories: above the size (10,000) under which a server checks its files before its
  // first answer, so the writes below run while the check of the files is under way.
  const root = tempDir();
  const store = join(root, 'store');
  try {
    const words = ['alpha', 'bravo', 'cobalt', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper', 'kelvin', 'lumen'];
    const w = (i: number, k: number) => words[(i * 7 + k * 5) % words.length]!;
    let dupBody = '';
    let edited = '';
    for (let i = 0; i < 12_000; i++) {
      const body = `Memory ${i}: the ${w(i, 1)} service talks to ${w(i, 2)} through port ${1000 + i} via ${w(i, 3)}.`;
      const f = handWrite(store, body);
      if (i === 4321) dupBody = body;
      if (i === 777) edited = f;
    }
    let s = await startServer({ store, cwd: root });
    await s.call('memory_search', { query: 'cobalt', auto_scope: false });
    for (let i = 0; i < 400 && !existsSync(join(store, '.cache', 'search-index.bin')); i++) await sleep(50);
    assert.ok(existsSync(join(store, '.cache', 'search-index.bin')), 'no cache written');
    await s.close();

    writeFileSync(edited, readFileSync(edited, 'utf8').replace('Memory 777:', 'Memory 777 (moved to the xylophone cluster):'));
    s = await startServer({ store, cwd: root });
    try {
      // Right after the start: a copy of a cached memory is refused as a duplicate...
      const dup = await s.call('memory_write', { content: dupBody, scopes: ['tools'] });
      assert.equal(dup.status, 'duplicate', JSON.stringify(dup));
      // ...a new fact is committed and found at once.
      const ok = await s.call('memory_write', { content: 'The quokka exporter flushes its buffers before every rotation.', scopes: ['tools'] });
      assert.equal(ok.status, 'committed', JSON.stringify(ok));
      const hits = await s.call('memory_search', { query: 'quokka exporter', auto_scope: false });
      assert.equal(hits.hits[0]?.id, ok.id);
      // The hand edit made before the start is seen once the check reaches it (the bench times it).
      const t0 = Date.now();
      const seen = async () => (await s.call('memory_search', { query: 'xylophone', auto_scope: false })).hits.some((h: { match_terms?: string[] }) => h.match_terms);
      let found = await seen();
      while (!found && Date.now() - t0 < 10_000) {
        await sleep(100);
        found = await seen();
      }
      assert.ok(found, 'the hand edit made before the start was never seen');
      // The file written while the check ran is still there after it.
      const again = await s.call('memory_search', { query: 'quokka exporter', auto_scope: false });
      assert.equal(again.hits[0]?.id, ok.id);
      assert.ok(existsSync(ok.file), 'the committed file is gone');
    } finally {
      await s.close();
    }
  } finally {
    removeDir(root);
  }
});
