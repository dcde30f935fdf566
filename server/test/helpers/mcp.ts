// Drives the built bundle (server/dist/cairn.mjs) over stdio with the SDK's real Client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { after } from 'node:test';
import { TEST_CODE_CACHE } from './env.ts';

// Every server a test file starts is closed when the file's tests are done, even when a test
// failed before its own cleanup: a child left running keeps the test process alive forever.
const open = new Set<Session>();
after(async () => {
  await Promise.all([...open].map((s) => s.close()));
});

export const BUNDLE = fileURLToPath(new URL('../../dist/cairn.mjs', import.meta.url));

export interface Session {
  client: Client;
  stderr: () => string;
  /** Calls a tool; returns the structured result, throwing if the call failed. */
  call: (name: string, args?: Record<string, unknown>) => Promise<Record<string, any>>;
  /** Calls a tool that must fail; returns the error text. */
  fail: (name: string, args?: Record<string, unknown>) => Promise<string>;
  raw: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  close: () => Promise<void>;
}

export interface StartOptions {
  store: string;
  cwd: string;
  env?: Record<string, string>;
}

export async function startServer(opts: StartOptions): Promise<Session> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'CLAUDE_PROJECT_DIR') env[k] = v;
  Object.assign(env, { CAIRN_DIR: opts.store, HOME: opts.env?.HOME ?? opts.store, CAIRN_CODE_CACHE: TEST_CODE_CACHE }, opts.env ?? {});
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUNDLE], cwd: opts.cwd, env, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'cairn-test', version: '0.0.0' });
  await client.connect(transport);
  const raw = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const session: Session = {
    client,
    stderr: () => err,
    raw,
    async call(name, args) {
      const r = await raw(name, args);
      if (r.isError) throw new Error(`${name} failed: ${(r.content[0] as { text: string }).text}`);
      return r.structuredContent as Record<string, any>;
    },
    async fail(name, args) {
      const r = await raw(name, args);
      if (!r.isError) throw new Error(`${name} was expected to fail but returned ${JSON.stringify(r.structuredContent)}`);
      return (r.content[0] as { text: string }).text;
    },
    close: async () => {
      open.delete(session);
      await client.close();
    },
  };
  open.add(session);
  return session;
}

/** Runs the bundle as the CLI. */
export function cli(args: string[], opts: { store: string; cwd: string; env?: Record<string, string>; input?: string }) {
  const r = spawnSync(process.execPath, [BUNDLE, ...args], {
    cwd: opts.cwd,
    encoding: 'utf8',
    input: opts.input ?? '',
    env: { ...process.env, CLAUDE_PROJECT_DIR: '', CAIRN_DIR: opts.store, HOME: opts.store, CAIRN_CODE_CACHE: TEST_CODE_CACHE, ...opts.env },
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
