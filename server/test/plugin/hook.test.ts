// The SessionStart hook as Claude Code runs it: the built bundle, `overview --hook`, cwd and
// CLAUDE_PROJECT_DIR at the project, the store from CAIRN_DIR. It must print one short line or
// nothing, and exit 0 whatever happens, because a failing hook would spoil the session start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { requireBundle } from './bundle.ts';
import { gitRepo, tempDir, writeMemory } from './store.ts';

const MAX_LINE_BYTES = 300;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function runHook(opts: { store: string; project: string; args?: string[]; env?: Record<string, string> }): Run {
  const home = tempDir('home');
  const r = spawnSync(process.execPath, [requireBundle(), 'overview', ...(opts.args ?? ['--hook'])], {
    cwd: opts.project,
    env: { PATH: process.env.PATH ?? '', HOME: home, CAIRN_DIR: opts.store, CLAUDE_PROJECT_DIR: opts.project, ...opts.env },
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A store with memories for the project repo (under another URL form), a global one, and one for another repo. */
function populated() {
  const project = gitRepo('git@github.com:me/acme.git');
  const store = join(tempDir('store'), 'store');
  writeMemory(store, { scopes: ['projects:acme', 'release'], body: 'SECRET-BODY-1 release with scripts/release.sh', repo: 'https://github.com/me/acme', worktree: project });
  writeMemory(store, { scopes: ['projects:acme'], body: 'SECRET-BODY-2 squash-merge only', repo: 'ssh://git@github.com/me/acme.git', worktree: project });
  writeMemory(store, { scopes: ['tools'], body: 'SECRET-BODY-3 prefer node:test', repo: null, worktree: null });
  writeMemory(store, { scopes: ['projects:other'], body: 'SECRET-BODY-4 other repo fact', repo: 'git@github.com:me/other.git', worktree: '/src/other' });
  return { project, store };
}

test('hook: a store that does not exist prints nothing, exits 0, and is not created', () => {
  const project = gitRepo('git@github.com:me/acme.git');
  const store = join(tempDir('store'), 'never-created');
  const r = runHook({ store, project });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(existsSync(store), false, 'the hook must not create the store');
});

test('hook: an empty store prints nothing', () => {
  const project = gitRepo('git@github.com:me/acme.git');
  const store = tempDir('store');
  const r = runHook({ store, project });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '');
});

test('hook: a populated store prints one line of counts for this repo, no bodies', () => {
  const { project, store } = populated();
  const r = runHook({ store, project });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(
    r.stdout,
    'cairn memory: 2 memories for this project and 1 not tied to any repo (projects:acme 2, release 1, tools 1); 1 more in other repos. Search them only when stored context could help.\n',
  );
  assert.doesNotMatch(r.stdout, /SECRET-BODY/);
  assert.ok(Buffer.byteLength(r.stdout.trimEnd(), 'utf8') <= MAX_LINE_BYTES);
});

test('hook: a project with no memories of its own still learns that others exist', () => {
  const { store } = populated();
  const project = gitRepo('git@github.com:me/unrelated.git');
  const r = runHook({ store, project });
  assert.equal(r.status, 0, r.stderr);
  // Only the repo-less memory is in view here, and it is not this project's own; the three repo-bound ones are elsewhere.
  assert.equal(r.stdout, 'cairn memory: no memories for this project, 1 not tied to any repo (tools 1); 3 more in other repos. Search them only when stored context could help.\n');
});

test('hook: many long scopes are elided to stay within 300 bytes', () => {
  const project = gitRepo('git@github.com:me/acme.git');
  const store = join(tempDir('store'), 'store');
  for (let i = 0; i < 40; i++) {
    writeMemory(store, { scopes: [`projects:acme:a-rather-long-component-name-number-${String(i).padStart(2, '0')}`], body: `fact ${i}`, repo: 'git@github.com:me/acme.git', worktree: project });
  }
  const r = runHook({ store, project });
  assert.equal(r.status, 0, r.stderr);
  const line = r.stdout.trimEnd();
  assert.equal(r.stdout.split('\n').length, 2, 'exactly one line');
  assert.ok(Buffer.byteLength(line, 'utf8') <= MAX_LINE_BYTES, `line is ${Buffer.byteLength(line, 'utf8')} bytes`);
  assert.match(line, /^cairn memory: 40 memories for this project \(.+, \+\d+ more scopes\)\. Search them only when stored context could help\.$/);
});

test('hook: hooks.session_start = false prints nothing', () => {
  const { project, store } = populated();
  writeFileSync(join(store, 'config.toml'), '[hooks]\nsession_start = false\n');
  const r = runHook({ store, project });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '');
});

test('hook: a broken config still exits 0 and prints nothing on stdout', () => {
  const { project, store } = populated();
  writeFileSync(join(store, 'config.toml'), '[hooks]\nsession_start = "sometimes"\n');
  const bad = runHook({ store, project });
  assert.equal(bad.status, 0);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /hooks\.session_start/, 'the reason goes to stderr, for claude --debug');
  writeFileSync(join(store, 'config.toml'), 'this is [not toml');
  const garbled = runHook({ store, project });
  assert.equal(garbled.status, 0);
  assert.equal(garbled.stdout, '');
});

test('hook: a store path that is a file, and a project outside any repo, still exit 0', () => {
  const dir = tempDir('odd');
  const file = join(dir, 'not-a-dir');
  writeFileSync(file, 'x');
  const r1 = runHook({ store: file, project: dir });
  assert.equal(r1.status, 0);
  assert.equal(r1.stdout, '');
  const store = join(dir, 'store');
  mkdirSync(store);
  writeMemory(store, { scopes: ['tools'], body: 'global fact', repo: null });
  const r2 = runHook({ store, project: dir });
  assert.equal(r2.status, 0, r2.stderr);
  assert.equal(r2.stdout, 'cairn memory: 1 memory in view outside a git repo (repo-less and global scopes) (tools 1). Search them only when stored context could help.\n');
});

test('hook: past its internal time limit it gives up quietly with exit 0', () => {
  const { project, store } = populated();
  // A zero limit fires before the store is even opened (git and file I/O take longer).
  const r = runHook({ store, project, env: { CAIRN_HOOK_TIME_LIMIT_MS: '0' } });
  assert.equal(r.status, 0);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /gave up after 0 ms/);
});

test('hook: unknown extra arguments do not fail the session start', () => {
  const { project, store } = populated();
  const r = runHook({ store, project, args: ['--hook', '--from-a-future-hooks-json'] });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^cairn memory: 2 memories for this project and 1 not tied to any repo/);
});

test('overview --json prints the scope overview object of the current repo', () => {
  const { project, store } = populated();
  const r = runHook({ store, project, args: ['--json'] });
  assert.equal(r.status, 0, r.stderr);
  const o = JSON.parse(r.stdout) as { total: number; repo_total: number; scopes: Record<string, number>; current_repo: string | null };
  assert.equal(o.total, 3);
  assert.equal(o.repo_total, 2, 'of the three in view, two were written in this repo');
  assert.deepEqual(o.scopes, { 'projects:acme': 2, release: 1, tools: 1 });
  assert.match(String(o.current_repo), /me\/acme/);
});

test('overview rejects an unknown flag with a clear error (outside hook mode)', () => {
  const { project, store } = populated();
  const r = runHook({ store, project, args: ['--bogus'] });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--bogus/);
});

test('hook: with an index cache it counts from the cache\'s summary, the same line as from the cache itself; a stale or damaged summary is ignored', () => {
  const { project, store } = populated();
  // An expired memory of this repo and one of another repo: counted nowhere, like the tool does.
  for (const repo of ['https://github.com/me/acme', 'git@github.com:me/other.git']) {
    writeMemory(store, { scopes: ['old'], body: 'an expired fact', repo, worktree: project });
  }
  for (const f of readdirSync(store)) {
    const p = join(store, f);
    if (readFileSync(p, 'utf8').includes('an expired fact')) writeFileSync(p, readFileSync(p, 'utf8').replace('expires: null', 'expires: 2020-01-01T00:00:00.000Z'));
  }
  writeMemory(store, { scopes: ['tools', 'ci'], body: 'global fact', repo: null, worktree: null });
  const outside = tempDir('outside');
  const other = gitRepo('git@github.com:me/other.git');
  const lines = () => [project, outside, other].map((p) => runHook({ store, project: p }).stdout);
  const noCache = lines();
  assert.match(noCache[0]!, /^cairn memory: 2 memories for this project and 2 not tied to any repo/);

  // A one-shot command leaves the cache and its summary.
  const cli = (args: string[]) => spawnSync(process.execPath, [requireBundle(), ...args], { cwd: project, env: { PATH: process.env.PATH ?? '', HOME: tempDir('home'), CAIRN_DIR: store }, encoding: 'utf8' });
  assert.equal(cli(['search', 'fact', '--all-repos']).status, 0);
  const summary = join(store, '.cache', 'overview.json');
  assert.ok(existsSync(summary), 'no overview summary beside the cache');
  assert.doesNotMatch(readFileSync(summary, 'utf8'), /SECRET-BODY|fact/);
  assert.deepEqual(lines(), noCache, 'the summary gives other counts than the cache');
  const withSummary = readFileSync(summary, 'utf8');
  // It is the summary that is read (not the cache): a count changed in it shows.
  const doctored = JSON.parse(withSummary) as { groups: Array<{ n: number }> };
  for (const g of doctored.groups) g.n += 100;
  writeFileSync(summary, JSON.stringify(doctored));
  assert.notDeepEqual(lines(), noCache, 'the hook did not read the summary');

  // Damaged: ignored, the cache is read instead.
  writeFileSync(summary, withSummary.slice(0, 40));
  assert.deepEqual(lines(), noCache);
  rmSync(summary);
  assert.deepEqual(lines(), noCache);

  // Stale: a summary of an older cache is never used.
  writeMemory(store, { scopes: ['projects:acme'], body: 'a newer fact', repo: 'https://github.com/me/acme', worktree: project });
  assert.equal(cli(['search', 'fact', '--all-repos']).status, 0);
  const fresh = lines();
  assert.match(fresh[0]!, /^cairn memory: 3 memories for this project and 2 not tied to any repo/);
  writeFileSync(summary, withSummary);
  assert.deepEqual(lines(), fresh);
});
