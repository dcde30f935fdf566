// Feedback-aware ranking through the bundle. Twins with the same text rank by id; after
// five `applied` outcomes the later twin rises above its equal; after one `contradicted` the
// earlier one falls below its twin; a weak match never rises above a strong one; explain shows
// the parts; `[ranking] feedback = false` turns it off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../helpers/mcp.ts';
import { fileNameFor, serializeMemory } from '../../src/core/store/memfile.ts';
import { newId } from '../../src/core/ids.ts';
import { testRecord } from '../helpers/records.ts';

function seed(bodies: string[], config = ''): { store: string; ids: string[] } {
  const store = mkdtempSync(join(tmpdir(), 'cairn-feedback-'));
  const t = Date.now() - 3 * 86_400_000;
  const at = new Date(t).toISOString();
  const ids = bodies.map((body, i) => {
    const rec = testRecord({ id: newId(t + i), created: at, updated: at, body });
    writeFileSync(join(store, fileNameFor(rec)), serializeMemory(rec));
    return rec.id;
  });
  if (config) writeFileSync(join(store, 'config.toml'), config);
  return { store, ids };
}

const TWIN = 'The billing worker retries failed webhooks three times with exponential backoff.';
const OTHER = 'The search service caches query plans in Redis for ten minutes.';
const WEAK = 'Webhooks are documented in the wiki.';

const order = (hits: { id: string }[], ids: string[]) => hits.map((h) => ids.indexOf(h.id));

test('applied five times rises above its equal twin; contradicted falls below; never across relevance bands', async () => {
  const { store, ids } = seed([TWIN, TWIN, OTHER, OTHER, WEAK]);
  const s = await startServer({ store, cwd: store });
  const q = { query: 'billing worker retries failed webhooks backoff', auto_scope: false, max_results: 5 };
  const before = await s.call('memory_search', { ...q, explain: true });
  const twins = before.hits.filter((h: { id: string }) => ids.indexOf(h.id) <= 1);
  assert.equal(twins.length, 2);
  assert.equal(twins[0].score, twins[1].score, 'equal twins');
  const [first, second] = twins.map((h: { id: string }) => h.id);
  assert.equal(before.hits[0].explain.feedback.multiplier, 1);
  for (let i = 0; i < 5; i++) await s.call('memory_record_use', { memory_ids: [second], outcome: 'applied' });
  const after = await s.call('memory_search', { ...q, explain: true });
  assert.equal(after.hits[0].id, second, `applied 5 times rises: ${JSON.stringify(after.hits.map((h: any) => [h.id, h.explain]))}`);
  assert.ok(after.hits[0].explain.feedback.multiplier > 1 && after.hits[0].explain.feedback.multiplier <= 1.15);
  assert.ok(after.hits[0].explain.bm25 > 0 && after.hits[0].explain.recency >= 1);
  // The weak match (one query word) stays below the strong ones whatever its feedback.
  const weak = ids[4]!;
  for (let i = 0; i < 10; i++) await s.call('memory_record_use', { memory_ids: [weak], outcome: 'applied' });
  const third = await s.call('memory_search', q);
  const rel = third.hits.map((h: { relevance: string }) => h.relevance);
  const rank: Record<string, number> = { high: 2, medium: 1, low: 0 };
  for (let i = 1; i < rel.length; i++) assert.ok(rank[rel[i - 1]]! >= rank[rel[i]]!, `bands stay ordered: ${rel}`);
  assert.notEqual(third.hits[0].id, weak);

  // The other pair: contradicting the one that ranks first sinks it below its twin.
  const q2 = { query: 'search service caches query plans redis', auto_scope: false, max_results: 5 };
  const b2 = await s.call('memory_search', q2);
  const top = b2.hits[0].id;
  assert.ok([ids[2], ids[3]].includes(top));
  await s.call('memory_record_use', { memory_ids: [top], outcome: 'contradicted', note: 'plans are cached for five minutes now' });
  const a2 = await s.call('memory_search', { ...q2, explain: true });
  assert.notEqual(a2.hits[0].id, top, 'contradicted falls below its twin');
  const sunk = a2.hits.find((h: { id: string }) => h.id === top);
  assert.ok(sunk.explain.feedback.multiplier < 1 && sunk.explain.feedback.multiplier >= 0.85);
  assert.deepEqual(order(b2.hits, ids).sort(), order(a2.hits, ids).sort(), 'same hits, new order');
  await s.close();
  void first;
});

test('[ranking] feedback = false keeps the plain order; bad ranking keys are refused', async () => {
  const { store, ids } = seed([TWIN, TWIN], '[ranking]\nfeedback = false\n');
  const s = await startServer({ store, cwd: store });
  const q = { query: 'billing worker retries failed webhooks backoff', auto_scope: false, explain: true };
  const before = await s.call('memory_search', q);
  for (let i = 0; i < 5; i++) await s.call('memory_record_use', { memory_ids: [before.hits[1].id], outcome: 'applied' });
  const after = await s.call('memory_search', q);
  assert.deepEqual(after.hits.map((h: { id: string }) => h.id), before.hits.map((h: { id: string }) => h.id));
  assert.equal(after.hits[0].explain.feedback.multiplier, 1);
  await s.close();
  void ids;
  const bad = seed([TWIN], '[ranking]\nfeedback_max_percent = 40\n');
  const { cli } = await import('../helpers/mcp.ts');
  const r = cli(['search', 'billing'], { store: bad.store, cwd: bad.store });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /ranking\.feedback_max_percent must be between 0 and 15, got 40/);
});
