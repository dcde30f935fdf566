// Through the built bundle: dead weight is a memory at least 14 days old (config),
// found by the MODEL at medium or high relevance at least 3 times (config) and never applied.
// Fresh memories never qualify; the user's own lookups (CLI search/show/list, and memory_search /
// memory_show with for_user, as /memory-search calls them) are logged with actor "user" and never
// count; every row says why it qualified.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, startServer } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { readEvents } from '../../src/core/curation/events.ts';
import { retrievalsOf } from '../../src/core/curation/usage.ts';

/** The user's lookups the log holds: one per id a user search or show returned (the semantic leg may add neighbours to a search). */
const userLookups = (store: string, id?: string) =>
  readEvents(store).events.filter((e) => e.actor === 'user').flatMap((e) => retrievalsOf(e)).filter((r) => id === undefined || r.id === id).length;
import { daysAgo, writeMemory } from '../curation/fixtures/store.ts';

test('fresh memories retrieved by the model are not dead weight, and /memory-health is not offered them', async () => {
  const store = tempDir('cairn-dead-');
  const s = await startServer({ store, cwd: store });
  try {
    const a = (await s.call('memory_write', { content: 'The payments service retries webhooks five times.', scopes: ['payments'] })).id;
    const b = (await s.call('memory_write', { content: 'Invoices are rendered with the pdfkit library.', scopes: ['payments'] })).id;
    for (let i = 0; i < 4; i++) {
      await s.call('memory_search', { query: 'payments webhooks retries' });
      await s.call('memory_search', { query: 'invoices pdfkit' });
    }
    await s.call('memory_show', { ids: [a, b] });
    const h = await s.call('memory_health', {});
    assert.equal(h.dead_weight.count, 0, JSON.stringify(h.dead_weight));
    assert.equal(h.scope_health.find((x: { scope: string }) => x.scope === 'payments').dead, 0);
    assert.equal((await s.call('memory_scope_overview', {})).curation_pending.dead, 0);
  } finally {
    await s.close();
    removeDir(store);
  }
});

test('the user\'s lookups never count; the model\'s strong retrievals of an old, unused memory do, with the reason', async () => {
  const store = tempDir('cairn-dead-');
  const old = writeMemory(store, { body: 'The billing service deploys with make ship-billing from the ops box.', scopes: ['billing'], created: daysAgo(40) });
  const other = writeMemory(store, { body: 'The finance dashboard lives in Grafana under Reports.', scopes: ['finance'], created: daysAgo(40) });
  // The user looks it up, a lot, from the terminal.
  for (let i = 0; i < 4; i++) assert.equal(cli(['search', 'billing', 'deploys'], { store, cwd: store }).code, 0);
  assert.equal(cli(['show', old.id], { store, cwd: store }).code, 0);
  assert.equal(cli(['list'], { store, cwd: store }).code, 0);
  const logged = readEvents(store).events.filter((e) => ['search', 'show', 'list'].includes(e.kind));
  assert.equal(logged.length, 6);
  assert.ok(logged.every((e) => e.actor === 'user'), JSON.stringify(logged));

  const s = await startServer({ store, cwd: store });
  try {
    // /memory-search runs the tools with for_user: the user's lookups too.
    for (let i = 0; i < 3; i++) await s.call('memory_search', { query: 'billing deploys', for_user: true });
    await s.call('memory_show', { id: old.id, for_user: true });
    // Weak model hits (low relevance) do not count either. They are retrievals all the same:
    // how many there are depends on the embedding table (which memories clear its cosine floor).
    let weak = 0;
    for (let i = 0; i < 3; i++) {
      const hits = (await s.call('memory_search', { query: 'billing quantum flux capacitor zebra' })).hits;
      assert.ok(hits.length > 0 && hits.every((x: { relevance: string }) => x.relevance === 'low'), JSON.stringify(hits));
      weak += hits.length;
    }
    let h = await s.call('memory_health', {});
    assert.equal(h.dead_weight.count, 0, JSON.stringify(h.dead_weight));
    assert.equal(h.totals.user_lookups_in_window, userLookups(store));
    assert.ok(userLookups(store, old.id) >= 4 + 1 + 3 + 1);
    assert.equal(h.totals.retrievals_in_window, weak);

    // Three strong retrievals by the model, never applied: now it qualifies, and says why.
    for (let i = 0; i < 3; i++) {
      const hits = (await s.call('memory_search', { query: 'billing deploys' })).hits;
      assert.equal(hits.find((x: { id: string }) => x.id === old.id)?.relevance, 'high');
    }
    h = await s.call('memory_health', {});
    assert.deepEqual(h.dead_weight.rows.map((r: { id: string }) => r.id), [old.id]);
    const row = h.dead_weight.rows[0];
    assert.equal(row.retrieved, 3);
    assert.equal(row.user_lookups, userLookups(store, old.id));
    assert.equal(row.user_lookups, 4 + 1 + 3 + 1);
    assert.equal(row.why, '40 days old (at least 14); found by the model 3 times at medium or high relevance in the last 30 days (at least 3); never applied; your own 9 lookup(s) not counted');
    assert.deepEqual(h.dead_weight.rule, { min_age_days: 14, min_retrievals: 3, relevance: ['medium', 'high'], actor: 'model' });
    assert.equal((await s.call('memory_scope_overview', {})).curation_pending.dead, 1);
    assert.ok(!h.dead_weight.rows.some((r: { id: string }) => r.id === other.id));

    const text = cli(['health'], { store, cwd: store });
    assert.match(text.stdout, /Dead weight: 14\+ days old, found by the model 3\+ times at medium\/high relevance in the last 30 days, never applied \(1\)/);
    assert.match(text.stdout, /why: 40 days old \(at least 14\)/);

    // One `applied` and it is not dead weight any more.
    await s.call('memory_record_use', { memory_ids: [old.id], outcome: 'applied' });
    assert.equal((await s.call('memory_health', {})).dead_weight.count, 0);
    assert.match(await s.fail('memory_search', { query: 'billing', for_user: 'yes' }), /for_user/);
  } finally {
    await s.close();
  }

  // The age threshold is config: at 60 days the same memory is too young to judge.
  writeFileSync(join(store, 'config.toml'), '[curation]\ndead_weight_min_age_days = 60\n');
  const s2 = await startServer({ store, cwd: store });
  try {
    for (let i = 0; i < 3; i++) await s2.call('memory_search', { query: 'finance dashboard grafana' });
    assert.equal((await s2.call('memory_health', {})).dead_weight.count, 0);
  } finally {
    await s2.close();
  }
  writeFileSync(join(store, 'config.toml'), '[curation]\ndead_weight_min_age_days = -1\n');
  const bad = cli(['health'], { store, cwd: store });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /config key curation\.dead_weight_min_age_days must be between 0 and 36500, got -1/);
  assert.ok(readFileSync(join(store, 'config.toml'), 'utf8').includes('-1'));
  removeDir(store);
});
