// Through the built bundle: `cairn import` of a file that is not there is a
// failure (exit 1), not a usage error; memory_list_tombstones lists the latest removal first and
// pages correctly in that order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, startServer } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

test('cairn import of a missing file exits 1 with the reason; a usage error is still 2', () => {
  const store = tempDir('cairn-import-');
  try {
    const r = cli(['import', 'missing.json'], { store, cwd: store });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /cairn import: cannot read .*missing\.json: ENOENT/);
    assert.doesNotMatch(r.stderr, /usage:/);
    assert.equal(cli(['import'], { store, cwd: store }).code, 2);
  } finally {
    removeDir(store);
  }
});

test('memory_list_tombstones: most recent removal first, and the cursor pages in that order', async () => {
  const store = tempDir('cairn-tomb-');
  const s = await startServer({ store, cwd: store });
  try {
    const ids: string[] = [];
    for (const word of ['alpha', 'bravo', 'charlie', 'delta', 'echo']) {
      ids.push((await s.call('memory_write', { content: `The ${word} service listens on its own port.`, scopes: ['svc'] })).id);
    }
    // Removed in an order unlike creation order: charlie, alpha, echo, bravo, delta.
    const order = [2, 0, 4, 1, 3].map((i) => ids[i]!);
    for (const id of order) {
      await s.call('memory_remove', { id, reason: 'retired' });
      await new Promise((r) => setTimeout(r, 5)); // distinct removal stamps
    }
    const expected = [...order].reverse();
    const all = await s.call('memory_list_tombstones', {});
    assert.deepEqual(all.items.map((i: { id: string }) => i.id), expected);
    assert.equal(all.next_cursor, null);

    const paged: string[] = [];
    let cursor: string | undefined;
    let restoredOne = false;
    do {
      const page = await s.call('memory_list_tombstones', { limit: 2, ...(cursor ? { cursor } : {}) });
      paged.push(...page.items.map((i: { id: string }) => i.id));
      cursor = page.next_cursor ?? undefined;
      if (!restoredOne) {
        // A change between pages (the last row returned is restored) must not shift the next page.
        restoredOne = true;
        await s.call('memory_restore', { id: paged[paged.length - 1] });
      }
    } while (cursor);
    assert.deepEqual(paged, expected);
    assert.match(await s.fail('memory_list_tombstones', { cursor: 'bm9wZQ' }), /cursor "bm9wZQ" was not issued by memory_list_tombstones/);
  } finally {
    await s.close();
    removeDir(store);
  }
});
