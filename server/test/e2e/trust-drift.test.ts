// Staleness signals end to end: the built bundle over stdio, a real git repo as the caller's
// working directory, real commits after verification, real files created and deleted.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { startServer, type Session } from '../helpers/mcp.ts';

let root: string;
let home: string;
let store: string;
let repo: string;
let other: string;
let s: Session;

/**
 * Commits one file with a committer date `offsetMs` from now. Drift commits are dated an hour
 * ahead, so they are newer than any verification made during the test whatever the clock does.
 */
function commitAhead(dir: string, file: string, text: string, offsetMs = 3_600_000): void {
  writeFileSync(join(dir, file), text);
  const when = new Date(Date.now() + offsetMs).toISOString();
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when };
  execFileSync('git', ['add', '-A'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', `edit ${file}`], { cwd: dir, env });
}

before(async () => {
  root = tempDir();
  home = join(root, 'home');
  store = join(root, 'store');
  mkdirSync(join(home, '.config', 'widgets'), { recursive: true });
  writeFileSync(join(home, '.config', 'widgets', 'settings.toml'), '');
  repo = tempRepo('https://github.com/acme/widgets.git');
  mkdirSync(join(repo, 'src'));
  commitAhead(repo, 'src/retry.ts', 'export {};\n', -86_400_000);
  other = tempRepo('git@github.com:acme/gadgets.git');
  s = await startServer({ store, cwd: repo, env: { HOME: home } });
});
after(async () => {
  await s.close();
  removeDir(root);
  removeDir(repo);
  removeDir(other);
});

const BODY = 'Retry policy for the widgets HTTP client lives in `src/retry.ts`, tuned by ~/.config/widgets/settings.toml and the old `src/backoff.ts`.';
let id: string;

test('a never-verified memory: spot_check_required, path drift counted, no commit drift', async () => {
  const w = await s.call('memory_write', { content: BODY, scopes: ['projects:widgets'] });
  assert.equal(w.status, 'committed');
  id = w.id;
  const [m] = (await s.call('memory_show', { id })).memories;
  assert.equal(m.verification.status, 'never');
  assert.equal(m.staleness_verdict, 'spot_check_required');
  assert.equal(m.path_drift_checked, 3);
  assert.equal(m.path_drift_missing, 1);
  assert.deepEqual(m.path_drift, { checked: 3, missing: ['src/backoff.ts'] });
  assert.equal(m.commit_drift_count, undefined);
  assert.equal(m.commit_drift.status, 'not_applicable');
});

test('verified, then path drift alone: spot_check_recommended on search, list and show', async () => {
  await s.call('memory_verify', { id });
  const res = await s.call('memory_search', { query: 'retry policy widgets http client' });
  const hit = res.hits.find((h: { id: string }) => h.id === id);
  assert.equal(hit.verification.status, 'fresh');
  assert.equal(hit.verification.age_days, 0);
  assert.equal(res.stale_after_days, 30, 'the same for every hit: once per answer');
  assert.equal(hit.path_drift_checked, 3);
  assert.equal(hit.path_drift_missing, 1);
  assert.equal(hit.commit_drift_count, 0);
  assert.equal(hit.staleness_verdict, 'spot_check_recommended');
  assert.equal(hit.path_drift, undefined, 'no detail on a plain hit');
  const { items } = await s.call('memory_list', { scopes: ['projects:widgets'] });
  assert.equal(items[0].path_drift_missing, 1);
  assert.equal(items[0].staleness_verdict, 'spot_check_recommended');
});

test('creating the missing file makes it fresh', async () => {
  writeFileSync(join(repo, 'src', 'backoff.ts'), '');
  const [m] = (await s.call('memory_show', { id })).memories;
  assert.equal(m.path_drift_missing, 0);
  assert.equal(m.staleness_verdict, 'fresh');
  assert.deepEqual(m.commit_drift, { commits_since_verify: 0, status: 'up_to_date' });
});

test('real commits after verification: commit drift on hits, show and expand_top', async () => {
  commitAhead(repo, 'src/backoff.ts', 'export const base = 200;\n');
  commitAhead(repo, 'README.md', '# widgets v2\n');
  const [m] = (await s.call('memory_show', { id })).memories;
  assert.equal(m.commit_drift_count, 2);
  assert.deepEqual(m.commit_drift, { commits_since_verify: 2, status: 'behind' });
  assert.equal(m.staleness_verdict, 'spot_check_recommended');
  const { hits } = await s.call('memory_search', { query: 'retry policy widgets http client', expand_top: true });
  assert.equal(hits[0].id, id);
  assert.equal(hits[0].relevance, 'high');
  assert.equal(hits[0].commit_drift_count, 2);
  assert.deepEqual(hits[0].commit_drift, { commits_since_verify: 2, status: 'behind' });
  assert.deepEqual(hits[0].path_drift, { checked: 3, missing: [] });
  assert.equal(hits[0].body, BODY);
});

test('deleting a cited file and committing: both drifts; re-creating the file clears path drift', async () => {
  rmSync(join(repo, 'src', 'retry.ts'));
  commitAhead(repo, '.keep', '');
  let [m] = (await s.call('memory_show', { id })).memories;
  assert.equal(m.commit_drift_count, 3);
  assert.deepEqual(m.path_drift.missing, ['src/retry.ts']);
  writeFileSync(join(repo, 'src', 'retry.ts'), '');
  [m] = (await s.call('memory_show', { id })).memories;
  assert.equal(m.path_drift_missing, 0);
});

test('a memory from another repo: no commit drift, relative paths not checked', async () => {
  const o = await startServer({ store, cwd: other, env: { HOME: home } });
  let otherId: string;
  try {
    const w = await o.call('memory_write', { content: 'Gadgets build script is `scripts/build-gadgets.sh` and it needs docker.', scopes: ['projects:gadgets'] });
    otherId = w.id;
    await o.call('memory_verify', { id: otherId });
  } finally {
    await o.close();
  }
  const [m] = (await s.call('memory_show', { id: otherId })).memories;
  assert.equal(m.verification.status, 'fresh');
  assert.equal(m.commit_drift_count, undefined);
  assert.deepEqual(m.commit_drift, { commits_since_verify: null, status: 'not_applicable' });
  assert.equal(m.path_drift_checked, 0);
  assert.equal(m.staleness_verdict, 'fresh');
});
