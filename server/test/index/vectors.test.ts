// The vector index in-process: exact search, the approximate search (sign codes + exact
// rescoring) against it, filters that widen the approximate candidate set, removals, and the
// vector cache file round trip (codes included) with its damage checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VectorIndex, EXACT_MAX } from '../../src/core/index/vectors.ts';
import { copyRowsFrom, decodeVectors, readVectors, rowFinder, writeVectorSource } from '../../src/core/index/vectorCache.ts';
import { allRows, encodeVectors, indexRows, keysOf } from '../helpers/vectorFile.ts';
import { testEmbed } from '../helpers/testEmbedder.ts';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../helpers/env.ts';

interface Doc {
  id: string;
  body: string;
  scopes: string[];
  created: string;
  updated: string;
}
const T = '2026-01-01T00:00:00.000Z';
const doc = (i: number): Doc => ({ id: `m${i}`, body: `memory ${i}`, scopes: [i % 10 === 0 ? 'rare' : 'common'], created: T, updated: T });

/** Clustered unit vectors (topics plus noise), like real notes. */
function vectors(n: number, dim: number, seed = 1): Float32Array[] {
  let a = seed;
  const r = () => ((a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296 - 0.5);
  const topics = Array.from({ length: 40 }, () => Float32Array.from({ length: dim }, r));
  return Array.from({ length: n }, (_, i) => {
    const t = topics[i % topics.length]!;
    const v = Float32Array.from({ length: dim }, (_, k) => t[k]! + 0.9 * r());
    let s = 0;
    for (const x of v) s += x * x;
    return v.map((x) => x / Math.sqrt(s));
  });
}

test('exact search: best first, filters, expiry, removal frees the row', () => {
  const ix = new VectorIndex<Doc>('test:x', 128);
  const words = ['deploy the api to staging', 'backup the postgres database nightly', 'prefer neovim as the editor'];
  words.forEach((w, i) => ix.set({ ...doc(i), body: w }, testEmbed(w)));
  const hits = ix.search(testEmbed('postgres database backup'), 2);
  assert.equal(hits[0]!.doc.id, 'm1');
  assert.ok(hits[0]!.sim > hits[1]!.sim);
  assert.deepEqual(ix.search(testEmbed('postgres database backup'), 3, { allow: (d) => d.id !== 'm1' }).map((h) => h.doc.id).includes('m1'), false);
  assert.equal(ix.remove('m1'), true);
  assert.equal(ix.size, 2);
  assert.ok(!ix.search(testEmbed('postgres database backup'), 3).some((h) => h.doc.id === 'm1'));
  ix.set({ ...doc(3), body: 'x' }, testEmbed('kubernetes cluster upgrade'));
  assert.equal(ix.size, 3);
});

test('approximate search above EXACT_MAX: recall@10 against exact >= 0.95, filters widen the candidates', () => {
  const n = EXACT_MAX * 2;
  const dim = 256;
  const ix = new VectorIndex<Doc>('test:x', dim);
  const vs = vectors(n, dim);
  vs.forEach((v, i) => ix.set(doc(i), v));
  // Queries near stored notes (a rewording of one), as real searches are.
  const noise = vectors(60, dim, 99);
  const queries = noise.map((e, i) => {
    const base = vs[(i * 137) % n]!;
    const v = base.map((x, k) => x + 0.8 * e[k]!);
    let s = 0;
    for (const x of v) s += x * x;
    return v.map((x) => x / Math.sqrt(s));
  });
  let recall = 0;
  for (const q of queries) {
    const exact = new Set(ix.searchExact(q, 10).map((h) => h.doc.id));
    const approx = ix.search(q, 10);
    assert.equal(approx.length, 10);
    for (let i = 1; i < approx.length; i++) assert.ok(approx[i - 1]!.sim >= approx[i]!.sim);
    recall += approx.filter((h) => exact.has(h.doc.id)).length / 10;
  }
  recall /= queries.length;
  assert.ok(recall >= 0.95, `recall@10 ${recall}`);

  // A filter that only 1 row in 1,000 passes still gets its k hits (the candidate set widens).
  const allow = (d: Doc) => Number(d.id.slice(1)) % 1000 === 7;
  const want = ix.searchExact(queries[0]!, 5, { allow }).map((h) => h.doc.id);
  assert.equal(want.length, 5);
  const got = ix.search(queries[0]!, 5, { allow });
  assert.equal(got.length, 5);
  assert.ok(got.every((h) => allow(h.doc)));
  assert.ok(got.filter((h) => want.includes(h.doc.id)).length >= 3, JSON.stringify({ got: got.map((h) => h.doc.id), want }));

  // Removed rows are never returned.
  const top = ix.search(queries[1]!, 1)[0]!.doc.id;
  ix.remove(top);
  assert.notEqual(ix.search(queries[1]!, 1)[0]!.doc.id, top);
});

test('vector cache: round trip with sign codes; damage and truncation are refused', () => {
  const ix = new VectorIndex<Doc>('test:x', 64);
  const vs = vectors(5, 64);
  vs.forEach((v, i) => ix.set(doc(i), v));
  const rows = [...ix.entries()];
  const cw = ix.codeWords;
  const { data, scales, codes } = indexRows(ix, rows.map((r) => r.row));
  const keys = rows.map(({ doc: d }) => `${d.id}\t${d.updated}`);
  const buf = encodeVectors({ embedder: 'test:x', dim: 64, keys, scales, rows: data, codeWords: cw, codes });
  const back = decodeVectors(buf);
  assert.ok(typeof back !== 'string');
  assert.deepEqual(keysOf(back), keys);
  assert.deepEqual([...back.codes], [...codes]);
  assert.deepEqual([...allRows(back)], [...data]);
  assert.deepEqual([...back.scales], [...scales]);
  // A buffer that starts at an odd offset reads the same.
  const shifted = Buffer.alloc(buf.length + 1);
  buf.copy(shifted, 1);
  const odd = decodeVectors(shifted.subarray(1));
  assert.ok(typeof odd !== 'string');
  assert.deepEqual([...odd.codes], [...codes]);
  assert.deepEqual([...odd.scales], [...scales]);
  assert.deepEqual([...allRows(odd)], [...data]);

  const again = new VectorIndex<Doc>('test:x', 64);
  rows.forEach(({ doc: d }, i) => again.setRaw(d, back.row(i), back.scales[i]!, back.codes.subarray(i * cw, (i + 1) * cw)));
  assert.deepEqual(again.search(vs[2]!, 3).map((h) => h.doc.id), ix.search(vs[2]!, 3).map((h) => h.doc.id));

  const flipped = Buffer.from(buf);
  flipped[flipped.length - 3] = flipped[flipped.length - 3]! ^ 1;
  assert.equal(decodeVectors(flipped), 'checksum mismatch');
  assert.equal(decodeVectors(buf.subarray(0, buf.length - 4)), 'truncated'); // its header says how long it is
  assert.equal(decodeVectors(Buffer.from('nope')), 'not a vector cache');
});

test('vector cache: the streamed save writes exactly the bytes of encodeVectors (several chunks, rows taken from the index)', async () => {
  const dim = 64;
  const n = 9000; // more than two chunks of the streamed write
  const ix = new VectorIndex<Doc>('test:x', dim);
  vectors(n, dim, 5).forEach((v, i) => ix.set(doc(i), v));
  const rows = [...ix.entries()].filter((_, i) => i % 7 !== 3); // not every row, not in row order
  rows.reverse();
  const cw = ix.codeWords;
  const { data, scales, codes } = indexRows(ix, rows.map((r) => r.row));
  const keys = rows.map(({ doc: d }) => `${d.id}\t${d.updated}`);
  const dir = tempDir('cairn-vec-');
  try {
    await writeVectorSource(dir, { embedder: 'test:x', dim, codeWords: cw, count: keys.length, key: (i) => keys[i]!, copyRows: (from, to, out) => ix.copyRows(rows.map((r) => r.row), from, to, out) });
    const file = readFileSync(join(dir, '.cache', 'vectors.bin'));
    assert.ok(file.equals(encodeVectors({ embedder: 'test:x', dim, keys, scales, rows: data, codeWords: cw, codes })), 'same bytes');
    assert.equal(readdirSync(join(dir, '.cache')).length, 1, 'no temp file left');
    const back = decodeVectors(file);
    assert.ok(typeof back !== 'string');
    assert.deepEqual(keysOf(back), keys);
  } finally {
    removeDir(dir);
  }
});

/** Queries near stored vectors (a rewording of one), as real searches are. */
function nearQueries(vs: Float32Array[], count: number, dim: number): Float32Array[] {
  const noise = vectors(count, dim, 99);
  return noise.map((e, i) => {
    const base = vs[(i * 137) % vs.length]!;
    const v = base.map((x, k) => x + 0.8 * e[k]!);
    let s = 0;
    for (const x of v) s += x * x;
    return v.map((x) => x / Math.sqrt(s));
  });
}

test('approximate search quality at 30k rows: recall@10 and @20 against exact >= 0.95; removed rows never return', () => {
  const n = 30_000;
  const dim = 256;
  const ix = new VectorIndex<Doc>('test:x', dim);
  const vs = vectors(n, dim, 7);
  vs.forEach((v, i) => ix.set(doc(i), v));
  // A tenth of the rows removed and a few reused: the free list must not leak into the answers.
  for (let i = 0; i < n; i += 10) ix.remove(`m${i}`);
  for (let i = 0; i < 500; i += 10) ix.set(doc(n + i), vs[i]!);
  const queries = nearQueries(vs, 80, dim);
  for (const k of [10, 20]) {
    let recall = 0;
    for (const q of queries) {
      const exact = new Set(ix.searchExact(q, k).map((h) => h.doc.id));
      const approx = ix.search(q, k);
      assert.equal(approx.length, k);
      assert.ok(approx.every((h) => Number(h.doc.id.slice(1)) % 10 !== 0 || Number(h.doc.id.slice(1)) >= n), 'a removed row was returned');
      recall += approx.filter((h) => exact.has(h.doc.id)).length / k;
    }
    recall /= queries.length;
    assert.ok(recall >= 0.95, `recall@${k} ${recall.toFixed(3)} at ${n} rows`);
  }
});

for (const n of [EXACT_MAX + 1500, 900]) test(`the SIMD kernels (int16 ranking, exact f64 for the kept rows) and the JavaScript loops give the same answers at ${n} rows`, () => {
  const dim = 256;
  const vs = vectors(n, dim, 3);
  const build = () => {
    const ix = new VectorIndex<Doc>('test:x', dim, 16); // small capacity: the SIMD memory grows several times
    vs.forEach((v, i) => ix.set(doc(i), v));
    for (let i = 5; i < n; i += 50) ix.remove(`m${i}`);
    return ix;
  };
  const simd = build();
  assert.ok((simd as unknown as { simd: unknown }).simd, 'WebAssembly SIMD is available on every supported Node: the kernels must be in use');
  process.env.CAIRN_NO_SIMD = '1';
  let js: VectorIndex<Doc>;
  try {
    js = build();
  } finally {
    delete process.env.CAIRN_NO_SIMD;
  }
  for (const q of nearQueries(vs, 20, dim)) {
    for (const f of ['search', 'searchExact'] as const) {
      for (const minSim of [undefined, 0.3]) {
        const opts = minSim === undefined ? {} : { minSim };
        const a = simd[f](q, 10, opts);
        const b = js[f](q, 10, opts);
        assert.deepEqual(a.map((h) => h.doc.id), b.map((h) => h.doc.id), f);
        a.forEach((h, i) => assert.ok(Math.abs(h.sim - b[i]!.sim) < 1e-9, `${f}: ${h.sim} vs ${b[i]!.sim}`));
      }
    }
  }
});

test('a read vector cache finds rows by (id, updated): in order in place, out of order through a map, unknown none', () => {
  const ids = ['01A', '01B', 'é-hand-made', '01D', '01E'];
  const keys = ids.map((id) => `${id}\t${T}`);
  const dim = 16;
  const buf = encodeVectors({ embedder: 'test:x', dim, keys, scales: new Float32Array(5), rows: new Int8Array(5 * dim), codeWords: 0, codes: new Uint32Array(0) });
  const back = decodeVectors(buf);
  assert.ok(typeof back !== 'string');
  assert.deepEqual([...back.keyAt], [0, 29, 58, 95, 124, 153]); // key i at keyAt[i], '\n' before the next
  // The store's order (the norm): every row in turn.
  let find = rowFinder(back);
  assert.deepEqual(ids.map((id) => find(id, T)), [0, 1, 2, 3, 4]);
  // One memory gone, two swapped, one edited since (another `updated`), one unknown.
  find = rowFinder(back);
  assert.equal(find('01B', T), 1);
  assert.equal(find('01D', T), 3);
  assert.equal(find('é-hand-made', T), 2);
  assert.equal(find('01D', '2026-02-02T00:00:00.000Z'), undefined);
  assert.equal(find('01E', T), 4);
  assert.equal(find('01Z', T), undefined);
  assert.equal(find('01A', T), 0);
  // A prefix of a key is not the key.
  assert.equal(rowFinder(back)('01', T), undefined);
  // The key count must match the header's.
  const empty = decodeVectors(encodeVectors({ embedder: 'test:x', dim, keys: [], scales: new Float32Array(0), rows: new Int8Array(0), codeWords: 0, codes: new Uint32Array(0) }));
  assert.ok(typeof empty !== 'string');
  assert.equal(rowFinder(empty)('01A', T), undefined);
});

test('a streamed vector save and read, past a chunk: the same bytes as one encoding, rows read a block at a time', async () => {
  const n = 9000; // over two chunks of rows
  const dim = 4;
  const keys = Array.from({ length: n }, (_, i) => `0${i}-é\t${T}`);
  const rows = new Int8Array(n * dim).map((_, i) => (i % 251) - 125);
  const scales = new Float32Array(n).map((_, i) => i / n);
  const codes = new Uint32Array(n).map((_, i) => (i * 2654435761) >>> 0);
  const dir = tempDir('cairn-vec-');
  try {
    await writeVectorSource(dir, { embedder: 'test:x', dim, codeWords: 1, count: n, key: (i) => keys[i]!, copyRows: (from, to, out) => copyRowsFrom({ dim, codeWords: 1, scales, rows, codes }, (i) => i, from, to, out) });
    const path = join(dir, '.cache', 'vectors.bin');
    const file = readFileSync(path);
    assert.ok(file.equals(encodeVectors({ embedder: 'test:x', dim, keys, scales, rows, codeWords: 1, codes })), 'same bytes');
    const back = decodeVectors(file);
    assert.ok(typeof back !== 'string');
    assert.equal(rowFinder(back)(`0${n - 1}-é`, T), n - 1);

    // Read from the file: keys, scales and codes whole, rows a block at a time, in any order.
    const warnings: string[] = [];
    const vf = readVectors(dir, (w) => warnings.push(w));
    assert.ok(vf, warnings.join());
    try {
      assert.equal(vf.count, n);
      assert.equal(vf.keyText, back.keyText);
      assert.deepEqual([...vf.keyAt], [...back.keyAt]);
      assert.deepEqual([...vf.scales], [...scales]);
      assert.deepEqual([...vf.codes], [...codes]);
      for (const i of [0, 1, 4095, 4096, 8999, 17, 5000, 4095]) assert.deepEqual([...vf.row(i)], [...rows.subarray(i * dim, (i + 1) * dim)], `row ${i}`);
      assert.throws(() => vf.row(n), /no row/);
    } finally {
      vf.close();
    }
    // A damaged byte among the rows (never read whole): refused.
    const bad = Buffer.from(file);
    bad[bad.length - n * 4 - 10]! ^= 0xff;
    writeFileSync(path, bad);
    assert.equal(readVectors(dir, (w) => warnings.push(w)), null);
    assert.equal(warnings.at(-1), 'checksum mismatch');
    writeFileSync(path, file.subarray(0, file.length - 3));
    assert.equal(readVectors(dir, (w) => warnings.push(w)), null);
    assert.equal(warnings.at(-1), 'truncated');
  } finally {
    removeDir(dir);
  }
});

test('a store\'s vector index opens with room to spare: new memories after the open do not grow it', async () => {
  const { Cairn } = await import('../../src/core/cairn.ts');
  const root = tempDir();
  const store = join(root, 'store');
  try {
    let c = await Cairn.open({ dir: store, cwd: root, env: { HOME: root }, watch: true, warn: () => {} });
    for (let i = 0; i < 200; i++) await c.write({ content: `Fact ${i}: the quarkle${i} service restarts every ${i + 2} hours on host zeta${i}.`, scopes: ['tools'], force: true });
    await c.index.semantic!.settle();
    await c.close();
    // Reopened on 200 memories: sized to the store and an eighth more, not to the store exactly
    // (the first new memory grew it then: every row copied into a memory twice the size).
    c = await Cairn.open({ dir: store, cwd: root, env: { HOME: root }, watch: true, warn: () => {} });
    await c.index.semantic!.ready();
    const vec = c.index.semantic!.index!;
    assert.equal(vec.size, 200);
    const room = vec.capacity;
    assert.ok(room >= 225, `capacity ${room}`);
    for (let i = 0; i < 20; i++) await c.write({ content: `Later fact ${i}: the blorp${i} queue drains every ${i + 3} minutes.`, scopes: ['tools'], force: true });
    await c.index.semantic!.settle();
    assert.equal(vec.size, 220);
    assert.equal(vec.capacity, room, 'grown by writes the room was made for');
    await c.close();
  } finally {
    removeDir(root);
  }
});
