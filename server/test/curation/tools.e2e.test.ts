// The curation tools end to end: the built bundle over stdio with the SDK Client, real temp
// stores (hand-made files where a section needs old or expired memories) and a real git repo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../helpers/mcp.ts';
import { commit, removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { readEvents } from '../../src/core/curation/events.ts';
import { daysAgo, writeMemory } from './fixtures/store.ts';

const write = async (s: Awaited<ReturnType<typeof startServer>>, content: string, scopes: string[]) =>
  (await s.call('memory_write', { content, scopes, force: true, acknowledge_transient: true })).id as string;

test('record_use, health sections and the event log over stdio', async () => {
  const store = tempDir('cairn-cur-store-');
  const cwd = tempDir('cairn-cur-cwd-');
  const cold = writeMemory(store, { body: 'Old note about the release train that nobody reads.', scopes: ['release'], created: daysAgo(120) });
  const expired = writeMemory(store, { body: 'The office wifi password rotates monthly.', scopes: ['office'], created: daysAgo(60), expires: daysAgo(2) });
  // Memories written in this test are seconds old: relax the dead-weight rule so one strong
  // retrieval qualifies (the default rule is tested in e2e/dead-weight.test.ts).
  writeFileSync(join(store, 'config.toml'), '[curation]\ndead_weight_min_age_days = 0\ndead_weight_min_retrievals = 1\n');
  const s = await startServer({ store, cwd });
  try {
    const pg = await write(s, 'Nightly backups use pg_dump with the custom format.', ['backups']);
    const dead = await write(s, 'The backups bucket lives in eu-west-1.', ['backups']);
    const wrong = await write(s, 'Deploys go through scripts/deploy.sh with --prod.', ['deployment']);
    await write(s, 'Staging deploys need the VPN.', ['deployment']);
    const typo = await write(s, 'Rollbacks are done by redeploying the previous tag.', ['deploymnet']);

    const hits = (await s.call('memory_search', { query: 'backups', auto_scope: false })).hits as { id: string }[];
    assert.ok(hits.some((h) => h.id === dead));
    await s.call('memory_show', { id: wrong });

    const use = await s.call('memory_record_use', { memory_ids: [pg, pg.toLowerCase(), '01JQ3Z8V7M2K4T6Y9B1C3D5F7H'], outcome: 'applied' });
    assert.deepEqual(use, { recorded: 1, outcome: 'applied', unknown_ids: ['01JQ3Z8V7M2K4T6Y9B1C3D5F7H'] });
    for (let i = 0; i < 2; i++) await s.call('memory_record_use', { memory_ids: [pg], outcome: 'applied' });
    await s.call('memory_record_use', { memory_ids: [wrong], outcome: 'contradicted', note: 'the script is now release.sh' });
    assert.match(await s.fail('memory_record_use', { memory_ids: ['nope'], outcome: 'applied' }), /memory_ids\[0\] "nope" is not a memory id/);
    assert.match(await s.fail('memory_record_use', { memory_ids: [pg], outcome: 'used' }), /outcome/);

    // A durability warning, then the same write acknowledged: one fire, one override.
    const transient = { content: 'We currently ship releases on Fridays.', scopes: ['release'] };
    assert.equal((await s.call('memory_write', transient)).status, 'transient_warning');
    assert.equal((await s.call('memory_write', { ...transient, acknowledge_transient: true })).status, 'committed');

    const h = await s.call('memory_health', {});
    assert.equal(h.window_days, 30);
    assert.deepEqual(h.marker_stats, [{ marker: 'currently', fires: 1, overrides: 1, override_rate: 1 }]);
    assert.deepEqual(h.contradicted.rows.map((r: { id: string }) => r.id), [wrong]);
    const tl = h.contradicted.rows[0].resolution_timeline as { event: string; note?: string }[];
    assert.deepEqual(tl.map((t) => t.event), ['created', 'contradicted']);
    assert.equal(tl[1]!.note, 'the script is now release.sh');
    assert.ok(h.dead_weight.rows.some((r: { id: string }) => r.id === dead));
    assert.ok(!h.dead_weight.rows.some((r: { id: string }) => r.id === pg), 'applied memories are not dead weight');
    assert.deepEqual(h.heavily_used.rows.map((r: { id: string; applied: number }) => [r.id, r.applied]), [[pg, 3]]);
    assert.deepEqual(h.cold.rows.map((r: { id: string }) => r.id), [cold.id]);
    assert.deepEqual(h.expired.rows.map((r: { id: string }) => r.id), [expired.id]);
    assert.deepEqual(h.rare_scopes.rows.map((r: { scope: string; id: string }) => [r.scope, r.id]), [['deploymnet', typo]]);
    assert.equal(h.verification_debt.never + h.verification_debt.stale + h.verification_debt.fresh, h.totals.active);
    assert.equal(h.totals.active, 8);
    assert.deepEqual(h.orphan_use_events, { count: 1, ids: ['01JQ3Z8V7M2K4T6Y9B1C3D5F7H'] });
    assert.equal(h.commit_drift_debt.applies, false);
    const dep = h.scope_health.find((x: { scope: string }) => x.scope === 'deployment');
    assert.deepEqual(dep, { scope: 'deployment', active: 2, dead: 1, cold: 0, contradicted: 1, applied: 0 });
    assert.equal((await s.call('memory_health', { top_k: 1 })).verification_debt.rows.length, 1);
    assert.match(await s.fail('memory_health', { window_days: 0 }), /window_days/);

    // A later verify resolves the contradiction.
    await s.call('memory_verify', { id: wrong });
    assert.equal((await s.call('memory_health', {})).contradicted.count, 0);

    // scope_overview's curation counts include dead weight.
    const ov = await s.call('memory_scope_overview', { auto_scope: false });
    assert.ok(ov.curation_pending.dead >= 1);

    // The event log: one session per process, every call a line, search with ids and labels.
    const { events, corruptLines } = readEvents(store);
    assert.equal(corruptLines, 0);
    assert.equal(new Set(events.map((e) => e.session)).size, 1);
    const kinds = new Set(events.map((e) => e.kind));
    for (const k of ['write', 'search', 'show', 'use', 'verify', 'scope_overview']) assert.ok(kinds.has(k), `logged ${k}`);
    const search = events.find((e) => e.kind === 'search')!;
    assert.equal(search.query, 'backups');
    assert.ok((search.hits as { id: string; relevance: string }[]).every((x) => typeof x.id === 'string' && typeof x.relevance === 'string'));
  } finally {
    await s.close();
    removeDir(store);
    removeDir(cwd);
  }
});

test('rename_scope renames active memories and tombstones, keeps updated, validates the new scope', async () => {
  const store = tempDir('cairn-cur-store-');
  const cwd = tempDir('cairn-cur-cwd-');
  const s = await startServer({ store, cwd });
  try {
    const a = await write(s, 'Kubernetes manifests live under deploy/k8s.', ['infra', 'projects:foo:api']);
    const b = await write(s, 'The foo API uses cursor pagination.', ['projects:foo']);
    const gone = await write(s, 'Old foo note about the legacy queue.', ['projects:foo']);
    await s.call('memory_remove', { id: gone, reason: 'obsolete' });
    const before = (await s.call('memory_show', { id: a })).memories[0];

    assert.match(await s.fail('memory_rename_scope', { old_scope: 'projects:foo', new_scope: 'Projects:Bar' }), /new_scope "Projects:Bar" is not lowercase: use "projects:bar"/);
    assert.match(await s.fail('memory_rename_scope', { old_scope: 'nothing-here', new_scope: 'x' }), /no memory or tombstone has scope "nothing-here"/);
    assert.match(await s.fail('memory_rename_scope', { old_scope: 'infra', new_scope: 'infra' }), /both "infra"/);

    const r = await s.call('memory_rename_scope', { old_scope: 'projects:foo', new_scope: 'projects:bar' });
    assert.deepEqual(r, { active: [a, b].sort(), tombstoned: [gone] });
    const after = (await s.call('memory_show', { id: a })).memories[0];
    assert.deepEqual(after.scopes, ['infra', 'projects:bar:api']);
    assert.equal(after.updated, before.updated);
    const tomb = readdirSync(join(store, '.tombstones'));
    assert.match(readFileSync(join(store, '.tombstones', tomb[0]!), 'utf8'), /scopes: \[projects:bar\]/);

    const noTombs = await s.call('memory_rename_scope', { old_scope: 'projects:bar', new_scope: 'projects:baz', include_tombstones: false });
    assert.deepEqual(noTombs, { active: [a, b].sort(), tombstoned: [] });
  } finally {
    await s.close();
    removeDir(store);
    removeDir(cwd);
  }
});

test('scope_disable hides a scope from search and list for this process only', async () => {
  const store = tempDir('cairn-cur-store-');
  const cwd = tempDir('cairn-cur-cwd-');
  let s = await startServer({ store, cwd });
  try {
    const old = await write(s, 'Legacy project notes about the monolith build.', ['projects:old']);
    const keep = await write(s, 'The monolith build uses make.', ['tools']);
    assert.deepEqual(await s.call('memory_scope_disable', { scope: 'projects' }), { disabled_scopes: ['projects'] });
    const ids = (r: Record<string, any>, k: string) => (r[k] as { id: string }[]).map((x) => x.id);
    assert.deepEqual(ids(await s.call('memory_search', { query: 'monolith build', auto_scope: false }), 'hits'), [keep]);
    assert.deepEqual(ids(await s.call('memory_list', {}), 'items'), [keep]);
    assert.deepEqual((await s.call('memory_scope_overview', {})).disabled_scopes, ['projects']);
    assert.match(await s.fail('memory_scope_disable', { scope: 'Bad Scope' }), /scope "Bad Scope" is not a valid scope/);
    assert.deepEqual(await s.call('memory_scope_enable', { scope: 'projects' }), { disabled_scopes: [] });
    assert.ok(ids(await s.call('memory_list', {}), 'items').includes(old));

    await s.call('memory_scope_disable', { scope: 'tools' });
    await s.close();
    s = await startServer({ store, cwd });
    assert.deepEqual((await s.call('memory_scope_overview', {})).disabled_scopes, [], 'a restart clears disabled scopes');
    const kinds = readEvents(store).events.map((e) => e.kind);
    assert.ok(kinds.includes('scope_disable') && kinds.includes('scope_enable'));
  } finally {
    await s.close();
    removeDir(store);
    removeDir(cwd);
  }
});

test('commit drift debt: memories of the caller repo verified behind HEAD', async () => {
  const store = tempDir('cairn-cur-store-');
  const repo = tempRepo('https://github.com/acme/widgets.git');
  const origin = { cwd: repo, repo: 'git@github.com:acme/widgets.git', branch: 'main', worktree_root: repo };
  const behind = writeMemory(store, { body: 'The widget build runs make all.', scopes: ['build'], origin, last_verified_at: daysAgo(1) });
  writeMemory(store, { body: 'Unrelated repo note.', scopes: ['build'], origin: { ...origin, repo: 'git@github.com:acme/other.git' }, last_verified_at: daysAgo(1) });
  commit(repo, 'a.txt', 'a');
  commit(repo, 'b.txt', 'b');
  const s = await startServer({ store, cwd: repo });
  try {
    const h = await s.call('memory_health', {});
    assert.equal(h.commit_drift_debt.applies, true);
    assert.equal(h.commit_drift_debt.repo, 'github.com/acme/widgets');
    assert.deepEqual(h.commit_drift_debt.rows.map((r: { id: string; commits_since_verify: number }) => [r.id, r.commits_since_verify]), [[behind.id, 3]], 'the initial commit and two more, all after the verification');
  } finally {
    await s.close();
    removeDir(store);
    removeDir(repo);
  }
});

test('telemetry disabled: nothing recorded, record_use says so; rotation through the server', async () => {
  const store = tempDir('cairn-cur-store-');
  const cwd = tempDir('cairn-cur-cwd-');
  writeFileSync(join(store, 'config.toml'), '[telemetry]\nenabled = false\n');
  let s = await startServer({ store, cwd });
  try {
    const id = await write(s, 'Use ripgrep for code search.', ['tools']);
    await s.call('memory_search', { query: 'ripgrep' });
    assert.deepEqual(await s.call('memory_record_use', { memory_ids: [id], outcome: 'applied' }), { recorded: 0, outcome: 'applied', unknown_ids: [] });
    assert.ok(!existsSync(join(store, '.events.jsonl')));
    await s.close();

    writeFileSync(join(store, 'config.toml'), '[telemetry]\nmax_bytes = 10000\n');
    s = await startServer({ store, cwd });
    for (let i = 0; i < 60; i++) await s.call('memory_search', { query: `ripgrep search number ${i} ${'padding '.repeat(10)}` });
    const archives = readdirSync(store).filter((f) => f.startsWith('.events-'));
    assert.ok(archives.length >= 1, `rotated: ${readdirSync(store).join(', ')}`);
    assert.equal(readEvents(store).events.filter((e) => e.kind === 'search').length, 60);
  } finally {
    await s.close();
    removeDir(store);
    removeDir(cwd);
  }
});
