// `cairn migrate origin` through the built bundle: memories written before origins existed (no
// `origin:` block) get one. A dry run by default; --apply writes each file atomically with one
// migrate_origin event. A store that is a repository's .cairn/ belongs to that repository; a store
// of many projects (~/.cairn) needs --scope-repo SCOPE=URL or --repo URL, and guesses nothing.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeId } from '../helpers/records.ts';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { cli } from '../helpers/mcp.ts';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));
const URL_W = 'git@github.com:acme/widgets.git';

/** A memory file as written before origins existed: no origin block at all. */
function oldMemory(store: string, scopes: string[], body: string): string {
  mkdirSync(store, { recursive: true, mode: 0o700 });
  const id = fakeId();
  const text = ['---', 'schema_version: 1', `id: ${id}`, 'created: 2025-03-14T10:23:00.000Z', 'updated: 2025-03-14T10:23:00.000Z', `scopes: [${scopes.join(', ')}]`, 'confidence: high', 'source: explicit-statement', 'category: fact', 'last_verified_at: null', 'expires: null', '---', body, ''].join('\n');
  writeFileSync(join(store, `2025-03-14-old-${id.slice(-6).toLowerCase()}.md`), text, { mode: 0o600 });
  return id;
}
const files = (store: string) => new Map(readdirSync(store).filter((n) => n.endsWith('.md')).map((n) => [n, readFileSync(join(store, n), 'utf8')]));
const fileOf = (store: string, id: string) => readFileSync(join(store, readdirSync(store).find((n) => n.endsWith('.md') && readFileSync(join(store, n), 'utf8').includes(id))!), 'utf8');

test('a store of many projects: nothing guessed; --scope-repo routes by scope, --repo the rest; dry run first', () => {
  const root = tempDir('cairn-backfill-');
  dirs.push(root);
  const store = join(root, 'store');
  const w = oldMemory(store, ['projects:widgets', 'ci'], 'Widgets CI runs on the arm64 pool');
  const t = oldMemory(store, ['tools'], 'Prefer ripgrep over grep');
  const run = (args: string[]) => cli(['migrate', 'origin', ...args], { store, cwd: root });
  const before = files(store);

  const plain = run([]);
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /2 memories without an origin left alone: this store is not a repository's \.cairn\/, so give --repo URL or --scope-repo SCOPE=URL/);
  assert.deepEqual(files(store), before);

  const dry = JSON.parse(run(['--scope-repo', `projects:widgets=${URL_W}`, '--json']).stdout);
  assert.deepEqual(dry, { applied: false, store_repo: null, placed: [{ id: w, repo: URL_W, worktree_root: null, via: 'scope projects:widgets' }], left: [t] });
  assert.deepEqual(files(store), before, 'a dry run changes nothing');

  const applied = run(['--scope-repo', `projects:widgets=${URL_W}`, '--repo', 'https://github.com/me/dotfiles.git', '--apply']);
  assert.equal(applied.code, 0, applied.stderr);
  assert.match(applied.stdout, /^set the origin of 2 memories\n/);
  assert.match(fileOf(store, w), /origin:\n {2}cwd: null\n {2}repo: git@github\.com:acme\/widgets\.git\n {2}branch: null\n {2}worktree_root: null\n/);
  assert.match(fileOf(store, t), /repo: https:\/\/github\.com\/me\/dotfiles\.git/);
  const events = readFileSync(join(store, '.events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.kind === 'migrate_origin');
  assert.deepEqual(events.map((e) => [e.id, e.from, e.to]).sort(), [[w, null, URL_W], [t, null, 'https://github.com/me/dotfiles.git']].sort());
  // idempotent: a second run finds nothing to do
  assert.match(run(['--apply']).stdout, /every memory has an origin: nothing to do/);
  // now placed: from the widgets repo, auto_scope shows the widgets memory
  const repo = tempRepo(URL_W);
  dirs.push(repo);
  const ov = JSON.parse(cli(['overview', '--json'], { store, cwd: repo }).stdout);
  assert.equal(ov.total, 1);
  assert.equal(ov.repo_total, 1);
  assert.deepEqual(ov.scopes, { ci: 1, 'projects:widgets': 1 });
});

test('a repository\'s .cairn/ store: its memories belong to that repository', () => {
  const repo = tempRepo(URL_W);
  dirs.push(repo);
  const store = join(repo, '.cairn');
  const a = oldMemory(store, ['build'], 'make all builds the docs first');
  const dry = JSON.parse(cli(['migrate', 'origin', '--json'], { store, cwd: repo }).stdout);
  assert.equal(dry.store_repo, URL_W);
  assert.deepEqual(dry.placed, [{ id: a, repo: URL_W, worktree_root: dry.placed[0].worktree_root, via: "the store's repository" }]);
  assert.ok(existsSync(dry.placed[0].worktree_root));
  assert.doesNotMatch(fileOf(store, a), /origin:/);
  assert.equal(cli(['migrate', 'origin', '--apply'], { store, cwd: repo }).code, 0);
  assert.match(fileOf(store, a), /repo: git@github\.com:acme\/widgets\.git/);
});

test('bad input: a usage error or a clear refusal, nothing changed', () => {
  const root = tempDir('cairn-backfill-');
  dirs.push(root);
  const store = join(root, 'store');
  oldMemory(store, ['tools'], 'Prefer ripgrep over grep');
  const before = files(store);
  const noSub = cli(['migrate'], { store, cwd: root });
  assert.equal(noSub.code, 2);
  assert.match(noSub.stderr, /give a subcommand: origin/);
  const badRoute = cli(['migrate', 'origin', '--scope-repo', 'tools', '--apply'], { store, cwd: root });
  assert.equal(badRoute.code, 1);
  assert.match(badRoute.stderr, /scope route "tools" must be SCOPE=URL/);
  const badUrl = cli(['migrate', 'origin', '--repo', ' ', '--apply'], { store, cwd: root });
  assert.equal(badUrl.code, 1);
  assert.match(badUrl.stderr, /repo must be a remote URL such as/);
  assert.deepEqual(files(store), before);
});
