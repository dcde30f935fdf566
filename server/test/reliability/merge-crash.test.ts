// SIGKILL real servers in the middle of memory_merge. The server is run with
// CAIRN_TEST_MERGE_STEP_DELAY_MS (a test-only wait between the steps of a merge: journal, merged
// file with `merging`, each source's tombstone, the final rewrite), and killed at a random moment,
// so kills land before, inside and after every step. The next server (which recovers interrupted
// merges at open, under the lock) must show, for the merge in flight, exactly the old set or
// exactly the merged result (and, before that recovery, a read-only view never shows a merged
// memory active beside a source); every acknowledged merge complete; no id active twice; no file left
// with `merging` and no journal left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Store } from '../../src/core/store/store.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { populate, readDisk } from '../helpers/disk.ts';
import { Rng, SOAK, allPages, factText, seedFor, spawnServer, textOf, token } from '../helpers/stress.ts';

const CYCLES = 40 * SOAK;
const PREFILL = 200;
const STEP_MS = 15;

interface Flight {
  sources: string[];
  token: string;
  acked: boolean;
}

const stats = { kills: 0, acked: 0, inFlight: 0, rolledBack: 0, rolledForward: 0, unackedRolledForward: 0, killedMidMerge: 0 };

test(`${CYCLES} SIGKILLs during memory_merge leave the old set or the merged result, never both, never neither`, { timeout: CYCLES * 5_000 }, async (t) => {
  const rng = new Rng(seedFor('merge-crash'));
  const root = tempDir('cairn-merge-crash-');
  const store = join(root, 'store');
  try {
    let next = 0;
    const bodies = populate(store, PREFILL, () => factText(rng, token(next++)));
    /** The active memories as the test knows them (acknowledged state). */
    const active = new Set(bodies.keys());
    const mergedFrom = new Map<string, string[]>();
    let flight: Flight | null = null;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      // Most cycles slow the steps down so the kill lands inside a merge; some run at full speed
      // (several merges acknowledged, then a kill wherever it falls).
      const slow = rng.chance(0.75);
      const p = await spawnServer({ store, cwd: root, env: { CAIRN_TEST_MERGE_STEP_DELAY_MS: slow ? String(STEP_MS) : '0' } });
      try {
        // ---- what the fresh server sees -------------------------------------------------
        const items = await allPages(p, 'memory_list', { limit: 100 });
        const ids = items.map((m) => m.id as string);
        assert.equal(new Set(ids).size, ids.length, `cycle ${cycle}: an id is listed twice`);
        const seen = new Set(ids);
        const disk = readDisk(store);
        assert.deepEqual(disk.problems, [], `cycle ${cycle}: store problems`);
        const pendingMarks = [...disk.byId.values()].filter((r) => r.rec.merging);
        assert.deepEqual(pendingMarks.map((r) => r.file), [], `cycle ${cycle}: a file still carries merging after recovery`);
        assert.deepEqual(existsSync(join(store, '.merges')) ? readdirSync(join(store, '.merges')) : [], [], `cycle ${cycle}: a merge journal is left`);
        if (flight) {
          const f: Flight = flight;
          const merged = [...disk.byId.values()].filter((r) => !r.tombstoned && r.rec.body.includes(f.token));
          const srcSeen = f.sources.filter((s) => seen.has(s));
          if (merged.length === 1 && seen.has(merged[0]!.id)) {
            // The merged result: every source gone (a tombstone saying so), the new one active once.
            assert.deepEqual(srcSeen, [], `cycle ${cycle}: merged ${merged[0]!.id} is active and so are sources ${srcSeen}`);
            assert.deepEqual(merged[0]!.rec.merged_from, f.sources);
            for (const s of f.sources) assert.equal(disk.byId.get(s)?.rec.removed_reason, `merged into ${merged[0]!.id}`);
            for (const s of f.sources) active.delete(s);
            active.add(merged[0]!.id);
            mergedFrom.set(merged[0]!.id, f.sources);
            stats.rolledForward++;
            if (!f.acked) stats.unackedRolledForward++;
          } else {
            // The old set, whole: the merge never happened.
            assert.equal(merged.length, 0, `cycle ${cycle}: an unfinished merged memory is visible on disk as active: ${merged.map((m) => m.file)}`);
            assert.deepEqual(srcSeen, f.sources, `cycle ${cycle}: the merge of ${f.sources} left neither the old set nor the merged result (active: ${srcSeen})`);
            assert.ok(!f.acked, `cycle ${cycle}: an acknowledged merge was rolled back`);
            stats.rolledBack++;
          }
          flight = null;
        }
        assert.deepEqual([...seen].sort(), [...active].sort(), `cycle ${cycle}: the active set differs from the acknowledged one`);

        // ---- merges until the kill ------------------------------------------------------
        const killAt = slow ? rng.int(STEP_MS * 12) : 20 + rng.int(300);
        let stop = false;
        const drive = async () => {
          while (!stop && p.alive()) {
            const pool = [...active];
            if (pool.length < 4) return;
            const n = 2 + rng.int(2);
            const sources: string[] = [];
            while (sources.length < n) {
              const id = pool[rng.int(pool.length)]!;
              if (!sources.includes(id)) sources.push(id);
            }
            const tok = token(next++);
            const f: Flight = { sources, token: tok, acked: false };
            flight = f;
            stats.inFlight++;
            const r = await p.call('memory_merge', { ids: sources, content: `Record ${tok} ${token(next++)} ${token(next++)} ${token(next++)} ${token(next++)} ${token(next++)} joins ${sources.length} notes.`, reason: `crash test ${cycle}` }).catch(() => null);
            if (r === null) return; // killed mid-call
            assert.ok(!r.isError, `cycle ${cycle}: merge failed: ${textOf(r)}`);
            const out = r.structuredContent as Record<string, any>;
            assert.equal(out.status, 'committed', JSON.stringify(out));
            f.acked = true;
            stats.acked++;
            for (const s of sources) active.delete(s);
            active.add(out.id);
            mergedFrom.set(out.id, sources);
            flight = null;
          }
        };
        const driver = drive();
        await sleep(killAt);
        stop = true;
        p.kill();
        await p.exited;
        await driver.catch((e) => {
          throw e;
        });
        stats.kills++;
        // Before any recovery: a read-only view (as doctor opens it) of the crashed store never
        // shows a merged memory active next to one of its sources (the `merging` marker hides it).
        const view = new Store(store, { readOnly: true, warn: () => {} });
        await view.load();
        for (const m of view.active()) {
          if (!m.merged_from) continue;
          const both = m.merged_from.filter((s) => view.get(s));
          assert.deepEqual(both, [], `cycle ${cycle}: after the kill, merged ${m.id} and its sources ${both} are both active`);
        }
        if (readDisk(store).byId.size > 0 && [...readDisk(store).byId.values()].some((r) => r.rec.merging)) stats.killedMidMerge++;
      } finally {
        p.kill();
        await p.exited;
      }
      if (active.size < 8) break;
    }
    // Every acknowledged merge is complete on disk and shown by memory_show.
    const p = await spawnServer({ store, cwd: root });
    try {
      for (const [id, from] of mergedFrom) {
        if (!active.has(id)) continue; // merged again later
        if ((flight as Flight | null)?.sources.includes(id)) continue; // the last kill's merge may have taken it
        const shown = await p.ok('memory_show', { id });
        assert.deepEqual(shown.memories[0]?.merged_from, from);
      }
    } finally {
      await p.close();
    }
  } finally {
    removeDir(root);
  }
  t.diagnostic(JSON.stringify(stats));
  assert.ok(stats.rolledBack > 0 && stats.unackedRolledForward > 0 && stats.acked > 0, `kills landed on both sides: ${JSON.stringify(stats)}`);
});
