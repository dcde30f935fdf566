// memory_search end to end over stdio against the built bundle: hand edits, renames and deletes
// are seen within a second without a restart, and two server processes on one store see each
// other's writes. The one-second waits are the contract being tested, not performance checks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type Session } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { handWrite } from '../index/memfiles.ts';

const CONTRACT_MS = 1000;
const settle = () => new Promise((r) => setTimeout(r, CONTRACT_MS));

let root: string;
let store: string;
let a: Session;
let b: Session;

before(async () => {
  root = tempDir();
  store = join(root, 'store');
  handWrite(store, 'Seed note about the grafana dashboards.');
  [a, b] = await Promise.all([startServer({ store, cwd: root }), startServer({ store, cwd: root })]);
});
after(async () => {
  await Promise.all([a.close(), b.close()]);
  removeDir(root);
});

async function find(s: Session, query: string) {
  const r = await s.call('memory_search', { query, auto_scope: false });
  return r.hits as Array<{ id: string; snippet: string; relevance: string }>;
}

test('a write in one server is found by the other within a second, and by itself at once', async () => {
  const w = await a.call('memory_write', { content: 'The flux reconciler runs every five minutes.', scopes: ['ops'] });
  assert.equal(w.status, 'committed');
  assert.deepEqual((await find(a, 'flux reconciler')).map((h) => h.id), [w.id]);
  await settle();
  assert.deepEqual((await find(b, 'flux reconciler')).map((h) => h.id), [w.id]);

  // update in B, seen by A; remove in A, gone from B
  await b.call('memory_update', { id: w.id, content: 'The flux reconciler runs every ten minutes since the rate limit.' });
  await settle();
  assert.match((await find(a, 'flux reconciler'))[0]!.snippet, /ten minutes/);
  await a.call('memory_remove', { id: w.id, reason: 'moved to the runbook' });
  await settle();
  assert.deepEqual(await find(b, 'flux reconciler'), []);
  await b.call('memory_restore', { id: w.id });
  await settle();
  assert.deepEqual((await find(a, 'flux reconciler')).map((h) => h.id), [w.id]);
});

test('hand-made, hand-edited, renamed and deleted files are reflected in both servers without restart', async () => {
  const made = handWrite(store, 'Hand made note: the vault token lives in 1password.', {}, 'my-own-name.md');
  await settle();
  for (const s of [a, b]) {
    assert.equal((await find(s, 'vault 1password')).length, 1);
    // list and overview read the same live view: no restart, no walk of the files
    const listed = await s.call('memory_list', {});
    assert.ok(listed.items.some((i: { summary: string }) => i.summary.startsWith('Hand made note')));
    const overview = await s.call('memory_scope_overview', { auto_scope: false });
    assert.equal(overview.total, listed.items.length);
  }

  writeFileSync(made, readFileSync(made, 'utf8').replace('1password', 'bitwarden'));
  await settle();
  for (const s of [a, b]) {
    assert.deepEqual(await find(s, '1password'), []);
    assert.equal((await find(s, 'bitwarden vault'))[0]?.relevance, 'high');
  }

  const renamed = join(store, 'renamed-by-hand.md');
  renameSync(made, renamed);
  await settle();
  for (const s of [a, b]) {
    const hits = await find(s, 'bitwarden');
    assert.equal(hits.length, 1, 'a rename neither loses nor duplicates the memory');
    const shown = await s.call('memory_show', { id: hits[0]!.id });
    assert.equal(shown.memories.length, 1);
  }

  unlinkSync(renamed);
  await settle();
  for (const s of [a, b]) assert.deepEqual(await find(s, 'bitwarden'), []);
});

test('a file that stops parsing leaves the index, and comes back when fixed', async () => {
  const f = handWrite(store, 'Temporary note about the canary analysis.', {}, 'canary.md');
  await settle();
  assert.equal((await find(a, 'canary analysis')).length, 1);
  const good = readFileSync(f, 'utf8');
  writeFileSync(f, good.replace('schema_version: 1\n', 'schema_version: 1\nscopes: [broken\n'));
  await settle();
  assert.deepEqual(await find(a, 'canary analysis'), []);
  writeFileSync(f, good);
  await settle();
  assert.equal((await find(a, 'canary analysis')).length, 1);
});
