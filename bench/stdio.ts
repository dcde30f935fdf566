// The bench's view of a real server process: the built bundle over stdio with the SDK client.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const BUNDLE = fileURLToPath(new URL('../server/dist/cairn.mjs', import.meta.url));

export interface Server {
  client: Client;
  pid: number;
  search: (query: string) => Promise<number>;
  /** peak resident set of the server process so far, MB (Linux /proc; NaN elsewhere) */
  peakRssMb: () => number;
  stderr: () => string;
  close: () => Promise<void>;
}

export async function startServer(store: string, cwd: string): Promise<Server> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'CLAUDE_PROJECT_DIR') env[k] = v;
  Object.assign(env, { CAIRN_DIR: store, HOME: cwd });
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUNDLE], cwd, env, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'cairn-bench', version: '0.0.0' });
  await client.connect(transport);
  const pid = transport.pid ?? 0;
  return {
    client,
    pid,
    async search(query) {
      const r = await client.callTool({ name: 'memory_search', arguments: { query, auto_scope: false } });
      if (r.isError) throw new Error(`memory_search failed: ${JSON.stringify(r.content)}`);
      return ((r.structuredContent as { hits: unknown[] }).hits ?? []).length;
    },
    peakRssMb() {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        return m ? Number(m[1]) / 1024 : NaN;
      } catch {
        return NaN;
      }
    },
    stderr: () => err,
    close: () => client.close(),
  };
}
