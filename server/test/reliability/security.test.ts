// Security of the store on disk: no argument ever makes cairn touch a path outside the store,
// symlinks inside the store are never followed (for writes, or to read memories), and everything
// cairn creates is private (store 0700, files 0600: temp files and exports included) even under
// umask 0. Processes run under helpers/audit.cjs, which records every filesystem call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { newId } from '../../src/core/ids.ts';
import { BUNDLE, cli } from '../helpers/mcp.ts';
import { TEST_CODE_CACHE, removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { AUDIT_HOOK, METADATA_OPS, auditEnv, inside, readAudit, type AuditEvent } from '../helpers/audit.ts';
import { readDisk } from '../helpers/disk.ts';
import { allPages, diffTrees, hashTree, spawnServer, textOf, type Proc } from '../helpers/stress.ts';
import { positiveFixtures } from '../trust/fakeSecrets.ts';

type FsEvent = Extract<AuditEvent, { kind: 'fs' }>;
const fsEvents = (events: AuditEvent[]) => events.filter((e): e is FsEvent => e.kind === 'fs');

const memo = (id: string, body: string, extra = '') =>
  `---\nschema_version: 1\nid: ${id}\ncreated: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-01T00:00:00.000Z\nscopes: [outside]\n${extra}---\n${body}\n`;

test('no argument makes cairn touch a path outside the store; every write lands inside it', { timeout: 120_000 }, async (t) => {
  const root = tempDir('cairn-sec-');
  const repo = tempRepo('git@github.com:acme/widgets.git');
  const store = join(root, 'store');
  const canary = join(root, 'cairncanary');
  const log = join(root, 'audit.jsonl');
  mkdirSync(canary);
  const canaryId = newId();
  writeFileSync(join(canary, 'canary.md'), memo(canaryId, 'A canary memory outside the store.'));
  writeFileSync(join(canary, `p_${canaryId}.json`), '{}\n');
  const canaryBefore = hashTree(canary);
  let s: Proc | undefined;
  try {
    s = await spawnServer({ store, cwd: repo, env: auditEnv(log) });
    const ids: string[] = [];
    for (const b of ['The deploy job runs on the ops runner.', 'Release notes are drafted in the wiki.', 'Feature flags live in the flags service.']) {
      ids.push((await s.ok('memory_write', { content: b, scopes: ['sec'], force: true })).id);
    }
    await s.ok('memory_remove', { id: ids[2], reason: 'seeded tombstone' });
    const evil = [
      canary, join(canary, 'canary.md'), join(canary, 'canary'), '../cairncanary/canary', '../cairncanary/canary.md', `../../${basename(root)}/cairncanary/canary.md`,
      `/../${canary}/canary.md`, `file://${canary}/canary.md`, `${canary}/canary.md\u0000.md`, '..%2Fcairncanary%2Fcanary', '~/../cairncanary', 'cairncanary',
      `${canaryId}/../../cairncanary`, `p_${canaryId}/../../../cairncanary/p_${canaryId}`, `.tombstones/../../cairncanary/canary`,
    ];
    const b64 = (v: string) => Buffer.from(`v1:${v}`).toString('base64url');
    let calls = 0;
    const probe = async (name: string, args: Record<string, unknown>) => {
      calls++;
      const r = await s!.call(name, args);
      assert.ok(r.content.length > 0, `${name} answered`);
    };
    for (const v of evil) {
      await probe('memory_show', { id: v });
      await probe('memory_show', { ids: [ids[0], v] });
      await probe('memory_update', { id: v, content: 'Changed text for a probe.' });
      await probe('memory_update', { id: ids[0], scopes: [v] });
      await probe('memory_verify', { id: v });
      await probe('memory_verify', { id: ids[0], note: v }); // a note is text: stored, never opened
      await probe('memory_remove', { id: v, reason: v });
      await probe('memory_restore', { id: v });
      await probe('memory_write', { content: 'A probe fact that names no path.', scopes: [v] });
      await probe('memory_write', { content: 'Another probe fact naming no path.', scopes: ['sec'], expires: v.slice(0, 40) });
      for (const tool of ['memory_list', 'memory_list_tombstones']) {
        await probe(tool, { cursor: v.slice(0, 200) });
        await probe(tool, { cursor: b64(v).slice(0, 200) });
        await probe(tool, { scopes: [v.slice(0, 200)] });
        await probe(tool, { scopes: [`${v}/*`.slice(0, 200)] });
      }
      await probe('memory_search', { query: v.slice(0, 2000), scopes: [`${v}*`.slice(0, 200)], auto_scope: false });
      await probe('memory_write_confirm', { pending_id: v.slice(0, 200) });
      await probe('memory_write_cancel', { pending_id: v.slice(0, 200) });
      await probe('memory_rename_scope', { old_scope: v.slice(0, 64), new_scope: 'renamed' });
      await probe('memory_rename_scope', { old_scope: 'sec', new_scope: v.slice(0, 64) });
      await probe('memory_scope_disable', { scope: v.slice(0, 64) });
      await probe('memory_record_use', { memory_ids: [v], outcome: 'applied', note: v });
    }
    await probe('memory_remove', { id: ids[1], reason: `${canary}/canary.md` }); // a reason is text too
    await s.close();
    s = undefined;
    // The CLI, same rules (import and export -o take a file path on purpose: not probed here).
    const env = auditEnv(log);
    // A sample of the values (each CLI run is a process start); argv cannot carry a NUL.
    for (const v of evil.filter((x, i) => i % 3 === 0 && !x.includes('\u0000'))) {
      for (const argv of [['show', v], ['list', '--scope', v], ['search', v, '--scope', v], ['export', '--scope', v], ['tombstones', 'list', '--scope', v]]) {
        calls++;
        cli(argv, { store, cwd: repo, env });
      }
    }
    const events = readAudit(log);
    assert.ok(events.length > 100, 'the audit hook recorded the run');
    const touched = fsEvents(events).filter((e) => e.path.includes('cairncanary'));
    assert.deepEqual(touched, [], 'no filesystem call named a path under the canary directory');
    // The one folder outside the store cairn writes: its own compiled code (docs/config.md, "Code
    // cache"), only its code-*.bin files (and their temp files) in it.
    const codeCacheFile = (p: string) => inside(p, TEST_CODE_CACHE, repo) && /^\.?code-[^/]*\.bin(\.\d+\.tmp)?$/.test(basename(p));
    const writesOutside = fsEvents(events).filter((e) => e.write && !inside(e.path, store, repo) && !codeCacheFile(e.path) && resolve(e.path) !== resolve(TEST_CODE_CACHE));
    assert.deepEqual(writesOutside, [], 'every write is inside the store (or the code cache)');
    // Content reads: the store, the repo's .git (origin and commit drift), and the bundle itself.
    // The bundle and the embedding table shipped beside it are cairn's own files, and so is the code cache.
    const allowed = [store, join(repo, '.git'), BUNDLE, join(dirname(BUNDLE), 'cairn-embed.bin'), TEST_CODE_CACHE];
    const readsOutside = fsEvents(events).filter(
      (e) => !e.write && !METADATA_OPS.has(e.op) && !allowed.some((d) => inside(e.path, d, repo)) && !e.path.includes('/node_modules/esprima/'),
    );
    assert.deepEqual(readsOutside.map((e) => `${e.op} ${e.path}`), [], 'nothing outside the store is opened or read');
    assert.deepEqual(diffTrees(canaryBefore, hashTree(canary)), []);
    t.diagnostic(`${calls} calls with ${evil.length} path-like values in every id, scope, cursor, pending id, note and CLI argument; ${fsEvents(events).length} filesystem calls audited`);
  } finally {
    await s?.close();
    removeDir(root);
    removeDir(repo);
  }
});

test('symlinks in the store are never followed: not read as memories, never written through', { timeout: 60_000 }, async () => {
  const root = tempDir('cairn-sec-links-');
  const store = join(root, 'store');
  const elsewhere = join(root, 'elsewhere');
  mkdirSync(store, { mode: 0o700 });
  mkdirSync(join(elsewhere, 'tomb'), { recursive: true });
  const ids = { linked: newId(), hard: newId(), good: newId(), tomb: newId() };
  writeFileSync(join(elsewhere, 'secret.md'), memo(ids.linked, 'Outside memory zxoutsideq must never be served.'));
  writeFileSync(join(elsewhere, 'hard.md'), memo(ids.hard, 'Hard linked memory zxhardq.'));
  writeFileSync(join(elsewhere, 'tomb', 'gone.md'), memo(ids.tomb, 'Outside tombstone zxtombq.', 'removed: 2026-01-02T00:00:00.000Z\nremoved_reason: "x"\n'));
  writeFileSync(join(store, 'good.md'), memo(ids.good, 'A good memory inside the store.'));
  symlinkSync(join(elsewhere, 'secret.md'), join(store, 'linked.md'));
  symlinkSync(join(elsewhere, 'tomb'), join(store, '.tombstones'));
  linkSync(join(elsewhere, 'hard.md'), join(store, 'hard.md'));
  const before = hashTree(elsewhere);
  const s = await spawnServer({ store, cwd: root });
  try {
    const listed = (await allPages(s, 'memory_list')).map((x) => x.id).sort();
    assert.deepEqual(listed, [ids.good, ids.hard].sort(), 'the symlinked file is not a memory (a hard link is a regular file)');
    // No hit holds the outside file's word (the semantic leg may offer a loose neighbour from inside).
    assert.deepEqual((await s.ok('memory_search', { query: 'zxoutsideq', auto_scope: false })).hits.filter((h: { match_terms?: string[]; snippet: string }) => h.match_terms || /zxoutsideq/.test(h.snippet)), []);
    assert.deepEqual((await allPages(s, 'memory_list_tombstones')).map((x) => x.id), [], 'a symlinked .tombstones/ is not read');
    assert.match(s.stderr(), /linked\.md: is a symbolic link/);
    assert.match(s.stderr(), /\.tombstones: is a symbolic link/);
    // Removing would move a file through the link: refused, the memory untouched.
    const refused = await s.call('memory_remove', { id: ids.good, reason: 'probe' });
    assert.ok(refused.isError);
    assert.match(textOf(refused), /\.tombstones is not a real directory/);
    // A hard link is replaced by the atomic rename, never written through.
    await s.ok('memory_update', { id: ids.hard, content: 'Hard linked memory zxhardq, updated.' });
    await s.ok('memory_write', { content: 'A new memory lands inside the store.', scopes: ['sec'] });
  } finally {
    await s.close();
  }
  assert.deepEqual(diffTrees(before, hashTree(elsewhere)), [], 'nothing outside the store changed');
  assert.equal(readDisk(store).byId.get(ids.hard)?.rec.body, 'Hard linked memory zxhardq, updated.');
  assert.equal(lstatSync(join(store, 'linked.md')).isSymbolicLink(), true, 'the link itself is left alone');
  removeDir(root);
});

// Derived and auxiliary files follow the same rule: the index cache, the event log and pending
// writes refuse a symlink in their place instead of writing (or reading) through it.
for (const entry of ['.cache', '.events.jsonl', '.pending'] as const) {
  test(`a symlinked ${entry} is not written through`, { timeout: 60_000 }, async () => {
    const root = tempDir('cairn-sec-aux-');
    const store = join(root, 'store');
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(store, { mode: 0o700 });
    mkdirSync(elsewhere);
    if (entry === '.events.jsonl') {
      writeFileSync(join(elsewhere, 'log'), 'original\n');
      symlinkSync(join(elsewhere, 'log'), join(store, entry));
    } else symlinkSync(elsewhere, join(store, entry));
    const before = hashTree(elsewhere);
    const s = await spawnServer({ store, cwd: root });
    try {
      await s.ok('memory_write', { content: 'A probe memory about the lantern harbor.', scopes: ['sec'] });
      await s.ok('memory_search', { query: 'lantern' });
      await s.call('memory_write', { content: 'The user prefers tea over coffee.', scopes: ['sec'], category: 'user-inference' });
    } finally {
      await s.close();
      try {
        assert.deepEqual(diffTrees(before, hashTree(elsewhere)), [], `nothing written outside the store through ${entry}`);
      } finally {
        removeDir(root);
      }
    }
  });
}

test('store 0700 and files 0600 under umask 0: memories, tombstones, lock and temp files, cache, log, pending, exports', { timeout: 120_000 }, async (t) => {
  const root = tempDir('cairn-sec-modes-');
  const store = join(root, 'store'); // created by cairn on the first write
  const log = join(root, 'audit.jsonl');
  const env = auditEnv(log, { umask0: true });
  try {
    const s = await spawnServer({ store, cwd: root, env });
    try {
      const w = await s.ok('memory_write', { content: 'The staging database is rebuilt every night.', scopes: ['sec'] });
      await s.ok('memory_update', { id: w.id, content: 'The staging database is rebuilt every Sunday night.' });
      const w2 = await s.ok('memory_write', { content: 'Logs are kept for ninety days in the archive bucket.', scopes: ['sec'] });
      await s.ok('memory_remove', { id: w2.id, reason: 'policy changed' });
      await s.call('memory_write', { content: 'The user prefers tea over coffee.', scopes: ['sec'], category: 'user-inference' });
      await s.ok('memory_search', { query: 'staging database' });
    } finally {
      await s.close(); // saves the index cache
    }
    // Temp files only live mid-write: kill writers until some are left behind, then check them too.
    let temps = 0;
    for (let round = 0; round < 15 && temps === 0; round++) {
      const k = await spawnServer({ store, cwd: root, env });
      const pending = Array.from({ length: 40 }, (_, i) => k.call('memory_write', { content: `Round ${round} fact ${i} about the kiln schedule.`, scopes: ['sec'], force: true }).catch(() => null));
      await sleep(5 + round * 4);
      k.kill();
      await k.exited;
      await Promise.all(pending);
      temps += readDisk(store).temps.length;
    }
    const exportFile = join(root, 'out', 'all.json');
    mkdirSync(join(root, 'out'));
    const r = cli(['export', '-o', exportFile], { store, cwd: root, env });
    assert.equal(r.code, 0, r.stderr);
    const loose: string[] = [];
    const walk = (d: string) => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        const st = lstatSync(p);
        if (st.isDirectory()) {
          if ((st.mode & 0o777) !== 0o700) loose.push(`${p} ${(st.mode & 0o777).toString(8)}`);
          walk(p);
        } else if (st.isFile() && (st.mode & 0o777) !== 0o600) loose.push(`${p} ${(st.mode & 0o777).toString(8)}`);
      }
    };
    assert.equal(lstatSync(store).mode & 0o777, 0o700, 'the store directory');
    walk(store);
    assert.equal(lstatSync(exportFile).mode & 0o777, 0o600, 'the export file');
    assert.deepEqual(loose, [], 'every directory 0700, every file 0600');
    const kinds = new Set<string>();
    const collect = (d: string) =>
      readdirSync(d).forEach((n) => {
        const p = join(d, n);
        if (lstatSync(p).isDirectory()) return kinds.add(`${p.slice(store.length + 1)}/`), collect(p);
        kinds.add(n.endsWith('.tmp') ? 'temp files' : n.endsWith('.md') ? 'memory files' : n.replace(/p_[0-9A-Z]{26}/, 'p_*'));
      });
    collect(store);
    t.diagnostic(`0700/0600 under umask 0: ${[...kinds].sort().join(', ')}; ${temps} temp file(s) left by kills; export 0600`);
  } finally {
    removeDir(root);
  }
});

test('cairn export warns when hand-written files in the store look like they hold secrets', async () => {
  const root = tempDir('cairn-sec-export-');
  const store = join(root, 'store');
  mkdirSync(store, { mode: 0o700 });
  try {
    const fx = positiveFixtures().find((x) => x.kind === 'github-token')!;
    const id = newId();
    writeFileSync(join(store, 'hand-written.md'), memo(id, fx.text), { mode: 0o600 });
    writeFileSync(join(store, 'clean.md'), memo(newId(), 'Nothing sensitive here.'), { mode: 0o600 });
    const r = cli(['export', '-o', join(root, 'export.json')], { store, cwd: root });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /warning: 1 exported memor/);
    assert.match(r.stderr, new RegExp(id));
    assert.ok(existsSync(join(root, 'export.json')));
  } finally {
    removeDir(root);
  }
});

// The bundle is self-contained: js-yaml (inside gray-matter) tries require("esprima") at
// load time, which esbuild leaves as a runtime require, so a server started from a checkout (or
// any directory with an esprima package in a parent node_modules) loads and runs that file.
test('the server loads no code from outside its bundle', async () => {
  const root = tempDir('cairn-sec-code-');
  const log = join(root, 'audit.jsonl');
  try {
    const s = await spawnServer({ store: join(root, 'store'), cwd: root, env: auditEnv(log) });
    await s.ok('memory_list', {});
    await s.close();
    const code = fsEvents(readAudit(log)).filter((e) => /\.(c|m)?js$|\.node$/.test(e.path) && e.path !== BUNDLE && e.path !== AUDIT_HOOK);
    assert.deepEqual(code.map((e) => e.path), []);
  } finally {
    removeDir(root);
  }
});
