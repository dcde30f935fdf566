// The built bundle over stdio with an SDK Client whose capabilities a test chooses (elicitation),
// and which records the notifications it hears (resources/updated, list_changed) with their
// arrival time. Every session is closed when the file's tests are done.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema, type CallToolResult, type ClientCapabilities, type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { after } from 'node:test';
import { BUNDLE } from '../helpers/mcp.ts';
import { TEST_CODE_CACHE } from '../helpers/env.ts';

const open = new Set<McpSession>();
after(async () => {
  await Promise.all([...open].map((s) => s.close()));
});

export interface Heard {
  uri: string | null;
  at: number;
}

export interface McpSession {
  client: Client;
  /** resources/updated (uri) and list_changed (uri null), in arrival order. */
  heard: Heard[];
  /** The elicitation requests the server made (their params). */
  asked: Record<string, any>[];
  /** Answers the next elicitation requests; returning a never-settling promise lets the server time out. */
  answer: (params: Record<string, any>) => Promise<ElicitResult> | ElicitResult;
  call: (name: string, args?: Record<string, unknown>) => Promise<Record<string, any>>;
  raw: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  /** Waits until `pred` holds for a heard notification (or `ms` pass: null). */
  waitFor: (pred: (h: Heard) => boolean, ms?: number) => Promise<Heard | null>;
  stderr: () => string;
  close: () => Promise<void>;
}

export async function session(opts: { store: string; cwd: string; env?: Record<string, string>; capabilities?: ClientCapabilities }): Promise<McpSession> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'CLAUDE_PROJECT_DIR') env[k] = v;
  Object.assign(env, { CAIRN_DIR: opts.store, HOME: opts.store, CAIRN_CODE_CACHE: TEST_CODE_CACHE }, opts.env ?? {});
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUNDLE], cwd: opts.cwd, env, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'cairn-mcp-test', version: '0.0.0' }, { capabilities: opts.capabilities ?? {} });
  const heard: Heard[] = [];
  const waiters = new Set<() => void>();
  const hear = (uri: string | null) => {
    heard.push({ uri, at: Date.now() });
    for (const w of waiters) w();
  };
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => hear(n.params.uri));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => hear(null));
  const s: McpSession = {
    client,
    heard,
    asked: [],
    answer: () => ({ action: 'cancel' }),
    stderr: () => err,
    raw: (name, args = {}) => client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>,
    async call(name, args) {
      const r = await s.raw(name, args);
      if (r.isError) throw new Error(`${name} failed: ${(r.content[0] as { text: string }).text}`);
      return r.structuredContent as Record<string, any>;
    },
    waitFor(pred, ms = 5000) {
      return new Promise((resolve) => {
        const check = () => {
          const h = heard.find(pred);
          if (h) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(h);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          resolve(null);
        }, ms);
        waiters.add(check);
        check();
      });
    },
    close: async () => {
      open.delete(s);
      await client.close();
    },
  };
  if (opts.capabilities?.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      s.asked.push(req.params as Record<string, any>);
      return s.answer(req.params as Record<string, any>);
    });
  }
  await client.connect(transport);
  open.add(s);
  return s;
}
