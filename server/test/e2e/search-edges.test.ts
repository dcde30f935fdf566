// memory_search at its edges, through the built bundle: a query of stopwords only asks for
// nothing and finds nothing (neither leg answers it); the smallest max_chars still returns the
// best hit, shortened, rather than an empty answer.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { removeDir, tempDir } from '../helpers/env.ts';
import { type Session, startServer } from '../helpers/mcp.ts';

let store: string;
let s: Session;
before(async () => {
  store = tempDir('cairn-edges-');
  s = await startServer({ store, cwd: store });
  for (const content of [
    'The staging Postgres database is reached through the bastion host on port 6432 using pgbouncer; ask the platform team for an account first.',
    'Deploys go through deploy.sh in the repo root; never run kubectl apply by hand.',
    'The user prefers small, focused pull requests with a test per fix.',
  ]) await s.call('memory_write', { content, scopes: ['ops'] });
});
after(async () => {
  await s.close();
  removeDir(store);
});

test('a query made only of stopwords returns no hits, from either leg', async () => {
  for (const query of ['what is the', 'how do we', 'it is what it is', 'The']) {
    const r = await s.call('memory_search', { query });
    assert.deepEqual(r.hits, [], query);
    const alt = await s.call('memory_search', { query, alternates: ['and then'] });
    assert.deepEqual(alt.hits, [], `${query} + stopword alternates`);
  }
  // One real word among them is a question again.
  assert.ok((await s.call('memory_search', { query: 'how do we deploy' })).hits.length > 0);
  // A stopword query with a meaningful alternate searches the alternate.
  assert.ok((await s.call('memory_search', { query: 'what is it', alternates: ['pgbouncer'] })).hits.length > 0);
});

test('max_chars 300 returns the best hit, shortened, not an empty answer', async () => {
  const r = await s.raw('memory_search', { query: 'staging postgres bastion pgbouncer', max_chars: 300 });
  assert.equal(r.isError, undefined);
  const out = r.structuredContent as { hits: { snippet: string; relevance: string }[]; truncated?: { hits_dropped: number; snippets_shortened: number } };
  assert.equal(out.hits.length, 1);
  assert.match(out.hits[0]!.snippet, /^The staging Postgres.*…$/);
  assert.equal(out.truncated?.snippets_shortened, 1);
  assert.ok(JSON.stringify(out).length <= 300, `${JSON.stringify(out).length} characters`);
  // a search matching several: the rest are dropped, counted
  const many = (await s.call('memory_search', { query: 'staging deploys pull requests', max_chars: 300, max_results: 3 })) as { hits: unknown[]; truncated?: { hits_dropped: number } };
  assert.equal(many.hits.length, 1);
  assert.ok((many.truncated?.hits_dropped ?? 0) >= 1);
});
