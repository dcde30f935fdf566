import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/core/cairn.ts';
import { runDoctor, type DoctorOptions } from '../../src/core/curation/doctor.ts';
import { fileNameFor } from '../../src/core/store/memfile.ts';
import { clientSpec, serverEntry } from '../../src/core/io/clients.ts';
import { runInit } from '../../src/core/io/init.ts';
import { tempDir } from '../helpers/env.ts';
import { writeMemory } from './fixtures/store.ts';

function opts(home: string, store: string, cwd = home): DoctorOptions {
  return { home, platform: 'linux', env: { CAIRN_DIR: store }, cwd };
}
const byName = (r: Awaited<ReturnType<typeof runDoctor>>, name: string) => r.checks.find((c) => c.name === name)!;

test('a healthy store with a registration: every check ok, exit 0', async () => {
  const home = tempDir('cairn-doc-home-');
  const store = join(home, 'store');
  mkdirSync(store, { mode: 0o700 });
  writeMemory(store, { body: 'A fine memory.', scopes: ['notes'] });
  const bundle = join(home, 'cairn.mjs');
  writeFileSync(bundle, '');
  await runInit(clientSpec('cursor', { home, platform: 'linux', env: {} }), serverEntry(bundle, process.execPath));
  const r = await runDoctor(opts(home, store));
  assert.deepEqual(r.checks.map((c) => [c.name, c.status]), [
    ['config', 'ok'], ['store', 'ok'], ['permissions', 'ok'], ['files', 'ok'], ['remote credentials', 'ok'], ['event log', 'ok'], ['index cache', 'ok'], ['team store', 'ok'], ['registrations', 'ok'],
  ]);
  assert.equal(r.exit_code, 0);
  assert.deepEqual(r.store, { dir: store, via: 'env', why: `$CAIRN_DIR is set to ${store}` });
  assert.match(byName(r, 'registrations').items![0]!, /Cursor: .*\.cursor\/mcp\.json/);
});

test('loose modes, unparseable files, corrupt log lines, a stale registration and no plugin: warnings, exit 1', async () => {
  const home = tempDir('cairn-doc-home-');
  const store = join(home, 'store');
  mkdirSync(store);
  chmodSync(store, 0o755);
  writeMemory(store, { body: 'Readable by all.', scopes: ['notes'] });
  writeFileSync(join(store, 'broken.md'), '---\nid: nope\n---\nbody\n', { mode: 0o644 });
  writeFileSync(join(store, '.events.jsonl'), 'not json\n', { mode: 0o600 });
  mkdirSync(join(store, '.cache'));
  writeFileSync(join(store, '.cache', 'search-index.bin'), 'garbage');
  await runInit(clientSpec('claude-desktop', { home, platform: 'linux', env: {} }), serverEntry('/gone/cairn.mjs', process.execPath));
  const r = await runDoctor(opts(home, store));
  assert.equal(r.exit_code, 1);
  assert.equal(r.status, 'warn');
  const perms = byName(r, 'permissions');
  assert.equal(perms.status, 'warn');
  assert.ok(perms.items!.some((i) => i.includes('is 0755, expected 0700')));
  assert.ok(perms.items!.some((i) => i.includes('broken.md is 0644, expected 0600')));
  const files = byName(r, 'files');
  assert.equal(files.status, 'warn');
  assert.match(files.items![0]!, /broken\.md: /);
  assert.match(byName(r, 'event log').detail, /1 corrupt line/);
  assert.equal(byName(r, 'index cache').status, 'warn');
  const reg = byName(r, 'registrations');
  assert.equal(reg.status, 'warn');
  assert.ok(reg.items!.some((i) => i.includes('/gone/cairn.mjs, which does not exist')));
});

test('a bad config is a failure (exit 2); a missing store is fine until the first write; the Claude Code plugin counts', async () => {
  const home = tempDir('cairn-doc-home-');
  const store = join(home, 'store');
  mkdirSync(store);
  writeFileSync(join(store, 'config.toml'), '[behavior]\ndefault_max_results = 0\n');
  const bad = await runDoctor(opts(home, store));
  assert.equal(bad.exit_code, 2);
  assert.match(byName(bad, 'config').detail, /behavior\.default_max_results must be between 1 and 50/);

  mkdirSync(join(home, '.claude', 'plugins'), { recursive: true });
  writeFileSync(join(home, '.claude', 'plugins', 'installed_plugins.json'), JSON.stringify({ version: 2, plugins: { 'cairn@cairn': [{ scope: 'user' }] } }));
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ enabledPlugins: { 'cairn@cairn': true } }));
  const missing = await runDoctor(opts(home, join(home, 'nowhere')));
  // A fresh install: the plugin is there, the store is created on the first write. All ok.
  assert.equal(byName(missing, 'store').status, 'ok');
  assert.match(byName(missing, 'store').detail, /does not exist yet: it is created on the first write/);
  assert.deepEqual(byName(missing, 'registrations').items, ['Claude Code plugin cairn@cairn installed', 'Claude Code plugin cairn@cairn enabled in settings.json']);
  assert.equal(missing.exit_code, 0);
  assert.equal(missing.checks.find((c) => c.name === 'duplicate server'), undefined);

  // The plugin plus a user-scope entry in ~/.claude.json: two servers in every session.
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { cairn: { type: 'stdio', command: 'node', args: [join(home, 'x.mjs')] } } }));
  writeFileSync(join(home, 'x.mjs'), '');
  const dup = await runDoctor(opts(home, join(home, 'nowhere')));
  assert.equal(byName(dup, 'duplicate server').status, 'warn');
  assert.match(byName(dup, 'duplicate server').detail, /starts cairn twice in every session: the plugin cairn@cairn and the user-scope "cairn" entry in .*\.claude\.json.*claude mcp remove cairn -s user/);
  assert.equal(dup.exit_code, 1);
});

test('with an index cache: a file changed since by another tool is read again, and a credential in a cached file is still found', async () => {
  const home = tempDir('cairn-doc-home-');
  const store = join(home, 'store');
  mkdirSync(store, { mode: 0o700 });
  const plain = writeMemory(store, { body: 'A memory another tool will break.', scopes: ['notes'] });
  writeMemory(store, { body: 'A memory left alone.', scopes: ['notes'] });
  const leaky = writeMemory(store, { body: 'Written before remote URLs were redacted.', scopes: ['notes'], origin: { cwd: null, repo: 'https://github.com/acme/widgets', branch: null, worktree_root: null } });
  // As an older cairn wrote it, the token in the URL (cairn writes remote URLs redacted).
  const leakyFile = join(store, fileNameFor(leaky));
  writeFileSync(leakyFile, readFileSync(leakyFile, 'utf8').replace('https://github.com', 'https://me:hunter2@github.com'));
  // A one-shot open of a store without a cache writes one on close.
  const c = await Cairn.open({ env: { CAIRN_DIR: store, HOME: home }, cwd: home, watch: false, oneShot: 'once', warn: () => {} });
  await c.close();
  assert.ok(existsSync(join(store, '.cache', 'search-index.bin')));
  const r0 = await runDoctor(opts(home, store));
  assert.equal(byName(r0, 'files').status, 'ok');
  assert.match(byName(r0, 'index cache').detail, /holds 3 records/);
  assert.equal(byName(r0, 'remote credentials').status, 'warn', 'the cached record is redacted: the file itself is read');
  assert.deepEqual(byName(r0, 'remote credentials').items, [`${leaky.id} ${leakyFile}`]);

  // Broken by hand while cairn was not running: the cache's record of it no longer matches.
  const file = join(store, fileNameFor(plain));
  writeFileSync(file, '---\nid: broken by hand\n---\nbody\n', { mode: 0o600 });
  const r = await runDoctor(opts(home, store));
  const files = byName(r, 'files');
  assert.equal(files.status, 'warn');
  assert.match(files.detail, /^2 memories, 0 tombstones; 1 file skipped/);
  assert.match(files.items![0]!, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
  assert.equal(byName(r, 'remote credentials').status, 'warn');
});
