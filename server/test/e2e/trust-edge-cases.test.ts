// The trust layer's edge cases, end to end through the built bundle over stdio: registry and SaaS
// tokens, passwords and DSNs refused (and file names that never repeat them), path citations in
// backticked commands and prose, a commit in the same second as a verify, short scopes that are
// not typos, one phrase firing one durability marker, and memory_update through the durability gate.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { cli, startServer, type Session } from '../helpers/mcp.ts';
import { morePositiveFixtures, positiveFixtures } from '../trust/fakeSecrets.ts';

let root: string;
let store: string;
let repo: string;
let s: Session;

before(async () => {
  root = tempDir();
  store = join(root, 'store');
  repo = tempRepo('https://github.com/acme/gaps.git');
  s = await startServer({ store, cwd: repo });
});
after(async () => {
  await s.close();
  removeDir(root);
  removeDir(repo);
});

const write = (content: string, extra: Record<string, unknown> = {}) => s.call('memory_write', { content, scopes: ['tools'], ...extra });
const memoryFiles = () => (existsSync(store) ? readdirSync(store).filter((n) => n.endsWith('.md')) : []);

test('registry tokens, passwords and DSNs are refused, and nothing is written', async () => {
  const missed: string[] = [];
  for (const f of morePositiveFixtures()) {
    const r = await write(`${f.text}\nKept here for the deploy runbook.`, { force: true, acknowledge_transient: true });
    if (r.status !== 'secret_detected') missed.push(`${f.name}: ${r.status}`);
    else assert.ok(!JSON.stringify(r).includes(f.secret), `${f.name} leaks the secret`);
  }
  assert.deepEqual(missed, []);
  assert.equal(memoryFiles().length, 0);
});

test('ordinary notes about passwords and flags are still stored', async () => {
  for (const note of [
    'Reset your password via the SSO portal, never by mailing IT.',
    '`mysql -u root -p` prompts for the password; never pass it on the command line.',
    'Set PGPASSWORD in your shell, never in the repo; CI reads it from the vault.',
  ]) {
    const r = await write(note, { force: true });
    assert.equal(r.status, 'committed', note);
  }
});

test('a file name never repeats a secret, even for a record that bypassed the gate (import)', () => {
  const fx = positiveFixtures().find((f) => f.name === 'github ghp')!;
  const body = `${fx.secret} is the release bot token`;
  const doc = {
    format: 'cairn-export',
    version: 1,
    exported_at: '2026-01-01T00:00:00.000Z',
    scope_filters: [],
    memories: [
      {
        id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H',
        created: '2026-01-01T00:00:00.000Z',
        updated: '2026-01-01T00:00:00.000Z',
        scopes: ['tools'],
        confidence: 'medium',
        source: 'explicit-statement',
        category: 'fact',
        last_verified_at: null,
        expires: null,
        origin: { cwd: null, repo: null, branch: null, worktree_root: null },
        body,
      },
    ],
    tombstones: [],
  };
  const file = join(root, 'export.json');
  writeFileSync(file, JSON.stringify(doc));
  const importStore = join(root, 'import-store');
  const r = cli(['import', file], { store: importStore, cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  const names = readdirSync(importStore).filter((n) => n.endsWith('.md'));
  assert.equal(names.length, 1);
  const tail = fx.secret.slice(4).toLowerCase();
  for (let i = 0; i + 8 <= tail.length; i++) assert.ok(!names[0]!.includes(tail.slice(i, i + 8)), `${names[0]} repeats the secret`);
  assert.match(names[0]!, /release-bot-token/);
});

test('path drift sees a script in a backticked command and a bare relative path in prose', async () => {
  const r = await write('We deploy with `scripts/release.sh --prod`. See src/router/table.py for the routing logic.', { force: true });
  assert.equal(r.status, 'committed');
  const shown = await s.call('memory_show', { id: r.id });
  const rec = shown.memories?.[0] ?? shown;
  assert.equal(rec.path_drift.checked, 2, JSON.stringify(rec.path_drift));
  assert.deepEqual([...rec.path_drift.missing].sort(), ['scripts/release.sh', 'src/router/table.py']);
});

test('commit drift counts a commit made in the same second as the verify', async () => {
  const r = await write('Release notes are generated from conventional commit messages by the changelog script.', { force: true });
  const v = await s.call('memory_verify', { id: r.id });
  const sameSecond = new Date(Math.floor(Date.parse(v.last_verified_at) / 1000) * 1000).toISOString();
  writeFileSync(join(repo, 'CHANGELOG.md'), '# changes\n');
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_AUTHOR_DATE: sameSecond, GIT_COMMITTER_DATE: sameSecond };
  execFileSync('git', ['add', '-A'], { cwd: repo, env });
  execFileSync('git', ['commit', '-q', '-m', 'same second'], { cwd: repo, env });
  const shown = await s.call('memory_show', { id: r.id });
  const rec = shown.memories?.[0] ?? shown;
  assert.deepEqual(rec.commit_drift, { commits_since_verify: 1, status: 'behind' });
});

test('api and app are not reported as a typo pair; tool/tools still is', async () => {
  await write('The public API is versioned in the URL path and never breaks a published version.', { scopes: ['api'], force: true });
  await write('API handlers validate their input with zod before touching the database.', { scopes: ['api'], force: true });
  await write('The mobile app ships through the store review every second Tuesday.', { scopes: ['app'], force: true });
  await write('Formatting is enforced by prettier with the repository config only.', { scopes: ['tool'], force: true });
  const h = await s.call('memory_health', {});
  const rare = h.rare_scopes.rows.map((r: { scope: string; similar_to: { scope: string }[] }) => `${r.scope}~${r.similar_to.map((x) => x.scope).join(',')}`);
  assert.ok(!rare.some((x: string) => x.startsWith('app~')), rare.join(' '));
  assert.ok(rare.includes('tool~tools'), rare.join(' '));
});

test('one phrase fires one durability marker', async () => {
  const r = await write('We just switched the staging database to postgres 16.', { scopes: ['infra'] });
  assert.equal(r.status, 'transient_warning');
  assert.deepEqual(r.markers.map((m: { marker: string }) => m.marker), ['I/we just']);
});

test('memory_update runs the durability gate on changed content; acknowledge_transient lets it through', async () => {
  const r = await write('The build cache is stored in the shared bucket and keyed by lockfile hash.', { scopes: ['build'], force: true });
  const err = await s.fail('memory_update', { id: r.id, content: 'The build cache is currently stored in the shared bucket.' });
  assert.match(err, /currently/);
  assert.match(err, /acknowledge_transient/);
  const still = await s.call('memory_show', { id: r.id });
  assert.match((still.memories?.[0] ?? still).body, /keyed by lockfile hash/);
  const ok = await s.call('memory_update', { id: r.id, content: 'The build cache is currently stored in the shared bucket.', acknowledge_transient: true });
  assert.equal(ok.status, 'committed');
  // A change elsewhere in a body whose marker was already accepted does not warn again, nor
  // does an update that leaves the content alone.
  const again = await s.call('memory_update', { id: r.id, content: 'The build cache is currently stored in the shared GCS bucket.' });
  assert.equal(again.status, 'committed');
  const scopesOnly = await s.call('memory_update', { id: r.id, scopes: ['build', 'ci'] });
  assert.equal(scopesOnly.status, 'committed');
});
