// Load and concurrency: 8 real stdio servers on one store, each making 200 mixed calls on
// overlapping ids. Afterwards the files, the event log and a fresh server must all agree with
// what the clients were told (see history.ts for why the assertions are sound).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cairn } from '../../src/core/cairn.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { readDisk, readEventLogs } from '../helpers/disk.ts';
import { Rng, SOAK, allPages, factText, seedFor, spawnServer, textOf, token, type Proc } from '../helpers/stress.ts';
import { Ledger, finalCandidates } from './history.ts';

const SERVERS = 8;
// 100 calls per server in the normal suite (about 30 s of CPU), 200 per CAIRN_SOAK unit in a soak.
const OPS = SOAK > 1 ? 200 * SOAK : 100;
const SHARED = 6;
const LABELS = ['lbl-a', 'lbl-b', 'lbl-c', 'lbl-d'];

let tokens = 0;
const now = () => performance.now();
/** How long each call took, by tool (memory_rename_scope: one batch in turns of the lock), for the diagnostics. */
const callMs = new Map<string, number[]>();
const timed = (op: string, ms: number) => {
  const list = callMs.get(op) ?? [];
  list.push(ms);
  callMs.set(op, list);
};

test(`${SERVERS} servers x ${OPS} mixed calls on one store: nothing lost, torn, orphaned or disagreeing`, { timeout: 200_000 * SOAK }, async (t) => {
  const seed = seedFor('concurrency');
  const rng = new Rng(seed);
  const root = tempDir('cairn-conc-');
  const store = join(root, 'store');
  mkdirSync(store, { mode: 0o700 });
  // A small log limit makes the event log rotate several times while 8 processes append to it.
  writeFileSync(join(store, 'config.toml'), '[telemetry]\nmax_bytes = 20000\n', { mode: 0o600 });
  const ledger = new Ledger();
  const procs: Proc[] = [];
  const started = now();
  try {
    // Seed the shared ids through a server, so they are acknowledged like everything else.
    const seeder = await spawnServer({ store, cwd: root });
    const shared: string[] = [];
    for (let i = 0; i < SHARED; i++) {
      const tok = token(tokens++);
      const body = factText(rng, tok);
      const send = now();
      const r = await seeder.ok('memory_write', { content: body, scopes: ['shared', LABELS[i % LABELS.length]], force: true });
      const ack = now();
      assert.equal(r.status, 'committed');
      const h = ledger.track(r.id, 'shared');
      h.content.push({ body, token: tok, send, ack, by: 'seed' });
      h.life.push({ tombstoned: false, send, ack, by: 'seed' });
      h.updated.add(r.updated);
      ledger.count('write:committed');
      shared.push(r.id);
    }
    await seeder.close();

    procs.push(...(await Promise.all(Array.from({ length: SERVERS }, () => spawnServer({ store, cwd: root })))));
    const names = (await procs[0]!.client.listTools()).tools.map((x) => x.name);
    const hasRename = names.includes('memory_rename_scope');
    t.diagnostic(`memory_rename_scope ${hasRename ? 'present: used' : 'absent: skipped'}`);

    // Diagnostic: how often a reader sees the lock file, and whether it ever sees it empty.
    const lockFile = join(store, '.lock');
    const lockSeen = { reads: 0, empty: 0 };
    const poller = setInterval(() => {
      try {
        const text = readFileSync(lockFile, 'utf8');
        lockSeen.reads++;
        if (text === '') lockSeen.empty++;
      } catch {
        /* not held right now */
      }
    }, 3);

    try {
      await Promise.all(procs.map((p, w) => worker(w, p, new Rng(seed + w + 1), ledger, shared, hasRename)));
    } finally {
      // Stopped whatever happened, so a failing run still exits.
      clearInterval(poller);
    }
    const workMs = now() - started;
    for (const p of procs) assert.ok(p.alive(), `server ${p.pid} is still running after its calls`);
    await Promise.all(procs.map((p) => p.close()));
    procs.length = 0;

    assert.deepEqual(ledger.unexpected.slice(0, 10), [], `${ledger.unexpected.length} unexpected answers`);
    const opsTotal = SERVERS * OPS;
    t.diagnostic(`${opsTotal} calls in ${(workMs / 1000).toFixed(1)} s; acknowledged: ${JSON.stringify(Object.fromEntries(ledger.acked))}`);
    t.diagnostic(`legitimate refusals under concurrency: ${JSON.stringify(Object.fromEntries(ledger.expectedErrors))}`);
    t.diagnostic(`lock file read ${lockSeen.reads} times while held, empty ${lockSeen.empty} times`);
    for (const [op, list] of [...callMs].sort()) {
      const ms = [...list].sort((a, b) => a - b);
      t.diagnostic(`${op}: ${ms.length} calls, median ${ms[ms.length >> 1]!.toFixed(0)} ms, p99 ${ms[Math.floor(ms.length * 0.99)]!.toFixed(0)} ms, slowest ${ms[ms.length - 1]!.toFixed(0)} ms`);
    }

    // 1. The files: each parses, each id in exactly one place, no temp or lock left behind.
    const disk = readDisk(store);
    assert.deepEqual(disk.problems, []);
    assert.deepEqual(disk.temps, []);
    assert.deepEqual(disk.misplaced, [], 'without crashes every file is in the directory its keys say');
    assert.equal(existsSync(lockFile), false, 'the lock is released');
    assert.deepEqual(readdirSync(store).filter((n) => n.startsWith('.lock')), []);
    assert.deepEqual(existsSync(join(store, '.waiters')) ? readdirSync(join(store, '.waiters')) : [], [], 'every waiter took its turn and left the queue');

    // 2. Every acknowledged change is there (see history.ts).
    let exact = 0;
    for (const h of ledger.ids.values()) {
      const d = disk.byId.get(h.id);
      assert.ok(d, `acknowledged memory ${h.id} is on disk`);
      const bodies = finalCandidates(h.content);
      if (bodies.length === 1) exact++;
      assert.ok(bodies.some((c) => c.body === d.rec.body), `${h.id}: body on disk is one of the last acknowledged (${bodies.length} candidates)\n  disk: ${d.rec.body}\n  want: ${bodies.map((c) => c.body).join('\n  or:   ')}`);
      const lives = finalCandidates(h.life);
      assert.ok(lives.some((c) => c.tombstoned === d.tombstoned), `${h.id}: tombstoned=${d.tombstoned} matches the last acknowledged remove/restore`);
      assert.equal(d.rec.scopes[0], h.home, `${h.id}: home scope kept`);
      assert.equal(d.rec.scopes.length, 2, `${h.id}: scopes ${d.rec.scopes}`);
      assert.ok(LABELS.includes(d.rec.scopes[1]!), `${h.id}: label scope ${d.rec.scopes[1]}`);
      assert.ok(h.updated.has(d.rec.updated), `${h.id}: updated ${d.rec.updated} was returned by some call`);
      if (d.rec.last_verified_at !== null) assert.ok(h.verifiedAt.has(d.rec.last_verified_at), `${h.id}: last_verified_at was returned by a verify`);
    }
    for (const id of disk.byId.keys()) assert.ok(ledger.ids.has(id), `memory ${id} on disk was never acknowledged`);
    t.diagnostic(`${ledger.ids.size} ids checked; ${exact} had one possible final body (checked exactly)`);

    // 3. The event log, across rotations: valid JSONL, one line per acknowledged call.
    const log = readEventLogs(store);
    assert.deepEqual(log.problems, []);
    t.diagnostic(`event log: ${log.lines} lines in ${log.files.length} files (active + rotated)`);
    for (const [kind, n] of ledger.acked) assert.equal(log.byKind.get(kind) ?? 0, n, `event log lines of kind ${kind}`);

    // 4. A fresh server (and a fresh in-process open) agree with the files exactly.
    const fresh = await spawnServer({ store, cwd: root });
    procs.push(fresh);
    const active = [...disk.byId.values()].filter((d) => !d.tombstoned);
    const tombs = [...disk.byId.values()].filter((d) => d.tombstoned);
    const listed = await allPages(fresh, 'memory_list', { limit: 7, with_bodies: true });
    assert.deepEqual(listed.map((x) => x.id).sort(), active.map((d) => d.id).sort());
    for (const item of listed) {
      const d = disk.byId.get(item.id)!;
      assert.equal(item.body, d.rec.body);
      assert.deepEqual(item.scopes, d.rec.scopes);
      assert.equal(item.updated, d.rec.updated);
      assert.equal(item.last_verified_at, d.rec.last_verified_at);
    }
    const removed = await allPages(fresh, 'memory_list_tombstones', { limit: 9 });
    assert.deepEqual(removed.map((x) => x.id).sort(), tombs.map((d) => d.id).sort());
    for (const d of [...active, ...tombs]) {
      const tok = /zx[a-z]+q/.exec(d.rec.body)![0];
      const r = await fresh.ok('memory_search', { query: tok, auto_scope: false, max_results: 5 });
      const ids = r.hits.map((x: { id: string }) => x.id);
      if (d.tombstoned) assert.ok(!ids.includes(d.id), `a fresh search for ${tok} does not return tombstoned ${d.id}`);
      else assert.ok(ids.includes(d.id), `a fresh search for ${tok} finds ${d.id}`);
    }
    await fresh.close();
    procs.length = 0;
    const c = await Cairn.open({ dir: store, cwd: root, watch: false, warn: () => {} });
    try {
      assert.deepEqual(c.store.skipped(), []);
      assert.deepEqual([...c.store.active()].map((m) => `${m.id} ${m.body}`).sort(), active.map((d) => `${d.id} ${d.rec.body}`).sort());
      assert.deepEqual([...c.store.tombstones()].map((m) => m.id).sort(), tombs.map((d) => d.id).sort());
    } finally {
      await c.close();
    }
    t.diagnostic(`total ${((now() - started) / 1000).toFixed(1)} s; ${active.length} active, ${tombs.length} tombstoned`);
  } finally {
    await Promise.all(procs.map((p) => p.close()));
    removeDir(root);
  }
});

async function worker(w: number, p: Proc, rng: Rng, ledger: Ledger, shared: string[], hasRename: boolean): Promise<void> {
  const by = `w${w}`;
  const home = `w${w}`;
  const own: string[] = [];
  const target = () => (own.length > 0 && rng.chance(0.5) ? rng.pick(own) : rng.pick(shared));
  /** State of an id only this worker touches, known exactly. */
  const ownState = (id: string) => {
    const h = ledger.ids.get(id)!;
    return { tombstoned: h.life[h.life.length - 1]!.tombstoned, last: h.content[h.content.length - 1]! };
  };
  const refuse = (op: string, text: string, ok: RegExp, kind: string) => {
    if (ok.test(text)) ledger.expected(kind);
    else ledger.unexpected.push(`${by} ${op}: ${text}`);
  };

  // Each call's time is taken when the next one starts (every branch below may `continue`).
  let prev: { op: string; send: number } | null = null;
  const took = () => prev && timed(prev.op === 'rename' ? 'memory_rename_scope' : prev.op, now() - prev.send);
  for (let k = 0; k < OPS; k++) {
    took();
    const op = rng.weighted({ write: own.length < 4 ? 40 : 16, update: 24, verify: 10, remove: 9, restore: 9, search: 12, show: 6, rename: hasRename ? 4 : 0 });
    const send = now();
    prev = { op, send };
    if (op === 'write') {
      const tok = token(tokens++);
      const body = factText(rng, tok);
      const r = await p.call('memory_write', { content: body, scopes: [home, rng.pick(LABELS)], force: true });
      const ack = now();
      const out = r.structuredContent as Record<string, any> | undefined;
      if (r.isError || out?.status !== 'committed') {
        ledger.unexpected.push(`${by} write: ${textOf(r)}`);
        continue;
      }
      const h = ledger.track(out.id, home);
      h.touchedBy.add(by);
      h.content.push({ body, token: tok, send, ack, by });
      h.life.push({ tombstoned: false, send, ack, by });
      h.updated.add(out.updated);
      own.push(out.id);
      ledger.count('write:committed');
    } else if (op === 'update') {
      const id = target();
      const h = ledger.ids.get(id)!;
      const variant = rng.weighted({ content: 6, scopes: 2, confidence: 2 });
      const tok = token(tokens++);
      const body = factText(rng, tok);
      const args: Record<string, unknown> = { id };
      if (variant === 'content') args.content = body;
      else if (variant === 'scopes') args.scopes = [h.home, rng.pick(LABELS)];
      else args.confidence = rng.pick(['low', 'medium', 'high']);
      const r = await p.call('memory_update', args);
      const ack = now();
      if (r.isError) {
        refuse('update', textOf(r), /was removed on/, 'update of a removed memory');
        continue;
      }
      h.touchedBy.add(by);
      h.updated.add((r.structuredContent as any).updated);
      if (variant === 'content') h.content.push({ body, token: tok, send, ack, by });
      ledger.count('update');
    } else if (op === 'verify') {
      const id = target();
      const r = await p.call('memory_verify', { id, ...(rng.chance(0.3) ? { note: 'checked against the running service' } : {}) });
      if (r.isError) {
        refuse('verify', textOf(r), /was removed on/, 'verify of a removed memory');
        continue;
      }
      const h = ledger.ids.get(id)!;
      h.touchedBy.add(by);
      h.verifiedAt.add((r.structuredContent as any).last_verified_at);
      h.updated.add((r.structuredContent as any).updated);
      ledger.count('verify');
    } else if (op === 'remove' || op === 'restore') {
      const id = target();
      const r = await p.call(`memory_${op}`, op === 'remove' ? { id, reason: `stress removal by ${by}` } : { id });
      const ack = now();
      if (r.isError) {
        if (op === 'remove') refuse(op, textOf(r), /was removed on/, 'remove of a removed memory');
        else refuse(op, textOf(r), /is not removed/, 'restore of an active memory');
        continue;
      }
      const h = ledger.ids.get(id)!;
      h.touchedBy.add(by);
      h.life.push({ tombstoned: op === 'remove', send, ack, by });
      if (op === 'restore') h.updated.add((r.structuredContent as any).updated);
      ledger.count(op);
    } else if (op === 'search' || op === 'show') {
      // Read-your-writes: this process's own, acknowledged, active memory is found and shown as written.
      const mine = own.filter((id) => !ownState(id).tombstoned);
      if (mine.length === 0) {
        prev = null; // no call made
        continue;
      }
      const id = rng.pick(mine);
      const { last } = ownState(id);
      if (op === 'search') {
        const r = await p.call('memory_search', { query: last.token, auto_scope: false, max_results: 5 });
        if (r.isError) ledger.unexpected.push(`${by} search: ${textOf(r)}`);
        else if (!(r.structuredContent as any).hits.some((x: { id: string }) => x.id === id)) ledger.unexpected.push(`${by} search ${last.token} missed its own ${id}`);
        else ledger.count('search');
      } else {
        const r = await p.call('memory_show', { id });
        if (r.isError) ledger.unexpected.push(`${by} show: ${textOf(r)}`);
        else if ((r.structuredContent as any).memories[0].body !== last.body) ledger.unexpected.push(`${by} show ${id}: stale body`);
        else ledger.count('show');
      }
    } else {
      const from = rng.pick(LABELS);
      const to = rng.pick(LABELS.filter((l) => l !== from));
      const r = await p.call('memory_rename_scope', { old_scope: from, new_scope: to });
      if (r.isError) refuse('rename', textOf(r), /has scope/, 'rename of an unused scope');
      else ledger.count('rename_scope');
    }
  }
  took();
}

// A remove or restore moves the file between the store and .tombstones/; another process's view
// may see one half of the move before the other. Whatever it sees, a memory that exists the whole
// time must never be answered with "no memory with id" (that message means there is none).
test('an id moving between the store and .tombstones/ is never reported as unknown by another server', { timeout: 120_000 * SOAK }, async (t) => {
  const root = tempDir('cairn-move-');
  const store = join(root, 'store');
  const procs: Proc[] = [];
  try {
    procs.push(...(await Promise.all([0, 1, 2].map(() => spawnServer({ store, cwd: root })))));
    const [mover, a, b] = procs as [Proc, Proc, Proc];
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await mover.ok('memory_write', { content: `Moving target ${i} rides the ${token(i)} shuttle between folders.`, scopes: ['move'], force: true })).id);
    let stop = false;
    let moves = 0;
    const wrong: string[] = [];
    const moving = (async () => {
      for (let i = 0; i < 120 * SOAK; i++) {
        const id = ids[i % ids.length]!;
        await mover.ok('memory_remove', { id, reason: 'moving' });
        await mover.ok('memory_restore', { id });
        moves += 2;
      }
      stop = true;
    })();
    const reader = async (p: Proc) => {
      let calls = 0;
      while (!stop) {
        const id = ids[calls++ % ids.length]!;
        for (const [name, args] of [['memory_show', { id }], ['memory_verify', { id }], ['memory_show', { ids }], ['memory_update', { id, confidence: 'high' }]] as const) {
          const r = await p.call(name, args);
          const text = r.isError ? textOf(r) : JSON.stringify((r.structuredContent as any).missing ?? []);
          if (/no memory with id/.test(text)) wrong.push(`${name}: ${text.slice(0, 160)}`);
        }
      }
      return calls;
    };
    const [, ca, cb] = await Promise.all([moving, reader(a), reader(b)]);
    assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} answers called an existing memory unknown`);
    t.diagnostic(`${moves} moves while two servers made ${(ca + cb) * 4} calls on the moving ids`);
  } finally {
    await Promise.all(procs.map((p) => p.close()));
    removeDir(root);
  }
});
