// memory_consolidate through the bundle: a contradiction pair ("TTL is 5 minutes" vs
// "TTL is ten minutes"), a superseded chain, a near-duplicate cluster; unrelated memories in no
// group; paging; bad input refused; memory_health points to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../helpers/mcp.ts';
import { fileNameFor, serializeMemory } from '../../src/core/store/memfile.ts';
import { newId } from '../../src/core/ids.ts';
import { testRecord } from '../helpers/records.ts';

const BODIES = [
  'The session cache TTL is 5 minutes in the api gateway.',
  'The session cache TTL is ten minutes in the api gateway.',
  'Deploys to staging run from the deploy-staging workflow.',
  'Deploys to staging run from the deploy-staging workflow; production deploys need a manual approval from the release manager in GitHub Actions.',
  'Use pnpm, never npm, in the web monorepo because npm breaks the pnpm lockfile.',
  'In the web monorepo use pnpm and never npm because npm breaks the lockfile of pnpm workspaces.',
  'In the web monorepo always use pnpm never npm since npm breaks the pnpm lockfile.',
  'The office wifi password rotates every quarter.',
  'Grafana dashboards live in the observability folder of the infra repo.',
];

test('memory_consolidate finds contradictions, superseded chains and duplicate clusters, pages, and health points to it', async () => {
  const store = mkdtempSync(join(tmpdir(), 'cairn-consolidate-'));
  const t = Date.now() - 5 * 86_400_000;
  const ids = BODIES.map((body, i) => {
    const rec = testRecord({ id: newId(t + i * 1000), body, scopes: ['ops'] });
    writeFileSync(join(store, fileNameFor(rec)), serializeMemory(rec));
    return rec.id;
  });
  const s = await startServer({ store, cwd: store });
  const out = await s.call('memory_consolidate', { scopes: ['ops'] });
  const kinds = out.groups.map((g: { kind: string }) => g.kind);
  assert.deepEqual(kinds, ['contradiction', 'superseded', 'duplicates'], JSON.stringify(out.groups, null, 1));
  const [contra, sup, dup] = out.groups;
  assert.deepEqual(contra.ids, [ids[0], ids[1]]);
  assert.match(contra.reason, /same subject .* different values \(5 vs 10\)/);
  assert.match(contra.suggested_action, /which value holds/);
  assert.deepEqual(sup.ids, [ids[2], ids[3]]);
  assert.match(sup.suggested_action, new RegExp(`memory_remove ${ids[2]}`));
  assert.deepEqual(dup.ids, [ids[4], ids[5], ids[6]]);
  assert.equal(out.total_groups, 3);
  assert.equal(out.scanned, BODIES.length);
  assert.equal(out.next_cursor, null);
  for (const lone of [ids[7]!, ids[8]!]) assert.ok(!out.groups.some((g: { ids: string[] }) => g.ids.includes(lone)));

  const p1 = await s.call('memory_consolidate', { limit: 2 });
  assert.equal(p1.groups.length, 2);
  assert.ok(p1.next_cursor);
  const p2 = await s.call('memory_consolidate', { limit: 2, cursor: p1.next_cursor });
  assert.deepEqual([...p1.groups, ...p2.groups], out.groups);
  assert.equal(p2.next_cursor, null);

  assert.match(await s.fail('memory_consolidate', { cursor: 'bogus' }), /cursor must be the next_cursor/);
  assert.match(await s.fail('memory_consolidate', { limit: 0 }), /limit/);

  const health = await s.call('memory_health', {});
  assert.deepEqual(health.consolidation, { groups: 3, contradictions: 1, superseded: 1, duplicates: 1, next_step: 'run /memory-consolidate (or call memory_consolidate) to review and merge them' });
  // Read-only: nothing changed.
  const list = await s.call('memory_list', {});
  assert.equal(list.items.length, BODIES.length);
  await s.close();
});

test('memory_consolidate groups a reworded fact, follows writes and removals, and leaves distinct notes alone', async () => {
  const store = mkdtempSync(join(tmpdir(), 'cairn-consolidate-reword-'));
  const t = Date.now() - 5 * 86_400_000;
  const bodies = [
    'Lark API responses are cached in Redis for five minutes',
    'The Lark API caches its responses in Redis with a five minute TTL',
    'The office wifi password rotates every quarter.',
    'Grafana dashboards live in the observability folder of the infra repo.',
    'Deploys to staging run from the deploy-staging workflow.',
  ];
  const ids = bodies.map((body, i) => {
    const rec = testRecord({ id: newId(t + i * 1000), body, scopes: ['ops'] });
    writeFileSync(join(store, fileNameFor(rec)), serializeMemory(rec));
    return rec.id;
  });
  const s = await startServer({ store, cwd: store });
  const out = await s.call('memory_consolidate', {});
  assert.deepEqual(out.groups.map((g: { kind: string; ids: string[] }) => [g.kind, g.ids]), [['duplicates', [ids[0], ids[1]]]], JSON.stringify(out.groups, null, 1));
  assert.equal(out.scanned, bodies.length);

  // A later write that contradicts the cached TTL is judged on the next call.
  const w = await s.call('memory_write', { content: 'Lark API responses are cached in Redis for ten minutes', scopes: ['ops'], force: true });
  const after = await s.call('memory_consolidate', {});
  assert.ok(after.groups.some((g: { kind: string; ids: string[] }) => g.kind === 'contradiction' && g.ids.includes(w.id)), JSON.stringify(after.groups, null, 1));
  const health = await s.call('memory_health', {});
  assert.equal(health.consolidation.groups, after.total_groups);
  // A removal takes its pairs with it.
  await s.call('memory_remove', { id: w.id, reason: 'wrong TTL' });
  await s.call('memory_remove', { id: ids[1], reason: 'said twice' });
  const end = await s.call('memory_consolidate', {});
  assert.deepEqual(end.groups, []);
  assert.equal((await s.call('memory_health', {})).consolidation.groups, 0);
  await s.close();
});

test('memory_consolidate compares memories only where they apply together; the next server takes back what one judged', async () => {
  const store = mkdtempSync(join(tmpdir(), 'cairn-consolidate-place-'));
  const t = Date.now() - 5 * 86_400_000;
  const note = (project: string, minutes: number) => `The ${project} API caches responses in redis for ${minutes} minutes; invalidate the keys after a schema change.`;
  const from = (project: string) => ({ cwd: `/src/${project}`, repo: `git@github.com:acme/${project}.git`, branch: 'main', worktree_root: `/src/${project}` });
  const write = (i: number, body: string, project: string) => {
    const rec = testRecord({ id: newId(t + i * 1000), body, scopes: [`projects:${project}`], origin: from(project) });
    writeFileSync(join(store, fileNameFor(rec)), serializeMemory(rec));
    return rec.id;
  };
  const ids = [
    write(0, note('alpha', 5), 'alpha'),
    write(1, note('alpha', 10), 'alpha'),
    write(2, note('beta', 10), 'beta'), // beta's own TTL: not alpha's contradiction
    write(3, 'Run the migrations before the deploy, never after.', 'alpha'),
    write(4, 'Run the migrations before the deploy, never after.', 'beta'), // the same words for another project
  ];
  const s = await startServer({ store, cwd: store });
  const out = await s.call('memory_consolidate', {});
  assert.deepEqual(out.groups.map((g: { kind: string; ids: string[] }) => [g.kind, g.ids]), [['contradiction', [ids[0], ids[1]]]], JSON.stringify(out.groups, null, 1));
  await s.close();

  // The server kept what it judged; the next one takes it back (a pair planted in the cache shows).
  const file = join(store, '.cache', 'consolidation.json');
  const snap = JSON.parse(readFileSync(file, 'utf8')) as { ids: string[]; strings: string[]; pairs: number[] };
  snap.strings.push('planted');
  snap.pairs.push(snap.ids.indexOf(ids[3]!), snap.ids.indexOf(ids[2]!), 1, snap.strings.length - 1, snap.strings.length - 1);
  writeFileSync(file, JSON.stringify(snap));
  const s2 = await startServer({ store, cwd: store });
  const again = await s2.call('memory_consolidate', {});
  assert.equal(again.total_groups, 2);
  assert.ok(again.groups.some((g: { reason: string }) => g.reason === 'planted'));
  await s2.close();
});
