// Note renames under SIGKILL: real servers rename notes through the `memory` tool (its `rename`
// command, over MCP) and are killed at random moments, between and inside renames. The next
// server must show every note at exactly one path (the old one or the new one for a rename in
// flight, the new one for an acknowledged rename), and a search for a note's word must find one
// note. Besides: a note with two names (what an older cairn's link-then-unlink rename left when
// killed in between) is repaired at the next start, keeping the new name, and an interrupted
// note delete or restore (two steps under an intent record) is finished.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Store } from '../../src/core/store/store.ts';
import { newId } from '../../src/core/ids.ts';
import { noteId } from '../../src/core/store/notes.ts';
import { stripStored } from '../../src/core/memory.ts';
import type { MemoryRecord, StoredMemory } from '../../src/core/types.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { Rng, SOAK, seedFor, spawnServer, textOf } from '../helpers/stress.ts';

// 100 kills per CAIRN_SOAK unit in a soak (1,000 at CAIRN_SOAK=10), 30 in the normal suite;
// CAIRN_RENAME_KILLS sets the number. Each kill costs a fresh server (about 0.4 s of CPU), so the
// kills are shared by lanes (separate stores) that run side by side: CAIRN_RENAME_LANES, by
// default 2, and 4 from 200 kills on.
const KILLS = Math.max(1, Number(process.env.CAIRN_RENAME_KILLS ?? (SOAK > 1 ? 100 * SOAK : 30)) || 30);
const LANES = Math.min(KILLS, Math.max(1, Number(process.env.CAIRN_RENAME_LANES ?? (KILLS >= 200 ? 4 : 2)) || 2));
const cyclesOf = (lane: number) => Math.floor(KILLS / LANES) + (lane < KILLS % LANES ? 1 : 0);
const NOTES = 12;
const FOLDERS = ['', 'projects', 'projects/widgets', 'archive'];

const stats = { kills: 0, renamesAcked: 0, killedInFlight: 0, inFlightLanded: 0 };

/** Every note file under the notes area: relative path -> text. */
function notesOnDisk(store: string): Map<string, string> {
  const out = new Map<string, string>();
  const root = join(store, 'notes');
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      if (n.startsWith('.')) continue;
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.set(relative(root, p), readFileSync(p, 'utf8'));
    }
  };
  walk(root);
  return out;
}

// A cycle takes 1-3 s on a busy machine; the limit allows 8 s for each cycle of a lane.
test(`${KILLS} SIGKILLs during memory-tool renames leave every note at exactly one path`, { timeout: Math.max(120_000, cyclesOf(0) * 8_000) }, async (t) => {
  const seed = seedFor('rename-crash');
  const root = tempDir('cairn-rename-crash-');
  const started = performance.now();
  try {
    const results = await Promise.allSettled(Array.from({ length: LANES }, (_, l) => lane(join(root, `lane${l}`), new Rng(seed + l), cyclesOf(l))));
    for (const r of results) if (r.status === 'rejected') throw r.reason;
  } finally {
    removeDir(root);
  }
  const cpu = process.cpuUsage();
  t.diagnostic(`${stats.kills} kills in ${LANES} lanes in ${((performance.now() - started) / 1000).toFixed(1)} s (this process ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of CPU): ${JSON.stringify(stats)}`);
  assert.equal(stats.kills, KILLS);
  assert.ok(stats.killedInFlight > 0, 'some kills landed while a rename was in flight');
});

async function lane(dir: string, rng: Rng, cycles: number): Promise<void> {
  const store = join(dir, 'store');
  mkdirSync(join(store, 'notes'), { recursive: true });
  // Search by words only: a note's rename is a file move, whatever ranks the hits, and each
  // fresh server then skips loading the embedding table (about a third of its start).
  writeFileSync(join(store, 'config.toml'), '[embed]\nenabled = false\n');
  // token -> its acknowledged path (relative to the notes area)
  const where = new Map<string, string>();
  for (let i = 0; i < NOTES; i++) {
    // Words far apart (five letters differ), so a fuzzy match can never find another note.
    const tok = `zx${String.fromCharCode(97 + i).repeat(5)}q`;
    const rel = `note-${i}.md`;
    writeFileSync(join(store, 'notes', rel), `# Note ${i}\n\nThe lantern keeps ${tok} beside the quarry.\n`);
    where.set(tok, rel);
  }
  let flight = null as { tok: string; from: string; to: string } | null;
  let n = 0;
  for (let cycle = 0; cycle < cycles; cycle++) {
    const p = await spawnServer({ store, cwd: dir });
    try {
      await p.call('memory_scope_overview', {});
      // ---- the fresh server's view: one path per note, one hit per word ----------------------
      const disk = notesOnDisk(store);
      assert.equal(disk.size, NOTES, `cycle ${cycle}: ${disk.size} note files for ${NOTES} notes: ${[...disk.keys()].join(', ')}`);
      for (const [tok, rel] of where) {
        const paths = [...disk].filter(([, text]) => text.includes(tok)).map(([r]) => r);
        assert.equal(paths.length, 1, `cycle ${cycle}: ${tok} is at ${paths.length} paths: ${paths.join(', ')}`);
        if (flight?.tok === tok) {
          assert.ok(paths[0] === flight.from || paths[0] === flight.to, `cycle ${cycle}: ${tok} at ${paths[0]}, neither ${flight.from} nor ${flight.to}`);
          if (paths[0] === flight.to) stats.inFlightLanded++;
          where.set(tok, paths[0]!);
        } else {
          assert.equal(paths[0], rel, `cycle ${cycle}: ${tok} moved without an acknowledged rename`);
        }
      }
      flight = null;
      const byId = new Map([...disk.keys()].map((rel) => [noteId(rel), rel]));
      const probe = rng.pick([...where.keys()]);
      const r = await p.ok('memory_search', { query: probe, auto_scope: false, max_results: 20 });
      // Every hit is a note that exists at its path, and the probe's word is in exactly one of them
      // (the rest are merely similar: every note here reads alike).
      const hitPaths = r.hits.map((h: { id: string }) => h.id).map((id: string) => byId.get(id));
      assert.ok(hitPaths.every((x: string | undefined) => x !== undefined), `cycle ${cycle}: a hit is no note on disk: ${JSON.stringify(r.hits.map((h: any) => h.id))}`);
      const withWord = hitPaths.filter((x: string) => disk.get(x)!.includes(probe));
      assert.equal(withWord.length, 1, `cycle ${cycle}: search for ${probe} found ${withWord.length} notes with it: ${withWord.join(', ')}`);
      // ---- renames until the kill -----------------------------------------------------------
      // The kill lands after a few acknowledged renames, a random moment later (often mid-rename).
      const killAfter = rng.int(4);
      let acks = 0;
      let fire!: () => void;
      const due = new Promise<void>((res) => (fire = res));
      if (killAfter === 0) fire();
      const drive = async () => {
        while (p.alive()) {
          const tok = rng.pick([...where.keys()]);
          const from = where.get(tok)!;
          const folder = rng.pick(FOLDERS);
          const to = `${folder === '' ? '' : `${folder}/`}n${n++}-${tok}.md`;
          flight = { tok, from, to };
          let res;
          try {
            res = await p.call('memory', { command: 'rename', old_path: `/memories/${from}`, new_path: `/memories/${to}` });
          } catch {
            return; // killed: the outcome is unknown, checked by the next server
          }
          assert.ok(!res.isError, `rename ${from} -> ${to}: ${textOf(res)}`);
          where.set(tok, to);
          flight = null;
          stats.renamesAcked++;
          if (++acks >= killAfter) fire();
        }
      };
      const driving = drive();
      await due;
      await sleep(rng.next() * 8);
      if (flight) stats.killedInFlight++;
      p.kill();
      await p.exited;
      await driving;
      stats.kills++;
    } finally {
      p.kill();
      await p.exited;
    }
  }
}

async function openStore(store: string, warnings: string[]): Promise<Store> {
  const s = new Store(store, { warn: (m) => warnings.push(m) });
  await s.load();
  return s;
}

test('a note with two names (an interrupted link-then-unlink rename) keeps its new name at the next start, and says so', async () => {
  const root = tempDir('cairn-two-names-');
  try {
    const store = join(root, 'store');
    const notes = join(store, 'notes');
    mkdirSync(join(notes, 'old'), { recursive: true });
    writeFileSync(join(notes, 'old', 'plan.md'), 'The plan names zxtwoq.\n');
    // The old name's folder last changed well before the link; the link then touches the new folder.
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(notes, 'old'), past, past);
    await sleep(20);
    mkdirSync(join(notes, 'new'));
    linkSync(join(notes, 'old', 'plan.md'), join(notes, 'new', 'plan.md'));
    const warnings: string[] = [];
    const s = await openStore(store, warnings);
    assert.deepEqual([...notesOnDisk(store).keys()], ['new/plan.md']);
    assert.equal([...s.active()].filter((m) => m.body.includes('zxtwoq')).length, 1);
    assert.ok(warnings.some((w) => /interrupted rename/.test(w) && w.includes('kept new/plan.md')), warnings.join('\n'));
  } finally {
    removeDir(root);
  }
});

test('an interrupted note delete is finished and an interrupted restore is finished, from their intent records', async () => {
  const root = tempDir('cairn-note-intent-');
  try {
    const store = join(root, 'store');
    const warnings: string[] = [];
    mkdirSync(join(store, 'notes'), { recursive: true });
    writeFileSync(join(store, 'notes', 'gone.md'), 'Delete me zxgoneq.\n');
    writeFileSync(join(store, 'notes', 'back.md'), 'Restore me zxbackq.\n');
    let s = await openStore(store, warnings);
    const byWord = (w: string) => [...s.active()].find((m) => m.body.includes(w))!;
    const tomb = (n: StoredMemory): MemoryRecord => ({ ...stripStored(n), id: newId(), removed: new Date().toISOString(), removed_reason: 'test' });
    // Both notes deleted for real; then the state a kill leaves in each: both files (the note
    // written back), and an intent record saying which move it was.
    const [td] = await s.removeNotes([byWord('zxgoneq').file], tomb);
    const [tb] = await s.removeNotes([byWord('zxbackq').file], tomb);
    writeFileSync(join(store, 'notes', 'gone.md'), 'Delete me zxgoneq.\n');
    writeFileSync(join(store, 'notes', 'back.md'), 'Restore me zxbackq.\n');
    mkdirSync(join(store, '.moves'), { recursive: true });
    writeFileSync(join(store, '.moves', 'a.json'), JSON.stringify({ op: 'delete', note: 'notes/gone.md', tomb: relative(store, td!.file) }));
    writeFileSync(join(store, '.moves', 'b.json'), JSON.stringify({ op: 'restore', note: 'notes/back.md', tomb: relative(store, tb!.file) }));
    warnings.length = 0;
    s = await openStore(store, warnings);
    assert.deepEqual([...notesOnDisk(store).keys()], ['back.md'], 'the deleted note is gone, the restored one is back');
    assert.equal(statSync(td!.file).isFile(), true, 'the delete kept its tombstone');
    assert.throws(() => statSync(tb!.file), 'the restore dropped its tombstone');
    assert.deepEqual(readdirSync(join(store, '.moves')), [], 'no intent record is left');
    assert.equal(warnings.filter((w) => /finished the interrupted (delete|restore)/.test(w)).length, 2, warnings.join('\n'));
  } finally {
    removeDir(root);
  }
});
