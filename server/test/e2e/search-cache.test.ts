// The persisted index cache end to end: written 0600 under <store>/.cache/ when a server closes,
// reused by the next one, and never trusted when stale or corrupt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { handWrite } from '../index/memfiles.ts';

const CACHE = ['.cache', 'search-index.bin'];

async function searchOnce(store: string, cwd: string, query: string) {
  const s = await startServer({ store, cwd });
  try {
    const r = await s.call('memory_search', { query, auto_scope: false });
    // The lexical index's hits (what the cache holds); the semantic leg may add loose neighbours.
    const hits = (r.hits as Array<{ id: string; snippet: string; match_terms?: string[] }>).filter((h) => h.match_terms);
    return { hits, stderr: s.stderr() };
  } finally {
    await s.close();
  }
}

test('cache written on close, reused, re-validated per file, rebuilt when corrupt, optional', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  try {
    const f = handWrite(store, 'The payments service retries webhooks with exponential backoff.');
    handWrite(store, 'Invoices are generated on the first business day.');
    let r = await searchOnce(store, root, 'webhooks backoff');
    assert.equal(r.hits.length, 1);
    const cache = join(store, ...CACHE);
    assert.ok(existsSync(cache), 'the first server saved the index cache on close');
    assert.equal(statSync(cache).mode & 0o777, 0o600);
    assert.equal(statSync(join(store, '.cache')).mode & 0o777, 0o700);

    // Edited while no server ran: the file's size/mtime no longer match the cache entry.
    writeFileSync(f, readFileSync(f, 'utf8').replace('exponential backoff', 'a dead letter queue'));
    r = await searchOnce(store, root, 'webhooks');
    assert.match(r.hits[0]!.snippet, /dead letter queue/);
    assert.deepEqual((await searchOnce(store, root, 'exponential')).hits, []);

    // Corrupt cache: ignored with a note on stderr, results still right.
    const bytes = readFileSync(cache);
    bytes[bytes.length - 10]! ^= 0x55;
    writeFileSync(cache, bytes);
    r = await searchOnce(store, root, 'invoices business day');
    assert.equal(r.hits.length, 1);
    assert.match(r.stderr, /index cache ignored \(checksum mismatch\)/);

    // Deleting .cache loses nothing.
    rmSync(join(store, '.cache'), { recursive: true });
    assert.equal((await searchOnce(store, root, 'invoices')).hits.length, 1);
  } finally {
    removeDir(root);
  }
});
