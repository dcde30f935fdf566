// Outside a git repo, memory is not "empty". In view: memories with no origin
// repo plus those with a global scope (config scopes.global); memory_scope_overview says how many
// more exist in other repos and which; the SessionStart hook line and the server's policy say the
// same. The built bundle over stdio and as the CLI, real git repos and a plain directory.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { cli, startServer } from '../helpers/mcp.ts';

let root: string;
let store: string;
let plain: string;
let widgets: string;
let gadgets: string;

before(async () => {
  root = tempDir('cairn-outside-');
  store = join(root, 'store');
  plain = join(root, 'plain');
  mkdirSync(plain);
  widgets = tempRepo('git@github.com:acme/widgets.git');
  gadgets = tempRepo('https://gitlab.com/acme/gadgets.git');
  const a = await startServer({ store, cwd: widgets });
  await a.call('memory_write', { content: 'Widgets builds its release images with the Makefile target dist-images.', scopes: ['projects:widgets'] });
  await a.call('memory_write', { content: 'The user prefers tabs over spaces for indentation in every language.', scopes: ['preferences:editor'] });
  await a.close();
  const b = await startServer({ store, cwd: gadgets });
  await b.call('memory_write', { content: 'Gadgets deploys through the staging cluster before production rollouts.', scopes: ['projects:gadgets'] });
  await b.call('memory_write', { content: 'Gadgets runs its integration suite nightly against the staging cluster.', scopes: ['projects:gadgets'] });
  await b.close();
  const c = await startServer({ store, cwd: plain });
  await c.call('memory_write', { content: 'The household router admin page lives at the address printed under the device.', scopes: ['home-network'] });
  await c.close();
});
after(() => {
  removeDir(root);
  removeDir(widgets);
  removeDir(gadgets);
});

test('memory_scope_overview outside a repo: repo-less plus global scopes in view, the rest counted per repo', async () => {
  const s = await startServer({ store, cwd: plain });
  const o = await s.call('memory_scope_overview', {});
  assert.equal(o.current_repo, null);
  assert.equal(o.view, 'outside_repo');
  assert.deepEqual(o.global_scopes, ['preferences', 'tools', 'user', 'me', 'global']);
  assert.equal(o.total, 2);
  assert.deepEqual(o.scopes, { 'home-network': 1, 'preferences:editor': 1 });
  assert.deepEqual(o.elsewhere, {
    total: 3,
    repos: [
      { repo: 'https://gitlab.com/acme/gadgets.git', count: 2 },
      { repo: 'git@github.com:acme/widgets.git', count: 1 },
    ],
  });
  // Search sees the same view; auto_scope=false reaches the rest.
  assert.equal((await s.call('memory_search', { query: 'tabs spaces indentation' })).hits.length, 1);
  assert.equal((await s.call('memory_search', { query: 'Makefile dist-images release' })).hits.length, 0);
  assert.equal((await s.call('memory_search', { query: 'Makefile dist-images release', auto_scope: false })).hits.length, 1);
  const all = await s.call('memory_scope_overview', { auto_scope: false });
  assert.deepEqual([all.view, all.total, all.elsewhere.total], ['all', 5, 0]);
  // The policy says the same thing.
  assert.match(s.client.getInstructions() ?? '', /Outside a git repo only repo-less and global-scope memories are in view; auto_scope=false reaches the rest\./);
  await s.close();
});

test('inside a repo the view is unchanged: a global scope from another repo stays there', async () => {
  const s = await startServer({ store, cwd: gadgets });
  const o = await s.call('memory_scope_overview', {});
  assert.equal(o.view, 'repo');
  assert.deepEqual(o.scopes, { 'home-network': 1, 'projects:gadgets': 2 });
  assert.deepEqual(o.elsewhere, { total: 2, repos: [{ repo: 'git@github.com:acme/widgets.git', count: 2 }] });
  await s.close();
});

test('the hook line and cairn overview say the same outside a repo', () => {
  const hook = cli(['overview', '--hook'], { store, cwd: plain });
  assert.equal(hook.code, 0);
  assert.equal(
    hook.stdout,
    'cairn memory: 2 memories in view outside a git repo (repo-less and global scopes) (home-network 1, preferences:editor 1); 3 more in other repos (search them with auto_scope=false). Search them only when stored context could help.\n',
  );
  const text = cli(['overview'], { store, cwd: plain });
  assert.match(text.stdout, /^2 memories in view here \(not a git repo: memories from no repo, plus scopes preferences, tools, user, me, global\)\n/);
  assert.match(text.stdout, /\nelsewhere: 3 in other repos \(https:\/\/gitlab\.com\/acme\/gadgets\.git 2, git@github\.com:acme\/widgets\.git 1\)/);
  const json = JSON.parse(cli(['overview', '--json'], { store, cwd: plain }).stdout);
  assert.equal(json.elsewhere.total, 3);
});

test('scopes.global in config.toml decides which scopes are in view outside a repo', async () => {
  writeFileSync(join(store, 'config.toml'), '[scopes]\nglobal = ["home-network"]\n');
  try {
    const s = await startServer({ store, cwd: plain });
    const o = await s.call('memory_scope_overview', {});
    assert.deepEqual(o.global_scopes, ['home-network']);
    assert.deepEqual(o.scopes, { 'home-network': 1 }, 'preferences is no longer global');
    assert.equal(o.elsewhere.total, 4);
    await s.close();
    writeFileSync(join(store, 'config.toml'), '[scopes]\nglobal = "preferences"\n');
    const bad = cli(['overview'], { store, cwd: plain });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /scopes\.global must be an array of non-empty strings/);
  } finally {
    writeFileSync(join(store, 'config.toml'), '');
  }
});
