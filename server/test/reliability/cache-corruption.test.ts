// The index cache under <store>/.cache/ is derived data: whatever happens to it (truncated by a
// crash, a flipped byte, junk, a stale copy, a directory in its place, another store's cache),
// a server must detect it, answer every search and list from the memory files, and leave a
// cache the next server can use. The cache format belongs to search: this suite corrupts
// whatever files are there, without knowing their layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCache } from '../../src/core/index/cache.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { populate } from '../helpers/disk.ts';
import { Rng, allPages, factText, seedFor, spawnServer, token, type Proc } from '../helpers/stress.ts';

type Snapshot = Map<string, Buffer>;

function snapshot(dir: string): Snapshot {
  const out: Snapshot = new Map();
  if (existsSync(dir)) for (const n of readdirSync(dir)) out.set(n, readFileSync(join(dir, n)));
  return out;
}

function restore(dir: string, snap: Snapshot): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { mode: 0o700 });
  for (const [n, b] of snap) writeFileSync(join(dir, n), b, { mode: 0o600 });
}

test('a missing, truncated, corrupted, stale or foreign index cache is detected and rebuilt; search stays right', { timeout: 200_000 }, async (t) => {
  const seed = seedFor('cache-corruption');
  const rng = new Rng(seed);
  const root = tempDir('cairn-cache-');
  const store = join(root, 'store');
  const cacheDir = join(store, '.cache');
  let n = 0;
  const want = new Map<string, { token: string; active: boolean }>();
  const open: Proc[] = [];
  const server = async () => {
    const p = await spawnServer({ store, cwd: root });
    open.push(p);
    return p;
  };
  const close = async (p: Proc) => {
    await p.close();
    open.splice(open.indexOf(p), 1);
  };
  try {
    for (const [id, body] of populate(store, 150, () => factText(rng, token(n++)))) want.set(id, { token: /zx[a-z]+q/.exec(body)![0], active: true });
    const ids = [...want.keys()];
    // Round 1 of changes, then keep that cache as the "stale" one.
    let p = await server();
    await change(p, rng, want, ids, () => token(n++));
    await close(p);
    const stale = snapshot(cacheDir);
    assert.ok(stale.size > 0, 'a server leaves an index cache behind');
    p = await server();
    await change(p, rng, want, ids, () => token(n++));
    await close(p);
    const good = snapshot(cacheDir);

    // A cache from another store with other memories.
    const other = join(root, 'other');
    populate(other, 40, () => factText(rng, token(n++)), ['other']);
    const q = await spawnServer({ store: other, cwd: root });
    await q.ok('memory_write', { content: factText(rng, token(n++)), scopes: ['other'], force: true });
    await q.close();
    const foreign = snapshot(join(other, '.cache'));

    const corrupt: Record<string, () => void> = {
      missing: () => rmSync(cacheDir, { recursive: true, force: true }),
      empty: () => restore(cacheDir, new Map([...good].map(([k]) => [k, Buffer.alloc(0)]))),
      'truncated to half': () => restore(cacheDir, new Map([...good].map(([k, b]) => [k, b.subarray(0, b.length >> 1)]))),
      'one byte flipped': () => restore(cacheDir, new Map([...good].map(([k, b]) => [k, flip(b, rng.int(b.length))]))),
      'random junk': () => restore(cacheDir, new Map([...good].map(([k, b]) => [k, Buffer.from(Array.from({ length: b.length }, () => rng.int(256)))]))),
      'stale copy': () => restore(cacheDir, stale),
      'another store': () => restore(cacheDir, foreign),
      'a directory in its place': () => {
        rmSync(cacheDir, { recursive: true, force: true });
        for (const k of good.keys()) mkdirSync(join(cacheDir, k), { recursive: true });
      },
    };
    for (const [mode, apply] of Object.entries(corrupt)) {
      apply();
      const s = await server();
      await expectAnswers(s, want, mode);
      assert.ok(s.alive(), `${mode}: the server is still running`);
      // Detected, not silently trusted: the server says it ignored the cache.
      if (['empty', 'truncated to half', 'one byte flipped', 'random junk'].includes(mode)) assert.match(s.stderr(), /cache/i, `${mode}: reported on stderr`);
      await close(s);
      if (mode === 'a directory in its place') continue; // cannot be replaced; derived data, ignored
      // What the last server left is a cache the next one trusts (rebuilt, not rejected).
      let rejected = '';
      assert.ok(readCache(store, (why) => (rejected = why)), `${mode}: the cache was rewritten (${rejected})`);
    }
    t.diagnostic(`${Object.keys(corrupt).length} corruptions x ${want.size} memories checked by search and list`);
  } finally {
    await Promise.all(open.map((p) => p.close()));
    removeDir(root);
  }
});

function flip(b: Buffer, at: number): Buffer {
  const c = Buffer.from(b);
  if (c.length) c[at] = c[at]! ^ 0xff;
  return c;
}

/** Some removes, restores, content updates and new writes through a server. */
async function change(p: Proc, rng: Rng, want: Map<string, { token: string; active: boolean }>, ids: string[], nextToken: () => string) {
  for (let i = 0; i < 25; i++) {
    const id = rng.pick(ids);
    const w = want.get(id)!;
    if (!w.active) {
      await p.ok('memory_restore', { id });
      w.active = true;
    } else if (rng.chance(0.5)) {
      await p.ok('memory_remove', { id, reason: 'cache test' });
      w.active = false;
    } else {
      const tok = nextToken();
      await p.ok('memory_update', { id, content: factText(rng, tok) });
      w.token = tok;
    }
  }
  for (let i = 0; i < 5; i++) {
    const tok = nextToken();
    const r = await p.ok('memory_write', { content: factText(rng, tok), scopes: ['bulk'], force: true });
    want.set(r.id, { token: tok, active: true });
    ids.push(r.id);
  }
}

async function expectAnswers(s: Proc, want: Map<string, { token: string; active: boolean }>, mode: string) {
  const listed = (await allPages(s, 'memory_list', { limit: 200 })).map((x) => x.id).sort();
  const active = [...want].filter(([, w]) => w.active).map(([id]) => id).sort();
  assert.deepEqual(listed, active, `${mode}: memory_list agrees with the files`);
  for (const [id, w] of want) {
    const r = await s.ok('memory_search', { query: w.token, auto_scope: false, max_results: 3 });
    const found = r.hits.some((h: { id: string }) => h.id === id);
    assert.equal(found, w.active, `${mode}: search ${w.token} ${w.active ? 'finds' : 'does not return'} ${id}`);
  }
}
