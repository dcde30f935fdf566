// The fusion of the lexical and semantic legs: alternates are searched joined with the query, so
// the ranking never sees fewer words than plain BM25 over that joined text; alternates never make
// a hit `high`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SearchIndex, type IndexDoc } from '../../src/core/index/searchIndex.ts';
import { fuse, joinedQuery, type SemanticHit } from '../../src/core/index/fusion.ts';

const NOW = Date.parse('2026-03-01T00:00:00.000Z');
const at = new Date(NOW - 10 * 86_400_000).toISOString();
const doc = (id: string, body: string): IndexDoc => ({ id, body, scopes: ['notes'], created: at, updated: at });
const cal = { high: 0.8, medium: 0.6, floor: 0.15 };
const opts = { limit: 20, now: NOW };

const docs = [
  doc('INV', 'The billing service mails each customer a PDF invoice on the first day of the month.'),
  doc('PAY', 'Card payments go through the payment provider; refunds take five business days.'),
  doc('CRON', 'Scheduled jobs run from the ops cron host; the first of the month runs the backups.'),
  doc('PDF', 'Reports are rendered to PDF with the headless browser in the reports worker.'),
];
const ix = new SearchIndex<IndexDoc>();
ix.load(docs);

function run(query: string, alternates: string[], sem: (text: string) => SemanticHit<IndexDoc>[] = () => []) {
  const j = joinedQuery(query, alternates);
  return fuse({
    limit: 5,
    main: { lexical: ix.search(query, opts), semantic: sem(query) },
    alternates,
    ...(alternates.length > 0 ? { joined: { lexical: ix.search(j, opts), semantic: sem(j) } } : {}),
    calibration: cal,
  });
}

test('with alternates and no vectors the ranking is the joined query\'s lexical ranking', () => {
  const alternates = ['billing invoice pdf emailed monthly', 'customer invoices by mail'];
  const fused = run('when are people charged', alternates).map((h) => h.doc.id);
  const joined = ix.search(joinedQuery('when are people charged', alternates), { ...opts, limit: 5 }).map((h) => h.doc.id);
  assert.deepEqual(fused, joined);
  assert.equal(fused[0], 'INV');
});

test('a hit found through the alternates alone is `medium` at most, whatever its coverage of them', () => {
  const hits = run('when are people charged', ['billing service mails customer pdf invoice']);
  const inv = hits.find((h) => h.doc.id === 'INV')!;
  assert.equal(inv.relevance, 'medium');
  assert.deepEqual(inv.matchTerms, [], 'match_terms are the main query\'s words only');
  // The same memory covered by the main query itself is `high`.
  assert.equal(run('billing service customer pdf invoice', ['bill']).find((h) => h.doc.id === 'INV')!.relevance, 'high');
});

test('a semantic neighbour of the joined text ranks; only the main query\'s cosine makes `high`', () => {
  const byId = new Map(docs.map((d) => [d.id, d]));
  // The main query's vector is far from everything; the joined text's is close to INV.
  const sem = (text: string): SemanticHit<IndexDoc>[] => (text.includes('\n') ? [{ doc: byId.get('INV')!, sim: 0.95 }, { doc: byId.get('PDF')!, sim: 0.5 }] : [{ doc: byId.get('PAY')!, sim: 0.3 }]);
  const hits = run('what arrives on day one', ['the thing customers receive'], sem);
  assert.equal(hits[0]!.doc.id, 'INV');
  assert.equal(hits[0]!.relevance, 'medium', 'a close neighbour of the alternates is not `high`');
  assert.ok(!hits.some((h) => h.relevance === 'high'));
});

test('without alternates a lexical hit weighs by its coverage: a one-word match does not outrank a close neighbour', () => {
  const byId = new Map(docs.map((d) => [d.id, d]));
  // "first" matches CRON (one word of four); INV is the meaning's nearest neighbour.
  const sem = (): SemanticHit<IndexDoc>[] => [{ doc: byId.get('INV')!, sim: 0.7 }, { doc: byId.get('PDF')!, sim: 0.4 }];
  const hits = run('first statement customers receive', [], sem);
  assert.equal(hits[0]!.doc.id, 'INV');
});

test('an embedder with a lexical floor: without alternates a hit on few of the query\'s words does not rank beside its neighbours', () => {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const sem = (): SemanticHit<IndexDoc>[] => [{ doc: byId.get('INV')!, sim: 0.7 }, { doc: byId.get('PAY')!, sim: 0.4 }];
  const query = 'first statement customers receive';
  const plain = fuse({ limit: 5, main: { lexical: ix.search(query, opts), semantic: sem() }, alternates: [], calibration: cal }).map((h) => h.doc.id);
  assert.ok(plain.includes('CRON'), 'without a floor the one-word hit ranks');
  const floored = fuse({ limit: 5, main: { lexical: ix.search(query, opts), semantic: sem() }, alternates: [], calibration: { ...cal, lexFloor: 0.4 } }).map((h) => h.doc.id);
  assert.deepEqual(floored, ['INV', 'PAY']);
  // With no semantic neighbour at all the lexical order stands, floor or not.
  const alone = fuse({ limit: 5, main: { lexical: ix.search(query, opts), semantic: [] }, alternates: [], calibration: { ...cal, lexFloor: 0.4 } });
  assert.ok(alone.some((h) => h.doc.id === 'CRON'));
});
