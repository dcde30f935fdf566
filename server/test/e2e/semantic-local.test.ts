// End to end through the built bundle with the local transformer model (embed.provider "local",
// the default): a reworded question the built-in table misses at top 5 is found once the model's
// background embedding covers the store; that embedding is cached in .cache/ and reused by the
// next start; a damaged or missing model file falls back to the built-in table with one warning;
// provider "builtin" keeps the static table alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, startServer, type Session } from '../helpers/mcp.ts';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { MEMORIES } from '../../../bench/quality/memories.ts';

const MODEL = fileURLToPath(new URL('../../dist/cairn-model.bin', import.meta.url));
/** The test runner picks the built-in table for every other test (scripts/test.mjs): these ask for the default. */
const LOCAL = { CAIRN_EMBED_PROVIDER: '' };
const QUESTION = 'who has to sign off before going live';
const TARGET = /production deploys need a manual approval/;

let root: string;
let store: string;
let repo: string;

const top5 = async (s: Session) => ((await s.call('memory_search', { query: QUESTION, auto_scope: false, max_results: 5 })).hits as Array<{ snippet: string }>).map((h) => h.snippet);
/** Searches until the target is in the top 5 (the model embeds in the background), or gives up. */
async function untilFound(s: Session, ms: number): Promise<string[]> {
  const end = Date.now() + ms;
  let hits: string[] = [];
  while (Date.now() < end) {
    hits = await top5(s);
    if (hits.some((h) => TARGET.test(h))) return hits;
    await new Promise((r) => setTimeout(r, 500));
  }
  return hits;
}
const modelCache = () => readdirSync(join(store, '.cache')).find((f) => f.startsWith('vectors-local'));

before(async () => {
  root = tempDir();
  store = join(root, 'store');
  repo = tempRepo('https://github.com/acme/widgets.git');
  const s = await startServer({ store, cwd: repo, env: LOCAL });
  // (a few of these notes trip other gates, e.g. a transient-sounding one: left out, as a user would)
  for (const m of MEMORIES) await s.call('memory_write', { content: m.body, scopes: m.scopes });
  assert.ok((await s.call('memory_search', { query: 'production deploys manual approval', auto_scope: false })).hits.some((h: { snippet: string }) => TARGET.test(h.snippet)));
  await s.close();
});
after(() => {
  removeDir(root);
  removeDir(repo);
});

test('provider "builtin" (fast mode): the static table alone misses the reworded question, and no model runs', async () => {
  writeFileSync(join(store, 'config.toml'), '[embed]\nprovider = "builtin"\n');
  try {
    const s = await startServer({ store, cwd: repo, env: LOCAL });
    const hits = await top5(s);
    assert.ok(!hits.some((h) => TARGET.test(h)), JSON.stringify(hits));
    await s.close();
  } finally {
    writeFileSync(join(store, 'config.toml'), '');
  }
});

test('the default local model finds the reworded question once its background embedding is done; the vectors are cached', async () => {
  const s = await startServer({ store, cwd: repo, env: LOCAL });
  const hits = await untilFound(s, 240_000);
  assert.ok(hits.some((h) => TARGET.test(h)), JSON.stringify(hits));
  await s.close();
  const file = modelCache();
  assert.ok(file !== undefined, 'the model vectors are saved in .cache/');
  assert.ok(existsSync(join(store, '.cache', 'vectors.bin')), "the built-in table's vectors are kept beside them");
});

test('a restart reuses the cached model vectors (nothing embedded again)', async () => {
  const file = join(store, '.cache', modelCache()!);
  const before = { bytes: readFileSync(file), mtime: statSync(file).mtimeMs };
  const s = await startServer({ store, cwd: repo, env: LOCAL });
  const hits = await untilFound(s, 120_000); // the model loads in its worker; the table answers meanwhile
  assert.ok(hits.some((h) => TARGET.test(h)), JSON.stringify(hits));
  await s.close();
  assert.equal(statSync(file).mtimeMs, before.mtime, 'not rewritten: every vector came from the cache');
  assert.deepEqual(readFileSync(file), before.bytes);
  assert.doesNotMatch(s.stderr(), /vector cache ignored/);
});

test('cairn search (a one-shot command) loads the model and answers with it when its vectors cover the store', () => {
  const r = cli(['search', QUESTION, '--all', '--limit', '5', '--json'], { store, cwd: repo, env: LOCAL });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, TARGET);
  const table = cli(['search', QUESTION, '--all', '--limit', '5', '--json'], { store, cwd: repo, env: { CAIRN_EMBED_PROVIDER: 'builtin' } });
  assert.equal(table.code, 0, table.stderr);
  assert.doesNotMatch(table.stdout, TARGET);
});

test('with the model answering, a removed fact reworded is caught as previously removed', async () => {
  const s = await startServer({ store, cwd: repo, env: LOCAL });
  assert.ok((await untilFound(s, 120_000)).some((h) => TARGET.test(h)), 'the model answers');
  const w = await s.call('memory_write', { content: 'Lark API responses are cached in Redis for five minutes before the next upstream call.', scopes: ['lark'] });
  assert.equal(w.status, 'committed', JSON.stringify(w));
  await s.call('memory_remove', { id: w.id, reason: 'the cache was dropped' });
  const again = await s.call('memory_write', { content: 'The Lark API caches its responses in Redis with a five minute TTL.', scopes: ['lark'] });
  assert.equal(again.status, 'previously_removed', JSON.stringify(again));
  assert.equal(again.matches[0].id, w.id);
  await s.close();
});

test('a damaged model file: one clear warning, and search answers with the built-in table', async () => {
  const bad = join(root, 'damaged-model.bin');
  const buf = readFileSync(MODEL);
  buf[buf.length >> 1] = buf[buf.length >> 1]! ^ 0xff;
  writeFileSync(bad, buf);
  const s = await startServer({ store, cwd: repo, env: { ...LOCAL, CAIRN_MODEL_FILE: bad } });
  // the worker finds the damage while the table answers; searches keep answering after it
  const end = Date.now() + 120_000;
  while (Date.now() < end && !/damaged/.test(s.stderr())) {
    await top5(s);
    await new Promise((r) => setTimeout(r, 300));
  }
  const hits = (await s.call('memory_search', { query: 'which text program do I like to write software in', auto_scope: false })).hits;
  assert.ok(hits.length > 0);
  const warnings = s.stderr().match(/embedding model .*damaged-model\.bin is damaged \(checksum mismatch\).*semantic search uses the built-in table instead/g) ?? [];
  assert.equal(warnings.length, 1, s.stderr());
  await s.close();
});

test('a missing model file: one warning at start, the built-in table answers', async () => {
  const s = await startServer({ store, cwd: repo, env: { ...LOCAL, CAIRN_MODEL_FILE: join(root, 'no-such-model.bin') } });
  const hits = (await s.call('memory_search', { query: 'how long are the database dumps kept', auto_scope: false })).hits;
  assert.ok(hits.length > 0);
  const warnings = s.stderr().match(/no-such-model\.bin cannot be read \(ENOENT\); semantic search uses the built-in table instead/g) ?? [];
  assert.equal(warnings.length, 1, s.stderr());
  await s.close();
});
