// End to end through the built bundle: `aliases` on memory_write/memory_update (frontmatter,
// search, show) and `alternates` on memory_search (fused by RRF, never turning noise into `high`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { startServer, type Session } from '../helpers/mcp.ts';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { join } from 'node:path';

let root: string;
let store: string;
let repo: string;
let s: Session;

before(async () => {
  root = tempDir();
  store = join(root, 'store');
  repo = tempRepo('https://github.com/acme/widgets.git');
  s = await startServer({ store, cwd: repo });
});
after(async () => {
  await s.close();
  removeDir(root);
  removeDir(repo);
});

test('aliases: write -> file has them -> search finds by alias -> show shows them -> update replaces and clears', async () => {
  const w = await s.call('memory_write', {
    content: 'Authentication goes through OAuth with Auth0 as the identity provider; tokens live 15 minutes.',
    scopes: ['projects:widgets'],
    aliases: ['login', 'sign in', '  sign   in '],
  });
  assert.equal(w.status, 'committed');
  assert.deepEqual(w.aliases, ['login', 'sign in']);
  const text = readFileSync(w.file, 'utf8');
  assert.match(text, /\naliases: \["login", "sign in"\]\n---\n/);

  const hits = (await s.call('memory_search', { query: 'login' })).hits;
  assert.equal(hits[0]?.id, w.id, 'found by its alias alone');

  const shown = (await s.call('memory_show', { id: w.id })).memories[0];
  assert.deepEqual(shown.aliases, ['login', 'sign in']);

  const u = await s.call('memory_update', { id: w.id, aliases: ['single sign-on'] });
  assert.deepEqual(u.aliases, ['single sign-on']);
  assert.match(readFileSync(w.file, 'utf8'), /\naliases: \["single sign-on"\]\n/);
  const old = (await s.call('memory_search', { query: 'login' })).hits.find((h: { id: string }) => h.id === w.id);
  assert.ok(!old || ((old.match_terms ?? []).length === 0 && old.relevance !== 'high'), 'the old alias is gone from the lexical index');
  assert.equal((await s.call('memory_search', { query: 'single sign-on' })).hits[0]?.id, w.id);

  await s.call('memory_update', { id: w.id, aliases: [] });
  assert.doesNotMatch(readFileSync(w.file, 'utf8'), /aliases/);
  assert.deepEqual((await s.call('memory_show', { id: w.id })).memories[0].aliases, []);
});

test('aliases: bad input is refused with a specific error and writes nothing', async () => {
  const before = (await s.call('memory_list', {})).items.length;
  assert.match(await s.fail('memory_write', { content: 'The build cache lives in /var/cache/widgets.', scopes: ['projects:widgets'], aliases: Array(9).fill('x') }), /aliases|9/);
  assert.match(await s.fail('memory_write', { content: 'The build cache lives in /var/cache/widgets.', scopes: ['projects:widgets'], aliases: [''] }), /aliases\[0\]/);
  assert.match(await s.fail('memory_write', { content: 'The build cache lives in /var/cache/widgets.', scopes: ['projects:widgets'], aliases: ['x'.repeat(101)] }), /aliases/);
  assert.equal((await s.call('memory_list', {})).items.length, before);
});

test('aliases written by hand (YAML list) are read, kept, and unknown keys stay byte-for-byte', async () => {
  const w = await s.call('memory_write', { content: 'The staging database is restored from the nightly snapshot every Monday.', scopes: ['projects:widgets'] });
  const text = readFileSync(w.file, 'utf8');
  writeFileSync(w.file, text.replace('\n---\n', '\naliases:\n  - refresh staging\n  - db reset\nx-custom: keep me  # as is\n---\n'));
  const hits = (await s.call('memory_search', { query: 'db reset' })).hits;
  assert.equal(hits[0]?.id, w.id);
  await s.call('memory_update', { id: w.id, confidence: 'high' });
  const after = readFileSync(w.file, 'utf8');
  assert.match(after, /\naliases: \["refresh staging", "db reset"\]\n/);
  assert.match(after, /\nx-custom: keep me  # as is\n/);
});

test('alternates: a query sharing no word with the memory finds it through a rephrasing', async () => {
  const w = await s.call('memory_write', { content: 'Preferred editor is Neovim with the LazyVim distribution; never suggest VS Code extensions.', scopes: ['preferences'] });
  const res = (await s.call('memory_search', { query: 'which text tool do I like', alternates: ['favourite editor', 'vim neovim emacs'], auto_scope: false })).hits;
  assert.equal(res[0]?.id, w.id);
});

test('alternates: noise stays below high, and bad alternates are refused', async () => {
  // Each alternate alone matches a memory fully, but they disagree: none may be high.
  const res = (await s.call('memory_search', { query: 'kubernetes pod autoscaling', alternates: ['editor', 'snapshot'], auto_scope: false })).hits;
  assert.ok(res.every((h: { relevance: string }) => h.relevance !== 'high'), JSON.stringify(res.map((h: { relevance: string }) => h.relevance)));
  assert.match(await s.fail('memory_search', { query: 'editor', alternates: ['a', 'b', 'c', 'd', 'e'] }), /alternates/);
  assert.match(await s.fail('memory_search', { query: 'editor', alternates: [''] }), /alternates/);
});
