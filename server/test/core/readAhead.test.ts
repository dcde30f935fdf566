// Reading files ahead in a worker thread (store/readAhead.ts): texts in order across batches,
// failures as values, the same answers without a worker, and a big load through it giving the
// same store as one read file by file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isReadFailure, readAhead } from '../../src/core/store/readAhead.ts';
import { Store } from '../../src/core/store/store.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

async function all(paths: string[], opts: { batch?: number; worker?: boolean }) {
  const out: Array<string | { code: string | undefined }> = [];
  for await (const batch of readAhead(paths, opts)) for (const x of batch) out.push(isReadFailure(x) ? { code: x.code } : x);
  return out;
}

test('read ahead: every text in order across batches, failures in place, with or without a worker', async () => {
  const dir = tempDir();
  try {
    const paths: string[] = [];
    for (let i = 0; i < 23; i++) {
      const p = join(dir, `m${i}.md`);
      writeFileSync(p, `text ${i} é`);
      paths.push(p);
    }
    mkdirSync(join(dir, 'adir.md'));
    paths.splice(5, 0, join(dir, 'missing.md'));
    paths.splice(11, 0, join(dir, 'adir.md'));
    const viaWorker = await all(paths, { batch: 4 });
    const here = await all(paths, { batch: 4, worker: false });
    assert.deepEqual(viaWorker, here);
    assert.equal(viaWorker.length, 25);
    assert.equal(viaWorker[0], 'text 0 é');
    assert.deepEqual(viaWorker[5], { code: 'ENOENT' });
    assert.deepEqual(viaWorker[11], { code: 'EISDIR' });
    assert.equal(viaWorker[24], 'text 22 é');
    assert.deepEqual(await all([], {}), []);
    // A reader left early stops its worker (the test would not end otherwise).
    for await (const batch of readAhead(paths, { batch: 2 })) {
      assert.equal(batch.length, 2);
      break;
    }
  } finally {
    removeDir(dir);
  }
});

test('a load of thousands of files read ahead gives the store a file-by-file load gives', async () => {
  const root = tempDir();
  const dir = join(root, 'store');
  try {
    mkdirSync(dir);
    const n = 2300; // over the read-ahead threshold
    for (let i = 0; i < n; i++) {
      const id = `01JAAAAAAAAAAAAAAAAA${String(i).padStart(6, '0')}`;
      writeFileSync(join(dir, `m${i}.md`), `---\nid: ${id}\ncreated: 2026-01-01T00:00:00.000Z\nscopes: [s${i % 7}]\n---\nMemory number ${i}.\n`);
    }
    writeFileSync(join(dir, 'broken.md'), '---\nid: [unclosed\n---\nbody\n');
    mkdirSync(join(dir, 'adir.md'));
    const warnings: string[] = [];
    const big = new Store(dir, { warn: (m) => warnings.push(m) });
    await big.load();
    assert.equal(big.activeCount, n);
    assert.equal(big.get('01JAAAAAAAAAAAAAAAAA001234')?.body.trim(), 'Memory number 1234.');
    assert.deepEqual(big.skipped().map((s) => s.file), [join(dir, 'broken.md')]);
    // The same files, one refreshed at a time (no read-ahead): the same records.
    const one = new Store(dir, { warn: () => {} });
    await one.refreshPaths([...big.fileStats().keys(), join(dir, 'broken.md')]);
    const key = (s: Store) => [...s.active()].map((m) => `${m.id} ${m.file} ${m.body}`).sort();
    assert.deepEqual(key(big), key(one));
  } finally {
    removeDir(root);
  }
});
