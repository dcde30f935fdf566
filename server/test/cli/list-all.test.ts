// `cairn list --all` through the built bundle: every memory once, newest first, streamed page by
// page, with one freshness check and one event for the whole command (it used to re-list the
// store and log an event per page: 57 s at 20k memories).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/mcp.ts';
import { auditEnv, readAudit } from '../helpers/audit.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { writeMemory } from '../curation/fixtures/store.ts';

test('list --all: every memory once, newest first, in text and JSON; one listing of the store and one event per command', () => {
  const store = tempDir('cairn-list-all-');
  const log = join(store, '..', `${store.split('/').pop()}-audit.jsonl`);
  try {
    for (let i = 0; i < 450; i++) writeMemory(store, { body: `Listed note number ${i} about subject ${i % 9}.`, scopes: ['bulk'] });
    const text = cli(['list', '--all'], { store, cwd: store, env: auditEnv(log) });
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.split('\n').filter((l) => /^[0-9A-Z]{26}\b/.test(l));
    assert.equal(lines.length, 450);
    const ids = lines.map((l) => l.slice(0, 26));
    assert.equal(new Set(ids).size, 450);
    assert.deepEqual(ids, [...ids].sort().reverse());
    const listings = readAudit(log).filter((e) => e.kind === 'fs' && e.op === 'readdir' && e.path === store).length;
    assert.equal(listings, 1, 'the store was listed more than once for one command');

    const json = cli(['list', '--all', '--json'], { store, cwd: store });
    assert.equal(json.code, 0, json.stderr);
    const items = (JSON.parse(json.stdout) as { items: { id: string }[] }).items;
    assert.deepEqual(items.map((x) => x.id), ids);

    const events = readFileSync(join(store, '.events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; returned_count?: number });
    const lists = events.filter((e) => e.kind === 'list');
    assert.equal(lists.length, 2, 'one list event per command');
    assert.equal(lists[0]!.returned_count, 450);

    const empty = tempDir('cairn-list-empty-');
    writeMemory(empty, { body: 'Only note in a scope nobody asks for.', scopes: ['other'] });
    const none = cli(['list', '--all', '--json', '--scope', 'bulk'], { store: empty, cwd: empty });
    assert.deepEqual(JSON.parse(none.stdout), { items: [] });
    removeDir(empty);
  } finally {
    removeDir(store);
  }
});

test('list --all in a repo: one git log for the commit drift of every page, the verdicts the one-page list gives', () => {
  const root = realpathSync(tempDir('cairn-list-all-repo-'));
  const repo = join(root, 'repo');
  const store = join(root, 'store');
  const log = join(root, 'audit.jsonl');
  try {
    mkdirSync(repo);
    const g = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo });
    g('init', '-q');
    g('remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
    g('commit', '-q', '--allow-empty', '-m', 'one');
    // 450 memories of this repo, newer ones verified later: each page of 200 reaches further back.
    const origin = { cwd: repo, repo: 'https://github.com/acme/widgets.git', branch: 'main', worktree_root: repo };
    const t0 = Date.parse('2025-01-01T00:00:00Z');
    for (let i = 0; i < 450; i++) {
      const at = new Date(t0 + i * 3_600_000).toISOString();
      writeMemory(store, { body: `Repo note ${i}.`, scopes: ['bulk'], origin, created: at, updated: at, last_verified_at: at });
    }
    const all = cli(['list', '--all', '--json'], { store, cwd: repo, env: auditEnv(log) });
    assert.equal(all.code, 0, all.stderr);
    const logs = readAudit(log).filter((e) => e.kind === 'spawn' && e.args.includes('log'));
    assert.equal(logs.length, 1, `git log ran ${logs.length} times`);
    const items = (JSON.parse(all.stdout) as { items: { id: string; commit_drift_count?: number; staleness_verdict: string }[] }).items;
    assert.equal(items.length, 450);
    assert.ok(items.every((x) => x.commit_drift_count === 1), 'the commit made after every verification counts');
    // A one-page list (capped to its response budget) gives its memories the same fields.
    const page = (JSON.parse(cli(['list', '--json', '--limit', '200'], { store, cwd: repo }).stdout) as { items: typeof items }).items;
    assert.ok(page.length > 0);
    assert.deepEqual(page, items.slice(0, page.length));
  } finally {
    removeDir(root);
  }
});
