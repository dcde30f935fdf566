// The health and CLI part of `npm run bench` (BENCH_ONLY=health runs only it; also alone:
// `node --import tsx bench/health.ts`). Outside-in like bench/outside.ts: the stores are written
// by plain scripts (bench/lookalike.ts, bench/outside.ts's generator), cairn runs as the built
// bundle, and every figure is timed by the client.
//
// 1. memory_health over stdio on a look-alike store (BENCH_HEALTH_SIZES, default 3000,20000;
//    empty skips it): the server is started and answers a first search (timed: the search right
//    after a start), then memory_health is sent and, 100 ms later, a memory_search; both are
//    timed from their own send. Then `cairn health` from the CLI. The server runs with the
//    plugin's environment (the default embedder, the local model: it embeds a store it has not
//    seen in the background) unless BENCH_HEALTH_PROVIDER names another (builtin).
// 2. The CLI at BENCH_CLI_N (default 20000) memories of the outside-in corpus, with a cache:
//    `cairn list --all`, `cairn doctor`, `cairn overview`, `cairn overview --hook`.
// memory_health is reported for the first run (the store has no vectors and no consolidation
// cache yet) and as the median of the later ones (BENCH_HEALTH_RUNS, default 3, in all); the CLI
// figures are medians of all runs. The 1-minute load average is printed beside them.
// BENCH_BUNDLE=<path> measures another build of cairn.mjs the same way.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateLookalikes } from './lookalike.ts';
import { BUNDLE, generateStore, PLUGIN_SERVER_ENV, render } from './outside.ts';

const RUNS = Number(process.env.BENCH_HEALTH_RUNS ?? 3);
const HEALTH_SIZES = (process.env.BENCH_HEALTH_SIZES ?? '3000,20000').split(',').map(Number).filter((n) => n > 0);
const CLI_N = Number(process.env.BENCH_CLI_N ?? 20000);
const TIMEOUT = 600_000;
/** Another build to measure the same way (a main checkout's bundle, for before/after figures). */
const BIN = process.env.BENCH_BUNDLE ?? BUNDLE;
const PROVIDER: Record<string, string> = process.env.BENCH_HEALTH_PROVIDER ? { CAIRN_EMBED_PROVIDER: process.env.BENCH_HEALTH_PROVIDER } : {};

/** CPU time (user + system) a process has used so far, ms (Linux): what a wall time means on a loaded machine. */
function cpuMs(pid: number | null | undefined): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

/** CPU time of a process's main thread alone, ms (/proc/<pid>/task/<pid>/stat): the event loop's share, without the worker threads'. */
function mainThreadCpuMs(pid: number | null | undefined): number {
  try {
    const f = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

/** CPU time of this process's waited-for children, ms (/proc/self/stat cutime + cstime). */
function childCpuMs(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(2);

function env(store: string, home: string): Record<string, string> {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('CAIRN_') && k !== 'CLAUDE_PROJECT_DIR') e[k] = v;
  return { ...e, CAIRN_DIR: store, HOME: home };
}

/** Runs the CLI to its end: wall time, and CPU time (the children's rusage before and after: runs are sequential). */
export async function cli(args: string[], store: string, home: string, okCodes: number[] = [0]): Promise<{ ms: number; cpuMs: number; out: string; err: string }> {
  const r0 = childCpuMs();
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: home, env: env(store, home), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (okCodes.includes(code ?? -1) ? resolve({ ms: performance.now() - t0, cpuMs: childCpuMs() - r0, out, err }) : reject(new Error(`cairn ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

/** memory_health over stdio with a search sent 100 ms into it; both timed from their own send. */
export interface StdioRun {
  healthMs: number;
  healthCpuMs: number;
  healthMainCpuMs: number;
  searchMs: number;
  /** the first search, sent once the server answered initialize */
  firstSearchMs: number;
  groups: number;
  load: string;
}
export async function healthOverStdio(store: string, home: string): Promise<StdioRun> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN], cwd: home, env: { ...env(store, home), ...PLUGIN_SERVER_ENV, ...PROVIDER }, stderr: 'pipe' });
  const client = new Client({ name: 'cairn-bench-health', version: '0.0.0' });
  await client.connect(transport, { timeout: TIMEOUT });
  try {
    const ts = performance.now();
    await client.callTool({ name: 'memory_search', arguments: { query: 'deploy migrations', auto_scope: false } }, undefined, { timeout: TIMEOUT });
    const firstSearchMs = performance.now() - ts;
    const cpu0 = cpuMs(transport.pid);
    const main0 = mainThreadCpuMs(transport.pid);
    const t0 = performance.now();
    let healthMs = 0;
    let healthCpuMs = NaN;
    let healthMainCpuMs = NaN;
    let groups = -1;
    const h = client.callTool({ name: 'memory_health', arguments: {} }, undefined, { timeout: TIMEOUT }).then((r) => {
      healthMs = performance.now() - t0;
      healthCpuMs = cpuMs(transport.pid) - cpu0;
      healthMainCpuMs = mainThreadCpuMs(transport.pid) - main0;
      if (r.isError) throw new Error(`memory_health failed: ${JSON.stringify(r.content)}`);
      groups = (r.structuredContent as { consolidation?: { groups: number } } | undefined)?.consolidation?.groups ?? -1;
    });
    await new Promise((r) => setTimeout(r, 100));
    const t1 = performance.now();
    const s = await client.callTool({ name: 'memory_search', arguments: { query: 'redis cache minutes', auto_scope: false } }, undefined, { timeout: TIMEOUT });
    const searchMs = performance.now() - t1;
    if (s.isError) throw new Error(`memory_search failed: ${JSON.stringify(s.content)}`);
    await h;
    return { healthMs, healthCpuMs, healthMainCpuMs, searchMs, firstSearchMs, groups, load: load() };
  } finally {
    const pid = transport.pid;
    await client.close();
    // Reaped before the next command runs: its CPU time must not count as the CLI's (childCpuMs).
    for (let i = 0; pid && existsSync(`/proc/${pid}`) && i < 500; i++) await new Promise((r) => setTimeout(r, 20));
  }
}

export interface HealthRow {
  memories: number;
  /** 'first' (no vectors, no consolidation cache yet) or the median of the later runs */
  run: 'first' | 'later';
  healthMs: number;
  /** the server's CPU time during the call (the search's included), all threads (the embedding model's worker too) */
  healthCpuMs: number;
  /** of it, the main thread's (the event loop's) */
  healthMainCpuMs: number;
  searchMs: number;
  firstSearchMs: number;
  cliHealthMs: number;
  cliHealthCpuMs: number;
  groups: number;
  load: string;
}

export async function benchHealth(n: number): Promise<HealthRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'cairn-bench-health-'));
  try {
    const store = join(root, 'store');
    generateLookalikes(store, n);
    // A first CLI read builds the cache the server and the later runs use.
    await cli(['list', '--limit', '1'], store, root);
    const mcp: StdioRun[] = [];
    const runs: { ms: number; cpuMs: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      mcp.push(await healthOverStdio(store, root));
      runs.push(await cli(['health'], store, root));
    }
    const row = (run: HealthRow['run'], of: StdioRun[]): HealthRow => ({
      memories: n,
      run,
      healthMs: median(of.map((r) => r.healthMs)),
      healthCpuMs: median(of.map((r) => r.healthCpuMs)),
      healthMainCpuMs: median(of.map((r) => r.healthMainCpuMs)),
      searchMs: median(of.map((r) => r.searchMs)),
      firstSearchMs: median(of.map((r) => r.firstSearchMs)),
      cliHealthMs: median(runs.map((r) => r.ms)),
      cliHealthCpuMs: median(runs.map((r) => r.cpuMs)),
      groups: of[0]!.groups,
      load: of.length === 1 ? of[0]!.load : load(),
    });
    return mcp.length > 1 ? [row('first', mcp.slice(0, 1)), row('later', mcp.slice(1))] : [row('first', mcp)];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export interface CliRow {
  command: string;
  firstMs: number;
  medianMs: number;
  cpuMs: number;
  load: string;
}

export async function benchCli(n: number): Promise<CliRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'cairn-bench-cli-'));
  try {
    const store = join(root, 'store');
    generateStore(store, n);
    await cli(['list', '--limit', '1'], store, root); // the cache
    const rows: CliRow[] = [];
    for (const args of [['list', '--all'], ['doctor'], ['overview'], ['overview', '--hook']]) {
      const runs: { ms: number; cpuMs: number }[] = [];
      // doctor exits 1 on warnings (no client registered in this empty home): a finished run all the same.
      for (let i = 0; i < RUNS; i++) runs.push(await cli(args, store, root, args[0] === 'doctor' ? [0, 1] : [0]));
      rows.push({ command: `cairn ${args.join(' ')}`, firstMs: runs[0]!.ms, medianMs: median(runs.map((r) => r.ms)), cpuMs: median(runs.map((r) => r.cpuMs)), load: load() });
    }
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function healthTable(rows: HealthRow[]): string {
  return render(
    ['look-alike memories', 'run', 'memory_health (stdio)', 'its CPU: all threads / main', 'search meanwhile', 'first search after start', 'cairn health (median of all)', 'its CPU', 'groups', 'load'],
    rows.map((r) => [
      r.memories.toLocaleString('en-US'),
      r.run === 'first' ? 'first' : 'median of later',
      `${(r.healthMs / 1000).toFixed(2)} s`,
      `${(r.healthCpuMs / 1000).toFixed(2)} s / ${(r.healthMainCpuMs / 1000).toFixed(2)} s`,
      `${r.searchMs.toFixed(0)} ms`,
      `${r.firstSearchMs.toFixed(0)} ms`,
      `${(r.cliHealthMs / 1000).toFixed(2)} s`,
      `${(r.cliHealthCpuMs / 1000).toFixed(2)} s`,
      String(r.groups),
      r.load,
    ]),
  );
}

export function cliTable(n: number, rows: CliRow[]): string {
  return render(
    [`CLI at ${n.toLocaleString('en-US')} memories, cache present`, 'first', 'median', 'CPU (median)', 'load'],
    rows.map((r) => [r.command, `${(r.firstMs / 1000).toFixed(2)} s`, `${(r.medianMs / 1000).toFixed(2)} s`, `${(r.cpuMs / 1000).toFixed(2)} s`, r.load]),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows: HealthRow[] = [];
  for (const n of HEALTH_SIZES) rows.push(...(await benchHealth(n)));
  if (rows.length > 0) console.log(healthTable(rows));
  if (CLI_N > 0) console.log(cliTable(CLI_N, await benchCli(CLI_N)));
}
