// Pruning (MaxScore, maxscore.ts) must never change a result: on a generated corpus, hundreds of
// queries (prefixes, synonyms, filters, expiry, deleted and replaced memories, several limits) get
// exactly the hits of the exhaustive walk: same ids, order, scores, coverage, terms, snippets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CorpusGen, rng } from '../../../bench/corpus.ts';
import { SearchIndex, type IndexDoc, type SearchOptions } from '../../src/core/index/searchIndex.ts';

const NOW = Date.parse('2026-03-01T00:00:00.000Z');
const DAY = 86_400_000;

function corpus(n: number): IndexDoc[] {
  const g = new CorpusGen(42);
  const r = rng(5);
  const docs: IndexDoc[] = [];
  for (let i = 0; i < n; i++) {
    const rec = g.record(NOW);
    // a few expire (some already expired), a few come from synonym-bearing words
    const expires = r() < 0.05 ? new Date(NOW + (r() < 0.5 ? -1 : 1) * Math.floor(r() * 30 * DAY)).toISOString() : null;
    const body = r() < 0.03 ? `${rec.body} The k8s deploy uses postgres.` : rec.body;
    docs.push({ id: rec.id, body, scopes: rec.scopes, created: rec.created, updated: rec.updated, expires });
  }
  return docs;
}

function queries(n: number): string[] {
  const g = new CorpusGen(99);
  const r = rng(11);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let words = g.query().split(' ');
    // prefixes (expansion), synonyms, and single words now and then
    if (r() < 0.2) words = words.map((w) => (w.length > 5 && r() < 0.5 ? w.slice(0, 4 + Math.floor(r() * 2)) : w));
    if (r() < 0.1) words.push(r() < 0.5 ? 'kubernetes' : 'db');
    if (r() < 0.1) words = words.slice(0, 1);
    out.push(words.join(' '));
  }
  return out;
}

function same(ix: SearchIndex<IndexDoc>, q: string, opts: SearchOptions<IndexDoc>): void {
  const strip = (hits: ReturnType<typeof ix.search>) =>
    hits.map((h) => ({ id: h.doc.id, score: h.score, coverage: h.coverage, terms: h.matchTerms, snippet: h.snippet }));
  const pruned = strip(ix.search(q, opts));
  const full = strip(ix.search(q, { ...opts, exhaustive: true }));
  assert.deepEqual(pruned, full, `query ${JSON.stringify(q)} limit ${opts.limit}`);
}

test('pruned search returns exactly the exhaustive hits', () => {
  const docs = corpus(5000);
  const ix = new SearchIndex<IndexDoc>({ synonyms: { rotation: ['rollover'] } });
  ix.load(docs);
  const qs = queries(400);
  const inOps = (d: IndexDoc) => d.scopes.some((s) => s === 'ops' || s.startsWith('projects:alpha'));
  qs.forEach((q, i) => {
    same(ix, q, { limit: 1 + (i % 10), now: NOW });
    if (i % 4 === 0) same(ix, q, { limit: 5, now: NOW, filter: inOps, filterKey: 'ops' });
    if (i % 7 === 0) same(ix, q, { limit: 3, now: NOW + 400 * DAY, halfLifeDays: 7 });
  });
});

test('pruned search stays exact after removals, replacements and new memories', () => {
  const docs = corpus(5000);
  const ix = new SearchIndex<IndexDoc>();
  ix.load(docs);
  const g = new CorpusGen(7);
  for (let i = 0; i < 600; i++) {
    const d = docs[(i * 37) % docs.length]!;
    if (i % 3 === 0) ix.remove(d.id);
    else if (i % 3 === 1) ix.upsert({ ...d, body: g.body(), updated: new Date(NOW - i * 1000).toISOString() });
    else {
      const rec = g.record(NOW);
      ix.upsert({ id: rec.id, body: rec.body, scopes: rec.scopes, created: rec.created, updated: rec.updated });
    }
  }
  for (const [i, q] of queries(200).entries()) same(ix, q, { limit: 1 + (i % 8), now: NOW });
});
