// The in-memory client/server pair for protocol tests that need no build: the real server loop
// (createServer over a real Cairn on a temp store) and the SDK Client, joined by the SDK's
// InMemoryTransport. End-to-end truth still comes from the stdio tests against the bundle.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Cairn, type OpenOptions } from '../../src/core/cairn.ts';
import { createServer } from '../../src/mcp/server.ts';

export interface InMemoryPair {
  client: Client;
  cairn: Cairn;
  /** Calls a tool and returns its structured result; throws with the error text on isError. */
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function inMemoryPair(opts: OpenOptions): Promise<InMemoryPair> {
  const cairn = await Cairn.open({ watch: false, warn: () => {}, ...opts });
  const server = createServer(cairn);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'cairn-test', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    cairn,
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args });
      const text = (r.content as { type: string; text: string }[])[0]?.text ?? '';
      if (r.isError) throw new Error(text);
      return (r.structuredContent ?? JSON.parse(text)) as Record<string, unknown>;
    },
    async close() {
      await client.close();
      await server.close();
      await cairn.close();
    },
  };
}
