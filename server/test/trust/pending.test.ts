// Pending writes: confirm, cancel, expiry, the distinct errors, confirmation from another process
// on the same store, validation re-run on confirm, and exactly-once commit under a race.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Cairn } from '../../src/core/cairn.ts';
import { pendingDir } from '../../src/core/store/pending.ts';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';

let root: string;
let repo: string;
let dir: string;
let clock = Date.parse('2026-03-01T10:00:00.000Z');
const open = () => Cairn.open({ dir, cwd: repo, env: { HOME: root }, now: () => new Date(clock) });
const opened: Cairn[] = [];
async function cairn(): Promise<Cairn> {
  const c = await open();
  opened.push(c);
  return c;
}

before(() => {
  root = tempDir();
  repo = tempRepo();
  dir = join(root, 'store');
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.toml'), '[behavior]\npending_ttl_minutes = 30\n');
});
after(async () => {
  for (const c of opened) await c.close();
  removeDir(root);
  removeDir(repo);
});

// Distinct claims, so the duplicate gate never stands between two test writes.
const CLAIMS = [
  'The user reads diffs before prose.',
  'The user wants tests written before the fix.',
  'The user dislikes emojis in commit messages.',
  'The user reviews on a small laptop screen.',
  'The user prefers tabs for Go code only.',
  'The user asks for sources when claims involve benchmarks.',
  'The user writes shell scripts in bash, never zsh.',
  'The user keeps meeting notes in plain markdown files.',
  'The user trusts integration tests over mocks.',
  'The user names branches after ticket numbers.',
];
let n = 0;
async function pending(c: Cairn, extra: Record<string, unknown> = {}): Promise<string> {
  const r = (await c.write({ content: CLAIMS[n++]!, scopes: ['tools'], category: 'user-inference', ...extra })) as Record<string, any>;
  assert.equal(r.status, 'pending');
  return r.pending_id;
}

describe('pending writes', () => {
  it('confirm commits once; a second confirm is "no pending write"', async () => {
    const c = await cairn();
    const id = await pending(c);
    const r = await c.writeConfirm({ pending_id: id });
    assert.equal(r.status, 'committed');
    assert.equal(r.category, 'user-inference');
    assert.ok(existsSync(r.file));
    assert.equal(c.store.get(r.id)?.body, CLAIMS[0]);
    await assert.rejects(c.writeConfirm({ pending_id: id }), { name: 'NotFoundError', message: new RegExp(`no pending write with id ${id}`) });
  });

  it('cancel drops it (existed: true), then existed: false', async () => {
    const c = await cairn();
    const id = await pending(c);
    assert.deepEqual(await c.writeCancel({ pending_id: id }), { cancelled: true, existed: true });
    assert.deepEqual(await c.writeCancel({ pending_id: id }), { cancelled: true, existed: false });
    await assert.rejects(c.writeConfirm({ pending_id: id }), { name: 'NotFoundError' });
  });

  it('an expired pending id has its own error, distinct from unknown and malformed ids', async () => {
    const c = await cairn();
    const id = await pending(c);
    clock += 31 * 60_000;
    await assert.rejects(c.writeConfirm({ pending_id: id }), (err: Error) => {
      assert.equal(err.name, 'PendingExpiredError');
      assert.match(err.message, new RegExp(`pending write ${id} expired at`));
      return true;
    });
    await assert.rejects(c.writeConfirm({ pending_id: 'p_01JQ3Z8V7M2K4T6Y9B1C3D5F7H' }), { name: 'NotFoundError' });
    await assert.rejects(c.writeConfirm({ pending_id: 'nope' }), { name: 'MalformedIdError', message: /pending_id "nope" is not a pending write id/ });
    await assert.rejects(c.writeConfirm({ pending_id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H' }), { name: 'MalformedIdError' });
    assert.deepEqual(await c.writeCancel({ pending_id: id }), { cancelled: true, existed: false });
  });

  it('expired entries are swept after a grace day', async () => {
    const c = await cairn();
    const id = await pending(c);
    clock += 2 * 86_400_000;
    await pending(c); // a write sweeps
    assert.ok(!readdirSync(pendingDir(dir)).includes(`${id}.json`));
    await assert.rejects(c.writeConfirm({ pending_id: id }), { name: 'NotFoundError' });
  });

  it('another process on the same store can confirm', async () => {
    const a = await cairn();
    const b = await cairn();
    const id = await pending(a);
    const r = await b.writeConfirm({ pending_id: id });
    assert.equal(r.status, 'committed');
    await a.store.ensureFresh();
    assert.ok(a.store.get(r.id));
  });

  it('two confirms racing commit exactly once', async () => {
    const a = await cairn();
    const b = await cairn();
    const id = await pending(a);
    const results = await Promise.allSettled([a.writeConfirm({ pending_id: id }), b.writeConfirm({ pending_id: id })]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.equal(failed.reason.name, 'NotFoundError');
  });

  it('confirm re-runs validation against the current config and keeps the entry when it fails', async () => {
    const a = await cairn();
    const id = await pending(a);
    writeFileSync(join(dir, 'config.toml'), '[behavior]\npending_ttl_minutes = 30\n[scopes]\nallowed = ["projects:*"]\n');
    const strict = await cairn();
    await assert.rejects(strict.writeConfirm({ pending_id: id }), { name: 'ValidationError', message: /scope "tools" is not allowed/ });
    writeFileSync(join(dir, 'config.toml'), '[behavior]\npending_ttl_minutes = 30\n');
    assert.equal((await a.writeConfirm({ pending_id: id })).status, 'committed');
  });

  it('logs write_confirm and write_cancel', async () => {
    const c = await cairn();
    const id = await pending(c);
    await c.writeCancel({ pending_id: id });
    const { readEvents } = await import('../../src/core/curation/events.ts');
    const kinds = readEvents(dir).events.map((e) => e.kind);
    assert.ok(kinds.includes('write_confirm'));
    assert.ok(kinds.includes('write_cancel'));
  });
});
