import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeHealth, type HealthData } from '../../src/core/curation/health.ts';
import { editDistance, rareScopes } from '../../src/core/curation/rareScopes.ts';
import { markerStats } from '../../src/core/curation/usage.ts';
import type { CairnEvent } from '../../src/core/curation/events.ts';
import type { MemoryRecord } from '../../src/core/types.ts';
import { testRecord } from '../helpers/records.ts';
import { healthText } from '../../src/cli/commands/health.ts';

const NOW = new Date('2026-03-31T12:00:00.000Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();
let seq = 0;
const id = (n: number) => `01JQ3Z8V7M2K4T6Y9B1C3D5${String(n).padStart(3, '0')}`;

function mem(n: number, over: Partial<MemoryRecord> = {}): MemoryRecord {
  return testRecord({ id: id(n), created: daysAgo(60), scopes: ['tools'], body: `Memory number ${n}. More text follows here.`, ...over });
}
const ev = (ts: string, kind: string, fields: Record<string, unknown> = {}): CairnEvent => ({ ts, session: `s${seq++ % 3}`, kind, ...fields });
const search = (ts: string, ...ids: string[]) => ev(ts, 'search', { query: 'q', hits: ids.map((i) => ({ id: i, relevance: 'high' })) });
const use = (ts: string, outcome: string, ids: string[], note?: string) => ev(ts, 'use', { ids, outcome, ...(note ? { note } : {}) });

function data(active: MemoryRecord[], events: CairnEvent[], over: Partial<HealthData> = {}): HealthData {
  return { now: NOW, active, tombstones: [], events, staleAfterDays: 30, commitDrift: null, ...over };
}

test('dead weight: old enough, found by the model at medium/high relevance often enough, never applied; each row says why', () => {
  const a = mem(1), b = mem(2), c = mem(3), young = mem(4, { created: daysAgo(3) }), weak = mem(5), usedLongAgo = mem(6), byUser = mem(7);
  const hit = (ts: string, i: string, relevance: string, actor?: string) =>
    ev(ts, 'search', { query: 'q', hits: [{ id: i, relevance }], ...(actor ? { actor } : {}) });
  const events = [
    search(daysAgo(5), a.id, b.id), search(daysAgo(4), a.id), ev(daysAgo(3), 'show', { ids: [a.id, b.id] }), search(daysAgo(2), b.id),
    use(daysAgo(3), 'applied', [b.id]),
    search(daysAgo(45), c.id), search(daysAgo(44), c.id), search(daysAgo(43), c.id), search(daysAgo(1), c.id), // mostly outside the window
    search(daysAgo(2), young.id), search(daysAgo(2), young.id), search(daysAgo(1), young.id), // too young
    hit(daysAgo(3), weak.id, 'low'), hit(daysAgo(2), weak.id, 'low'), hit(daysAgo(1), weak.id, 'medium'), hit(daysAgo(1), weak.id, 'low'),
    use(daysAgo(300), 'applied', [usedLongAgo.id]), search(daysAgo(3), usedLongAgo.id), search(daysAgo(2), usedLongAgo.id), search(daysAgo(1), usedLongAgo.id),
    hit(daysAgo(3), byUser.id, 'high', 'user'), hit(daysAgo(2), byUser.id, 'high', 'user'), ev(daysAgo(1), 'show', { ids: [byUser.id], actor: 'user' }),
    hit(daysAgo(1), byUser.id, 'high'), hit(daysAgo(1), a.id, 'high', 'user'),
  ];
  const h = computeHealth(data([a, b, c, young, weak, usedLongAgo, byUser], events));
  assert.deepEqual(h.dead_weight.rows.map((r) => [r.id, r.retrieved, r.user_lookups]), [[a.id, 3, 1]]);
  assert.equal(h.dead_weight.count, 1);
  assert.deepEqual(h.dead_weight.rule, { min_age_days: 14, min_retrievals: 3, relevance: ['medium', 'high'], actor: 'model' });
  const row = h.dead_weight.rows[0]!;
  assert.equal(row.summary, 'Memory number 1.');
  assert.equal(row.age_days, 60);
  assert.equal(row.why, '60 days old (at least 14); found by the model 3 times at medium or high relevance in the last 30 days (at least 3); never applied; your own 1 lookup(s) not counted');
  assert.equal(h.totals.user_lookups_in_window, 4);

  // The rule comes from config: younger memories and a single retrieval qualify when asked to.
  const loose = computeHealth(data([a, young, weak, byUser], events, { deadWeight: { min_age_days: 0, min_retrievals: 1 } }));
  assert.deepEqual(loose.dead_weight.rows.map((r) => r.id).sort(), [a.id, young.id, weak.id, byUser.id].sort());
  assert.equal(loose.dead_weight.rows.find((r) => r.id === byUser.id)!.retrieved, 1);
});

test('cold: no retrieval in the window and created before it; oldest first', () => {
  const old = mem(1, { created: daysAgo(200) });
  const older = mem(2, { created: daysAgo(300) });
  const young = mem(3, { created: daysAgo(10) });
  const used = mem(4, { created: daysAgo(100) });
  const h = computeHealth(data([old, older, young, used], [search(daysAgo(1), used.id), search(daysAgo(90), old.id)]));
  assert.deepEqual(h.cold.rows.map((r) => r.id), [older.id, old.id]);
  assert.equal(h.cold.rows[1]!.last_retrieved, daysAgo(90));
  assert.equal(h.cold.rows[0]!.age_days, 300);
});

test('heavily used: applied at least min_applied times in the window', () => {
  const a = mem(1), b = mem(2);
  const events = [1, 2, 3, 4].map((d) => use(daysAgo(d), 'applied', [a.id])).concat([use(daysAgo(1), 'applied', [b.id]), use(daysAgo(2), 'applied', [b.id])]);
  const h = computeHealth(data([a, b], events));
  assert.deepEqual(h.heavily_used.rows.map((r) => [r.id, r.applied]), [[a.id, 4]]);
  const h2 = computeHealth(data([a, b], events), { window_days: 30, top_k: 10, min_applied: 2 });
  assert.deepEqual(h2.heavily_used.rows.map((r) => r.id), [a.id, b.id]);
});

test('contradicted: unresolved until a later update or verify; the timeline tells the story', () => {
  const open = mem(1);
  const fixedByUpdate = mem(2, { updated: daysAgo(1) });
  const fixedByVerify = mem(3, { last_verified_at: daysAgo(1) });
  const reopened = mem(4, { last_verified_at: daysAgo(10) });
  const events = [
    use(daysAgo(20), 'contradicted', [open.id], 'the script was renamed'),
    use(daysAgo(5), 'contradicted', [open.id]),
    use(daysAgo(5), 'contradicted', [fixedByUpdate.id, fixedByVerify.id]),
    ev(daysAgo(1), 'update', { id: fixedByUpdate.id, fields: ['content'] }),
    ev(daysAgo(1), 'verify', { id: fixedByVerify.id }),
    use(daysAgo(2), 'contradicted', [reopened.id]),
    use(daysAgo(1), 'corrected', [open.id]), // a correction is not a fix by itself
  ];
  const h = computeHealth(data([open, fixedByUpdate, fixedByVerify, reopened], events));
  assert.deepEqual(h.contradicted.rows.map((r) => r.id), [open.id, reopened.id]);
  const row = h.contradicted.rows[0]!;
  assert.equal(row.contradictions, 2);
  assert.equal(row.last_contradicted, daysAgo(5));
  assert.equal(row.last_resolved, null);
  assert.deepEqual(row.resolution_timeline.map((t) => t.event), ['created', 'contradicted', 'contradicted', 'corrected']);
  assert.equal(row.resolution_timeline[1]!.note, 'the script was renamed');
  const re = h.contradicted.rows[1]!;
  assert.equal(re.last_resolved, daysAgo(10));
  assert.deepEqual(re.resolution_timeline.map((t) => t.event), ['created', 'verified', 'contradicted']);
});

test('resolution timeline: a verify or update event a few ms after the record\'s stamp is one entry, not two', () => {
  const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
  const verified = mem(1, { last_verified_at: daysAgo(10) });
  const updated = mem(2, { updated: daysAgo(9) });
  const elsewhere = mem(3, { last_verified_at: daysAgo(8) }); // verified on another machine: no event here
  const events = [
    ev(at(daysAgo(10), 7), 'verify', { id: verified.id }),
    ev(at(daysAgo(9), 12), 'update', { id: updated.id, fields: ['content'] }),
    ev(daysAgo(12), 'verify', { id: elsewhere.id }), // an earlier verification, days before the stamp
    use(daysAgo(2), 'contradicted', [verified.id, updated.id, elsewhere.id]),
  ];
  const h = computeHealth(data([verified, updated, elsewhere], events));
  const tl = (i: string) => h.contradicted.rows.find((r) => r.id === i)!.resolution_timeline.map((t) => t.event);
  assert.deepEqual(tl(verified.id), ['created', 'verified', 'contradicted']);
  assert.deepEqual(tl(updated.id), ['created', 'updated', 'contradicted']);
  assert.deepEqual(tl(elsewhere.id), ['created', 'verified', 'verified', 'contradicted']);
});

test('rare scopes: singletons within edit distance 2 of another scope, short words spared', () => {
  assert.equal(editDistance('deployment', 'deploymnet'), 2);
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('abc', 'abcdef', 2), 3);
  const ms = [
    mem(1, { scopes: ['deployment'] }), mem(2, { scopes: ['deployment'] }), mem(3, { scopes: ['deploymnet'] }),
    mem(4, { scopes: ['tools', 'api'] }), mem(5, { scopes: ['tools'] }), mem(6, { scopes: ['tool', 'cli'] }),
    mem(7, { scopes: ['unique-thing'] }),
  ];
  const h = computeHealth(data(ms, []));
  assert.deepEqual(h.rare_scopes.rows.map((r) => [r.scope, r.id, r.similar_to.map((s) => s.scope)]), [
    ['deploymnet', id(3), ['deployment']],
    ['tool', id(6), ['tools']],
  ]);
  // api/cli are distance 2 but three letters long: different words, not typos.
  const counts = new Map([['api', 1], ['cli', 1]]);
  assert.deepEqual(rareScopes(counts, new Map([['api', 'x'], ['cli', 'y']])), []);
});

test('scope health per scope, and verification debt whose counts sum to the active total', () => {
  const ms = [
    mem(1, { scopes: ['a-scope'], last_verified_at: daysAgo(2) }),
    mem(2, { scopes: ['a-scope', 'b-scope'], last_verified_at: daysAgo(45) }),
    mem(3, { scopes: ['b-scope'], created: daysAgo(100) }),
    mem(4, { scopes: ['b-scope'], expires: daysAgo(1), last_verified_at: daysAgo(100) }),
  ];
  const events = [
    search(daysAgo(3), id(1)), search(daysAgo(2), id(1)), search(daysAgo(1), id(1)),
    use(daysAgo(1), 'applied', [id(2)]), search(daysAgo(1), id(2)), use(daysAgo(1), 'contradicted', [id(2)]),
  ];
  const h = computeHealth(data(ms, events), { window_days: 30, top_k: 2, min_applied: 3 });
  assert.deepEqual(h.scope_health, [
    { scope: 'a-scope', active: 2, dead: 1, cold: 0, contradicted: 1, applied: 1 },  // id(1): three strong retrievals, never applied
    { scope: 'b-scope', active: 3, dead: 0, cold: 1, contradicted: 1, applied: 1 },
  ]);
  const v = h.verification_debt;
  assert.deepEqual([v.never, v.stale, v.fresh], [1, 2, 1]);
  assert.equal(v.never + v.stale + v.fresh, h.totals.active);
  assert.equal(v.rows.length, 2, 'rows capped at top_k');
  assert.deepEqual(v.rows.map((r) => [r.id, r.status]), [[id(3), 'never'], [id(4), 'stale']]);
});

test('expired, commit drift debt, orphan use events and totals', () => {
  const ms = [mem(1, { expires: daysAgo(3) }), mem(2, { last_verified_at: daysAgo(9) }), mem(3, { last_verified_at: daysAgo(9) })];
  const tomb = mem(9);
  const events = [use(daysAgo(1), 'applied', [id(1), id(77)]), use(daysAgo(1), 'ignored', [id(78)]), use(daysAgo(1), 'applied', [tomb.id])];
  const drift = { repo: 'github.com/me/foo', commitsSinceVerify: new Map([[id(2), 4], [id(3), 0]]) };
  const h = computeHealth(data(ms, events, { tombstones: [tomb], commitDrift: drift }));
  assert.deepEqual(h.expired.rows.map((r) => [r.id, r.expires]), [[id(1), daysAgo(3)]]);
  assert.deepEqual(h.commit_drift_debt, {
    applies: true, repo: 'github.com/me/foo', count: 1,
    rows: [{ id: id(2), scopes: ['tools'], summary: 'Memory number 2.', commits_since_verify: 4, last_verified_at: daysAgo(9) }],
  });
  assert.deepEqual(h.orphan_use_events, { count: 2, ids: [id(77), id(78)] });
  assert.deepEqual(h.totals, {
    active: 3, expired: 1, tombstoned: 1, scopes: 1, events: 3, events_in_window: 3, retrievals_in_window: 0, user_lookups_in_window: 0,
    // id(77) and id(78) never existed: orphans, not uses; the tombstone counts (it was a memory)
    uses_in_window: { applied: 2, ignored: 0, contradicted: 0, corrected: 0 },
  });
  const outside = computeHealth(data(ms, []));
  assert.deepEqual(outside.commit_drift_debt, { applies: false, repo: null, count: 0, rows: [] });
});

test('marker stats: a warning then an acknowledged write is one fire and one override', () => {
  const w = (session: string, status: string, markers: string[], ack = false): CairnEvent => ({
    ts: daysAgo(1), session, kind: 'write', status, markers, acknowledge_transient: ack,
  });
  const stats = markerStats([
    w('A', 'transient_warning', ['currently', 'commit sha']),
    w('A', 'committed', ['currently', 'commit sha'], true),
    w('B', 'transient_warning', ['currently']),
    w('B', 'committed', [], false), // rewrote without the marker: not an override
    w('C', 'committed', ['yesterday'], true), // acknowledged up front: a fire and an override
    w('C', 'duplicate', ['yesterday'], true), // stopped by a later gate: its retry is what counts
    w('C', 'pending', ['yesterday'], true),
  ]);
  assert.deepEqual(stats, [
    { marker: 'currently', fires: 2, overrides: 1, override_rate: 0.5 },
    { marker: 'yesterday', fires: 2, overrides: 2, override_rate: 1 },
    { marker: 'commit sha', fires: 1, overrides: 1, override_rate: 1 },
  ]);
});

test('marker stats count updates: a refused update is a fire, an acknowledged one an override; write_confirm is not counted again', () => {
  const e = (session: string, kind: string, fields: Record<string, unknown>): CairnEvent => ({ ts: daysAgo(1), session, kind, ...fields });
  const stats = markerStats([
    e('A', 'update_refused', { id: id(1), status: 'transient_warning', markers: ['currently'], acknowledge_transient: false }),
    e('A', 'update', { id: id(1), markers: ['currently'], acknowledge_transient: true }), // answers the refusal: 1 fire, 1 override
    e('B', 'update_refused', { id: id(2), status: 'transient_warning', markers: ['right now'], acknowledge_transient: false }), // reworded: fire only
    e('B', 'update', { id: id(2) }),
    e('C', 'update', { id: id(3), markers: ['right now'], acknowledge_transient: true }), // up front: fire and override
    e('D', 'write', { status: 'transient_warning', markers: ['currently'], acknowledge_transient: false }),
    e('D', 'update', { id: id(4), markers: ['currently'], acknowledge_transient: true }), // a write's warning does not answer an update
    e('E', 'write', { status: 'pending', markers: ['yesterday'], acknowledge_transient: true }),
    e('E', 'write_confirm', { id: id(5), markers: ['yesterday'], acknowledge_transient: true }),
  ]);
  assert.deepEqual(stats, [
    { marker: 'currently', fires: 3, overrides: 2, override_rate: 0.667 },
    { marker: 'right now', fires: 2, overrides: 1, override_rate: 0.5 },
    { marker: 'yesterday', fires: 1, overrides: 1, override_rate: 1 },
  ]);
});

test('a verification dated in the future is debt that says so, first among the stale rows, and never "verified 0 days ago"', () => {
  const ahead = new Date(NOW.getTime() + 400 * 86_400_000).toISOString();
  const ms = [
    mem(1, { last_verified_at: daysAgo(45) }), // stale
    mem(2, { last_verified_at: ahead }), // a clock set wrong, or a hand edit
    mem(3, { last_verified_at: daysAgo(2) }), // fresh
    mem(4), // never
  ];
  const h = computeHealth(data(ms, []));
  const v = h.verification_debt;
  assert.deepEqual([v.never, v.stale, v.fresh], [1, 2, 1]);
  assert.deepEqual(v.rows.map((r) => [r.id, r.status, r.last_verified_at]), [[id(4), 'never', null], [id(2), 'stale', ahead], [id(1), 'stale', daysAgo(45)]]);
  const future = v.rows[1]!;
  assert.match(future.warning ?? '', new RegExp(`last_verified_at ${ahead} is in the future \\(400 days ahead\\).*vouches for nothing`));
  assert.equal(v.rows[2]!.warning, undefined);

  const text = healthText({ ...h, dangling_links: { count: 0, items: [] }, store: 'personal' } as Parameters<typeof healthText>[0]);
  assert.match(text, new RegExp(`${id(2)}  verified in the future \\(${ahead.slice(0, 10)}\\)`));
  assert.match(text, /why: last_verified_at .* is in the future \(400 days ahead\)/);
  assert.match(text, new RegExp(`${id(1)}  verified 45 days ago`));
  assert.doesNotMatch(text, /verified 0 days ago/);
});

test('each section counts every memory it holds and shows the first top_k in its order', () => {
  // Cold rows oldest first, verification debt never-verified first then longest unverified,
  // whatever order the memories come in.
  const ms = Array.from({ length: 40 }, (_, i) => mem(i + 1, { created: daysAgo(100 + ((i * 7) % 40)), last_verified_at: i % 3 === 0 ? null : daysAgo(31 + ((i * 11) % 40)) }));
  const h = computeHealth(data([...ms].reverse(), []), { window_days: 30, top_k: 5, min_applied: 3 });
  const byCreated = [...ms].sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : 1));
  assert.equal(h.cold.count, 40);
  assert.deepEqual(h.cold.rows.map((r) => r.id), byCreated.slice(0, 5).map((m) => m.id));
  const age = (m: MemoryRecord) => (m.last_verified_at === null ? Infinity : NOW.getTime() - Date.parse(m.last_verified_at));
  const debt = [...ms].sort((a, b) => (a.last_verified_at === null) !== (b.last_verified_at === null) ? (a.last_verified_at === null ? -1 : 1) : age(b) - age(a) || (a.id < b.id ? -1 : 1));
  assert.equal(h.verification_debt.never + h.verification_debt.stale, 40);
  assert.deepEqual(h.verification_debt.rows.map((r) => r.id), debt.slice(0, 5).map((m) => m.id));
  assert.ok(h.cold.rows.every((r) => r.summary.startsWith('Memory number')));
});
