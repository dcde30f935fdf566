// Reading files ahead in a worker thread (store/fileWorker.ts): texts in order across batches,
// failures as values, the same answers without a worker, and a big load through it giving the
// same store as one read file by file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isReadFailure, readAhead } from '../../src/core/store/fileWorker.ts';
import { Store } from '../../src/core/store/store.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

async function all(paths: string[], opts: { batch?: number; worker?: boolean }) {
  const out: Array<string | { code: string | undefined }> = [];
  for await (const x of readAhead(paths, opts)) out.push(isReadFailure(x) ? { code: x.code } : x);
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
    for await (const first of readAhead(paths, { batch: 2 })) {
      assert.equal(first, 'text 0 é');
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

test('stat by a worker: sizes, times and kinds in order, links not followed, gone names as gone', async () => {
  const { statNames } = await import('../../src/core/store/fileWorker.ts');
  const { symlinkSync } = await import('node:fs');
  const dir = tempDir();
  try {
    writeFileSync(join(dir, 'a.md'), 'hello');
    mkdirSync(join(dir, 'sub.md'));
    symlinkSync(join(dir, 'a.md'), join(dir, 'link.md'));
    const names = ['a.md', 'gone.md', 'sub.md', 'link.md'];
    const prefix = `${dir}/`;
    const viaWorker = await statNames(prefix, names, { worker: 'only' });
    const here = await statNames(prefix, names, { worker: false });
    assert.deepEqual([...viaWorker.kinds], [1, 0, 3, 2]);
    assert.deepEqual([...viaWorker.kinds], [...here.kinds]);
    assert.deepEqual([...viaWorker.stats], [...here.stats]);
    assert.equal(viaWorker.stats[0], 5);
    assert.deepEqual([...(await statNames(prefix, [], { worker: false })).kinds], []);
  } finally {
    removeDir(dir);
  }
});

test('a big directory listed with a worker gives the listing a small one would, links reported, temp files cleaned', async () => {
  const { listStoreFiles } = await import('../../src/core/store/listing.ts');
  const root = tempDir();
  const dir = join(root, 'store');
  try {
    mkdirSync(dir);
    for (let i = 0; i < 4500; i++) writeFileSync(join(dir, `m${i}.md`), `memory ${i}`);
    writeFileSync(join(dir, 'notes.txt'), 'not a memory');
    writeFileSync(join(dir, '.hidden.md'), 'hidden');
    writeFileSync(join(dir, '.m1.md.999999999.0badcafe.tmp'), 'a dead writer left this'); // pid 999999999: not alive
    const { symlinkSync, existsSync } = await import('node:fs');
    symlinkSync('/etc/hostname', join(dir, 'link.md'));
    const lists = async (pause?: () => Promise<void>) => {
      const links: string[] = [];
      const l = await listStoreFiles([dir], true, (p) => links.push(p), 1, pause);
      const entries = Array.from({ length: l.length }, (_, i) => `${l.path(i)} ${l.size(i)} ${l.mtimeMs(i)}`).sort();
      return { entries, links };
    };
    const loaded = await lists(); // a load: this thread and a worker, half each
    let pauses = 0;
    const checked = await lists(async () => void pauses++); // a background check: this thread, between pauses
    assert.equal(loaded.entries.length, 4500);
    assert.deepEqual(checked.entries, loaded.entries);
    assert.ok(pauses > 0);
    assert.deepEqual(loaded.links, [join(dir, 'link.md')]);
    assert.deepEqual(checked.links, loaded.links);
    assert.equal(existsSync(join(dir, '.m1.md.999999999.0badcafe.tmp')), false);
    assert.ok(loaded.entries.includes(`${join(dir, 'm42.md')} 9 ${(await import('node:fs')).statSync(join(dir, 'm42.md')).mtimeMs}`));
  } finally {
    removeDir(root);
  }
});

test('a directory listed ahead (a command, while it decodes the cache) gives the listing made on the spot, temp files cleaned', async () => {
  const { listDir } = await import('../../src/core/store/fileWorker.ts');
  const { listAhead, listStoreFiles } = await import('../../src/core/store/listing.ts');
  const { symlinkSync, existsSync } = await import('node:fs');
  const root = tempDir();
  const dir = join(root, 'store');
  try {
    mkdirSync(dir);
    for (let i = 0; i < 3500; i++) writeFileSync(join(dir, `memory-with-a-longer-file-name-${i}.md`), `memory ${i}`);
    writeFileSync(join(dir, 'notes.txt'), 'not a memory');
    writeFileSync(join(dir, '.hidden.md'), 'hidden');
    mkdirSync(join(dir, 'folder.md'));
    symlinkSync('/etc/hostname', join(dir, 'link.md'));
    const dead = join(dir, '.m1.md.999999999.0badcafe.tmp'); // pid 999999999: not alive
    writeFileSync(dead, 'a dead writer left this');
    const prefix = `${dir}/`;
    // The worker splits names as this thread does: memory files stat'ed, temp files named, the rest left out.
    const viaWorker = (await listDir(dir, prefix, { worker: 'only' }))!;
    const here = (await listDir(dir, prefix, { worker: false }))!;
    assert.deepEqual(viaWorker.md, here.md);
    assert.deepEqual([...viaWorker.kinds], [...here.kinds]);
    assert.deepEqual([...viaWorker.stats], [...here.stats]);
    assert.deepEqual(viaWorker.temps, ['.m1.md.999999999.0badcafe.tmp']);
    assert.equal(viaWorker.md.length, 3502); // 3,500 files, the folder and the link
    assert.equal(await listDir(join(root, 'missing'), `${root}/missing/`, { worker: 'only' }), null);

    const lists = async (ahead?: Map<string, ReturnType<typeof listAhead> & object>) => {
      const links: string[] = [];
      const l = await listStoreFiles([dir], true, (p) => links.push(p), 1, undefined, ahead);
      return { entries: Array.from({ length: l.length }, (_, i) => `${l.path(i)} ${l.size(i)} ${l.mtimeMs(i)}`).sort(), links };
    };
    const pre = listAhead(dir);
    assert.ok(pre, 'a directory of 3,500 entries is listed ahead (its size is over the hint on ext4 and tmpfs alike)');
    const taken = await lists(new Map([[dir, pre]]));
    assert.equal(existsSync(dead), false, 'the listing that takes it cleans dead temp files');
    const onTheSpot = await lists();
    assert.equal(taken.entries.length, 3500);
    assert.deepEqual(taken.entries, onTheSpot.entries);
    assert.deepEqual(taken.links, [join(dir, 'link.md')]);
    assert.deepEqual(onTheSpot.links, taken.links);
    // A small directory is listed on the spot (a worker would not pay), a missing one too.
    const small = join(root, 'small');
    mkdirSync(small);
    writeFileSync(join(small, 'a.md'), 'a');
    assert.equal(listAhead(small), null);
    assert.equal(listAhead(join(root, 'missing')), null);
  } finally {
    removeDir(root);
  }
});

test('a store listed ahead and checked sees a file changed before the listing, and keeps the rest as cached', async () => {
  const root = tempDir();
  const dir = join(root, 'store');
  try {
    mkdirSync(dir);
    for (let i = 0; i < 3500; i++) {
      const id = `01JAAAAAAAAAAAAAAAAA${String(i).padStart(6, '0')}`;
      writeFileSync(join(dir, `memory-with-a-longer-file-name-${i}.md`), `---\nid: ${id}\ncreated: 2026-01-01T00:00:00.000Z\nscopes: [global]\n---\nmemory number ${i}.\n`);
    }
    const first = new Store(dir, { warn: () => {} });
    await first.load();
    const cached = [...first.active()];
    const edited = cached[7]!;
    writeFileSync(edited.file, (await import('node:fs')).readFileSync(edited.file, 'utf8').replace(/memory number \d+\./, 'memory number seven.'));
    const second = new Store(dir, { warn: () => {} });
    second.listAhead();
    assert.ok(second.adopt(cached));
    const changed = await second.validate();
    assert.equal(changed, 1);
    assert.match(second.get(edited.id)!.body, /memory number seven/);
    assert.equal(second.activeCount, 3500);
    assert.equal(second.get(cached[8]!.id), cached[8], 'an unchanged record is the cached one');
  } finally {
    removeDir(root);
  }
});
