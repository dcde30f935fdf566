// Through the built bundle (MCP over stdio, and the CLI): memory_update's durability gate on
// aliases, refused and acknowledged updates in marker_stats, write_confirm carrying the markers
// of its pending write, one entry per verification in resolution_timeline, and uses_in_window
// counting only ids that exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cli, startServer } from '../helpers/mcp.ts';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { readEvents } from '../../src/core/curation/events.ts';

test('update markers, write_confirm markers, resolution timeline and uses over stdio', async () => {
  const store = tempDir('cairn-upd-store-');
  const repo = tempRepo(); // verify reads git HEAD: its event lands some ms after last_verified_at
  const s = await startServer({ store, cwd: repo });
  try {
    // memory_update: an added alias with time-bound wording is refused (and logged), then acknowledged.
    const m = await s.call('memory_write', { content: 'The billing worker retries failed charges three times.', scopes: ['billing'] });
    const file = readFileSync(m.file, 'utf8');
    const err = await s.fail('memory_update', { id: m.id, aliases: ['currently flaky retries'] });
    assert.match(err, /aliases read as the state of the moment: "currently"/);
    assert.match(err, /acknowledge_transient=true/);
    assert.equal(readFileSync(m.file, 'utf8'), file, 'a refused update changes nothing');
    const ok = await s.call('memory_update', { id: m.id, aliases: ['currently flaky retries'], acknowledge_transient: true });
    assert.equal(ok.status, 'committed');
    assert.deepEqual(ok.aliases, ['currently flaky retries']);
    // A refused content update, then reworded: a fire without an override.
    await s.fail('memory_update', { id: m.id, content: 'Right now the worker retries twice.' });
    await s.call('memory_update', { id: m.id, content: 'Since v2.3 the worker retries twice.' });

    // A pending write with an acknowledged marker: write_confirm carries the markers.
    const p = await s.call('memory_write', { content: 'The user prefers for now to review every migration by hand.', scopes: ['preferences'], category: 'user-inference', acknowledge_transient: true });
    assert.equal(p.status, 'pending');
    const confirmed = await s.call('memory_write_confirm', { pending_id: p.pending_id });

    // Verified, then contradicted: the timeline lists the verification once.
    const v = await s.call('memory_write', { content: 'Deploys go through scripts/deploy.sh with the prod flag.', scopes: ['deployment'] });
    await s.call('memory_verify', { id: v.id });
    await s.call('memory_record_use', { memory_ids: [v.id, '01JQ3Z8V7M2K4T6Y9B1C3D5F7H'], outcome: 'contradicted' });

    const events = readEvents(store).events;
    const refused = events.filter((e) => e.kind === 'update_refused');
    assert.deepEqual(refused.map((e) => [e.id, e.markers, e.status]), [[m.id, ['currently'], 'transient_warning'], [m.id, ['right now'], 'transient_warning']]);
    const conf = events.find((e) => e.kind === 'write_confirm')!;
    assert.equal(conf.id, confirmed.id);
    assert.deepEqual(conf.markers, ['for now']);
    assert.equal(conf.acknowledge_transient, true);

    const h = await s.call('memory_health', {});
    const stat = (marker: string) => h.marker_stats.find((x: { marker: string }) => x.marker === marker);
    assert.deepEqual(stat('currently'), { marker: 'currently', fires: 1, overrides: 1, override_rate: 1 });
    assert.deepEqual(stat('right now'), { marker: 'right now', fires: 1, overrides: 0, override_rate: 0 });
    assert.deepEqual(stat('for now'), { marker: 'for now', fires: 1, overrides: 1, override_rate: 1 }, 'counted at the pending write, not again at confirm');
    const row = h.contradicted.rows.find((r: { id: string }) => r.id === v.id);
    assert.deepEqual(row.resolution_timeline.map((t: { event: string }) => t.event), ['created', 'verified', 'contradicted']);
    assert.equal(h.totals.uses_in_window.contradicted, 1, 'the id that never existed is not a use');
    assert.deepEqual(h.orphan_use_events, { count: 1, ids: ['01JQ3Z8V7M2K4T6Y9B1C3D5F7H'] });
  } finally {
    await s.close();
  }

  // The CLI: cairn update refuses an alias with time-bound wording and takes --acknowledge-transient.
  try {
    const id = JSON.parse(cli(['remember', 'The nightly export writes to the archive bucket.', '--scope', 'ops', '--json'], { store, cwd: repo }).stdout).id as string;
    const r = cli(['update', id, '--alias', 'export at the moment'], { store, cwd: repo });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /read as the state of the moment: "at the moment"/);
    assert.match(r.stderr, /or pass --acknowledge-transient to store it as written/);
    const ok = cli(['update', id, '--alias', 'export at the moment', '--acknowledge-transient', '--json'], { store, cwd: repo });
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout).aliases, ['export at the moment']);
    assert.equal(cli(['update', id, '--acknowledge-transient'], { store, cwd: repo }).code, 2, 'the flag alone changes nothing');
  } finally {
    removeDir(store);
    removeDir(repo);
  }
});
