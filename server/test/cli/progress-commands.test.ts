// The long waits of list --all, overview, doctor and search on the progress line (cli/progress.ts):
// each phase of opening the store (the index cache in MB, the check of every file) and of the
// command (the pages listed, the curation counts, doctor's reads, the first search's indexing), on
// stderr when it is a terminal. The
// seam CAIRN_PROGRESS_AFTER_MS=0 makes a command's quiet first second none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main.ts';
import type { CliIO } from '../../src/cli/io.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { writeMemory } from '../curation/fixtures/store.ts';

function io(store: string, opts: { outIsTTY?: boolean; errIsTTY?: boolean; seam?: string } = {}) {
  let out = '';
  let err = '';
  const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_DIR: store, HOME: store, CAIRN_PROGRESS_AFTER_MS: opts.seam ?? '0' };
  const cli: CliIO = { out: (s) => void (out += s), err: (s) => void (err += s), isTTY: opts.outIsTTY ?? false, errIsTTY: opts.errIsTTY ?? true, env, cwd: store };
  return { cli, out: () => out, err: () => err };
}

test('list --all, overview, doctor and search show each phase of a long wait on a terminal, and nothing off one', async () => {
  const store = tempDir('cairn-progress-');
  try {
    const repo = { cwd: null, repo: 'https://github.com/acme/widgets', branch: null, worktree_root: null };
    for (let i = 0; i < 1200; i++) writeMemory(store, { body: `Progress note ${i} about \`src/mod${i % 13}.ts\`.`, scopes: ['bulk'], ...(i % 2 ? { origin: repo } : {}) });
    // The first command writes the index cache the others open from.
    assert.equal(await runCli(['list', '--limit', '1'], io(store, { errIsTTY: false }).cli), 0);
    assert.ok(existsSync(join(store, '.cache', 'search-index.bin')));

    const list = io(store);
    assert.equal(await runCli(['list', '--all'], list.cli), 0);
    assert.match(list.err(), /\rcairn: reading the index cache 1\/1 MB\x1b\[K\n/);
    assert.match(list.err(), /\rcairn: checking files 1,200\/1,200\x1b\[K\n/);
    assert.match(list.err(), /\rcairn: listing 200\/1,200/);
    assert.match(list.err(), /\rcairn: listing 1,200\/1,200\x1b\[K\n/);
    assert.equal(list.out().split('\n').filter((l) => /^[0-9A-Z]{26}\b/.test(l)).length, 1200);
    // Written to a terminal, the listed lines are their own progress.
    const onTerminal = io(store, { outIsTTY: true });
    assert.equal(await runCli(['list', '--all'], onTerminal.cli), 0);
    assert.match(onTerminal.err(), /checking files 1,200\/1,200/);
    assert.doesNotMatch(onTerminal.err(), /listing/);

    const overview = io(store);
    assert.equal(await runCli(['overview'], overview.cli), 0);
    assert.match(overview.err(), /\rcairn: checking files 1,200\/1,200\x1b\[K\n/);
    // Outside a repo, in view are the memories bound to no repo: half of them.
    assert.match(overview.err(), /\rcairn: checking memories for curation 600\/600\x1b\[K\n/);

    const doctor = io(store);
    await runCli(['doctor'], doctor.cli);
    assert.match(doctor.err(), /\rcairn: reading the index cache 1\/1 MB\x1b\[K\n/);
    assert.match(doctor.err(), /\rcairn: loading files 1,200\/1,200\x1b\[K\n/);
    assert.match(doctor.err(), /\rcairn: reading stored remote URLs 600\/600\x1b\[K\n/);
    assert.match(doctor.err(), /\rcairn: checking file modes 1,\d{3}\/1,\d{3}\x1b\[K\n/);
    assert.match(doctor.out(), /ok +files +1200 memories, 0 tombstones; every file parses/);

    // The first search builds the index (the cache, written by list, holds no analysis).
    const search = io(store);
    assert.equal(await runCli(['search', 'progress', 'note'], search.cli), 0);
    assert.match(search.err(), /\rcairn: indexing 1,200\/1,200\x1b\[K\n/);

    for (const args of [['list', '--all'], ['overview'], ['doctor'], ['search', 'progress']]) {
      const off = io(store, { errIsTTY: false });
      await runCli(args, off.cli);
      assert.doesNotMatch(off.err(), /\rcairn:/, `${args.join(' ')} drew progress off a terminal`);
    }
  } finally {
    removeDir(store);
  }
});
