// End to end through the built bundle with the default embedder (the local model): on a store
// written by a plain script (no .cache/), the server embeds every memory in the background, and
// a memory_health sent as the first call answers in full without waiting for that embedding: its
// own `semantic_index` shows the model's vectors did not cover the store yet, and every count
// (the consolidation pairs among them) is the one a command computes on a copy of the store.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { cli, startServer } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { generateLookalikes } from '../../../bench/lookalike.ts';

/** The test runner picks the built-in table for every other test (scripts/test.mjs): this one asks for the default. */
const LOCAL = { CAIRN_EMBED_PROVIDER: '' };
const N = 1200;

const root = tempDir();
after(() => removeDir(root));

test('memory_health on a store the server has never seen answers in full while the model has not embedded it', async () => {
  const store = join(root, 'store');
  generateLookalikes(store, N);
  const copy = join(root, 'copy');
  cpSync(store, copy, { recursive: true });

  const s = await startServer({ store, cwd: root, env: LOCAL });
  const h = await s.call('memory_health', {});
  const sem = h.semantic_index as { embedder: string | null; answering: string | null; embedded: number; pending: number };
  assert.match(String(sem.embedder), /^local:/, 'the default embedder is the local model');
  assert.ok(sem.embedded < N && sem.pending > 0, `the model's background embedding had not covered the store: ${JSON.stringify(sem)}`);
  assert.ok(sem.answering === null || !sem.answering.startsWith('local:'), `the built-in table answers searches meanwhile: ${JSON.stringify(sem)}`);
  assert.equal(h.totals.active, N);
  await s.close();

  // The same report from a command on the copy (the built-in table: the rewording check uses it in both).
  const r = cli(['health', '--json'], { store: copy, cwd: root, env: { CAIRN_EMBED_PROVIDER: 'builtin' } });
  assert.equal(r.code, 0, r.stderr);
  const want = JSON.parse(r.stdout) as { totals: unknown; consolidation: unknown; scope_health: unknown; verification_debt: unknown };
  assert.ok((want.consolidation as { groups: number }).groups > 0, 'a look-alike store has groups to count');
  assert.deepEqual(h.consolidation, want.consolidation);
  assert.deepEqual(h.totals, want.totals);
  assert.deepEqual(h.scope_health, want.scope_health);
  assert.deepEqual(h.verification_debt, want.verification_debt);
});
