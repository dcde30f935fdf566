import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SearchIndex, type IndexDoc } from '../../src/core/index/searchIndex.ts';
import { relevanceOf } from '../../src/core/index/rerank.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2026-03-01T00:00:00.000Z');
let seq = 0;
function doc(body: string, opts: { id?: string; scopes?: string[]; ageDays?: number } = {}): IndexDoc {
  const t = new Date(NOW - (opts.ageDays ?? 10) * DAY).toISOString();
  const id = opts.id ?? `01J0000000000000000000${String(seq++).padStart(4, '0')}`;
  return { id, body, scopes: opts.scopes ?? ['notes'], created: t, updated: t };
}
function ids(ix: SearchIndex<IndexDoc>, q: string, limit = 5) {
  return ix.search(q, { limit, now: NOW }).map((h) => h.doc.id);
}
function build(docs: IndexDoc[], synonyms?: Record<string, string[]>) {
  const ix = new SearchIndex<IndexDoc>({ synonyms });
  ix.load(docs);
  return ix;
}

test('BM25: the memory with the rarer and more frequent terms ranks first', () => {
  const ix = build([
    doc('The deploy script lives in the ops repo.', { id: 'A' }),
    doc('Nightly deploy of the billing service uses blue green deploy slots.', { id: 'B' }),
    doc('Coffee machine is on the third floor.', { id: 'C' }),
  ]);
  assert.deepEqual(ids(ix, 'billing deploy'), ['B', 'A']);
  assert.deepEqual(ids(ix, 'coffee'), ['C']);
});

test('scopes are a boosted field', () => {
  const ix = build([
    doc('Notes about the payments service rollout.', { id: 'A', scopes: ['misc'] }),
    doc('Rollout happens on Tuesdays.', { id: 'B', scopes: ['projects:payments'] }),
  ]);
  assert.equal(ids(ix, 'payments rollout')[0], 'B');
});

test('a query of only stopwords returns no hits; unknown words return none', () => {
  const ix = build([doc('What should we do about the flaky test?')]);
  assert.deepEqual(ids(ix, 'what should I do'), []);
  assert.deepEqual(ids(ix, 'zebra'), []);
  assert.deepEqual(ids(ix, '   '), []);
});

test('relevance comes from coverage with the tools.md thresholds; match_terms in query order', () => {
  assert.equal(relevanceOf(1), 'high');
  assert.equal(relevanceOf(0.75), 'high');
  assert.equal(relevanceOf(0.74), 'medium');
  assert.equal(relevanceOf(0.4), 'medium');
  assert.equal(relevanceOf(0.39), 'low');
  const ix = build([doc('Rotate the signing key every ninety days.', { id: 'A' })]);
  const [h] = ix.search('ninety alpha signing key', { limit: 5, now: NOW });
  assert.equal(h!.coverage, 0.75);
  assert.equal(h!.relevance, 'high');
  assert.deepEqual(h!.matchTerms, ['ninety', 'signing', 'key']);
  assert.equal(ix.search('signing alpha beta', { limit: 5, now: NOW })[0]!.relevance, 'low');
  assert.equal(ix.search('signing key beta', { limit: 5, now: NOW })[0]!.relevance, 'medium');
});

test('morphology: backups finds backup, retried finds retries', () => {
  const ix = build([doc('Take a backup before every migration.', { id: 'A' }), doc('The client retries three times.', { id: 'B' })]);
  assert.deepEqual(ids(ix, 'backups'), ['A']);
  assert.deepEqual(ids(ix, 'retried'), ['B']);
});

test('prefix matching for terms of 4+ characters, discounted below the exact word', () => {
  const ix = build([doc('The production cluster is in eu-west.', { id: 'P' }), doc('Prod access needs a ticket.', { id: 'X' })]);
  assert.deepEqual(ids(ix, 'prod'), ['X', 'P']);
  const short = build([doc('The api gateway', { id: 'A' })]);
  assert.deepEqual(ids(short, 'ap'), []); // 2 chars: no prefix expansion
});

test('synonyms and abbreviations, discounted so the exact word ranks first', () => {
  const ix = build([
    doc('The database password is in the vault.', { id: 'LONG' }),
    doc('The db password is in the vault.', { id: 'SHORT' }),
    doc('Kubernetes manifests live in deploy/.', { id: 'K' }),
  ]);
  assert.deepEqual(ids(ix, 'db password'), ['SHORT', 'LONG']);
  assert.deepEqual(ids(ix, 'database password'), ['LONG', 'SHORT']);
  assert.deepEqual(ids(ix, 'k8s manifests'), ['K']);
  assert.equal(ix.search('k8s', { limit: 1, now: NOW })[0]!.relevance, 'high');
});

test('config extends the synonym table, including multi-word entries', () => {
  const docs = [doc('Continuous integration runs on every push.', { id: 'CI' }), doc('Integration tests are slow.', { id: 'IT' })];
  assert.deepEqual(ids(build(docs), 'gha'), []);
  const ix = build(docs, { gha: ['continuous integration'] });
  assert.deepEqual(ids(ix, 'gha'), ['CI']); // all words of the entry must be present
});

test('adjacency and identifier bonus: request id prefers requestId and "request id" over scattered words', () => {
  const ix = build([
    doc('Each request has an owner; the id of the owner is logged later on.', { id: 'SCATTER', ageDays: 1 }),
    doc('Log the requestId header on every call.', { id: 'IDENT', ageDays: 5 }),
  ]);
  assert.deepEqual(ids(ix, 'request id'), ['IDENT', 'SCATTER']);
  const pg = build([
    doc('We dump the pg schema first. Then the data.', { id: 'SCATTER', ageDays: 1 }),
    doc('The pg-dump-nightly job writes to s3.', { id: 'IDENT', ageDays: 5 }),
  ]);
  assert.equal(ids(pg, 'pg dump')[0], 'IDENT');
  assert.equal(ids(pg, 'pgdump')[0], 'IDENT'); // prefix of the whole identifier
});

test('recency is a mild boost and ties break by recency, then id', () => {
  const body = 'Use pnpm, not npm, in this monorepo.';
  const ix = build([doc(body, { id: 'B', ageDays: 100 }), doc(body, { id: 'A', ageDays: 100 }), doc(body, { id: 'C', ageDays: 1 })]);
  assert.deepEqual(ids(ix, 'pnpm'), ['C', 'A', 'B']);
  // Recency never beats a clearly better text match.
  const ix2 = build([doc('pnpm pnpm pnpm workspace setup for pnpm', { id: 'OLD', ageDays: 400 }), doc('we tried pnpm once', { id: 'NEW', ageDays: 0 })]);
  assert.equal(ids(ix2, 'pnpm workspace')[0], 'OLD');
});

test('filter hook restricts hits without changing their order', () => {
  const docs = [doc('alpha service token', { id: 'A', scopes: ['work'] }), doc('alpha service', { id: 'B', scopes: ['home'] })];
  const ix = build(docs);
  let asked = 0;
  const hits = ix.search('alpha service', { limit: 5, now: NOW, filter: (d) => (asked++, d.scopes.includes('home')) });
  assert.deepEqual(hits.map((h) => h.doc.id), ['B']);
  assert.equal(asked, 2); // once per document, not once per matching term
});

test('filterKey: answers are remembered per document while the key stays the same', () => {
  const ix = build([doc('alpha one', { id: 'A' }), doc('alpha two', { id: 'B' })]);
  const asked: string[] = [];
  const filter = (d: IndexDoc) => (asked.push(d.id), d.id !== 'B');
  const run = (key?: string) => ix.search('alpha', { limit: 5, now: NOW, filter, filterKey: key }).map((h) => h.doc.id);
  assert.deepEqual(run('k1'), ['A']);
  assert.deepEqual(run('k1'), ['A']);
  assert.equal(asked.length, 2); // second search reused both answers
  ix.upsert(doc('alpha three', { id: 'A' })); // a changed document is asked again
  assert.deepEqual(run('k1'), ['A']);
  assert.equal(asked.length, 3);
  assert.deepEqual(run('k2'), ['A']); // another key starts over
  assert.equal(asked.length, 5);
  run();
  run();
  assert.equal(asked.length, 9); // no key: asked on every search
});

test('expired memories never match; the expiry is compared with the search time', () => {
  const ix = new SearchIndex<IndexDoc>();
  ix.load([
    { ...doc('quarterly freeze notice', { id: 'OLD' }), expires: new Date(NOW - DAY).toISOString() },
    { ...doc('quarterly freeze notice', { id: 'NEW' }), expires: new Date(NOW + DAY).toISOString() },
  ]);
  assert.deepEqual(ids(ix, 'quarterly freeze'), ['NEW']);
  assert.deepEqual(ix.search('quarterly', { limit: 5, now: NOW - 2 * DAY }).map((h) => h.doc.id).sort(), ['NEW', 'OLD']);
});

test('incremental upsert, replace and remove; compaction keeps results intact', () => {
  const ix = new SearchIndex<IndexDoc>();
  ix.load([]);
  for (let i = 0; i < 3000; i++) ix.upsert(doc(`note number ${i} about widget${i % 7}`, { id: `ID${String(i).padStart(5, '0')}` }));
  assert.equal(ix.size, 3000);
  ix.upsert(doc('replaced text about gizmos', { id: 'ID00001' }));
  assert.deepEqual(ids(ix, 'gizmos'), ['ID00001']);
  for (let i = 2; i < 2500; i++) ix.remove(`ID${String(i).padStart(5, '0')}`); // forces compaction
  assert.equal(ix.size, 502);
  assert.deepEqual(ids(ix, 'gizmos'), ['ID00001']);
  const hits = ix.search('widget3', { limit: 50, now: NOW });
  assert.equal(hits.length, 50); // 72 live documents mention widget3
  assert.ok(hits.every((h) => h.doc.body.endsWith('widget3') && Number(h.doc.id.slice(2)) >= 2500));
  assert.equal(ids(ix, 'widget0 number 0')[0], 'ID00000');
  assert.equal(ix.remove('nope'), false);
});

test('candidatesFor returns memories sharing the rarest terms, best first, bounded', () => {
  const docs = [doc('Staging deploys need the VPN and the jump host bastion-2.', { id: 'DUP' })];
  for (let i = 0; i < 200; i++) docs.push(doc(`Generic note ${i} about the deploy process and staging`, { id: `N${i}` }));
  const ix = build(docs);
  const c = ix.candidatesFor('To deploy to staging you need VPN plus bastion-2', 5);
  assert.equal(c[0], 'DUP');
  assert.ok(c.length <= 5);
  assert.deepEqual(ix.candidatesFor('the and of', 5), []);
});

test('isoMs reads format.md times exactly like Date.parse, and falls back for other shapes', async () => {
  const { isoMs } = await import('../../src/core/index/analyze.ts');
  for (const t of ['2026-03-14T10:23:00.000Z', '1999-12-31T23:59:59.999Z', '2024-02-29T00:00:00.000Z', '2026-03-14T10:23:00Z', '2026-03-14', 'nonsense', '2026-02-30T00:00:00.000Z', '2026-13-01T00:00:00.000Z',
    '2023-02-29T00:00:00.000Z', '2000-02-29T12:00:00.000Z', '1900-02-29T00:00:00.000Z', '2026-04-31T00:00:00.000Z', '2026-12-31T24:00:00.000Z',
    '0050-01-01T00:00:00.000Z', '2026-01-01T00:00:60.000Z', '2026-01-01T00:00:00.0x0Z', '2026-00-10T00:00:00.000Z']) {
    assert.deepEqual(isoMs(t), Date.parse(t), t);
  }
  // Counted by hand, not by Date.UTC: every day of every month across leap and century years, the
  // first and last second of each, from year 100 to 9999.
  const years = [100, 399, 400, 1582, 1899, 1900, 1969, 1970, 1999, 2000, 2024, 2026, 2100, 2400, 9999];
  for (let y = 100; y < 9999; y += 97) years.push(y);
  let n = 0;
  for (const y of years) {
    for (let m = 1; m <= 12; m++) {
      for (let d = 1; d <= 31; d++) {
        for (const [h, mi, s, ms] of [[0, 0, 0, 0], [23, 59, 59, 999]]) {
          const iso = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms).padStart(3, '0')}Z`;
          const want = Date.parse(iso);
          if (!Number.isNaN(want)) n++;
          assert.equal(isoMs(iso), want, iso);
        }
      }
    }
  }
  assert.ok(n > 20_000, `${n} times compared`);
});

test('a document the caller knows is new goes into a pending map by id without finishing it', () => {
  const docs = Array.from({ length: 10 }, (_, i) => doc(`Runbook ${i} for the ledger service.`, { id: `U${i}` }));
  const ix = new SearchIndex<IndexDoc>();
  ix.load(docs, undefined, { uniqueIds: true });
  ix.upsert(doc('Runbook 10 for the billing service.', { id: 'U10' }), true);
  assert.notEqual((ix as unknown as { unmapped: unknown }).unmapped, null, 'the map by id is still to make');
  assert.deepEqual(ids(ix, 'billing'), ['U10']);
  // Once made, the map holds the new one and every loaded one, each once.
  assert.equal(ix.get('U10')?.body, 'Runbook 10 for the billing service.');
  assert.equal(ix.get('U4')?.body, 'Runbook 4 for the ledger service.');
  assert.equal(ix.size, 11);
  ix.upsert(doc('Runbook 10 moved to the payments service.', { id: 'U10' }));
  assert.equal(ix.size, 11);
  assert.deepEqual(ids(ix, 'payments'), ['U10']);
  assert.deepEqual(ids(ix, 'billing'), []);
  // With the map made, `isNew` changes nothing: a lookup is cheap, and a wrong claim cannot add a second copy.
  ix.upsert(doc('Runbook 10 is back with billing.', { id: 'U10' }), true);
  assert.equal(ix.size, 11);
  assert.deepEqual(ids(ix, 'billing'), ['U10']);
});

test('a load of unique ids maps them later: in slices between pauses, or at once when first needed', async () => {
  const docs = Array.from({ length: 10 }, (_, i) => doc(`Runbook ${i} for the ledger service.`, { id: `U${i}` }));
  const sliced = new SearchIndex<IndexDoc>();
  sliced.load(docs, undefined, { uniqueIds: true });
  assert.equal(ids(sliced, 'runbook ledger', 10).length, 10, 'searches need no map by id');
  let pauses = 0;
  await sliced.mapIds(async () => void pauses++, 3);
  assert.equal(pauses, 4);
  assert.deepEqual([...sliced.values()].map((d) => d.id), docs.map((d) => d.id), 'slot order');
  assert.equal(sliced.get('U7')?.body, 'Runbook 7 for the ledger service.');

  // Before any mapping: an upsert and a removal by id find their slots.
  const lazy = new SearchIndex<IndexDoc>();
  lazy.load(docs, undefined, { uniqueIds: true });
  lazy.upsert({ ...docs[3]!, body: 'Runbook 3 moved to the payments service.' });
  assert.equal(lazy.remove('U5'), true);
  assert.equal(lazy.size, 9);
  assert.deepEqual(ids(lazy, 'payments'), ['U3']);
  assert.ok(!ids(lazy, 'ledger', 10).includes('U3') && !ids(lazy, 'ledger', 10).includes('U5'));
  // A sliced mapping under way, then a lookup: the rest is mapped at once.
  const half = new SearchIndex<IndexDoc>();
  half.load(docs, undefined, { uniqueIds: true });
  let n = 0;
  const mapping = half.mapIds(async () => {
    if (++n === 1) assert.equal(half.has('U9'), true);
  }, 2);
  await mapping;
  assert.equal(n, 1, 'nothing left to map after the lookup');
  assert.equal(half.size, 10);

  // Without the promise, a duplicate id keeps its first copy.
  const dup = new SearchIndex<IndexDoc>();
  dup.load([...docs.slice(0, 2), { ...docs[0]!, body: 'A later copy about kittens.' }]);
  assert.equal(dup.size, 2);
  assert.deepEqual(ids(dup, 'kittens'), []);
});
