// The caches' checksums (index/checksum.ts): CRC-32 where zlib has it, SHA-1 otherwise; a reader
// takes the kind from the slot, so a cache an older cairn sealed with SHA-1 is still read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as zlib from 'node:zlib';
import { checksumFor, isChecksumSlot, newChecksum, SUM_CHARS } from '../../src/core/index/checksum.ts';
import { copyRowsFrom, decodeVectors, writeVectorSource } from '../../src/core/index/vectorCache.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../helpers/env.ts';
import { keysOf } from '../helpers/vectorFile.ts';
import { decodeCache } from '../../src/core/index/cache.ts';
import { encodeCache } from '../../src/core/index/cacheWrite.ts';

const hasCrc = typeof (zlib as unknown as { crc32?: unknown }).crc32 === 'function';

test('a checksum fills the 40-character slot, CRC-32 where zlib has it, and is read back by its kind', () => {
  const data = Buffer.from('the staging cluster rotates its key');
  for (const sum of [newChecksum(), newChecksum({ sha1: true })]) {
    sum.update(data.subarray(0, 10));
    sum.update(data.subarray(10));
    const slot = sum.digest();
    assert.equal(slot.length, SUM_CHARS);
    assert.ok(isChecksumSlot(slot), slot);
    const again = checksumFor(slot)!;
    again.update(data);
    assert.equal(again.digest(), slot);
  }
  if (hasCrc) assert.match(newChecksum().digest(), /^crc32:[0-9a-f]{8} {26}$/);
  const sha = newChecksum({ sha1: true });
  sha.update(data);
  assert.equal(sha.digest(), createHash('sha1').update(data).digest('hex'));
  assert.ok(!isChecksumSlot('crc32:1234'));
  assert.ok(!isChecksumSlot('x'.repeat(40)));
});

test('vector caches: sealed now or with SHA-1 as an older cairn did, both read; a flipped byte is caught either way', async () => {
  const dim = 16;
  const rows = new Int8Array(3 * dim).map((_, i) => (i % 7) - 3);
  const v = { embedder: 'test:x', dim, keys: ['A\t1', 'B\t2', 'C\t3'], scales: new Float32Array([0.1, 0.2, 0.3]), rows, codeWords: 1, codes: new Uint32Array([1, 2, 3]) };
  const dir = tempDir();
  let now: Buffer;
  try {
    await writeVectorSource(dir, { ...v, count: 3, key: (i) => v.keys[i]!, copyRows: (from, to, out) => copyRowsFrom(v, (i) => i, from, to, out) });
    now = readFileSync(join(dir, '.cache', 'vectors.bin'));
  } finally {
    removeDir(dir);
  }
  if (hasCrc) assert.match(now.toString('latin1', 8, 48), /^crc32:/);
  const old = Buffer.from(now);
  old.write(createHash('sha1').update(old.subarray(48)).digest('hex'), 8, 'latin1');
  for (const buf of [now, old]) {
    const back = decodeVectors(buf);
    assert.ok(typeof back !== 'string', String(back));
    assert.deepEqual(keysOf(back), v.keys);
    const bad = Buffer.from(buf);
    bad[bad.length - 2] = bad[bad.length - 2]! ^ 0x10;
    assert.equal(decodeVectors(bad), 'checksum mismatch');
  }
});

test('index caches carry the new checksum, and a flipped byte is caught', async () => {
  const rec = { id: 'A', body: 'x' };
  const buf = await encodeCache({ records: [rec], terms: [], entries: [] });
  if (hasCrc) assert.match(buf.toString('latin1', 8, 48), /^crc32:[0-9a-f]{8} {26}$/);
  assert.deepEqual(decodeCache(buf).records, [rec]);
  const flipped = Buffer.from(buf);
  flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 1;
  assert.throws(() => decodeCache(flipped), /checksum mismatch|malformed|truncated/);
});
