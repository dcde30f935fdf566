// Shared pieces of the reliability suites (server/test/reliability): a seeded PRNG so every
// failure reproduces, the soak multiplier, server processes we can SIGKILL, and readers that check
// the store on disk without going through cairn's own loader.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BUNDLE } from './mcp.ts';
import { TEST_CODE_CACHE } from './env.ts';

/** CAIRN_SOAK=10 multiplies iteration counts for a longer local soak; CI runs with 1. */
export const SOAK = Math.max(1, Number(process.env.CAIRN_SOAK ?? '1') || 1);

/** CAIRN_SEED reproduces a run; otherwise a fresh seed, printed so a failure can be replayed. */
export function seedFor(suite: string): number {
  const fixed = process.env.CAIRN_SEED;
  const seed = fixed ? Number(fixed) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
  process.stdout.write(`# ${suite}: seed ${seed} (replay with CAIRN_SEED=${seed})\n`);
  return seed;
}

/** mulberry32: tiny, fast, and good enough to pick test inputs. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  /** Picks a key of `weights` with probability proportional to its weight. */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as [K, number][];
    let r = this.next() * entries.reduce((a, [, w]) => a + w, 0);
    for (const [k, w] of entries) if ((r -= w) < 0) return k;
    return entries[entries.length - 1]![0];
  }
}

const WORDS = (
  'amber basalt cedar delta ember fjord granite harbor indigo juniper kettle lantern meadow nickel orchard pepper quarry ' +
  'raven saddle timber umber velvet walnut yarrow zephyr anchor beacon canyon dune falcon glacier heron island jasper ' +
  'kayak lagoon marble nectar onyx pebble quill reef summit tundra valley willow birch cobalt dahlia'
).split(' ');

/** A letters-only word no stemmer shortens (ends in "q"), unique per counter value. */
export function token(n: number): string {
  let s = '';
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  } while (n > 0);
  return `zx${s}q`;
}

/** An ordinary, durable-sounding sentence carrying a unique token (so search can find exactly it). */
export function factText(rng: Rng, tok: string): string {
  const w = () => rng.pick(WORDS);
  return `The ${w()} service keeps its ${w()} settings beside the ${w()} ${w()} files, marked ${tok}.`;
}

// ---- server processes --------------------------------------------------------------------

export interface Proc {
  pid: number;
  client: Client;
  stderr: () => string;
  /** Raw call with a hard timeout: a hang is a failure, never a stuck test. */
  call: (name: string, args?: unknown, timeoutMs?: number) => Promise<CallToolResult>;
  /** Structured result of a call that must succeed. */
  ok: (name: string, args?: Record<string, unknown>) => Promise<Record<string, any>>;
  alive: () => boolean;
  /** Resolves when the process has exited (after close or kill). */
  exited: Promise<void>;
  kill: () => void;
  /** Ends the server's stdin (it shuts down and saves its index cache) without waiting. */
  endInput: () => void;
  close: () => Promise<void>;
}

export interface SpawnOptions {
  store: string;
  cwd: string;
  env?: Record<string, string>;
}

export async function spawnServer(opts: SpawnOptions): Promise<Proc> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'CLAUDE_PROJECT_DIR' && k !== 'NODE_OPTIONS') env[k] = v;
  Object.assign(env, { CAIRN_DIR: opts.store, HOME: opts.store, CAIRN_CODE_CACHE: TEST_CODE_CACHE }, opts.env ?? {});
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUNDLE], cwd: opts.cwd, env, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => {
    if (err.length < 1_000_000) err += d.toString();
  });
  let closed = false;
  let onExit!: () => void;
  const exited = new Promise<void>((r) => (onExit = r));
  transport.onclose = () => {
    closed = true;
    onExit();
  };
  const client = new Client({ name: 'cairn-reliability', version: '0.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  const call = (name: string, args: unknown = {}, timeoutMs = 30_000) =>
    client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, { timeout: timeoutMs }) as Promise<CallToolResult>;
  return {
    pid,
    client,
    stderr: () => err,
    call,
    async ok(name, args = {}) {
      const r = await call(name, args);
      if (r.isError) throw new Error(`${name} ${JSON.stringify(args).slice(0, 200)} failed: ${textOf(r)}`);
      return r.structuredContent as Record<string, any>;
    },
    alive: () => !closed,
    exited,
    kill: () => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    },
    endInput: () => (transport as unknown as { _process?: { stdin?: { end: () => void } } })._process?.stdin?.end(),
    close: async () => {
      await client.close().catch(() => {});
      await exited;
    },
  };
}

export function textOf(r: CallToolResult): string {
  const c = r.content?.[0];
  return c && c.type === 'text' ? c.text : JSON.stringify(r.content);
}

/** Every page of memory_list / memory_list_tombstones. */
export async function allPages(p: Proc, tool: 'memory_list' | 'memory_list_tombstones', args: Record<string, unknown> = {}) {
  const items: Record<string, any>[] = [];
  let cursor: string | undefined;
  do {
    const page = await p.ok(tool, { ...args, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return items;
}

// ---- the store on disk ---------------------------------------------------------------------

/** Every file under `dir` (dotfiles included), relative path -> sha256; symlinks by target, FIFOs etc. by kind. */
export function hashTree(dir: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(dir, p);
      if (skip(rel)) continue;
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.set(rel, createHash('sha256').update(readFileSync(p)).digest('hex'));
      else out.set(rel, st.isSymbolicLink() ? `symlink:${readlinkSync(p)}` : 'special'); // never read a FIFO: it blocks
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

export function diffTrees(a: Map<string, string>, b: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of a) if (!b.has(k)) out.push(`removed ${k}`);
  else if (b.get(k) !== v) out.push(`changed ${k}`);
  for (const k of b.keys()) if (!a.has(k)) out.push(`added ${k}`);
  return out;
}
