// memory_merge through the bundle. The happy path (one new memory with merged_from,
// the sources tombstoned "merged into <id>", scopes the union, memory_show shows the provenance,
// the merge event, restore of a source), the write gates (a secret refused, the duplicate gate
// blind to the ids being merged), and every refused input changing nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../helpers/mcp.ts';

function snapshot(store: string): string {
  const list = (d: string) => readdirSync(d).filter((n) => n.endsWith('.md')).sort().map((n) => `${n}\n${readFileSync(join(d, n), 'utf8')}`);
  let tomb: string[] = [];
  try {
    tomb = list(join(store, '.tombstones'));
  } catch {
    tomb = [];
  }
  return [...list(store), '--', ...tomb].join('\n==\n');
}

test('memory_merge writes one memory with merged_from and tombstones the sources; every bad call changes nothing', async () => {
  const store = mkdtempSync(join(tmpdir(), 'cairn-merge-'));
  const s = await startServer({ store, cwd: store });
  try {
    const w = async (content: string, scopes: string[]) => {
      const r = await s.call('memory_write', { content, scopes, force: true });
      assert.equal(r.status, 'committed', JSON.stringify(r));
      return r.id as string;
    };
    const a = await w('The session cache TTL is 5 minutes in the api gateway.', ['ops']);
    const b = await w('The session cache TTL is ten minutes in the api gateway.', ['projects:gateway']);
    const c = await w('Grafana dashboards live in the observability folder of the infra repo.', ['ops']);
    const gone = await w('The staging database is reset every Sunday night by the reset-staging job.', ['ops']);
    await s.call('memory_remove', { id: gone, reason: 'no longer true' });
    await s.call('memory', { command: 'create', path: '/memories/projects/gw.md', file_text: 'Gateway notes: the session cache lives in redis.\n' });
    const hits = await s.call('memory_search', { query: 'gateway notes redis session cache' });
    const note = hits.hits.find((h: { kind?: string }) => h.kind === 'note')?.id as string;
    assert.ok(note, `a note id: ${JSON.stringify(hits)}`);

    // Every refused call: a clear message, nothing on disk changed.
    const before = snapshot(store);
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ ids: [a], content: 'x', reason: 'r' }, /ids|2/],
      [{ ids: [a, a], content: 'The TTL is 10 minutes.', reason: 'dup' }, /ids lists .* twice/],
      [{ ids: [a, '01JQ3Z8V7M2K4T6Y9B1C3D5F7H'], content: 'The TTL is 10 minutes.', reason: 'r' }, /no memory with id 01JQ3Z8V7M2K4T6Y9B1C3D5F7H/],
      [{ ids: [a, gone], content: 'The TTL is 10 minutes.', reason: 'r' }, new RegExp(`memory ${gone} was removed on .*no longer true`)],
      [{ ids: [a, 'not-an-id'], content: 'The TTL is 10 minutes.', reason: 'r' }, /ids\[1\] "not-an-id" is not a memory id/],
      [{ ids: [a, note], content: 'The TTL is 10 minutes.', reason: 'r' }, /is the note \/memories\/projects\/gw\.md: notes are not memories/],
      [{ ids: [a, b], content: '   ', reason: 'r' }, /content is empty/],
      [{ ids: [a, b], content: 'The TTL is 10 minutes.', reason: '' }, /reason is empty/],
      [{ ids: [a, b], content: 'The TTL is 10 minutes.', reason: 'r', scopes: ['Bad Scope'] }, /scope/],
      [{ ids: [a, b, c, gone, note, a, b, c, gone, note, a], content: 'x', reason: 'r' }, /10/],
    ];
    for (const [args, re] of refused) assert.match(await s.fail('memory_merge', args), re, JSON.stringify(args));
    // A gate outcome is not an error, and stores nothing either.
    const secret = await s.call('memory_merge', { ids: [a, b], content: 'The TTL is 10 minutes; the admin token is ghp_1234567890abcdefghijklmnopqrstuvwxyzAB.', reason: 'r' });
    assert.equal(secret.status, 'secret_detected');
    assert.equal(snapshot(store), before, 'nothing changed on disk');

    // The happy path. The new text restates the sources: the duplicate gate must not fire on them.
    const out = await s.call('memory_merge', { ids: [a, b], content: 'The session cache TTL is ten minutes in the api gateway.', reason: 'same setting, 10 is current' });
    assert.equal(out.status, 'committed', JSON.stringify(out));
    assert.deepEqual(out.merged_from, [a, b]);
    assert.deepEqual(out.tombstoned, [a, b]);
    assert.deepEqual(out.scopes, ['ops', 'projects:gateway'], 'the union of the sources\' scopes');
    const text = readFileSync(out.file, 'utf8');
    assert.match(text, new RegExp(`\\nmerged_from: \\[${a}, ${b}\\]\\n`));
    assert.doesNotMatch(text, /merging:/);
    assert.deepEqual(readdirSync(join(store, '.merges')), [], 'no journal left');

    const shown = await s.call('memory_show', { id: out.id });
    assert.deepEqual(shown.memories[0].merged_from, [a, b]);
    const shownA = await s.call('memory_show', { ids: [a, b] });
    assert.equal(shownA.memories.length, 0);
    const tombs = await s.call('memory_list_tombstones', {});
    for (const id of [a, b]) {
      const t = tombs.items.find((x: { id: string }) => x.id === id);
      assert.equal(t?.removed_reason, `merged into ${out.id}`, JSON.stringify(tombs));
    }
    const found = await s.call('memory_search', { query: 'session cache TTL gateway' });
    const ids = found.hits.map((h: { id: string }) => h.id);
    assert.ok(ids.includes(out.id) && !ids.includes(a) && !ids.includes(b), JSON.stringify(ids));

    // The event names the merged memory, its sources and the user's reason.
    const events = readFileSync(join(store, '.events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const ev = events.find((e) => e.kind === 'merge');
    assert.equal(ev.id, out.id);
    assert.deepEqual(ev.merged_from, [a, b]);
    assert.equal(ev.reason, 'same setting, 10 is current');

    // Merging again with a merged-away id says it was removed, with the merge as the reason.
    assert.match(await s.fail('memory_merge', { ids: [a, c], content: 'x y z', reason: 'r' }), new RegExp(`merged into ${out.id}`));
    // A source can be brought back.
    await s.call('memory_restore', { id: a });
    assert.equal((await s.call('memory_show', { id: a })).memories.length, 1);
    // An explicit scope list replaces the union.
    const two = await s.call('memory_merge', { ids: [a, c], content: 'Ops facts: TTL 5 minutes was the old value; Grafana dashboards live in the infra repo observability folder.', reason: 'tidy', scopes: ['ops'] });
    assert.equal(two.status, 'committed', JSON.stringify(two));
    assert.deepEqual(two.scopes, ['ops']);
  } finally {
    await s.close();
  }
  // A fresh server reads the merged file back (both readers agree: the fast one is exercised here).
  const s2 = await startServer({ store, cwd: store });
  try {
    const list = await s2.call('memory_list', {});
    const all = list.items.map((m: { id: string }) => m.id);
    assert.equal(new Set(all).size, all.length, 'no id listed twice');
    const merged = list.items.filter((m: { summary: string }) => /TTL is ten minutes/.test(m.summary));
    assert.equal(merged.length, 1);
    assert.ok((await s2.call('memory_show', { id: merged[0].id })).memories[0].merged_from.length === 2);
  } finally {
    await s2.close();
  }
});
