// The live index in-process: cache reuse and invalidation, updates on every store change, and the
// search filters of tools.md (scopes, auto_scope, disabled, expired, max_results).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/core/cairn.ts';
import { cachePath } from '../../src/core/index/cache.ts';
import { LiveIndex } from '../../src/core/index/live.ts';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { handWrite, record } from './memfiles.ts';
import { serializeMemory } from '../../src/core/store/memfile.ts';

const quiet = { warn: (m: string) => warnings.push(m) };
let warnings: string[] = [];

async function open(store: string, cwd: string, watch = false) {
  return Cairn.open({ dir: store, cwd, env: { HOME: store }, watch, ...quiet });
}
// The lexical index's hits (those matching a query term): the semantic leg may add loose
// neighbours below them, which these tests of the index's bookkeeping do not look at.
const ids = async (c: Cairn, query: string, extra: Record<string, unknown> = {}) =>
  (await c.search({ query, auto_scope: false, ...extra })).hits.filter((h) => (h.match_terms ?? []).length > 0).map((h) => h.id);
const loadedFrom = (c: Cairn) => c.index.live!.loadedFrom;

test('cache: rebuilt on first open, reused unchanged, partially reused after a hand edit, rebuilt when corrupt', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  try {
    const a = handWrite(store, 'The staging database listens on port 5433.');
    handWrite(store, 'Release notes are drafted in the wiki before tagging.');
    warnings = [];
    let c = await open(store, root);
    assert.equal(loadedFrom(c), 'rebuilt');
    await ids(c, 'staging'); // builds the index, so the cache gets its entries too
    await c.close();
    assert.equal(statSync(cachePath(store)).mode & 0o777, 0o600);

    c = await open(store, root);
    assert.equal(loadedFrom(c), 'cache');
    assert.equal((await ids(c, 'staging port')).length, 1);
    await c.close();

    // A changed file (new size and mtime) is re-read; the rest comes from the cache.
    writeFileSync(a, readFileSync(a, 'utf8').replace('5433', '6543 behind pgbouncer'));
    c = await open(store, root);
    assert.equal(loadedFrom(c), 'partial');
    assert.equal((await ids(c, 'pgbouncer')).length, 1);
    assert.deepEqual(await ids(c, '5433'), []);
    await c.close();

    // A file deleted and a file added by hand while no process ran: the next one-shot open
    // (a CLI command) takes the cache's records and checks every file against them.
    c = await open(store, root);
    await ids(c, 'staging');
    await c.close(); // the cache now holds the edit
    const b = handWrite(store, 'The nightly backup job writes to the cold bucket.');
    const aText = readFileSync(a, 'utf8');
    rmSync(a);
    c = await open(store, root);
    assert.equal(loadedFrom(c), 'partial');
    assert.deepEqual(await ids(c, 'pgbouncer'), [], 'a deleted file is gone');
    assert.equal((await ids(c, 'nightly backup bucket')).length, 1, 'a new file is found');
    assert.equal((await ids(c, 'release wiki')).length, 1, 'an unchanged one comes from the cache');
    await c.close();
    rmSync(b);
    writeFileSync(a, aText);

    truncateSync(cachePath(store), 100);
    c = await open(store, root);
    assert.equal(loadedFrom(c), 'rebuilt');
    assert.ok(warnings.some((w) => w.includes('index cache ignored')));
    assert.equal((await ids(c, 'pgbouncer')).length, 1);
    await c.close();

    // Deleting .cache loses nothing.
    rmSync(join(store, '.cache'), { recursive: true });
    c = await open(store, root);
    assert.equal((await ids(c, 'release wiki')).length, 1);
    await c.close();
  } finally {
    removeDir(root);
  }
});

test('a server and a command judge an unchanged cache alike (tombstones, notes, unanalyzed records)', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  try {
    handWrite(store, 'The staging database listens on port 5433.');
    const gone = handWrite(store, 'The old VPN endpoint is vpn1.example.org.');
    let c = await open(store, root);
    const goneId = (await c.search({ query: 'VPN endpoint', auto_scope: false })).hits[0]!.id;
    await c.remove({ id: goneId, reason: 'replaced' });
    await c.close();
    assert.ok(!existsSync(gone));
    // A server's start from this cache counts what it got wrong from the records' flags; a
    // command's, by asking the store after its check. Same cache, same files: same verdict.
    // (a server counts in the background, first thing: read its verdict once that check is done)
    c = await open(store, root, true);
    await c.index.live!.validated;
    const server = loadedFrom(c);
    await c.close();
    c = await open(store, root);
    assert.equal(loadedFrom(c), server);
    assert.equal(server, 'cache');
    await c.close();
    // A note (re-read at every start, never taken from a cache) makes both call it partial.
    mkdirSync(join(store, 'notes'), { recursive: true });
    writeFileSync(join(store, 'notes', 'prefs.md'), 'Prefers tabs over spaces.');
    c = await open(store, root);
    await ids(c, 'tabs');
    await c.close();
    c = await open(store, root, true);
    await c.index.live!.validated;
    const withNote = loadedFrom(c);
    await c.close();
    c = await open(store, root);
    assert.equal(loadedFrom(c), withNote);
    await c.close();
    // A cache whose records were never analyzed (saved by a command that never searched): both
    // count them stale.
    const bare = join(root, 'bare');
    handWrite(bare, 'The release train leaves on Thursdays.');
    c = await open(bare, root);
    await c.list({});
    await c.close();
    c = await open(bare, root, true);
    await c.index.live!.validated;
    assert.equal(loadedFrom(c), 'partial');
    await c.close();
  } finally {
    removeDir(root);
  }
});

test('a big store\'s server begins its background check when told to (Cairn, once its calls are answered), or by itself soon after; a small store\'s at once', { timeout: 120_000 }, async () => {
  const { Store } = await import('../../src/core/store/store.ts');
  const root = tempDir();
  const store = join(root, 'store');
  try {
    handWrite(store, 'The staging database listens on port 5433.');
    handWrite(store, 'Release notes are drafted in the wiki before tagging.');
    let c = await open(store, root);
    await ids(c, 'staging');
    await c.close();
    // A server's index on a new view of the store, opened from the cache.
    const opened = async (opts: { exactBelow?: number; startFallbackMs?: number }) => {
      const s = new Store(store, { warn: () => {} });
      const index = new LiveIndex(s, { watch: true, warn: () => {}, ...opts });
      await index.open();
      return { s, index };
    };
    // Told (a store taken as big, exactBelow 0): nothing of the check before (the records stay as
    // the cache gave them; the check enters them first), all of it after.
    const { s, index: told } = await opened({ exactBelow: 0 });
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(s.holdsAdoptedAsIs, true);
    told.startBackground();
    await told.validated;
    assert.equal(s.holdsAdoptedAsIs, false);
    await told.close();
    // Never told: it begins by itself (the fallback), and a close never waits for it long.
    const { s: s2, index: alone } = await opened({ exactBelow: 0 });
    await alone.validated;
    assert.equal(s2.holdsAdoptedAsIs, false);
    await alone.close();
    const { index: closed } = await opened({ exactBelow: 0 });
    const t = performance.now();
    await closed.close();
    assert.ok(performance.now() - t < 90, 'closed without waiting for the fallback');
    // A small store's first answer waits for the check, so the check begins at once: held back
    // for that answer it would wait for the fallback (an hour here, so this would hang).
    const { s: s4, index: small } = await opened({ startFallbackMs: 3_600_000 });
    await small.validated;
    assert.equal(s4.holdsAdoptedAsIs, false);
    await small.close();
    // Through the facade, a small store: a call's answer is exact (a file added before the start
    // is found by the first search).
    handWrite(store, 'The canary deploy goes out at noon on Tuesdays.');
    c = await open(store, root, true);
    assert.equal((await c.during(() => ids(c, 'canary'))).length, 1);
    await c.close();
    // Through the facade, a big store: begun once the open is done and no call is in flight
    // (Cairn.during, what the MCP server runs each tool call in), so it never runs inside the
    // first answer.
    const big = join(root, 'big');
    mkdirSync(big, { mode: 0o700 });
    for (let i = 0; i < 10_000; i++) writeFileSync(join(big, `m-${i}.md`), serializeMemory(record(`Bulk note ${i} about queue ${i % 97}.`)), { mode: 0o600 });
    c = await open(big, root);
    await ids(c, 'queue');
    await c.close();
    c = await open(big, root, true);
    let release!: () => void;
    const call = c.during(() => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(c.store.holdsAdoptedAsIs, true, 'nothing of the check while a call is in flight');
    release();
    await call;
    await c.index.live!.validated;
    assert.equal(c.store.holdsAdoptedAsIs, false);
    await c.close();
    // No call at all: it begins a moment after the open.
    c = await open(big, root, true);
    await c.index.live!.validated;
    assert.equal(c.store.holdsAdoptedAsIs, false);
    await c.close();
  } finally {
    removeDir(root);
  }
});

test('a memory created right after a start from the cache does not wait for the adopted records to be entered', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  const { Store } = await import('../../src/core/store/store.ts');
  try {
    const kept = handWrite(store, 'The staging database listens on port 5433.');
    handWrite(store, 'Release notes are drafted in the wiki before tagging.');
    handWrite(store, 'The old VPN endpoint is vpn1.example.org.');
    let c = await open(store, root);
    const goneId = (await c.search({ query: 'VPN endpoint', auto_scope: false })).hits[0]!.id;
    await c.remove({ id: goneId, reason: 'replaced' });
    await c.close();
    // A server's view from the cache, its check held back (a store taken as big): the adopted
    // records are still to enter when the write comes.
    const s = new Store(store, { warn: () => {} });
    const index = new LiveIndex(s, { watch: true, warn: () => {}, exactBelow: 0, startFallbackMs: 3_600_000 });
    await index.open();
    try {
      assert.equal(s.holdsAdoptedAsIs, true);
      // The write gates read the records the index holds: a duplicate of a cached memory is caught
      // without entering the adopted records (a lookup by id in the store would enter them all).
      const { runWriteGates } = await import('../../src/core/trust/gates/writeGates.ts');
      const { defaultConfig } = await import('../../src/core/config.ts');
      const gate = await runWriteGates(
        { dir: store, config: defaultConfig(), store: s, session: 'test', now: () => new Date() },
        { content: 'Release notes are drafted in the wiki before tagging.', scopes: ['tools'], confidence: 'medium', source: 'explicit-statement', category: 'fact', expires: null } as never,
        { force: false, acknowledge_transient: true, confirmed: true, candidates: (text, limit) => index.index.candidateDocsFor(text, limit) },
      );
      assert.equal(gate.outcome?.status, 'duplicate');
      assert.equal(s.holdsAdoptedAsIs, true, 'the gates entered no adopted record');
      const made = await s.create(record('The canary deploy goes out at noon on Tuesdays.'));
      assert.equal(s.holdsAdoptedAsIs, true, 'the adopted records were not entered for the new one');
      assert.equal(s.get(made.id), made);
      assert.equal(s.activeCount, 3);
      assert.ok([...s.active()].includes(made));
      assert.deepEqual([...s.tombstones()].map((m) => m.id), [goneId]);
      assert.deepEqual(index.index.search('canary tuesdays', { limit: 5 }).map((h) => h.doc.id), [made.id]);
      // A record whose id is one the cache holds is no new memory: the records are entered first,
      // and the store elects between the two files as it always does.
      const stagingId = [...s.active()].find((m) => m.file === kept)!.id;
      const copy = await s.create(record('The staging database listens on port 6543.', { id: stagingId, updated: '2099-01-01T00:00:00.000Z' }));
      assert.equal(s.holdsAdoptedAsIs, false);
      assert.equal(s.get(stagingId), copy);
      // The check then finds every file as the views have it: nothing twice, nothing lost.
      index.startBackground();
      await index.validated;
      assert.equal(s.activeCount, 3);
      assert.equal(s.get(made.id)?.body, 'The canary deploy goes out at noon on Tuesdays.');
      assert.deepEqual(index.index.search('canary tuesdays', { limit: 5 }).map((h) => h.doc.id), [made.id]);
      assert.deepEqual([...s.tombstones()].map((m) => m.id), [goneId]);
    } finally {
      await index.close(); // a failed assertion must not leave its fallback timer holding the run
    }
    // Through the facade: a write right after the start still meets the gates (the duplicate of a
    // cached memory is caught from the records the index holds), and commits a new one.
    c = await open(store, root, true);
    await c.during(async () => {
      const dup = await c.write({ content: 'Release notes are drafted in the wiki before tagging.', scopes: ['tools'] } as never);
      assert.equal((dup as { status: string }).status, 'duplicate');
      const ok = await c.write({ content: 'The nightly backup job writes to the cold bucket.', scopes: ['tools'] } as never);
      assert.equal((ok as { status: string }).status, 'committed');
    });
    assert.equal((await ids(c, 'backup cold bucket')).length, 1);
    await c.close();
  } finally {
    removeDir(root);
  }
});

test('one-shot opens (watch: false) build the index on first search only, and still save the cache', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  try {
    handWrite(store, 'Lazy index note about terraform workspaces.');
    const c = await open(store, root, false);
    const built = () => (c.index.live as unknown as { built: boolean }).built;
    await c.list({});
    await c.scopeOverview({ auto_scope: false });
    assert.equal(built(), false);
    await c.close(); // rebuilt from nothing: the cache is written even though nothing searched
    assert.ok(existsSync(cachePath(store)));
    // That cache has the records but no index entries: the next open analyzes and saves them.
    const c2 = await open(store, root, false);
    assert.equal(loadedFrom(c2), 'partial');
    assert.equal((await ids(c2, 'terraform workspaces')).length, 1);
    await c2.close();
    const c3 = await open(store, root, false);
    assert.equal(loadedFrom(c3), 'cache');
    await c3.close();
  } finally {
    removeDir(root);
  }
});

test('a missing store directory is not created by opening or closing the index', async () => {
  const root = tempDir();
  try {
    const c = await open(join(root, 'nope'), root, true);
    assert.deepEqual(await ids(c, 'anything'), []);
    await c.close();
    assert.equal(existsSync(join(root, 'nope')), false);
  } finally {
    removeDir(root);
  }
});

test('every write through cairn updates the index at once: write, update, remove, restore, rename scope', async () => {
  const root = tempDir();
  try {
    const c = await open(join(root, 'store'), root);
    const w = await c.write({ content: 'Use pnpm workspaces for the monorepo packages.', scopes: ['tools'] });
    assert.equal(w.status, 'committed');
    const id = (w as { id: string }).id;
    assert.deepEqual(await ids(c, 'pnpm'), [id]);
    await c.update({ id, content: 'Use bun workspaces for the monorepo packages.' });
    assert.deepEqual(await ids(c, 'pnpm'), []);
    assert.deepEqual(await ids(c, 'bun'), [id]);
    await c.remove({ id, reason: 'switched back' });
    assert.deepEqual(await ids(c, 'bun'), []);
    await c.restore({ id });
    assert.deepEqual(await ids(c, 'bun'), [id]);
    await c.renameScope({ old_scope: 'tools', new_scope: 'toolchain' });
    assert.deepEqual(await ids(c, 'toolchain'), [id]);
    assert.deepEqual(c.index.candidatesFor('bun workspaces monorepo', 5), [id]);
    await c.close();
  } finally {
    removeDir(root);
  }
});

test('filters: scopes (nesting and globs), auto_scope by repo URL form, disabled scopes, expired, max_results', async () => {
  const root = tempDir();
  const repo = tempRepo('git@github.com:acme/widgets.git');
  const store = join(root, 'store');
  try {
    const origin = (url: string | null) => ({ cwd: '/x', repo: url, branch: 'main', worktree_root: '/x' });
    handWrite(store, 'Widget deploys go through the blue green switch.', { scopes: ['projects:widgets:api'], origin: origin('https://github.com/acme/widgets') });
    handWrite(store, 'Widget deploys of the gadget service are manual.', { scopes: ['projects:gadgets'], origin: origin('ssh://git@github.com/acme/gadgets.git') });
    handWrite(store, 'Widget deploys: always tag first.', { scopes: ['howto'] });
    handWrite(store, 'Widget deploys were frozen for the audit.', { scopes: ['howto'], expires: '2020-01-01T00:00:00.000Z' });
    const c = await open(store, repo);
    const bodies = async (args: Record<string, unknown>) =>
      (await c.search({ query: 'widget deploys', ...args })).hits.map((h) => h.snippet.split(' ').slice(-3).join(' '));

    // auto_scope: this repo (URL written in another form) plus repo-less; the expired one never.
    assert.deepEqual((await bodies({})).sort(), ['always tag first.', 'blue green switch.'].sort());
    assert.equal((await bodies({ auto_scope: false })).length, 3);
    assert.deepEqual(await bodies({ auto_scope: false, scopes: ['projects:widgets'] }), ['blue green switch.']);
    assert.deepEqual(await bodies({ auto_scope: false, scopes: ['projects:*'] }).then((x) => x.length), 2);
    assert.deepEqual(await bodies({ auto_scope: false, max_results: 1 }).then((x) => x.length), 1);
    await c.scopeDisable({ scope: 'projects' });
    assert.deepEqual(await bodies({ auto_scope: false }), ['always tag first.']);
    await c.scopeEnable({ scope: 'projects' });

    await assert.rejects(c.search({ query: '  ' }), /query must be a non-empty string/);
    await assert.rejects(c.search({ query: 'x', max_results: 51 }), /max_results must be a whole number from 1 to 50, got 51/);
    await assert.rejects(c.search({ query: 'x'.repeat(2001) }), /at most 2000/);
    assert.deepEqual((await c.search({ query: 'what should I do about it' })).hits, []);
    await c.close();
  } finally {
    removeDir(root);
    removeDir(repo);
  }
});

test('hits carry the lean common fields (defaults left out), relevance, match_terms; expand_top adds body and drift detail to a high top hit', async () => {
  const root = tempDir();
  try {
    const store = join(root, 'store');
    handWrite(store, 'The nightly pg-dump job writes to `/var/backups/pg` on the db host.', { scopes: ['ops'] });
    const c = await open(store, root);
    const [h] = (await c.search({ query: 'pg dump', expand_top: true, auto_scope: false })).hits;
    assert.ok(h);
    for (const k of ['id', 'scopes', 'updated', 'path_drift_checked', 'staleness_verdict', 'snippet', 'score']) {
      assert.ok(k in h, k);
    }
    // Defaults and nulls are left out (tools.md "Lean hits"): medium, fact, created = updated, never verified, no missing paths.
    for (const k of ['confidence', 'category', 'created', 'last_verified_at', 'verification']) assert.ok(!(k in h), k);
    assert.equal(h.path_drift_missing, 1, 'a non-zero count is shown');
    assert.equal(h.relevance, 'high');
    assert.deepEqual(h.match_terms, ['pg', 'dump']);
    assert.ok(h.body?.includes('/var/backups/pg'));
    assert.ok('path_drift' in h && 'commit_drift' in h);
    const [low] = (await c.search({ query: 'pg zebra giraffe', expand_top: true, auto_scope: false })).hits;
    assert.equal(low!.relevance, 'low');
    assert.equal(low!.body, undefined);
    await c.close();
  } finally {
    removeDir(root);
  }
});

test('outside changes while open: created, edited, renamed and deleted files are seen by the next search', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  try {
    const keep = handWrite(store, 'Keep this note about kafka partitions.');
    const gone = handWrite(store, 'Delete this note about zookeeper.');
    const c = await open(store, root, true);
    handWrite(store, 'A fresh note about flink checkpoints.', {}, 'any-name-at-all.md');
    writeFileSync(keep, readFileSync(keep, 'utf8').replace('kafka partitions', 'kafka consumer lag'));
    unlinkSync(gone);
    assert.equal((await ids(c, 'flink')).length, 1); // created: seen at once (directory mtime)
    assert.deepEqual(await ids(c, 'zookeeper'), []); // deleted: seen at once
    await new Promise((r) => setTimeout(r, 1000)); // in-place edit: within a second (watcher)
    assert.equal((await ids(c, 'consumer lag')).length, 1);
    assert.deepEqual(await ids(c, 'partitions'), []);
    renameSync(keep, join(store, 'renamed.md'));
    const [hit] = (await c.search({ query: 'consumer lag', auto_scope: false })).hits;
    assert.ok(hit);
    assert.equal(c.store.get(hit.id)!.file, join(store, 'renamed.md'));
    await c.close();
  } finally {
    removeDir(root);
  }
});
