import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync, truncateSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { cachePath, decodeCache, readCache } from '../../src/core/index/cache.ts';
import { encodeCache, writeCache } from '../../src/core/index/cacheWrite.ts';
import { SearchIndex, type IndexDoc } from '../../src/core/index/searchIndex.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

interface Rec extends IndexDoc {
  file: string;
  size: number;
  mtimeMs: number;
  last_verified_at: string | null;
  removed?: string;
}

function rec(id: string, body: string, extra: Partial<Rec> = {}): Rec {
  const t = '2026-02-01T00:00:00.000Z';
  return { id, body, scopes: ['tools'], created: t, updated: t, file: `/s/${id}.md`, size: body.length, mtimeMs: 1.5, last_verified_at: null, ...extra };
}

function snapshotOf(records: Rec[]) {
  const ix = new SearchIndex<Rec>();
  ix.load(records.filter((r) => r.removed === undefined));
  const snap = ix.snapshot();
  const at = new Map(records.map((r, i) => [r.id, i]));
  return { records, terms: snap.terms, entries: snap.docs.map((d) => ({ record: at.get(d.doc.id)!, fwd: d.fwd, bodyLen: d.bodyLen, scopeLen: d.scopeLen })) };
}

const RECORDS = [
  rec('A', 'Use pnpm in the monorepo; npm breaks the lockfile.'),
  rec('B', 'The staging database is pg 16 on port 5433.', { last_verified_at: '2026-02-02T00:00:00.000Z' }),
  rec('T', 'An old removed note about yarn.', { removed: '2026-02-03T00:00:00.000Z' }),
];

test('round trip: records keep null vs absent keys, and the snapshot rebuilds an identical index', async () => {
  const c = snapshotOf(RECORDS);
  const back = decodeCache<Rec>(await encodeCache(c));
  assert.deepEqual(back.records, RECORDS);
  assert.equal('removed' in back.records[0]!, false);
  assert.equal(back.records[0]!.last_verified_at, null);
  const ix = new SearchIndex<Rec>();
  const active = back.records.filter((r) => r.removed === undefined);
  ix.load(active, { terms: back.terms, docs: back.entries.map((e) => ({ doc: back.records[e.record]!, fwd: e.fwd, bodyLen: e.bodyLen, scopeLen: e.scopeLen })) });
  assert.deepEqual(ix.search('staging pg', { limit: 5 }).map((h) => h.doc.id), ['B']);
  assert.deepEqual(ix.search('yarn', { limit: 5 }), []);
});

test('a snapshot entry whose text changed is re-analyzed, a vanished one dropped', () => {
  const c = snapshotOf(RECORDS);
  const ix = new SearchIndex<Rec>();
  const changed = rec('A', 'Use bun now.');
  ix.load([changed], { terms: c.terms, docs: c.entries.map((e) => ({ doc: c.records[e.record]!, fwd: e.fwd, bodyLen: e.bodyLen, scopeLen: e.scopeLen })) });
  assert.deepEqual(ix.search('bun', { limit: 5 }).map((h) => h.doc.id), ['A']);
  assert.deepEqual(ix.search('pnpm', { limit: 5 }), []);
  assert.deepEqual(ix.search('staging', { limit: 5 }), []);
});

test('write is atomic (no temp left), mode 0600; read returns the content', async () => {
  const dir = tempDir();
  try {
    await writeCache(dir, snapshotOf(RECORDS));
    assert.deepEqual(readdirSync(join(dir, '.cache')), ['search-index.bin']);
    assert.equal(statSync(cachePath(dir)).mode & 0o777, 0o600);
    assert.equal(readCache<Rec>(dir)!.records.length, 3);
  } finally {
    removeDir(dir);
  }
});

test('missing, truncated, corrupt or foreign caches are rejected with a reason, never trusted', async () => {
  const dir = tempDir();
  try {
    assert.equal(readCache(dir), null); // missing: silently absent
    const reasons: string[] = [];
    const reject = (r: string) => reasons.push(r);
    await writeCache(dir, snapshotOf(RECORDS));
    const good = readFileSync(cachePath(dir));

    truncateSync(cachePath(dir), good.length - 7);
    assert.equal(readCache(dir, reject), null);

    const flipped = Buffer.from(good);
    flipped[flipped.length - 3]! ^= 0xff;
    writeFileSync(cachePath(dir), flipped);
    assert.equal(readCache(dir, reject), null);

    writeFileSync(cachePath(dir), good.subarray(0, 2000));
    assert.equal(readCache(dir, reject), null);

    writeFileSync(cachePath(dir), 'hello world, not a cache at all');
    assert.equal(readCache(dir, reject), null);

    const versioned = Buffer.from(good.toString('latin1').replace(/"tokenizer":\d/, '"tokenizer":9'), 'latin1');
    writeFileSync(cachePath(dir), versioned);
    assert.equal(readCache(dir, reject), null);

    assert.deepEqual(reasons, ['truncated or extended payload', 'checksum mismatch', 'truncated header', 'not a cairn index cache', 'written by another version']);
    rmSync(join(dir, '.cache'), { recursive: true });
    assert.equal(readCache(dir), null);
  } finally {
    removeDir(dir);
  }
});

test('a flipped byte anywhere in the file (header, padding, payload) is detected', async () => {
  const good = await encodeCache(snapshotOf(RECORDS));
  for (let at = 0; at < good.length; at += 3) {
    const bad = Buffer.from(good);
    bad[at]! ^= 0x41;
    assert.throws(() => decodeCache(bad), Error, `byte ${at} of ${good.length}`);
  }
});

test('a structurally bad forward list is refused by the index (the caller rebuilds)', () => {
  const c = snapshotOf(RECORDS);
  const bad = c.entries.map((e) => ({ doc: c.records[e.record]!, fwd: Int32Array.from([5, 1, 2, 1]), bodyLen: e.bodyLen, scopeLen: e.scopeLen }));
  assert.throws(() => new SearchIndex<Rec>().load(RECORDS.slice(0, 2), { terms: c.terms, docs: bad }), /malformed/);
});

/** Re-seals a cache whose payload was edited: header sizes and checksum made to match again. */
function reseal(buf: Buffer, recordsText: string): Buffer {
  const HEADER_SLOT = 4096;
  const hlen = buf.readUInt32LE(48);
  const h = JSON.parse(buf.subarray(52, 52 + hlen).toString('utf8')) as { recordsBytes: number; termsBytes: number; ints: number };
  const rest = buf.subarray(HEADER_SLOT + h.recordsBytes);
  const oldPad = (4 - ((h.recordsBytes + h.termsBytes) % 4)) % 4;
  const terms = rest.subarray(0, h.termsBytes);
  const ints = rest.subarray(h.termsBytes + oldPad);
  const records = Buffer.from(recordsText, 'utf8');
  h.recordsBytes = records.length;
  const pad = Buffer.alloc((4 - ((records.length + terms.length) % 4)) % 4);
  const json = Buffer.from(JSON.stringify(h), 'utf8');
  const header = Buffer.alloc(HEADER_SLOT, 0x20);
  buf.copy(header, 0, 0, 8);
  header.writeUInt32LE(json.length, 48);
  json.copy(header, 52);
  const payload = Buffer.concat([records, terms, pad, ints]);
  const sha = createHash('sha1').update(payload).update(header.subarray(48)).digest('hex');
  header.write(sha, 8, 'latin1');
  return Buffer.concat([header, payload]);
}

test('shared values (origins, scope lists) are stored once and restored; a row pointing outside their table is refused', async () => {
  const shared = ['tools', 'ci'];
  const records = [rec('A', 'one fact about pnpm', { scopes: shared }), rec('B', 'another fact about pnpm', { scopes: shared }), rec('C', 'a third', { scopes: ['other'] })];
  const good = await encodeCache(snapshotOf(records));
  const back = decodeCache<Rec>(good);
  assert.deepEqual(back.records, records);
  // One table entry per distinct value: the two rows of A and B point at the same list.
  assert.equal(back.records[0]!.scopes, back.records[1]!.scopes);
  const hlen = good.readUInt32LE(48);
  const h = JSON.parse(good.subarray(52, 52 + hlen).toString('utf8')) as { recordsBytes: number; shared: string[] };
  assert.deepEqual(h.shared, ['scopes']);
  const text = good.subarray(4096, 4096 + h.recordsBytes).toString('utf8');
  const [table, ...rows] = text.split('\n');
  assert.equal(JSON.parse(table!).length, 2);
  // Re-sealed, so only the decoder's own check can catch it: an index past the table's end.
  assert.doesNotThrow(() => decodeCache(reseal(good, text)));
  const bad = [JSON.stringify([]), ...rows].join('\n');
  assert.throws(() => decodeCache(reseal(good, bad)), /malformed record/);
});

test('the streamed snapshot (a slot range at a time) equals the whole one, also when the index changes while it is read', () => {
  const words = ['pnpm', 'lockfile', 'staging', 'database', 'port', 'deploy', 'queue', 'rotation', 'buffer', 'exporter'];
  const recs = Array.from({ length: 300 }, (_, i) => rec(`R${i}`, `${words[i % 10]} ${words[(i * 3) % 10]} ${words[(i * 7) % 10]} item${i}`));
  const ix = new SearchIndex<Rec>();
  ix.load(recs);
  for (let i = 0; i < 40; i++) ix.upsert(rec(`R${i * 5}`, `changed ${words[i % 10]} text${i}`)); // dead slots, appended ones
  ix.remove('R7');
  const whole = ix.snapshot();
  const stream = ix.snapshotStream(64);
  assert.deepEqual(stream.terms, whole.terms);
  const gen = stream.docs();
  const got: typeof whole.docs = [...gen.next().value!];
  // Changes after the stream began do not show in it.
  ix.upsert(rec('NEW', 'a brand new fact about zebras'));
  ix.remove('R8');
  for (const part of gen) got.push(...part);
  assert.deepEqual(got.map((d) => [d.doc.id, [...d.fwd], d.bodyLen, d.scopeLen]), whole.docs.map((d) => [d.doc.id, [...d.fwd], d.bodyLen, d.scopeLen]));
});
