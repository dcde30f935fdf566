// Protocol tests over the in-memory pair: the same server loop as stdio, no build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { inMemoryPair } from '../helpers/inMemory.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

test('in-memory pair: tools/list matches the registry, a write is found by search, bad input is one sentence', async () => {
  const root = tempDir();
  const p = await inMemoryPair({ dir: join(root, 'store'), cwd: root, env: { HOME: root } });
  try {
    const { tools } = await p.client.listTools();
    assert.ok(tools.some((t) => t.name === 'memory_search') && tools.every((t) => t.outputSchema || t.name === 'memory'));
    const w = await p.call('memory_write', { content: 'The staging cluster runs in eu-west-1.', scopes: ['infra'] });
    assert.equal(w.status, 'committed');
    const s = await p.call('memory_search', { query: 'staging cluster region', auto_scope: false });
    assert.equal((s.hits as { id: string }[])[0]?.id, w.id);
    await assert.rejects(p.call('memory_search', { query: 'x', max_results: 0 }), /max_results/);
  } finally {
    await p.close();
    removeDir(root);
  }
});
