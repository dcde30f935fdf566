// End to end through the built bundle with the built-in embedder: a memory found by a query
// sharing no word with it, the semantic previously-removed gate, and a damaged vector cache
// rebuilt (never trusted).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type Session } from '../helpers/mcp.ts';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';

let root: string;
let store: string;
let repo: string;
let s: Session;

const NOTES = [
  'Preferred code editor is Neovim with the LazyVim distribution; suggest its keybindings.',
  'Postgres backups run nightly with pg_dump and are kept for thirty days in S3.',
  'The API is rate limited to 100 requests per minute per token.',
  'Deploys to staging happen on merge to main; production needs a manual approval.',
  'Commit messages follow Conventional Commits so release notes can be generated.',
  'Money amounts are stored as integer cents with a currency code, never as floats.',
];

before(async () => {
  root = tempDir();
  store = join(root, 'store');
  repo = tempRepo('https://github.com/acme/widgets.git');
  s = await startServer({ store, cwd: repo });
  for (const content of NOTES) assert.equal((await s.call('memory_write', { content, scopes: ['notes'] })).status, 'committed');
});
after(async () => {
  await s.close();
  removeDir(root);
  removeDir(repo);
});

test('paraphrase recall: a query sharing no word with the memory finds it (built-in embedder)', async () => {
  const hits = (await s.call('memory_search', { query: 'which text program do I like to write software in', auto_scope: false })).hits;
  assert.match(hits[0]?.snippet ?? '', /Neovim/, JSON.stringify(hits.map((h: { snippet: string }) => h.snippet)));
  // Found by meaning: no query word matched; explain gives the cosine.
  assert.equal(hits[0].match_terms, undefined);
  const ex = (await s.call('memory_search', { query: 'which text program do I like to write software in', auto_scope: false, explain: true })).hits[0].explain;
  assert.ok(typeof ex.semantic === 'number' && ex.semantic > 0 && ex.recency === 1, JSON.stringify(ex));
  // Nothing stored about it: no hit is high.
  const none = (await s.call('memory_search', { query: 'what is the capital of Australia', auto_scope: false })).hits;
  assert.ok(none.every((h: { relevance: string }) => h.relevance !== 'high'));
});

test('semantic tombstone gate: a reworded removed fact gets previously_removed with its reason', async () => {
  const w = await s.call('memory_write', { content: 'For JavaScript work the user wants pnpm used instead of npm; yarn is never proposed.', scopes: ['tools'] });
  await s.call('memory_remove', { id: w.id, reason: 'we moved to bun' });
  const again = await s.call('memory_write', { content: 'The user prefers pnpm over npm for every JavaScript project; never suggest yarn.', scopes: ['tools'] });
  assert.equal(again.status, 'previously_removed', JSON.stringify(again));
  assert.equal(again.matches[0].id, w.id);
  assert.equal(again.matches[0].removed_reason, 'we moved to bun');
});

test('vector cache: written on close, a damaged one is ignored with a warning and rebuilt', async () => {
  await s.close();
  const file = join(store, '.cache', 'vectors.bin');
  assert.ok(existsSync(file), 'saved on close');
  const buf = readFileSync(file);
  buf[buf.length - 1] = buf[buf.length - 1]! ^ 0xff;
  writeFileSync(file, buf);
  s = await startServer({ store, cwd: repo });
  const hits = (await s.call('memory_search', { query: 'which text program do I like to write software in', auto_scope: false })).hits;
  assert.match(hits[0]?.snippet ?? '', /Neovim/);
  assert.match(s.stderr(), /vector cache ignored \(checksum mismatch\)/);
  await s.close();
  const fixed = readFileSync(file);
  assert.notDeepEqual(fixed, buf, 'rewritten');
  s = await startServer({ store, cwd: repo });
  await s.call('memory_search', { query: 'editor', auto_scope: false });
  assert.doesNotMatch(s.stderr(), /vector cache ignored/);
});
