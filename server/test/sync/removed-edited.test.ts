// Removed on one machine, edited on another, through `cairn sync` (the facade, two stores, a bare
// repository on local disk as the remote): when the removing machine had rewritten the body before
// removing it, and its removal is the newer change, the tombstone holds its text and the other
// machine's edit must be the conflict record's `other` text, on both machines. Each machine runs
// on its own clock, set by the test, so which side is newer never depends on timing.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/core/cairn.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { BUNDLE } from '../helpers/mcp.ts';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

test('sync: an edit meeting a memory the other machine rewrote and then removed is kept in the conflict record', async () => {
  const root = tempDir('cairn-removed-edited-');
  dirs.push(root);
  const remote = join(root, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  const cwd = join(root, 'work');
  mkdirSync(cwd);
  let clock = Date.parse('2026-03-01T10:00:00.000Z');
  const now = () => new Date(clock);
  const tick = () => (clock += 60_000);
  const open = async (name: string) => {
    const dir = join(root, name);
    const c = await Cairn.open({ dir, cwd, env: { ...process.env, HOME: root, CAIRN_DIR: dir }, actor: 'user', now, watch: false });
    await c.syncInit({ remote, driver: [process.execPath, BUNDLE] });
    return c;
  };
  const a = await open('a');
  const b = await open('b');
  try {
    const x = (await a.write({ content: 'The nightly export runs at two in the morning.', scopes: ['ops'], force: true })) as { id: string };
    assert.equal((await a.sync()).ok, true);
    assert.equal((await b.sync()).ok, true);
    await b.store.ensureFresh();
    assert.ok(b.store.get(x.id));

    tick();
    const edit = 'The nightly export runs at three in the morning since the 2026 cluster migration.';
    await a.update({ id: x.id, content: edit });
    assert.equal((await a.sync()).ok, true);
    tick();
    const rewrite = 'The nightly export was replaced by the streaming pipeline.';
    await b.update({ id: x.id, content: rewrite });
    tick();
    await b.remove({ id: x.id, reason: 'export retired' });

    const rb = await b.sync();
    assert.equal(rb.ok, true, rb.error ?? '');
    assert.deepEqual(rb.conflicts.map((k) => [k.id, k.kind]), [[x.id, 'removed-edited']]);
    assert.equal((await a.sync()).ok, true);
    for (const [name, c] of [['a', a], ['b', b]] as const) {
      await c.store.ensureFresh();
      assert.equal(c.store.get(x.id), undefined, `${name}: stays removed`);
      assert.equal(c.store.getTombstone(x.id)?.body, rewrite, `${name}: the tombstone holds the newer text`);
      const health = await c.health({ top_k: 10 });
      const rows = health.sync_conflicts.rows.filter((r) => r.id === x.id);
      assert.equal(rows.length, 1, `${name}: one conflict listed`);
      // the tombstone holds the newer text (the rewrite); the edit made on a is not lost
      assert.equal(rows[0]!.kept.body, rewrite, name);
      assert.equal(rows[0]!.other.body, edit, `${name}: the edit made on machine a survives in the conflict record`);
      assert.equal(rows[0]!.other.removed, null);
    }
  } finally {
    await a.close();
    await b.close();
  }
});
