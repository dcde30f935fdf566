// `cairn sync` end to end through the built bundle: the CLI for init/sync/status, MCP servers
// (the real bundle over stdio) as the machines' writers, a bare repository on local disk as the
// remote. No network.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../helpers/env.ts';
import { cli, startServer } from '../helpers/mcp.ts';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

function setup(n = 2) {
  const root = tempDir('cairn-sync-');
  dirs.push(root);
  const remote = join(root, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  const cwd = join(root, 'work');
  mkdirSync(cwd);
  const stores = Array.from({ length: n }, (_, i) => join(root, `m${i}`));
  const run = (store: string, args: string[], env: Record<string, string> = {}) => cli(args, { store, cwd, env: { HOME: root, ...env } });
  return { root, remote, cwd, stores, run };
}

const json = (r: { code: number | null; stdout: string; stderr: string }) => {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`not JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`);
  }
};

test('init, sync, status: a memory written on one machine reaches the other; --json everywhere', async () => {
  const { remote, cwd, stores: [a, b], run, root } = setup();
  const init = json(run(a!, ['sync', 'init', '--remote', remote, '--json']));
  assert.equal(init.created_repo, true);
  assert.match(readFileSync(join(a!, '.gitignore'), 'utf8'), /\.cache\/\n\.events\.jsonl\*\n\.events-\*\.jsonl\*\n\.pending\/\n\.lock\n\*\.tmp\n\*\.claim\n\.events\.lock/);
  assert.match(readFileSync(join(a!, '.gitattributes'), 'utf8'), /\/\*\.md merge=cairn/);
  assert.match(execFileSync('git', ['-C', a!, 'config', 'merge.cairn.driver'], { encoding: 'utf8' }), /cairn\.mjs' merge-driver %O %A %B %P/);

  const sa = await startServer({ store: a!, cwd, env: { HOME: root } });
  const w = await sa.call('memory_write', { content: 'The deploy script lives in ops/deploy.sh and needs AWS_PROFILE set.', scopes: ['ops'] });
  const r1 = json(run(a!, ['sync', '--json']));
  assert.equal(r1.ok, true, r1.error);
  assert.equal(r1.committed.added[0].id, w.id);
  assert.equal(r1.pushed, true);
  const log = execFileSync('git', ['-C', a!, 'log', '-1', '--format=%B'], { encoding: 'utf8' });
  assert.match(log, new RegExp(`added +${w.id}  The deploy script lives in ops/deploy\\.sh`));

  // The second machine adopts the remote's history.
  json(run(b!, ['sync', 'init', '--remote', remote, '--json']));
  const r2 = json(run(b!, ['sync', '--json']));
  assert.equal(r2.ok, true, r2.error);
  // B's own first commit (its .gitignore) joins A's history: a merge of two unrelated roots
  assert.ok(['fast-forward', 'merge'].includes(r2.merge), r2.merge);
  assert.equal(r2.conflicts.length, 0);
  const shown = json(run(b!, ['show', w.id, '--json']));
  assert.match(JSON.stringify(shown), /ops\/deploy\.sh/);
  // event log, caches and the lock never travel
  const tracked = execFileSync('git', ['-C', b!, 'ls-files'], { encoding: 'utf8' });
  assert.doesNotMatch(tracked, /\.events|\.cache|\.lock|\.pending/);

  const st = json(run(b!, ['sync', '--status', '--json']));
  assert.equal(st.repo, true);
  assert.equal(st.ahead, 0);
  assert.equal(st.behind, 0);
  assert.equal(st.dirty, 0);
  assert.ok(st.last_sync);
  const text = run(b!, ['sync', '--status']);
  assert.match(text.stdout, /ahead: +0 commit/);
  await sa.close();
});

test('sync before init, and an unreachable remote: clear error, exit 1, local commit kept, next sync catches up', async () => {
  const { remote, cwd, stores: [a], run, root } = setup(1);
  const before = run(a!, ['sync']);
  assert.equal(before.code, 1);
  assert.match(before.stderr, /not set up for sync: run cairn sync init/);
  json(run(a!, ['sync', 'init', '--remote', join(root, 'nowhere.git'), '--json']));
  const sa = await startServer({ store: a!, cwd, env: { HOME: root } });
  await sa.call('memory_write', { content: 'Offline writes are committed locally and pushed later.', scopes: ['sync'] });
  const off = run(a!, ['sync']);
  assert.equal(off.code, 1);
  assert.match(off.stdout, /sync failed: fetch from .*nowhere\.git failed/);
  assert.match(off.stdout, /committed locally; the next sync retries/);
  assert.equal(execFileSync('git', ['-C', a!, 'rev-list', '--count', 'HEAD'], { encoding: 'utf8' }).trim(), '1');
  const st = json(run(a!, ['sync', '--status', '--json']));
  assert.match(st.last_error, /nowhere\.git/);
  assert.equal(st.ahead, 1);
  // a write while offline still works (never waits for the remote)
  await sa.call('memory_write', { content: 'A second offline fact about the retry path.', scopes: ['sync'] });
  json(run(a!, ['sync', 'init', '--remote', remote, '--json']));
  const on = json(run(a!, ['sync', '--json']));
  assert.equal(on.ok, true, on.error);
  assert.equal(on.pushed, true);
  assert.equal(execFileSync('git', ['--git-dir', remote, 'rev-list', '--count', 'HEAD'], { encoding: 'utf8' }).trim(), '2');
  await sa.close();
});

test('a credential in the remote URL is never printed', () => {
  const { stores: [a], run } = setup(1);
  const TOKEN = 'ghp_SECRETsecretSECRET1234567890abcdefXY';
  const url = `https://oauth2:${TOKEN}@127.0.0.1:9/team/memories.git`;
  const outs = [run(a!, ['sync', 'init', '--remote', url]), run(a!, ['sync', 'init', '--remote', url, '--json']), run(a!, ['sync']), run(a!, ['sync', '--json']), run(a!, ['sync', '--status']), run(a!, ['sync', '--status', '--json'])];
  for (const o of outs) {
    assert.doesNotMatch(o.stdout + o.stderr, new RegExp(TOKEN));
    assert.doesNotMatch(o.stdout + o.stderr, /oauth2:/);
  }
  assert.match(outs[2]!.stdout, /https:\/\/127\.0\.0\.1:9\/team\/memories\.git/);
  assert.equal(outs[2]!.code, 1);
});

test('removed on one machine, edited on the other: stays removed, listed with both texts; renames and restores propagate', async () => {
  const { remote, cwd, stores: [a, b], run, root } = setup();
  for (const s of [a!, b!]) json(run(s, ['sync', 'init', '--remote', remote, '--json']));
  const sa = await startServer({ store: a!, cwd, env: { HOME: root } });
  const sb = await startServer({ store: b!, cwd, env: { HOME: root } });
  const x = await sa.call('memory_write', { content: 'The staging database is postgres 15 on port 5433.', scopes: ['proj:old'] });
  const y = await sa.call('memory_write', { content: 'Release notes are drafted in docs/releases before tagging.', scopes: ['proj:old'] });
  assert.equal(json(run(a!, ['sync', '--json'])).ok, true);
  assert.equal(json(run(b!, ['sync', '--json'])).ok, true);
  await sa.call('memory_remove', { id: x.id, reason: 'we moved to managed postgres' });
  await sa.call('memory_remove', { id: y.id, reason: 'temporarily' });
  await sb.call('memory_update', { id: x.id, content: 'The staging database is postgres 16 on port 5433.' });
  assert.equal(json(run(a!, ['sync', '--json'])).ok, true);
  const rb = json(run(b!, ['sync', '--json']));
  assert.equal(rb.ok, true, rb.error);
  assert.equal(rb.merge, 'merge');
  assert.deepEqual(rb.conflicts.map((k: { id: string; kind: string }) => [k.id, k.kind]), [[x.id, 'removed-edited']]);
  // B restores y and renames the scope; A gets both
  await sb.call('memory_restore', { id: y.id });
  await sb.call('memory_rename_scope', { old_scope: 'proj:old', new_scope: 'proj:new' });
  assert.equal(json(run(b!, ['sync', '--json'])).ok, true);
  assert.equal(json(run(a!, ['sync', '--json'])).ok, true);
  for (const s of [a!, b!]) {
    const tombs = json(run(s, ['tombstones', 'list', '--json'])).items;
    assert.deepEqual(tombs.map((t: { id: string }) => t.id), [x.id]);
    assert.deepEqual(tombs[0].scopes, ['proj:new']);
    const h = json(run(s, ['health', '--json']));
    assert.equal(h.sync_conflicts.count, 1);
    const row = h.sync_conflicts.rows[0];
    assert.equal(row.id, x.id);
    assert.equal(row.kind, 'removed-edited');
    // the store holds the tombstone with the edited text: that is what "kept" names
    assert.match(row.kept.body, /postgres 16/);
    assert.ok(row.kept.removed);
    assert.match(row.other.body, /postgres 15/);
    assert.equal(row.other.removed, null);
    const conflictFile = JSON.parse(readFileSync(join(s, row.file), 'utf8'));
    assert.match(conflictFile.kept.body, /postgres 16/);
    assert.match(conflictFile.other.body, /postgres 15/);
    const listed = json(run(s, ['list', '--json']));
    const items = listed.items ?? listed;
    assert.deepEqual(items.map((i: { id: string }) => i.id), [y.id]);
    assert.deepEqual(items[0].scopes, ['proj:new']);
    assert.match(run(s, ['health']).stdout, /Sync conflicts \(1\)[\s\S]*stays removed, the tombstone keeps the edited text[\s\S]*kept in the tombstone \([^)]*removed [^)]*\): The staging database is postgres 16[\s\S]*text when removed, replaced by the edit \([^)]*\): The staging database is postgres 15/);
  }
  // the tombstone carries the newer text, so a restore brings back the edit
  const restored = await sa.call('memory_restore', { id: x.id });
  assert.ok(restored);
  const shown = await sa.call('memory_show', { id: x.id });
  assert.match(JSON.stringify(shown), /postgres 16/);
  await sa.close();
  await sb.close();
});

test('a plain git pull in the store merges through the cairn merge driver', async () => {
  const { remote, cwd, stores: [a, b], run, root } = setup();
  for (const s of [a!, b!]) json(run(s, ['sync', 'init', '--remote', remote, '--json']));
  const sa = await startServer({ store: a!, cwd, env: { HOME: root } });
  const x = await sa.call('memory_write', { content: 'Use pnpm, not npm, in the web workspace.', scopes: ['web'] });
  json(run(a!, ['sync', '--json']));
  json(run(b!, ['sync', '--json']));
  await sa.call('memory_update', { id: x.id, scopes: ['web', 'tools'] });
  await sa.close();
  json(run(a!, ['sync', '--json']));
  const sb = await startServer({ store: b!, cwd, env: { HOME: root } });
  await sb.call('memory_update', { id: x.id, content: 'Use pnpm 9, not npm, in the web workspace.' });
  await sb.close();
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' };
  execFileSync('git', ['-C', b!, 'commit', '-qam', 'hand commit'], { env });
  execFileSync('git', ['-C', b!, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'master'], { env });
  const file = readdirSync(b!).find((n) => n.endsWith('.md'))!;
  const text = readFileSync(join(b!, file), 'utf8');
  assert.doesNotMatch(text, /<<<<<<<|>>>>>>>/);
  assert.match(text, /scopes: \[web, tools\]/);
  assert.match(text, /Use pnpm 9/);
});

test('a running server sees what a sync brought in: 400 memories pulled, no restart', async () => {
  const { remote, cwd, stores: [a, b], run, root } = setup();
  for (const s of [a!, b!]) json(run(s, ['sync', 'init', '--remote', remote, '--json']));
  const sb = await startServer({ store: b!, cwd, env: { HOME: root } });
  assert.equal((await sb.call('memory_search', { query: 'quokka', auto_scope: false })).hits.length, 0);
  const N = 400;
  for (let i = 0; i < N; i++) {
    const id = `01JQ${String(i).padStart(6, '0')}ABCDEFGHJKMNPQRS`;
    writeFileSync(join(a!, `2026-01-01-quokka-fact-${i}.md`), `---\nid: ${id}\ncreated: 2026-01-01T00:00:00.000Z\nscopes: [zoo]\n---\nQuokka fact number ${i}: marsupial ${i % 7 === 0 ? 'rottnest' : 'island'} item${i}.\n`);
  }
  const ra = json(run(a!, ['sync', '--json']));
  assert.equal(ra.committed.added.length, N);
  const t0 = Date.now();
  const rb = json(run(b!, ['sync', '--json']));
  assert.equal(rb.ok, true, rb.error);
  assert.equal(rb.incoming, N);
  let hits = 0;
  let counted = 0;
  for (let i = 0; i < 200; i++) {
    const ov = await sb.call('memory_scope_overview', { auto_scope: false });
    counted = (ov.scopes as Record<string, number>).zoo ?? 0;
    hits = (await sb.call('memory_search', { query: 'item399 quokka', auto_scope: false })).hits.length;
    if (hits > 0 && counted === N) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(hits > 0, 'the pulled memory is not searchable in the running server');
  assert.equal(counted, N, 'the running server does not count every pulled memory');
  console.log(`# running server saw ${N} pulled memories ${Date.now() - t0} ms after the sync started`);
  assert.ok(!existsSync(join(b!, '.conflicts')));
  await sb.close();
});

test('[sync] auto = true: a write reaches the remote after the debounce, the tool call never waits; a failing remote is warned once', async () => {
  const { remote, cwd, stores: [a, b], run, root } = setup();
  json(run(a!, ['sync', 'init', '--remote', remote, '--json']));
  writeFileSync(join(a!, 'config.toml'), '[sync]\nauto = true\ndebounce_seconds = 1\ninterval_minutes = 60\n');
  const sa = await startServer({ store: a!, cwd, env: { HOME: root } });
  const t0 = Date.now();
  const w = await sa.call('memory_write', { content: 'Auto sync pushes this fact without anyone running cairn sync.', scopes: ['sync'] });
  assert.ok(Date.now() - t0 < 5_000, 'the write waited for the sync');
  let pushed = '';
  for (let i = 0; i < 150 && !pushed.includes(w.id); i++) {
    await new Promise((r) => setTimeout(r, 100));
    pushed = execFileSync('git', ['--git-dir', remote, 'log', '--all', '--format=%B'], { encoding: 'utf8' });
  }
  assert.match(pushed, new RegExp(w.id), `auto sync did not push; server said: ${sa.stderr()}`);
  await sa.close();

  // a remote that cannot be reached: warned once, writes unaffected
  json(run(b!, ['sync', 'init', '--remote', join(root, 'gone.git'), '--json']));
  writeFileSync(join(b!, 'config.toml'), '[sync]\nauto = true\ndebounce_seconds = 1\n');
  const sb = await startServer({ store: b!, cwd, env: { HOME: root } });
  await sb.call('memory_write', { content: 'First fact written while the remote is gone.', scopes: ['sync'] });
  await new Promise((r) => setTimeout(r, 3_000));
  await sb.call('memory_write', { content: 'Second fact written while the remote is still gone.', scopes: ['sync'] });
  await new Promise((r) => setTimeout(r, 3_000));
  const said = sb.stderr().match(/sync failed/g) ?? [];
  assert.equal(said.length, 1, sb.stderr());
  assert.match(sb.stderr(), /gone\.git/);
  // both writes are committed locally for the next successful sync
  assert.ok(Number(execFileSync('git', ['-C', b!, 'rev-list', '--count', 'HEAD'], { encoding: 'utf8' }).trim()) >= 1);
  await sb.close();
});

test('per-machine files are never taken from a remote (a pending write, a cache, the event log)', () => {
  const { remote, stores: [a, b], run, root } = setup();
  for (const s of [a!, b!]) json(run(s, ['sync', 'init', '--remote', remote, '--json']));
  json(run(a!, ['sync', '--json']));
  // someone commits per-machine files by hand (git add -f) and pushes
  mkdirSync(join(a!, '.pending'), { recursive: true });
  writeFileSync(join(a!, '.pending', 'p_01JQ0000000000000000000000.json'), '{"injected": true}\n');
  writeFileSync(join(a!, '.events.jsonl'), '{"kind":"injected"}\n');
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' };
  execFileSync('git', ['-C', a!, 'add', '-f', '.pending', '.events.jsonl'], { env });
  execFileSync('git', ['-C', a!, 'commit', '-qm', 'oops'], { env });
  execFileSync('git', ['-C', a!, 'push', '-q', 'origin', 'HEAD'], { env });
  const r = run(b!, ['sync', '--json']);
  assert.equal(json(r).ok, true);
  assert.match(r.stderr, /sync skipped "\.pending\/p_01JQ0000000000000000000000\.json": not a path cairn writes/);
  assert.ok(!existsSync(join(b!, '.pending', 'p_01JQ0000000000000000000000.json')));
  const events = existsSync(join(b!, '.events.jsonl')) ? readFileSync(join(b!, '.events.jsonl'), 'utf8') : '';
  assert.doesNotMatch(events, /injected/);
  // and B's own event log and pending writes never go back out: the next commit drops them
  assert.equal(json(run(b!, ['sync', '--json'])).ok, true);
  assert.doesNotMatch(execFileSync('git', ['-C', b!, 'ls-files'], { encoding: 'utf8' }), /\.pending|\.events/);
  void root;
});
