// A bare JSON-RPC-over-stdio client for the built bundle: it sends exactly the bytes a test
// gives it (invalid JSON, non-object arguments, nesting a million levels deep...), which the SDK
// client refuses to produce. Responses are matched by id.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BUNDLE } from './mcp.ts';
import { TEST_CODE_CACHE } from './env.ts';

export interface RawServer {
  child: ChildProcessWithoutNullStreams;
  /** Sends one line; resolves with the response carrying `id`, or 'timeout'. */
  send: (line: string, id: number | null, timeoutMs?: number) => Promise<Record<string, any> | 'timeout'>;
  request: (method: string, params: unknown, timeoutMs?: number) => Promise<Record<string, any> | 'timeout'>;
  nextId: () => number;
  stderr: () => string;
  alive: () => boolean;
  close: () => Promise<void>;
}

export async function rawServer(opts: { store: string; cwd: string; env?: Record<string, string> }): Promise<RawServer> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'CLAUDE_PROJECT_DIR' && k !== 'NODE_OPTIONS') env[k] = v;
  Object.assign(env, { CAIRN_DIR: opts.store, HOME: opts.store, CAIRN_CODE_CACHE: TEST_CODE_CACHE }, opts.env ?? {});
  const child = spawn(process.execPath, [BUNDLE], { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let exited = false;
  const exit = new Promise<void>((r) => child.on('exit', () => ((exited = true), r())));
  const waiters = new Map<number, (m: Record<string, any>) => void>();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    out += d;
    let i;
    while ((i = out.indexOf('\n')) >= 0) {
      const line = out.slice(0, i);
      out = out.slice(i + 1);
      try {
        const m = JSON.parse(line) as Record<string, any>;
        if (typeof m.id === 'number') waiters.get(m.id)?.(m);
      } catch {
        err += `[unparseable stdout line] ${line.slice(0, 200)}\n`;
      }
    }
  });
  child.stderr.on('data', (d: Buffer) => {
    if (err.length < 1_000_000) err += d.toString();
  });
  child.stdin.on('error', () => {}); // EPIPE after an exit is reported by alive()
  let id = 0;
  const send: RawServer['send'] = (line, mid, timeoutMs = 10_000) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), mid === null ? Math.min(timeoutMs, 300) : timeoutMs);
      if (mid !== null) {
        waiters.set(mid, (m) => {
          clearTimeout(timer);
          waiters.delete(mid);
          resolve(m);
        });
      }
      child.stdin.write(`${line}\n`);
    });
  const nextId = () => ++id + 1_000_000;
  const request: RawServer['request'] = (method, params, timeoutMs) => {
    const mid = nextId();
    return send(JSON.stringify({ jsonrpc: '2.0', id: mid, method, params }), mid, timeoutMs);
  };
  const init = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } });
  if (init === 'timeout' || !init.result) throw new Error(`initialize failed: ${JSON.stringify(init)} ${err}`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    child,
    send,
    request,
    nextId,
    stderr: () => err,
    alive: () => !exited,
    close: async () => {
      child.stdin.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(t);
    },
  };
}
