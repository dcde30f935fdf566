// The caches a server saves (search-index.bin, vectors.bin) are flushed off the event loop: a
// synchronous fsync of the whole file (40 MB at 50k memories, 160 MB at 200k) held up every call
// the server was answering. fs.fsyncSync is made to throw here: a save that still used it would fail
// (the failure is only warned about, so the test looks for the files).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs, { existsSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { Cairn } from '../../src/core/cairn.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

test('the index and vector caches are saved with no synchronous fsync', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  const original = fs.fsyncSync;
  const warnings: string[] = [];
  try {
    const c = await Cairn.open({ dir: store, cwd: root, env: { HOME: root }, watch: true, warn: (m) => warnings.push(m) });
    for (let i = 0; i < 3; i++) {
      const r = await c.write({ content: `Fact ${i}: the quarkle${i} service restarts every ${i + 2} hours.`, scopes: ['tools'] });
      assert.equal(r.status, 'committed');
    }
    await c.index.semantic?.settle();
    fs.fsyncSync = () => {
      throw new Error('synchronous fsync on the event loop');
    };
    syncBuiltinESMExports();
    await c.close();
  } finally {
    fs.fsyncSync = original;
    syncBuiltinESMExports();
  }
  try {
    assert.deepEqual(warnings.filter((w) => /could not save|fsync/.test(w)), []);
    assert.ok(existsSync(join(store, '.cache', 'search-index.bin')), 'no index cache saved');
    assert.ok(existsSync(join(store, '.cache', 'vectors.bin')), 'no vector cache saved');
  } finally {
    removeDir(root);
  }
});
