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

test('a server that opens its store on demand: initialize, tools/list and prompts/list never begin it; the handshake or a tool call does', { timeout: 60_000 }, async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const { Cairn } = await import('../../src/core/cairn.ts');
  const { createServer, startingAfterHandshake, beginAfterHandshake } = await import('../../src/mcp/server.ts');
  const root = tempDir();
  const opened: Array<Awaited<ReturnType<typeof Cairn.open>>> = [];
  // One server per case; `starts` counts how often the opening was begun (idempotent: at most 1).
  const serve = async (handshake: boolean) => {
    let starts = 0;
    let begin!: () => void;
    const ready = new Promise<void>((r) => (begin = r)).then(async () => {
      const c = await Cairn.open({ dir: join(root, 'store'), cwd: root, env: { HOME: root }, watch: false, warn: () => {} });
      opened.push(c);
      return c;
    });
    const { cairn, started } = startingAfterHandshake({ ready, memoryTool: true, start: () => (starts++, begin()) });
    const server = createServer(cairn);
    if (handshake) beginAfterHandshake(server, cairn);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'cairn-test', version: '0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    return { client, server, started, starts: () => starts };
  };
  try {
    // Without the handshake policy: only a tool call begins the opening.
    const a = await serve(false);
    await a.client.listTools();
    await a.client.listPrompts();
    assert.equal(a.started(), false, 'tools/list and prompts/list do not open the store');
    const r = await a.client.callTool({ name: 'memory_search', arguments: { query: 'anything', auto_scope: false } });
    assert.ok(!r.isError, JSON.stringify(r.content));
    assert.equal(a.starts(), 1);
    await a.client.callTool({ name: 'memory_search', arguments: { query: 'again', auto_scope: false } });
    assert.equal(a.starts(), 1, 'begun once');
    // With it: the handshake's notifications/initialized begins it shortly after, unasked.
    const b = await serve(true);
    await b.client.listTools();
    for (let i = 0; i < 100 && !b.started(); i++) await new Promise((res) => setTimeout(res, 10));
    assert.equal(b.started(), true, 'begun after the handshake without any tool call');
    for (const x of [a, b]) {
      await x.client.close();
      await x.server.close();
    }
  } finally {
    for (const c of opened) await c.close();
    removeDir(root);
  }
});

test('a tool call runs inside Cairn.during, so a start\'s background work waits for the answer', async () => {
  const root = tempDir();
  const p = await inMemoryPair({ dir: join(root, 'store'), cwd: root, env: { HOME: root } });
  try {
    const seen: number[] = [];
    const during = p.cairn.during.bind(p.cairn);
    p.cairn.during = <T,>(run: () => T | Promise<T>) => {
      seen.push(1);
      return during(run);
    };
    await p.call('memory_search', { query: 'anything', auto_scope: false });
    await p.call('memory_write', { content: 'The staging cluster runs in eu-west-1.', scopes: ['infra'] });
    assert.equal(seen.length, 2);
  } finally {
    await p.close();
    removeDir(root);
  }
});
