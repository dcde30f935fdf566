// `cairn health`'s consolidation section through the built bundle: memories are compared only
// where they apply together (the same note for two projects is two facts); what one run judged
// is kept in .cache/consolidation.json and taken back by the next run, and a memory another tool
// changed meanwhile is judged again. The text form shows one progress line on a terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { writeMemory } from '../curation/fixtures/store.ts';
import { fileNameFor, serializeMemory } from '../../src/core/store/memfile.ts';
import type { MemoryRecord } from '../../src/core/types.ts';
import { runCli } from '../../src/cli/main.ts';

const note = (project: string, minutes: number) => `The ${project} API caches responses in redis for ${minutes} minutes; invalidate the keys after a schema change.`;
const from = (project: string) => ({ cwd: `/home/dev/src/${project}`, repo: `git@github.com:acme/${project}.git`, branch: 'main', worktree_root: `/home/dev/src/${project}` });

function consolidation(store: string): { groups: number; contradictions: number; duplicates: number } {
  const r = cli(['health', '--json'], { store, cwd: store });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).consolidation;
}

/** Another tool rewrites a memory file in place (cairn is not running). */
function rewrite(store: string, m: MemoryRecord, over: Partial<MemoryRecord>): MemoryRecord {
  const next = { ...m, ...over };
  writeFileSync(join(store, fileNameFor(m)), serializeMemory(next), { mode: 0o600 });
  return next;
}

test('cairn health compares memories only where they apply together, keeps what it judged in the cache, and judges again what changed', () => {
  const store = tempDir('cairn-health-cons-');
  try {
    writeMemory(store, { body: note('alpha', 5), scopes: ['projects:alpha'], origin: from('alpha') });
    const alpha10 = writeMemory(store, { body: note('alpha', 10), scopes: ['projects:alpha'], origin: from('alpha') });
    // The same note for beta, with beta's own TTL: beta's fact, not a contradiction of alpha's.
    writeMemory(store, { body: note('beta', 10), scopes: ['projects:beta'], origin: from('beta') });
    const grafana = writeMemory(store, { body: 'Grafana dashboards live in the observability folder of the infra repo.', scopes: ['ops'] });
    const wifi = writeMemory(store, { body: 'The office wifi password rotates every quarter.', scopes: ['ops'] });

    assert.deepEqual(consolidation(store), { groups: 1, contradictions: 1, superseded: 0, duplicates: 0, next_step: 'run /memory-consolidate (or call memory_consolidate) to review and merge them' });
    const file = join(store, '.cache', 'consolidation.json');
    const snap = JSON.parse(readFileSync(file, 'utf8')) as { ids: string[]; strings: string[]; pairs: number[] };
    assert.equal(snap.ids.length, 5);
    assert.equal(snap.pairs.length, 5, 'one pair judged');

    // The next run takes the pairs back instead of judging again: a pair planted in the cache
    // between two unrelated memories is reported as if judged.
    snap.strings.push('planted');
    const s = snap.strings.length - 1;
    snap.pairs.push(snap.ids.indexOf(grafana.id), snap.ids.indexOf(wifi.id), 1, s, s);
    writeFileSync(file, JSON.stringify(snap));
    assert.equal(consolidation(store).contradictions, 2);
    const planted = readFileSync(file, 'utf8');
    assert.equal(consolidation(store).contradictions, 2);
    assert.equal(readFileSync(file, 'utf8'), planted, 'a run that judged nothing leaves the cache as it was');

    // Another tool edits one of them while cairn is not running: its pairs are judged again.
    rewrite(store, wifi, { body: 'The office wifi password rotates every month.' });
    assert.equal(consolidation(store).contradictions, 1);
    // ... and moves alpha's second note to beta: alpha's contradiction goes; in beta it is the
    // same value as beta's note (a near-duplicate in beta's place).
    rewrite(store, alpha10, { scopes: ['projects:beta'], origin: from('beta') });
    assert.deepEqual(consolidation(store), { groups: 1, contradictions: 0, superseded: 0, duplicates: 1, next_step: 'run /memory-consolidate (or call memory_consolidate) to review and merge them' });
    // A cache that cannot be read is rebuilt: the same answer.
    writeFileSync(file, '{"format": 1, "ids": [');
    assert.equal(consolidation(store).duplicates, 1);
    assert.doesNotThrow(() => JSON.parse(readFileSync(file, 'utf8')));
  } finally {
    removeDir(store);
  }
});

test('cairn health shows one progress line for the whole report on a terminal, and none elsewhere', async () => {
  const store = tempDir('cairn-health-progress-');
  try {
    for (let i = 0; i < 60; i++) writeMemory(store, { body: note(`p${i % 6}`, i), scopes: [`projects:p${i % 6}`] });
    const run = async (errIsTTY: boolean) => {
      let err = '';
      const env = { ...process.env, CAIRN_DIR: store, HOME: store, CAIRN_PROGRESS_AFTER_MS: '0' };
      const code = await runCli(['health'], { out: () => {}, err: (t) => void (err += t), isTTY: false, errIsTTY, env, cwd: store });
      assert.equal(code, 0, err);
      return err;
    };
    const shown = await run(true);
    assert.match(shown, /\rcairn: checking health \d+%/);
    assert.match(shown, /\rcairn: checking health 100%\x1b\[K\n/);
    assert.equal(shown.match(/checking health 100%/g)?.length, 1, 'ended once');
    assert.doesNotMatch(await run(false), /checking health/);
  } finally {
    removeDir(store);
  }
});
