// Crashes: SIGKILL a real server at random points while it writes, updates, removes, restores and
// saves its index cache (on shutdown), then check that the store still loads, every acknowledged
// change is intact, a change in flight is either wholly there or wholly absent, and leftovers
// (temp files, the lock) never count as memories and are cleaned by the next server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Store } from '../../src/core/store/store.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { populate, readDisk } from '../helpers/disk.ts';
import { Rng, SOAK, factText, seedFor, spawnServer, textOf, token, type Proc } from '../helpers/stress.ts';

const LANES = 2;
// Kills per lane: 25 in the normal suite (about 35 s of CPU), 50 per CAIRN_SOAK unit in a soak.
const CYCLES = SOAK > 1 ? 50 * SOAK : 25;
const PREFILL = 300;

interface St {
  body: string;
  token: string;
  tombstoned: boolean;
}
type Kind = 'write' | 'update' | 'remove' | 'restore' | 'verify' | 'search';
interface Flight {
  kind: Kind;
  pre?: St;
  post: St;
}

const stats = {
  kills: 0,
  killedWithInFlight: { write: 0, update: 0, remove: 0, restore: 0, verify: 0, search: 0 } as Record<Kind, number>,
  killedDuringShutdown: 0,
  acknowledged: 0,
  unacknowledgedWritesThatLanded: 0,
  tempFilesLeft: 0,
  misplacedByKill: new Set<string>(),
  cacheTempFilesLeft: 0,
  shutdownKills: { beforeSave: 0, midSave: 0, afterSave: 0 },
  locksLeft: 0,
  emptyLocksLeft: 0,
};

test(`${LANES * CYCLES} SIGKILLs during writes, updates, removes and cache saves lose nothing acknowledged`, { timeout: Math.max(120_000, CYCLES * 8_000) }, async (t) => {
  const seed = seedFor('crash');
  const root = tempDir('cairn-crash-');
  const started = performance.now();
  try {
    // allSettled: a failing lane must not delete the directory under a lane still running.
    const results = await Promise.allSettled(Array.from({ length: LANES }, (_, l) => lane(join(root, `lane${l}`), new Rng(seed + l))));
    for (const r of results) if (r.status === 'rejected') throw r.reason;
  } finally {
    removeDir(root);
  }
  t.diagnostic(`${stats.kills} kills in ${((performance.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify({ ...stats, misplacedByKill: stats.misplacedByKill.size })}`);
  assert.equal(stats.kills, LANES * CYCLES);
  assert.equal(stats.emptyLocksLeft, 0, 'a killed lock holder never leaves an empty lock file (only age could break it)');
});

async function lane(dir: string, rng: Rng): Promise<void> {
  mkdirSync(dir);
  const store = join(dir, 'store');
  const model = new Map<string, St>();
  const next = { token: 0 };
  // A few hundred memories to start with: the index cache is then big enough that saving it on
  // shutdown takes a few milliseconds, a window the shutdown kills below can land in.
  const bodies = populate(store, PREFILL, () => factText(rng, token(next.token++)));
  for (const [id, body] of bodies) model.set(id, { body, token: /zx[a-z]+q/.exec(body)![0], tombstoned: false });
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const p = await spawnServer({ store, cwd: dir });
    try {
      // The last victim's temp files are gone once a new server has loaded the store (the server
      // answers initialize before its store is open; a tool call waits for the store).
      await p.call('memory_scope_overview', {});
      assert.deepEqual(readDisk(store).temps, [], `cycle ${cycle}: temp files of dead writers are cleaned on load`);
      const flights = new Map<string, Flight>();
      const errors: string[] = [];
      const shutdown = rng.chance(0.3);
      const killAfter = rng.int(10);
      let acks = 0;
      let stop = false;
      let fire!: () => void;
      const due = new Promise<void>((r) => (fire = r));
      if (killAfter === 0) fire();
      const onAck = () => {
        stats.acknowledged++;
        if (++acks >= killAfter) fire();
      };
      const drive = async () => {
        while (!stop && p.alive()) {
          if (!(await oneOp(p, rng, model, flights, next, onAck, errors))) return;
        }
      };
      const drivers = Array.from({ length: 1 + rng.int(3) }, drive);
      await due;
      if (shutdown) {
        // Shutdown saves the index cache: kill somewhere inside that.
        stop = true;
        const cacheBefore = cacheStamp(store);
        p.endInput();
        await sleep(rng.int(12));
        if (p.alive()) {
          stats.killedDuringShutdown++;
          p.kill();
          await p.exited;
          if (cacheTemps(store) > stats.cacheTempFilesLeft) stats.shutdownKills.midSave++;
          else if (cacheStamp(store) !== cacheBefore) stats.shutdownKills.afterSave++;
          else stats.shutdownKills.beforeSave++;
        }
      } else {
        await sleep(rng.next() * 6);
      }
      p.kill();
      stop = true;
      await p.exited;
      await Promise.allSettled(drivers);
      stats.kills++;
      assert.deepEqual(errors, [], `cycle ${cycle}: calls answered with errors`);
      await reconcile(store, model, flights, cycle);
    } finally {
      p.kill();
      await p.exited;
    }
  }
}

/** One call on an id nobody else has in flight. Returns false once the server is gone. */
async function oneOp(p: Proc, rng: Rng, model: Map<string, St>, flights: Map<string, Flight>, next: { token: number }, onAck: () => void, errors: string[]): Promise<boolean> {
  const free = [...model.entries()].filter(([id]) => !flights.has(id));
  const active = free.filter(([, s]) => !s.tombstoned);
  const tomb = free.filter(([, s]) => s.tombstoned);
  const kind = rng.weighted({
    write: 3,
    update: active.length ? 4 : 0,
    remove: active.length ? 2 : 0,
    restore: tomb.length ? 2 : 0,
    verify: active.length ? 1 : 0,
    search: free.length ? 1 : 0,
  });
  const tok = token(next.token++);
  const body = factText(rng, tok);
  let key: string;
  let args: Record<string, unknown>;
  let flight: Flight | undefined;
  if (kind === 'write') {
    key = `new:${tok}`;
    args = { content: body, scopes: ['crash'], force: true };
    flight = { kind, post: { body, token: tok, tombstoned: false } };
  } else if (kind === 'search') {
    // A settled memory: the index (possibly loaded from a cache a kill interrupted) must agree.
    const [id, st] = rng.pick(free);
    flights.set(id, { kind, pre: st, post: st }); // nobody changes it while we look
    let r;
    try {
      r = await p.call('memory_search', { query: st.token, auto_scope: false, max_results: 5 });
    } catch {
      return false;
    }
    flights.delete(id);
    const found = !r.isError && (r.structuredContent as any).hits.some((h: { id: string }) => h.id === id);
    if (r.isError) errors.push(`search: ${textOf(r)}`);
    else if (found === st.tombstoned) errors.push(`search ${st.token}: ${st.tombstoned ? 'returned tombstoned' : 'missed active'} ${id}`);
    else onAck();
    return true;
  } else {
    const [id, st] = rng.pick(kind === 'restore' ? tomb : active);
    key = id;
    const post = kind === 'update' ? { body, token: tok, tombstoned: false } : kind === 'verify' ? st : { ...st, tombstoned: kind === 'remove' };
    flight = { kind, pre: st, post };
    args = kind === 'update' ? { id, content: body } : kind === 'remove' ? { id, reason: 'crash test removal' } : { id };
  }
  flights.set(key, flight);
  let r;
  try {
    r = await p.call(`memory_${kind}`, args);
  } catch {
    return false; // killed: the outcome is unknown, the flight stays for reconcile()
  }
  if (r.isError || (kind === 'write' && (r.structuredContent as any).status !== 'committed')) {
    errors.push(`${kind} ${JSON.stringify(args).slice(0, 80)}: ${textOf(r)}`);
    flights.delete(key);
    return true;
  }
  flights.delete(key);
  model.set(kind === 'write' ? (r.structuredContent as any).id : key, flight.post);
  onAck();
  return true;
}

/** After a kill: what is on disk must be the acknowledged state, or for a call in flight, before or after it. */
async function reconcile(store: string, model: Map<string, St>, flights: Map<string, Flight>, cycle: number): Promise<void> {
  const lock = join(store, '.lock');
  if (existsSync(lock)) {
    stats.locksLeft++;
    if (readFileSync(lock, 'utf8') === '') stats.emptyLocksLeft++;
  }
  const disk = readDisk(store);
  assert.deepEqual(disk.problems, [], `cycle ${cycle}: every file parses and each id is in one place`);
  for (const f of disk.temps) assert.equal(statSync(f).mode & 0o777, 0o600, `temp file ${f} is 0600`);
  stats.tempFilesLeft += disk.temps.length;
  for (const f of disk.misplaced) stats.misplacedByKill.add(f);
  // The index cache's own temp files (search's format): a kill mid-save leaves them; they must be ignored.
  stats.cacheTempFilesLeft = Math.max(stats.cacheTempFilesLeft, cacheTemps(store));
  const same = (d: { rec: { body: string }; tombstoned: boolean }, s: St) => d.rec.body === s.body && d.tombstoned === s.tombstoned;
  for (const [id, st] of model) {
    const d = disk.byId.get(id);
    assert.ok(d, `cycle ${cycle}: acknowledged memory ${id} survived the kill`);
    const f = flights.get(id);
    if (!f) {
      assert.ok(same(d, st), `cycle ${cycle}: ${id} is exactly as last acknowledged (tombstoned=${st.tombstoned})\n  disk: ${d.rec.body}\n  want: ${st.body}`);
      continue;
    }
    stats.killedWithInFlight[f.kind]++;
    assert.ok(same(d, f.pre!) || same(d, f.post), `cycle ${cycle}: ${id} with a ${f.kind} in flight is wholly before or after it`);
    model.set(id, same(d, f.post) ? f.post : f.pre!);
  }
  for (const [k, f] of flights) if (k.startsWith('new:')) stats.killedWithInFlight.write++, void f;
  for (const [id, d] of disk.byId) {
    if (model.has(id)) continue;
    const tok = /zx[a-z]+q/.exec(d.rec.body)?.[0];
    const f = tok ? flights.get(`new:${tok}`) : undefined;
    assert.ok(f, `cycle ${cycle}: memory ${id} on disk is a write that was in flight, not something made up`);
    assert.equal(d.rec.body, f.post.body);
    assert.equal(d.tombstoned, false);
    model.set(id, f.post);
    stats.unacknowledgedWritesThatLanded++;
  }
  // cairn's own loader sees the same store (sync: a reload that does not clean temps, so the
  // next server's cleanup is what the next cycle checks).
  const s = new Store(store, { warn: () => {} });
  await s.sync();
  assert.deepEqual(s.skipped(), []);
  const activeOnDisk = [...disk.byId.values()].filter((d) => !d.tombstoned).map((d) => d.id).sort();
  assert.deepEqual([...s.active()].map((m) => m.id).sort(), activeOnDisk);
  assert.equal([...s.tombstones()].length, disk.byId.size - activeOnDisk.length);
}

function cacheTemps(store: string): number {
  const dir = join(store, '.cache');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.tmp')).length : 0;
}

/** Names, sizes and mtimes of the cache files: changes when a save completed. */
function cacheStamp(store: string): string {
  const dir = join(store, '.cache');
  if (!existsSync(dir)) return '';
  return readdirSync(dir).sort().map((n) => `${n}:${statSync(join(dir, n)).size}:${statSync(join(dir, n)).mtimeMs}`).join('|');
}
