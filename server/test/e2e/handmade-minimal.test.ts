// Through the built bundle: the minimal hand-made memory (format.md: scopes and
// a body) is a memory. `created`/`updated` default to the file's mtime and the id is derived
// from the path, identically in every process, and nothing is written until the memory is next
// changed through cairn, which then writes id, created and updated down. Markdown files in
// subfolders of the store are not memories, and `cairn doctor` lists each one with the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, startServer } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

const MTIME = new Date('2026-01-10T08:00:00.000Z');

test('a hand-made file with only scopes is a memory; its id is stable across processes and written down on the next change', async () => {
  const store = tempDir('cairn-hand-');
  try {
    const file = join(store, 'deploy.md');
    const text = '---\nscopes: [deploy]\n---\nWe deploy the widgets service with make ship-widgets.\n';
    writeFileSync(file, text, { mode: 0o600 });
    utimesSync(file, MTIME, MTIME);

    const listed = cli(['list', '--json'], { store, cwd: store });
    assert.equal(listed.code, 0, listed.stderr);
    assert.doesNotMatch(listed.stderr, /skipped/);
    const items = JSON.parse(listed.stdout).items;
    assert.equal(items.length, 1);
    const { id } = items[0];
    assert.equal(items[0].created, MTIME.toISOString());
    assert.equal(items[0].updated, MTIME.toISOString());

    // Another process, another entry point, the store reached through a link: the same id.
    // Reading never rewrote the file.
    const link = `${store}-link`;
    symlinkSync(store, link);
    const shown = cli(['show', id, '--json'], { store: link, cwd: store });
    rmSync(link);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(JSON.parse(shown.stdout).id, id);
    const s = await startServer({ store, cwd: store });
    try {
      const hits = (await s.call('memory_search', { query: 'deploy widgets' })).hits;
      assert.deepEqual(hits.map((h: { id: string }) => h.id), [id]);
      assert.equal(readFileSync(file, 'utf8'), text);
      assert.equal(statSync(file).mtime.getTime(), MTIME.getTime());

      // The first change through cairn writes id, created and updated into the file.
      await s.call('memory_verify', { id });
      const after = readFileSync(file, 'utf8');
      assert.match(after, new RegExp(`^id: ${id}$`, 'm'));
      assert.match(after, /^created: 2026-01-10T08:00:00\.000Z$/m);
      assert.match(after, /^updated: 2026-01-10T08:00:00\.000Z$/m);
      assert.match(after, /^last_verified_at: \d{4}-/m);
      assert.match(after, /We deploy the widgets service with make ship-widgets\.\n$/);
    } finally {
      await s.close();
    }
    // From now on the file says who it is, whatever its mtime.
    utimesSync(file, new Date(), new Date());
    const again = JSON.parse(cli(['show', id, '--json'], { store, cwd: store }).stdout);
    assert.equal(again.created, MTIME.toISOString());
  } finally {
    removeDir(store);
  }
});

test('markdown in subfolders is not read as memories and cairn doctor lists each file with the reason', () => {
  const store = tempDir('cairn-hand-');
  try {
    const fm = '---\nscopes: [team]\n---\nCode review needs two approvals.\n';
    writeFileSync(join(store, 'top.md'), fm, { mode: 0o600 });
    for (const sub of ['team', 'team/deep', 'notes', '.hidden']) mkdirSync(join(store, sub), { recursive: true, mode: 0o700 });
    writeFileSync(join(store, 'team', 'conventions.md'), fm, { mode: 0o600 });
    writeFileSync(join(store, 'team', 'deep', 'more.md'), fm, { mode: 0o600 });
    writeFileSync(join(store, 'team', 'readme.txt'), 'not markdown', { mode: 0o600 });
    writeFileSync(join(store, 'notes', 'n.md'), fm, { mode: 0o600 }); // the /memories notes area
    writeFileSync(join(store, '.hidden', 'x.md'), fm, { mode: 0o600 });

    // notes/n.md is a note (the memory tool's /memories), listed as one; the subfolders are not read.
    assert.deepEqual(JSON.parse(cli(['list', '--json'], { store, cwd: store }).stdout).items.map((i: { kind?: string }) => i.kind ?? 'memory').sort(), ['memory', 'note']);
    const r = cli(['doctor', '--json'], { store, cwd: store });
    const files = JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === 'files');
    assert.equal(files.status, 'warn');
    assert.match(files.detail, /^1 memory, 1 note, 0 tombstones; 2 markdown files in subfolders not read$/);
    const reason = `in a subfolder, so not a memory (cairn reads only ${store} itself): move it up to make it one`;
    assert.deepEqual(files.items, [`${join(store, 'team', 'conventions.md')}: ${reason}`, `${join(store, 'team', 'deep', 'more.md')}: ${reason}`]);
    const text = cli(['doctor'], { store, cwd: store });
    assert.match(text.stdout, /team\/conventions\.md: in a subfolder, so not a memory/);
  } finally {
    removeDir(store);
  }
});
