// Sync without a network: a bare repository on local disk is the remote, three stores are three
// machines. Mixed operations run concurrently on the machines (writes, updates, verifies,
// removes, restores, scope renames, through the facade) while syncs interleave at random (seeded:
// the seed is printed; CAIRN_SOAK_SEED replays one, CAIRN_SOAK scales the number of steps). Then
// every machine syncs until they agree, and:
//   - every acknowledged write is present on every machine;
//   - every body text no later acknowledged update replaced is the memory's body or preserved in
//     a conflict record (nothing the user wrote is lost);
//   - every verification survives (last_verified_at never goes back) unless a later acknowledged
//     content update cleared a verification at least as recent: a memory holds one
//     last_verified_at, the latest, and an update of its text clears it;
//   - no memory is active twice and no file is shadowed; all machines hold the same files;
//   - every conflict a sync reported is listed by memory_health on every machine;
//   - a fresh MCP server (the real bundle) on each clone answers the same searches.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/core/cairn.ts';
import { parseMemoryText } from '../../src/core/store/memfile.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { startServer, BUNDLE } from '../helpers/mcp.ts';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

const SCALE = Math.max(1, Number(process.env.CAIRN_SOAK ?? 1));
const SEED = Number(process.env.CAIRN_SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31));

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

const WORDS = 'amber basalt cedar delta ember fjord garnet harbor indigo juniper kelp lumen marble nectar onyx pewter quartz raven sierra tundra umber violet willow xenon yarrow zephyr'.split(' ');

interface Machine {
  name: string;
  dir: string;
  c: Cairn;
  /** id -> body texts this machine has seen (written here or pulled). */
  known: Map<string, Set<string>>;
}

test(`soak: three machines, random ops and syncs converge without losing anything (seed ${SEED}, scale ${SCALE})`, { timeout: 600_000 }, async () => {
  console.log(`# sync soak seed ${SEED} (replay: CAIRN_SOAK_SEED=${SEED}), CAIRN_SOAK=${SCALE}`);
  const rand = rng(SEED);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const root = tempDir('cairn-soak-');
  dirs.push(root);
  const remote = join(root, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  const cwd = join(root, 'nowhere');
  execFileSync('mkdir', ['-p', cwd]);
  const warnings: string[] = [];
  const machines: Machine[] = [];
  for (const name of ['A', 'B', 'C']) {
    const dir = join(root, name);
    const c = await Cairn.open({ dir, cwd, env: { ...process.env, HOME: root, CAIRN_DIR: dir }, actor: 'user', warn: (m) => warnings.push(`${name}: ${m}`) });
    await c.syncInit({ remote, driver: [process.execPath, BUNDLE] });
    machines.push({ name, dir, c, known: new Map() });
  }

  // The remote's knowledge: what the last successful push carried.
  let remoteKnown = new Map<string, Set<string>>();
  const superseded = new Set<string>(); // `${id}\0${text}`
  const created = new Set<string>();
  const verifiedAt: { id: string; at: string }[] = [];
  /** id -> the latest verification an acknowledged content update cleared (as the file held it just before). */
  const clearedUpTo = new Map<string, string>();
  const reported = new Set<string>();
  const merge = (into: Map<string, Set<string>>, from: Map<string, Set<string>>) => {
    for (const [id, s] of from) {
      const cur = into.get(id) ?? new Set();
      for (const t of s) cur.add(t);
      into.set(id, cur);
    }
  };
  const clone = (m: Map<string, Set<string>>) => new Map([...m].map(([k, v]) => [k, new Set(v)]));
  let counter = 0;
  const text = (m: Machine) => `${m.name} note ${++counter}: ${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} token${counter}x${SEED % 1000}.`;
  const scopesPool = ['proj:alpha', 'proj:beta', 'lang:ts', 'tools', 'team:core'];
  const counts: Record<string, number> = {};

  async function doSync(m: Machine) {
    const before = clone(remoteKnown);
    const r = await m.c.sync();
    counts.sync = (counts.sync ?? 0) + 1;
    assert.equal(r.ok, true, `${m.name} sync failed: ${r.error}`);
    merge(m.known, before);
    remoteKnown = clone(m.known);
    for (const k of r.conflicts) reported.add(k.file);
  }

  async function doOp(m: Machine): Promise<void> {
    const active = [...m.c.store.active()].filter((x) => !x.note);
    const tombs = [...m.c.store.tombstones()].filter((x) => !x.note);
    const r = rand();
    try {
      if (r < 0.3 || active.length < 3) {
        const body = text(m);
        const out = (await m.c.write({ content: body, scopes: [pick(scopesPool)], force: true, acknowledge_transient: true })) as { status: string; id?: string };
        if (out.status === 'committed' && out.id) {
          created.add(out.id);
          m.known.set(out.id, new Set([body]));
          counts.write = (counts.write ?? 0) + 1;
        }
      } else if (r < 0.55) {
        const t = pick(active);
        const body = text(m);
        const seen = [...(m.known.get(t.id) ?? [])];
        // The verification this update clears, as the file holds it now (nothing else writes this
        // machine's store while its ops run: it is not syncing in this step).
        await m.c.store.ensureFresh();
        const cur = m.c.store.get(t.id);
        const cleared = cur ? parseMemoryText(readFileSync(cur.file, 'utf8')).record.last_verified_at : null;
        await m.c.update({ id: t.id, content: body, acknowledge_transient: true });
        // The memory held one verification, the latest: clearing it clears every earlier one too,
        // including one made on another machine that a merge replaced with this later one.
        if (cleared && cleared > (clearedUpTo.get(t.id) ?? '')) clearedUpTo.set(t.id, cleared);
        for (const s of seen) superseded.add(`${t.id}\0${s}`);
        // what the file held when updated was replaced too (it may be a merged text this machine pulled)
        superseded.add(`${t.id}\0${t.body}`);
        m.known.set(t.id, new Set([...seen, body]));
        counts.update = (counts.update ?? 0) + 1;
      } else if (r < 0.68) {
        const t = pick(active);
        const out = await m.c.verify({ id: t.id });
        verifiedAt.push({ id: t.id, at: out.last_verified_at });
        counts.verify = (counts.verify ?? 0) + 1;
      } else if (r < 0.8) {
        await m.c.remove({ id: pick(active).id, reason: 'soak' });
        counts.remove = (counts.remove ?? 0) + 1;
      } else if (r < 0.92) {
        if (tombs.length === 0) return;
        await m.c.restore({ id: pick(tombs).id });
        counts.restore = (counts.restore ?? 0) + 1;
      } else {
        const scopes = new Set(active.flatMap((x) => x.scopes));
        const from = pick([...scopes]);
        const to = pick(scopesPool.filter((s) => s !== from && !s.startsWith(`${from}:`) && !from.startsWith(`${s}:`)));
        await m.c.renameScope({ old_scope: from, new_scope: to });
        counts.rename = (counts.rename ?? 0) + 1;
      }
    } catch (err) {
      // refused ops (e.g. a memory a sync just removed) are not acknowledged: nothing to track
      counts.refused = (counts.refused ?? 0) + 1;
      if (!/not removed|no memory|no removed|is removed|tombstoned|no active memory|no memory or tombstone/i.test((err as Error).message)) throw err;
    }
  }

  const steps = 40 * SCALE;
  for (let step = 0; step < steps; step++) {
    // At most one machine syncs per step (the model of who knows what stays exact); the others
    // write concurrently with it, and the syncing machine itself may take a new write meanwhile.
    const syncer = rand() < 0.6 ? pick(machines) : null;
    const jobs: Promise<unknown>[] = [];
    for (const m of machines) {
      if (m === syncer) {
        jobs.push(doSync(m));
        if (rand() < 0.3) {
          const body = text(m);
          jobs.push(m.c.write({ content: body, scopes: ['tools'], force: true, acknowledge_transient: true }).then((out: any) => {
            if (out.status === 'committed') {
              created.add(out.id);
              m.known.set(out.id, new Set([body]));
            }
          }));
        }
      } else {
        const n = 1 + Math.floor(rand() * 2);
        jobs.push((async () => { for (let i = 0; i < n; i++) await doOp(m); })());
      }
    }
    await Promise.all(jobs);
  }
  // Converge: every machine syncs in turn, twice.
  for (let round = 0; round < 2; round++) for (const m of machines) await doSync(m);
  console.log(`# ops ${JSON.stringify(counts)}; conflicts reported ${reported.size}`);

  const heads = machines.map((m) => execFileSync('git', ['-C', m.dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim());
  assert.equal(new Set(heads).size, 1, `machines disagree: ${heads.join(' ')}`);
  const tree = (m: Machine) => execFileSync('git', ['-C', m.dir, 'ls-files', '-s'], { encoding: 'utf8' });
  for (const m of machines) {
    assert.equal(execFileSync('git', ['-C', m.dir, 'status', '--porcelain'], { encoding: 'utf8' }), '', `${m.name} has uncommitted changes after convergence`);
    assert.equal(tree(m), tree(machines[0]!));
  }

  for (const m of machines) {
    // a fresh view of the files, as a new process would have
    const fresh = await Cairn.open({ dir: m.dir, cwd, env: { ...process.env, HOME: root, CAIRN_DIR: m.dir }, watch: false, actor: 'user', warn: (w) => warnings.push(`${m.name} fresh: ${w}`) });
    try {
      const ids = new Map<string, number>();
      for (const x of [...fresh.store.active(), ...fresh.store.tombstones()]) ids.set(x.id, (ids.get(x.id) ?? 0) + 1);
      assert.deepEqual(fresh.store.shadowed(), [], `${m.name}: a memory is stored twice`);
      assert.deepEqual(fresh.store.skipped(), [], `${m.name}: unreadable files`);
      for (const id of created) assert.ok(ids.has(id), `${m.name}: acknowledged write ${id} is missing`);
      for (const [id, n] of ids) assert.equal(n, 1, `${m.name}: ${id} held ${n} times`);
      // every acknowledged text not replaced by a later acknowledged update survives
      const health = await fresh.health({ top_k: 100 });
      const inConflicts = new Set(health.sync_conflicts.rows.flatMap((r) => [`${r.id}\0${r.kept.body}`, `${r.id}\0${r.other.body}`]));
      const all = new Map<string, Set<string>>();
      for (const mm of machines) merge(all, mm.known);
      for (const [id, texts] of all) {
        const rec = fresh.store.get(id) ?? fresh.store.getTombstone(id);
        assert.ok(rec, `${m.name}: ${id} missing`);
        for (const t of texts) {
          if (superseded.has(`${id}\0${t}`)) continue;
          assert.ok(rec.body === t || inConflicts.has(`${id}\0${t}`), `${m.name}: ${id} lost the text ${JSON.stringify(t)} (body now ${JSON.stringify(rec.body)})`);
        }
      }
      for (const { id, at } of verifiedAt) {
        if ((clearedUpTo.get(id) ?? '') >= at) continue;
        const rec = fresh.store.get(id) ?? fresh.store.getTombstone(id);
        assert.ok(rec && rec.last_verified_at !== null && rec.last_verified_at >= at, `${m.name}: verification of ${id} at ${at} lost (${rec?.last_verified_at})`);
      }
      // every conflict any sync reported is listed here
      const listed = new Set(health.sync_conflicts.rows.map((r) => r.file));
      assert.equal(health.sync_conflicts.count, health.sync_conflicts.rows.length);
      for (const f of reported) assert.ok(listed.has(f), `${m.name}: conflict ${f} not listed by health`);
    } finally {
      await fresh.close();
    }
  }
  for (const m of machines) await m.c.close();

  // A fresh server (the real bundle) on each clone answers the same searches.
  const queries = [pick(WORDS), pick(WORDS), `${pick(WORDS)} ${pick(WORDS)}`, 'note'];
  const answers: string[] = [];
  for (const m of machines) {
    const s = await startServer({ store: m.dir, cwd, env: { HOME: root } });
    const got: string[] = [];
    for (const q of queries) {
      const r = await s.call('memory_search', { query: q, max_results: 20, auto_scope: false });
      got.push((r.hits as { id: string }[]).map((x) => x.id).join(','));
    }
    await s.close();
    answers.push(JSON.stringify(got));
  }
  assert.equal(new Set(answers).size, 1, `searches differ between machines: ${answers.join('\n')}`);
  assert.ok(JSON.parse(answers[0]!).some((a: string) => a !== ''), 'the searches found nothing at all');
  assert.deepEqual(warnings.filter((w) => /skipped/.test(w)), []);
  // the store never had to be read through a half-written file
  for (const m of machines) for (const n of readdirSync(m.dir)) assert.ok(!n.endsWith('.tmp'), `${m.name}: leftover temp ${n}`);
});
