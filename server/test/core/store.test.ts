// The store under concurrency: real processes on one real directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { Cairn } from '../../src/core/cairn.ts';
import { StoreLock } from '../../src/core/store/lock.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { startServer, type Session } from '../helpers/mcp.ts';

test('the lock serializes read-modify-write across processes: no lost increments', async () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir, 'counter'), '0');
    const lockUrl = new URL('../../src/core/store/lock.ts', import.meta.url).href;
    const script = `
      import { StoreLock } from ${JSON.stringify(lockUrl)};
      import { readFileSync, writeFileSync } from 'node:fs';
      const lock = new StoreLock(${JSON.stringify(dir)});
      for (let i = 0; i < 40; i++) await lock.run(async () => {
        const n = Number(readFileSync(${JSON.stringify(join(dir, 'counter'))}, 'utf8'));
        await new Promise((r) => setImmediate(r));
        writeFileSync(${JSON.stringify(join(dir, 'counter'))}, String(n + 1));
      });`;
    const runs = Array.from({ length: 4 }, () =>
      new Promise<number>((res) => spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' }).on('exit', (c) => res(c ?? 1))),
    );
    assert.deepEqual(await Promise.all(runs), [0, 0, 0, 0]);
    assert.equal(readFileSync(join(dir, 'counter'), 'utf8'), '160');
    assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith('.lock')), []);
  } finally {
    removeDir(dir);
  }
});

test('a lock left by a killed process is broken, not waited on forever', async () => {
  const dir = tempDir();
  try {
    // pid 2^22+1 is above Linux's pid_max default range: certainly not alive
    writeFileSync(join(dir, '.lock'), `${2 ** 22 + 1} ${(await import('node:os')).hostname()} ${Date.now()}\n`);
    const lock = new StoreLock(dir, 2000);
    assert.equal(await lock.run(async () => 'entered'), 'entered');
  } finally {
    removeDir(dir);
  }
});

test('a symlink where the lock belongs is never followed and does not block writers', async () => {
  const dir = tempDir();
  try {
    const { symlinkSync, existsSync } = await import('node:fs');
    symlinkSync(join(dir, 'nowhere', 'lock'), join(dir, '.lock'));
    const lock = new StoreLock(dir, 2000);
    assert.equal(await lock.run(async () => 'entered'), 'entered');
    assert.equal(existsSync(join(dir, 'nowhere')), false, 'nothing created through the link');
  } finally {
    removeDir(dir);
  }
});

test('two server processes updating one memory never lose each other\'s change', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  const servers: Session[] = [];
  try {
    const a = await startServer({ store, cwd: root });
    servers.push(a);
    const b = await startServer({ store, cwd: root });
    servers.push(b);
    const w = await a.call('memory_write', { content: 'Shared memory touched by two servers.', scopes: ['shared'] });
    const confidences = ['low', 'high', 'medium', 'high', 'low', 'medium', 'high'];
    const scopeSets = [['shared', 'x1'], ['shared', 'x2'], ['shared', 'x3'], ['shared', 'x4'], ['shared', 'x5'], ['shared', 'x6'], ['shared', 'final']];
    await Promise.all([
      (async () => { for (const c of confidences) await a.call('memory_update', { id: w.id, confidence: c }); })(),
      (async () => { for (const sc of scopeSets) await b.call('memory_update', { id: w.id, scopes: sc }); })(),
      (async () => { for (let i = 0; i < 5; i++) await b.call('memory_write', { content: `Independent fact ${i} from server b.`, scopes: ['shared'] }); })(),
    ]);
    const c = await Cairn.open({ dir: store, cwd: root, watch: false, warn: () => {} });
    const m = c.store.get(w.id)!;
    assert.equal(m.confidence, 'high');
    assert.deepEqual(m.scopes, ['shared', 'final']);
    assert.equal([...c.store.active()].length, 6);
    assert.deepEqual(c.store.skipped(), []);
    await c.close();
  } finally {
    // Always stop the servers: a child left running would keep the test process alive forever.
    await Promise.all(servers.map((x) => x.close()));
    removeDir(root);
  }
});


/** A store of two memories (and, `withRemoved`, a removed one) written through cairn; its cache's records. */
async function storeWithCache(dir: string, root: string, withRemoved = false) {
  const { readCache } = await import('../../src/core/index/cache.ts');
  const { reviveStored } = await import('../../src/core/index/revive.ts');
  const c = await Cairn.open({ dir, cwd: root, env: { HOME: root }, watch: false, warn: () => {} });
  const a = (await c.write({ content: 'The staging cluster runs in eu-west-1.', scopes: ['infra'] })) as { id: string };
  const b = (await c.write({ content: 'Deploys go through make deploy.', scopes: ['ops'] })) as { id: string };
  let gone: { id: string } | undefined;
  if (withRemoved) {
    gone = (await c.write({ content: 'The old VPN endpoint is vpn1.example.org.', scopes: ['ops'] })) as { id: string };
    await c.remove({ id: gone.id, reason: 'replaced by the new VPN' });
  }
  await c.search({ query: 'staging', auto_scope: false });
  await c.close();
  return { a, b, gone, records: readCache(dir, undefined, reviveStored)!.records };
}

test('adopting cached records: one owner per id at once, an id two files claim elected as a load would', async () => {
  const { Store } = await import('../../src/core/store/store.ts');
  const root = tempDir();
  const dir = join(root, 'store');
  try {
    const { a, b, records } = await storeWithCache(dir, root);
    assert.equal(records.length, 2);
    const recA = records.find((r) => r.id === a.id)!;
    const recB = records.find((r) => r.id === b.id)!;
    // Two more files claiming the same ids: a newer copy of A (wins), and a copy of B with the same
    // `updated` (the tie goes to the path that sorts first, as in a load).
    const newerA = { ...recA, file: join(dir, '0000-newer-copy.md'), updated: '2999-01-01T00:00:00.000Z', body: 'newer A' };
    const tieB = { ...recB, file: `${recB.file.slice(0, -3)}-zz.md`, body: 'tie B' };
    const warnings: string[] = [];
    const s = new Store(dir, { warn: (m) => warnings.push(m) });
    assert.equal(s.adopt([recA, newerA, recB, tieB]), true);
    assert.equal(s.get(a.id)?.body, 'newer A');
    const [tieWinner, tieLoser] = [recB.file, tieB.file].sort((x, y) => x.localeCompare(y));
    assert.equal(s.get(b.id)?.file, tieWinner);
    assert.equal(s.activeCount, 2);
    assert.ok(warnings.some((w) => w.includes(`skipped ${recA.file}: duplicate id ${a.id}`)), warnings.join('\n'));
    assert.ok(warnings.some((w) => w.includes(`skipped ${tieLoser}: duplicate id ${b.id}`)), warnings.join('\n'));
    // Files outside the store: nothing adopted.
    assert.equal(new Store(dir, { warn: () => {} }).adopt([{ ...recA, file: join(root, 'elsewhere.md') }]), false);
  } finally {
    removeDir(root);
  }
});

test('adopting into an empty store: views at once, paths and owners entered at first use, same store after', async () => {
  const { Store } = await import('../../src/core/store/store.ts');
  const root = tempDir();
  const dir = join(root, 'store');
  try {
    const { a, b, gone: removed, records } = await storeWithCache(dir, root, true);
    const gone = removed!;
    mkdirSync(join(dir, 'notes'), { recursive: true });
    writeFileSync(join(dir, 'notes', 'prefs.md'), 'Prefers tabs.');
    const loaded = new Store(dir, { warn: () => {} });
    await loaded.load();
    const note = [...loaded.active()].find((m) => m.note)!;
    const seed = [...records, note]; // a note among the records: adopt leaves it to validate()

    const s = new Store(dir, { warn: () => {} });
    assert.equal(s.adopt(seed), true);
    assert.equal(s.holdsAdoptedAsIs, true);
    assert.equal(s.get(a.id)?.file, records.find((r) => r.id === a.id)!.file);
    assert.ok(s.get(b.id));
    assert.ok(s.getTombstone(gone.id) && !s.get(gone.id));
    assert.equal(s.activeCount, 2, 'the note waits for the check');
    // The first use of the paths enters them, notes aside.
    const stats = s.fileStats();
    assert.equal(s.holdsAdoptedAsIs, false);
    assert.deepEqual([...stats.keys()].sort(), records.map((r) => r.file).sort());
    // The check then finds the note; a hand edit after that is seen through the entered paths.
    assert.equal(await s.validate(), 1);
    assert.equal(s.activeCount, 3);
    const fileA = s.get(a.id)!.file;
    writeFileSync(fileA, readFileSync(fileA, 'utf8').replace('eu-west-1', 'us-east-2'));
    await s.refreshPaths([fileA]);
    assert.match(s.get(a.id)!.body, /us-east-2/);
    assert.equal(s.activeCount, 3);

    // A background check (with a pause) enters them a slice at a time: the same store after.
    const bg = new Store(dir, { warn: () => {} });
    assert.equal(bg.adopt(seed), true);
    let pauses = 0;
    assert.equal(await bg.validate(async () => void pauses++), 2, 'the note, and the file edited above');
    assert.ok(pauses > 0);
    assert.equal(bg.holdsAdoptedAsIs, false);
    assert.deepEqual([...bg.fileStats().keys()].sort(), [...s.fileStats().keys()].sort());
    assert.deepEqual([...bg.active()].map((m) => m.id).sort(), [...s.active()].map((m) => m.id).sort());

    // One path outside the store, last of many: nothing adopted, the views left empty.
    const foreign = new Store(dir, { warn: () => {} });
    assert.equal(foreign.adopt([...records, { ...records[0]!, id: 'x', file: join(root, 'elsewhere.md') }]), false);
    assert.equal(foreign.activeCount, 0);
    assert.equal([...foreign.tombstones()].length, 0);
    assert.equal(foreign.holdsAdoptedAsIs, false);
  } finally {
    removeDir(root);
  }
});

test('adopting records known to claim each id once: the views too wait for first use; the store is the same after', async () => {
  const { Store } = await import('../../src/core/store/store.ts');
  const root = tempDir();
  const dir = join(root, 'store');
  try {
    const { a, b, gone: removed } = await storeWithCache(dir, root, true);
    const gone = removed!;
    // cairn's own cache says its ids are unique (its records come from the views).
    const { readCache } = await import('../../src/core/index/cache.ts');
    const { reviveStored } = await import('../../src/core/index/revive.ts');
    const cache = readCache(dir, undefined, reviveStored)!;
    assert.equal(cache.uniqueIds, true);
    const records = cache.records;

    const s = new Store(dir, { warn: () => {} });
    assert.equal(s.adopt(records, { cleanTemps: false, uniqueIds: true }), true);
    // Before any view is asked for: the count and the active records come from the adopted ones.
    assert.equal(s.activeCount, 2);
    assert.deepEqual([...s.active()].map((m) => m.id).sort(), [a.id, b.id].sort());
    const rec = (id: string) => records.find((r) => r.id === id)!;
    assert.equal(s.whereIs(rec(a.id)), 1);
    assert.equal(s.whereIs(rec(gone.id)), 2);
    assert.equal(s.holdsAdoptedAsIs, true);
    // The first lookup by id enters everything: views, paths and owners.
    assert.equal(s.get(a.id), rec(a.id));
    assert.equal(s.holdsAdoptedAsIs, false);
    assert.ok(s.getTombstone(gone.id) && !s.get(gone.id));
    assert.equal(s.whereIs(rec(a.id)), 1);
    assert.deepEqual([...s.fileStats().keys()].sort(), records.map((r) => r.file).sort());
    assert.equal(await s.validate(), 0);

    // A background check enters them a slice at a time: the same store as the placed ones give.
    const placed = new Store(dir, { warn: () => {} });
    assert.equal(placed.adopt(records), true);
    const later = new Store(dir, { warn: () => {} });
    assert.equal(later.adopt(records, { cleanTemps: false, uniqueIds: true }), true);
    assert.equal(await later.validate(async () => undefined), 0);
    assert.equal(await placed.validate(async () => undefined), 0);
    const view = (x: InstanceType<typeof Store>) => ({ active: [...x.active()].map((m) => m.file).sort(), gone: [...x.tombstones()].map((m) => m.file).sort(), files: [...x.fileStats().keys()].sort() });
    assert.deepEqual(view(later), view(placed));

    // Were the word wrong (two records for one id), the id is elected once all are in, as a load would.
    const recA = rec(a.id);
    const newerA = { ...recA, file: join(dir, '0000-newer-copy.md'), updated: '2999-01-01T00:00:00.000Z', body: 'newer A' };
    const warnings: string[] = [];
    const wrong = new Store(dir, { warn: (m) => warnings.push(m) });
    assert.equal(wrong.adopt([recA, newerA, rec(b.id)], { cleanTemps: false, uniqueIds: true }), true);
    assert.equal(wrong.get(a.id)?.body, 'newer A');
    assert.equal(wrong.activeCount, 2);
    assert.ok(warnings.some((w) => w.includes(`skipped ${recA.file}: duplicate id ${a.id}`)), warnings.join('\n'));

    // A path outside the store: nothing adopted.
    const foreign = new Store(dir, { warn: () => {} });
    assert.equal(foreign.adopt([...records, { ...records[0]!, id: 'x', file: join(root, 'elsewhere.md') }], { cleanTemps: false, uniqueIds: true }), false);
    assert.equal(foreign.activeCount, 0);
    assert.equal(foreign.holdsAdoptedAsIs, false);
  } finally {
    removeDir(root);
  }
});
