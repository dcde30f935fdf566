import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../src/core/store/store.ts';
import { buildExport, importExport, parseExport, secretsIn } from '../../src/core/io/exportImport.ts';
import { stripStored } from '../../src/core/memory.ts';
import { tempDir } from '../helpers/env.ts';
import { daysAgo, writeMemory } from './fixtures/store.ts';

async function loaded(dir: string): Promise<Store> {
  const s = new Store(dir, { warn: () => {} });
  await s.load();
  return s;
}

const records = (s: Store) => ({
  active: [...s.active()].map(stripStored).sort((a, b) => a.id.localeCompare(b.id)),
  tombs: [...s.tombstones()].map(stripStored).sort((a, b) => a.id.localeCompare(b.id)),
});

test('export then import into an empty store reproduces every record; a second import changes nothing', async () => {
  const src = tempDir('cairn-exp-src-');
  const a = writeMemory(src, { body: 'Backups run nightly at 02:00 UTC.', scopes: ['backups', 'projects:foo'], created: daysAgo(10), last_verified_at: daysAgo(2) });
  writeMemory(src, { body: 'We squash-merge every PR.', scopes: ['git'], expires: daysAgo(-30) });
  writeMemory(src, { body: 'Old deploy script note.', scopes: ['deploy'], removed: daysAgo(1), removed_reason: 'script renamed', removed_session: null });
  // An unknown frontmatter key travels in `extra`.
  const f = readdirSync(src).find((n) => n.includes(a.id.slice(-6).toLowerCase()))!;
  writeFileSync(join(src, f), readFileSync(join(src, f), 'utf8').replace('---\nBackups', 'x-team: platform\n---\nBackups'));
  const s1 = await loaded(src);
  const doc = buildExport(s1.active(), s1.tombstones(), { now: new Date() });
  assert.equal(doc.memories.length, 2);
  assert.equal(doc.tombstones.length, 1);
  assert.deepEqual(doc.memories.find((m) => m.id === a.id)!.extra, ['x-team: platform']);

  const text = JSON.stringify(doc, null, 2);
  const dst = tempDir('cairn-exp-dst-');
  const s2 = await loaded(dst);
  const done: number[] = [];
  const r1 = await importExport(s2, parseExport(text), (d) => done.push(d));
  assert.deepEqual(r1, { added: 3, updated: 0, unchanged: 0, kept_newer: 0, total: 3 });
  assert.deepEqual(done, [1, 2, 3]);
  assert.deepEqual(records(await loaded(dst)), records(s1));
  assert.equal(readdirSync(join(dst, '.tombstones')).length, 1, 'the tombstone went to .tombstones/');
  const imported = readdirSync(dst).find((n) => n.includes(a.id.slice(-6).toLowerCase()))!;
  assert.match(readFileSync(join(dst, imported), 'utf8'), /\nx-team: platform\n---\n/, 'unknown keys survive an import');

  const snapshot = readdirSync(dst).map((n) => (n.endsWith('.md') ? readFileSync(join(dst, n), 'utf8') : n));
  const r2 = await importExport(await loaded(dst), parseExport(text));
  assert.deepEqual(r2, { added: 0, updated: 0, unchanged: 3, kept_newer: 0, total: 3 });
  assert.deepEqual(readdirSync(dst).map((n) => (n.endsWith('.md') ? readFileSync(join(dst, n), 'utf8') : n)), snapshot);
});

test('import never overwrites a newer updated; a newer incoming record replaces the local one', async () => {
  const dir = tempDir('cairn-exp-');
  const m = writeMemory(dir, { body: 'Staging is reachable through the bastion.', scopes: ['infra'], created: daysAgo(20) });
  const store = await loaded(dir);
  const old = buildExport(store.active(), store.tombstones(), { now: new Date() });
  await store.modify(m.id, (cur) => ({ ...stripStored(cur), body: 'Staging is reachable over the VPN.', updated: new Date().toISOString() }));
  const r = await importExport(store, parseExport(JSON.stringify(old)));
  assert.deepEqual(r, { added: 0, updated: 0, unchanged: 0, kept_newer: 1, total: 1 });
  assert.equal(store.get(m.id)!.body, 'Staging is reachable over the VPN.');

  const newer = structuredClone(old);
  newer.memories[0]!.body = 'Staging moved behind Tailscale.';
  newer.memories[0]!.updated = new Date(Date.now() + 60_000).toISOString();
  assert.equal((await importExport(store, parseExport(JSON.stringify(newer)))).updated, 1);
  assert.equal((await loaded(dir)).get(m.id)!.body, 'Staging moved behind Tailscale.');
});

test('scope filter and --no-tombstones; secrets in exported bodies are reported', async () => {
  const dir = tempDir('cairn-exp-');
  writeMemory(dir, { body: 'Foo API notes.', scopes: ['projects:foo:api'] });
  writeMemory(dir, { body: 'Bar notes.', scopes: ['projects:bar'] });
  const leaky = writeMemory(dir, { body: 'CI token is ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 for now.', scopes: ['ci'] });
  writeMemory(dir, { body: 'Removed foo note.', scopes: ['projects:foo'], removed: daysAgo(1), removed_reason: 'x', removed_session: null });
  const s = await loaded(dir);
  const foo = buildExport(s.active(), s.tombstones(), { now: new Date(), scopes: ['projects:foo'] });
  assert.deepEqual([foo.memories.length, foo.tombstones.length], [1, 1]);
  assert.deepEqual(foo.scope_filters, ['projects:foo']);
  const noTombs = buildExport(s.active(), s.tombstones(), { now: new Date(), includeTombstones: false });
  assert.deepEqual([noTombs.memories.length, noTombs.tombstones.length], [3, 0]);
  assert.deepEqual(secretsIn(noTombs.memories), [{ id: leaky.id, kinds: ['github-token'] }]);
});

test('parseExport names the bad record and what is wrong', () => {
  const base = { format: 'cairn-export', version: 1, exported_at: '', memories: [], tombstones: [] };
  assert.throws(() => parseExport('nope', 'x.json'), /x\.json is not a cairn export: not valid JSON/);
  assert.throws(() => parseExport('{"format":"other"}', 'x.json'), /expected "format": "cairn-export"/);
  assert.throws(() => parseExport(JSON.stringify({ ...base, version: 2 }), 'x.json'), /version 2; this cairn reads version 1/);
  const rec = {
    id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H', created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', scopes: ['Tools'],
    confidence: 'high', source: 'inferred', category: 'fact', last_verified_at: null, expires: null,
    origin: { cwd: null, repo: null, branch: null, worktree_root: null }, body: 'x',
  };
  assert.throws(() => parseExport(JSON.stringify({ ...base, memories: [rec] }), 'x.json'), /x\.json: memories\[0\] has scopes that are not/);
  const ok = { ...rec, scopes: ['tools'] };
  assert.throws(() => parseExport(JSON.stringify({ ...base, memories: [ok], tombstones: [ok] }), 'x.json'), /tombstones\[0\] is a tombstone without removed/);
  assert.throws(() => parseExport(JSON.stringify({ ...base, memories: [ok, ok] }), 'x.json'), /memories\[1\] repeats id/);
  assert.equal(parseExport(JSON.stringify({ ...base, memories: [ok] })).memories.length, 1);
});
