// The server answers initialize and tools/list before the store is open, and each tool call
// waits for the store: a first start on a big store without a cache parses every file, which can
// outlast a client's initialize timeout. Proved without timing: calls sent together right after
// the handshake are all answered from the opened store; a config that cannot be read still fails
// at once (it is read before the handshake).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { BUNDLE, startServer } from '../helpers/mcp.ts';

const root = mkdtempSync(join(tmpdir(), 'cairn-opening-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('a config.toml that cannot be read still fails before any client is answered', () => {
  const notADir = join(root, 'store-is-a-file');
  writeFileSync(notADir, 'not a directory\n');
  const r = spawnSync(process.execPath, [BUNDLE], { input: '', encoding: 'utf8', env: { ...process.env, CAIRN_DIR: notADir, HOME: root }, timeout: 20_000 });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /store-is-a-file\/config\.toml/);
  assert.equal(r.stdout, '', 'nothing answered on the protocol channel');
});

test('a normal store: calls made right after initialize wait for the store and succeed', async () => {
  const store = join(root, 'store');
  const cwd = join(root, 'work2');
  mkdirSync(cwd);
  const s = await startServer({ store, cwd });
  // Sent at once, without waiting in between: all answered from the opened store.
  const [w, r] = await Promise.all([
    s.call('memory_write', { content: 'The staging database is refreshed from prod every Sunday night.', scopes: ['infra'] }),
    s.call('memory_search', { query: 'staging database refresh' }),
  ]);
  assert.equal(w.status, 'committed');
  assert.ok(Array.isArray(r.hits));
  const found = await s.call('memory_search', { query: 'staging database refresh' });
  assert.equal(found.hits[0].id, w.id);
});
