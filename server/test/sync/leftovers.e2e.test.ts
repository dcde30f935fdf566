// Sync leftovers through the built bundle and real git (no network): merged_from across sync and
// export/import, a scope rename meeting a memory written offline in the old scope, and a plain
// `git pull` where one side removed a memory and the other edited it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../helpers/env.ts';
import { cli } from '../helpers/mcp.ts';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const g = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });

function setup() {
  const root = tempDir('cairn-leftovers-');
  dirs.push(root);
  const remote = join(root, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  const cwd = join(root, 'work');
  mkdirSync(cwd);
  const [a, b] = [join(root, 'a'), join(root, 'b')];
  const run = (store: string, args: string[]) => {
    const r = cli(args, { store, cwd, env: { HOME: root } });
    return r;
  };
  const json = (store: string, args: string[]) => {
    const r = run(store, [...args, '--json']);
    try {
      return JSON.parse(r.stdout);
    } catch {
      throw new Error(`cairn ${args.join(' ')}: exit ${r.code}: ${r.stdout}\n${r.stderr}`);
    }
  };
  json(a, ['sync', 'init', '--remote', remote]);
  json(a, ['sync']);
  json(b, ['sync', 'init', '--remote', remote]);
  json(b, ['sync']);
  return { root, a, b, run, json };
}

test('merged_from survives cairn sync to another machine and export/import', async () => {
  const { a, b, json, root } = setup();
  void json;
  const x = json(a, ['remember', 'The session cache TTL is ten minutes in the gateway config', '--scope', 'api']);
  const y = json(a, ['remember', 'Gateway sessions expire from the cache after 10 minutes of idle time', '--scope', 'api', '--force']);
  // memory_merge through the MCP server (the CLI has no merge command)
  const { startServer } = await import('../helpers/mcp.ts');
  const s = await startServer({ store: a, cwd: root, env: { HOME: root } });
  const merged = await s.call('memory_merge', { ids: [x.id, y.id], content: 'Gateway sessions stay in the cache for ten minutes of idle time.', reason: 'one setting' });
  await s.close();
  assert.equal(json(a, ['sync']).ok, true);
  assert.equal(json(b, ['sync']).ok, true);
  assert.deepEqual([...json(b, ['show', merged.id]).merged_from].sort(), [x.id, y.id].sort());
  // Both machines change the merged memory: the field-by-field merge keeps merged_from.
  json(a, ['update', merged.id, '--confidence', 'high']);
  json(b, ['verify', merged.id]);
  assert.equal(json(a, ['sync']).ok, true);
  const rb = json(b, ['sync']);
  assert.equal(rb.ok, true);
  assert.equal(rb.merge, 'merge');
  assert.deepEqual([...json(b, ['show', merged.id]).merged_from].sort(), [x.id, y.id].sort());
  const file = join(root, 'export.json');
  assert.equal(cli(['export', '-o', file], { store: b, cwd: root, env: { HOME: root } }).code, 0);
  const fresh = join(root, 'fresh');
  json(fresh, ['import', file]);
  assert.deepEqual([...json(fresh, ['show', merged.id]).merged_from].sort(), [x.id, y.id].sort());
});

test('a scope rename on A reaches a memory B wrote offline in the old scope; a scope reused on purpose later is left alone', () => {
  const { a, b, json } = setup();
  const shared = json(a, ['remember', 'Feature flags are read from config/flags.yaml at boot', '--scope', 'flagz']);
  assert.equal(json(a, ['sync']).ok, true);
  assert.equal(json(b, ['sync']).ok, true);
  // B, offline, writes a new memory in the old scope.
  const offline = json(b, ['remember', 'Flag names are kebab-case and start with the team prefix', '--scope', 'flagz']);
  // A renames the scope and syncs first.
  json(a, ['rename-scope', 'flagz', 'flags']);
  assert.equal(json(a, ['sync']).ok, true);
  const rb = json(b, ['sync']);
  assert.equal(rb.ok, true, rb.error);
  assert.deepEqual(rb.renames_applied, [{ old_scope: 'flagz', new_scope: 'flags', ids: [offline.id] }]);
  assert.deepEqual(json(b, ['show', offline.id]).scopes, ['flags']);
  assert.deepEqual(json(b, ['show', shared.id]).scopes, ['flags']);
  assert.equal(json(a, ['sync']).ok, true);
  assert.deepEqual(json(a, ['show', offline.id]).scopes, ['flags'], 'the renamed offline memory went back to A');
  // Reusing the old name on purpose after everyone saw the rename: no sync renames it again.
  const again = json(a, ['remember', 'The flagz CLI is a separate tool for load tests', '--scope', 'flagz']);
  assert.equal(json(a, ['sync']).ok, true);
  const rb2 = json(b, ['sync']);
  assert.equal(rb2.renames_applied, undefined);
  assert.deepEqual(json(b, ['show', again.id]).scopes, ['flagz']);
});

test('plain git pull: removed on one side, edited on the other: the merge driver keeps it removed and lists the edit', () => {
  const { a, b, json } = setup();
  const m = json(a, ['remember', 'Integration tests need the docker compose stack from dev/compose.yml', '--scope', 'testing']);
  assert.equal(json(a, ['sync']).ok, true);
  assert.equal(json(b, ['sync']).ok, true);
  json(a, ['remove', m.id, '--reason', 'tests use testcontainers now']);
  g(a, 'add', '-A');
  g(a, 'commit', '-q', '-m', 'remove');
  g(a, 'push', '-q', 'origin', 'HEAD');
  json(b, ['update', m.id, '--confidence', 'high']);
  g(b, 'add', '-A');
  g(b, 'commit', '-q', '-m', 'edit');
  g(b, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', g(b, 'branch', '--show-current').trim());
  const active = readdirSync(b).filter((f) => f.endsWith('.md'));
  const tombs = readdirSync(join(b, '.tombstones')).filter((f) => f.endsWith('.md'));
  assert.equal(active.length, 0, `still active: ${active.join(', ')}`);
  assert.equal(tombs.length, 1);
  const text = readFileSync(join(b, '.tombstones', tombs[0]!), 'utf8');
  assert.match(text, /removed_reason: "tests use testcontainers now"/);
  assert.match(text, /confidence: high/, 'the edit is merged into the tombstone');
  assert.doesNotMatch(text, /<<<<<<<|>>>>>>>/);
  const conflicts = readdirSync(join(b, '.conflicts')).filter((f) => f.endsWith('.json'));
  assert.equal(conflicts.length, 1);
  assert.equal(JSON.parse(readFileSync(join(b, '.conflicts', conflicts[0]!), 'utf8')).kind, 'removed-edited');
  assert.equal(existsSync(join(b, '.git', 'MERGE_HEAD')), false, 'the pull finished without a conflict to resolve by hand');
  void writeFileSync;
});

test('plain git pull: removed on one side, body rewritten on the other: git pairs the move to .tombstones/ with the edit (rename detection), the driver keeps it removed with the newer body', () => {
  const { a, b, json } = setup();
  const m = json(a, ['remember', 'Integration tests need the docker compose stack from dev/compose.yml', '--scope', 'testing']);
  assert.equal(json(a, ['sync']).ok, true);
  assert.equal(json(b, ['sync']).ok, true);
  json(a, ['remove', m.id, '--reason', 'tests use testcontainers now']);
  g(a, 'add', '-A');
  g(a, 'commit', '-q', '-m', 'remove');
  g(a, 'push', '-q', 'origin', 'HEAD');
  const body = `Every integration suite starts its own Postgres 16 and Redis 7 containers through the harness in test/support/containers.ts. ${'The harness pulls images once per machine and reuses them across runs; ports are random and passed through env vars. '.repeat(12)}`.trim();
  json(b, ['update', m.id, '--text', body]);
  g(b, 'add', '-A');
  g(b, 'commit', '-q', '-m', 'edit');
  g(b, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', g(b, 'branch', '--show-current').trim());
  assert.deepEqual(readdirSync(b).filter((f) => f.endsWith('.md')), []);
  const tombs = readdirSync(join(b, '.tombstones')).filter((f) => f.endsWith('.md'));
  assert.equal(tombs.length, 1);
  const text = readFileSync(join(b, '.tombstones', tombs[0]!), 'utf8');
  assert.match(text, /removed_reason: "tests use testcontainers now"/);
  assert.ok(text.includes(body.slice(0, 80)), 'the newer body is kept in the tombstone');
  const conflicts = readdirSync(join(b, '.conflicts')).filter((f) => f.endsWith('.json'));
  assert.equal(JSON.parse(readFileSync(join(b, '.conflicts', conflicts[0]!), 'utf8')).kind, 'removed-edited');
  // The server on B agrees: removed, with the reason.
  const shown = cli(['show', m.id], { store: b, cwd: b, env: { HOME: b } });
  assert.notEqual(shown.code, 0);
  assert.match(shown.stderr, /removed .*tests use testcontainers now/);
});
