// Steady state, with the semantic leg on: what a client sees once the server has been up a while
// (its caches saved, every memory embedded, a few idle seconds), and the same operations in
// process. Stores are written by the outside-in generator (outside.ts: the documented format,
// written by a plain script). Start-up and writes right after a start are outside.ts's business.
//
// Per size:
//   stdio: the built bundle spawned by the SDK client; after the first answer it waits for
//     .cache/search-index.bin and .cache/vectors.bin, then until the server's CPU is idle, then
//     3 s more; then ping (the transport's
//     floor), 200 memory_search and 50 memory_write (new facts), timed client-side.
//   in-process: Cairn.open with the leg complete; 2,000 memory_search ops; the vector search
//     alone (approximate p50, recall@10 and @20 against exact search over the same vectors, 300
//     queries); 100 memory_write ops with their CPU time; the disk's fsync floor (a 600-byte
//     file: write, fsync, rename, fsync of the directory), since every write pays it.
// Targets (issues 10 and 12) are printed as pass/fail beside each figure.
//
//   BENCH_STEADY_SIZES=1000,50000,200000   sizes (default)
import { closeSync, existsSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Cairn } from '../server/src/core/cairn.ts';
import { CorpusGen } from './corpus.ts';
import { Generator, generateStore, render } from './outside.ts';
import { BUNDLE } from './stdio.ts';

const STDIO_SEARCHES = 200;
const STDIO_WRITES = 50;
const OP_SEARCHES = 2000;
const OP_WRITES = 100;
const VECTOR_QUERIES = 300;

export interface SteadyRow {
  memories: number;
  load: number;
  pingP50Ms: number;
  stdioSearchP50Ms: number;
  stdioSearchP95Ms: number;
  /** the server process's CPU time per search over stdio (from /proc, 10 ms ticks over 200 searches) */
  stdioServerCpuMs: number;
  stdioWriteP50Ms: number;
  stdioWriteP95Ms: number;
  opSearchP50Ms: number;
  opSearchP95Ms: number;
  /** CPU time (user + system) of one search op, mean (cpuUsage counts in coarse ticks on some kernels): what the wall time means on a loaded machine */
  opSearchCpuMeanMs: number;
  annP50Ms: number;
  exactP50Ms: number;
  recallAt10: number;
  recallAt20: number;
  opWriteP50Ms: number;
  opWriteP95Ms: number;
  opWriteCpuP50Ms: number;
  fsyncFloorP50Ms: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** CPU time (user + system) a process has used so far, ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

function childEnv(store: string, home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'CLAUDE_PROJECT_DIR' && !k.startsWith('CAIRN_')) env[k] = v;
  return Object.assign(env, { CAIRN_DIR: store, HOME: home });
}

async function stdioPart(store: string, home: string, n: number, g: Generator) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUNDLE], cwd: home, env: childEnv(store, home), stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'cairn-bench-steady', version: '0.0.0' });
  await client.connect(transport);
  try {
    const search = async (q: string) => {
      const r = await client.callTool({ name: 'memory_search', arguments: { query: q, auto_scope: false } });
      if (r.isError) throw new Error(`search failed: ${JSON.stringify(r.content)}`);
    };
    await search('warm up');
    const idx = join(store, '.cache', 'search-index.bin');
    const vec = join(store, '.cache', 'vectors.bin');
    for (let i = 0; i < 12_000 && !(existsSync(idx) && existsSync(vec)); i++) await sleep(100);
    if (!existsSync(vec)) throw new Error(`no vector cache after 20 minutes: ${err}`);
    // Idle: the server's CPU time grows by less than 2 % of a core over 2 s (the saves, the
    // last background checks and the garbage of the first load are over), then 3 s more.
    const pid = transport.pid ?? 0;
    for (let i = 0; i < 60; i++) {
      const c0 = cpuMs(pid);
      await sleep(2000);
      if (!(cpuMs(pid) - c0 > 40)) break;
    }
    await sleep(3000);
    const ping: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      await client.ping();
      ping.push(performance.now() - t);
    }
    const searches: number[] = [];
    const cpu0 = cpuMs(pid);
    for (let i = 0; i < STDIO_SEARCHES; i++) {
      const q = g.query();
      const t = performance.now();
      await search(q);
      searches.push(performance.now() - t);
    }
    const serverCpuPerSearch = (cpuMs(pid) - cpu0) / STDIO_SEARCHES;
    const writes: number[] = [];
    for (let i = 0; i < STDIO_WRITES; i++) {
      const content = `Steady note ${n}-${i}: ${g.body()} Marker zs${i}x${n}.`;
      const t = performance.now();
      // No force: every write runs the whole gate path (near-duplicates, semantic neighbours, removed facts).
      const r = await client.callTool({ name: 'memory_write', arguments: { content, scopes: ['tools'], acknowledge_transient: true } });
      writes.push(performance.now() - t);
      if (r.isError) throw new Error(`write ${i}: ${JSON.stringify(r.content)}`);
    }
    return { ping, searches, writes, serverCpuPerSearch };
  } finally {
    await client.close();
  }
}

function fsyncFloor(dir: string): number[] {
  const out: number[] = [];
  const body = 'x'.repeat(600);
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    const tmp = join(dir, `.floor-${i}.tmp`);
    const fd = openSync(tmp, 'wx', 0o600);
    writeSync(fd, body);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, join(dir, `floor-${i}.txt`));
    const d = openSync(dir, 'r');
    fsyncSync(d);
    closeSync(d);
    out.push(performance.now() - t);
  }
  return out;
}

async function inProcess(store: string, home: string, n: number, g: Generator) {
  const c = await Cairn.open({ dir: store, cwd: home, env: { HOME: home }, watch: true, warn: () => {} });
  try {
    const leg = c.index.semantic;
    if (!leg) throw new Error('no semantic leg');
    await leg.ready();
    await leg.settle();
    if (!leg.index || !leg.complete) throw new Error('the semantic leg is not complete in-process');
    await sleep(1000);
    const qg = new CorpusGen(99);
    const queries = Array.from({ length: OP_SEARCHES }, (_, i) => (i % 2 ? g.query() : qg.query()));
    const op: number[] = [];
    const opCpu: number[] = [];
    for (const q of queries) {
      const c0 = process.cpuUsage();
      const t = performance.now();
      await c.search({ query: q, auto_scope: false });
      op.push(performance.now() - t);
      const d = process.cpuUsage(c0);
      opCpu.push((d.user + d.system) / 1000);
    }
    const ix = leg.index;
    const ann: number[] = [];
    const exact: number[] = [];
    let r10 = 0;
    let r20 = 0;
    for (const q of queries.slice(0, VECTOR_QUERIES)) {
      const qv = (await leg.queryVector(q))!.q;
      let t = performance.now();
      const a = ix.search(qv, 10);
      ann.push(performance.now() - t);
      t = performance.now();
      const e = ix.searchExact(qv, 10);
      exact.push(performance.now() - t);
      const want = new Set(e.map((h) => h.doc.id));
      r10 += a.filter((h) => want.has(h.doc.id)).length / Math.max(1, want.size);
      const want20 = new Set(ix.searchExact(qv, 20).map((h) => h.doc.id));
      r20 += ix.search(qv, 20).filter((h) => want20.has(h.doc.id)).length / Math.max(1, want20.size);
    }
    const writes: number[] = [];
    const cpu: number[] = [];
    let notCommitted = 0;
    for (let i = 0; i < OP_WRITES; i++) {
      const content = `In-process note ${n}-${i}: ${g.body()} Marker zi${i}x${n}.`;
      const c0 = process.cpuUsage();
      const t = performance.now();
      const r = await c.write({ content, scopes: ['tools'], acknowledge_transient: true });
      writes.push(performance.now() - t);
      const d = process.cpuUsage(c0);
      cpu.push((d.user + d.system) / 1000);
      if (r.status !== 'committed') notCommitted++;
    }
    if (notCommitted > OP_WRITES / 10) throw new Error(`${notCommitted} of ${OP_WRITES} bench writes were not committed`);
    return { op, opCpu, ann, exact, recallAt10: r10 / VECTOR_QUERIES, recallAt20: r20 / VECTOR_QUERIES, writes, cpu };
  } finally {
    await c.close();
  }
}

export async function benchSteady(n: number): Promise<SteadyRow> {
  const root = mkdtempSync(join(tmpdir(), `cairn-steady-${n}-`));
  const store = join(root, 'store');
  const home = join(root, 'home');
  mkdirSync(home);
  const log = (m: string) => process.stderr.write(`  steady ${n}: ${m}\n`);
  try {
    generateStore(store, n);
    log('store generated');
    const g = new Generator(11);
    const s = await stdioPart(store, home, n, g);
    log(`stdio search p50 ${pct(s.searches, 50).toFixed(2)} ms, write p50 ${pct(s.writes, 50).toFixed(2)} ms`);
    const load = loadavg()[0]!;
    const p = await inProcess(store, home, n, g);
    const floorDir = join(root, 'floor');
    mkdirSync(floorDir);
    const floor = fsyncFloor(floorDir);
    return {
      memories: n,
      load: Math.max(load, loadavg()[0]!),
      pingP50Ms: pct(s.ping, 50),
      stdioSearchP50Ms: pct(s.searches, 50),
      stdioSearchP95Ms: pct(s.searches, 95),
      stdioServerCpuMs: s.serverCpuPerSearch,
      stdioWriteP50Ms: pct(s.writes, 50),
      stdioWriteP95Ms: pct(s.writes, 95),
      opSearchP50Ms: pct(p.op, 50),
      opSearchP95Ms: pct(p.op, 95),
      opSearchCpuMeanMs: p.opCpu.reduce((a, b) => a + b, 0) / p.opCpu.length,
      annP50Ms: pct(p.ann, 50),
      exactP50Ms: pct(p.exact, 50),
      recallAt10: p.recallAt10,
      recallAt20: p.recallAt20,
      opWriteP50Ms: pct(p.writes, 50),
      opWriteP95Ms: pct(p.writes, 95),
      opWriteCpuP50Ms: pct(p.cpu, 50),
      fsyncFloorP50Ms: pct(floor, 50),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
/** "1.23 ms ✓" / "✗" against a ceiling, or the bare figure where no target applies. */
const vs = (x: number, max: number | null, d = 2, unit = ' ms') => `${f(x, d)}${unit}${max === null ? '' : x <= max ? ' pass' : ' FAIL'}`;

export function steadyTable(rows: SteadyRow[]): string {
  const head = ['memories', 'load', 'stdio ping', 'stdio search p50 (<= 1 ms)', 'stdio search p95', 'server CPU per stdio search', 'stdio write p50 (<= 2 ms at 50k, <= 3 ms at 200k)', 'stdio write p95 (<= 10 ms at 50k)', 'search op p50 (<= 0.5 ms at 50k)', 'search op p95', 'search op CPU mean', 'vector search p50 / exact', 'recall@10 (>= 0.95) / @20', 'write op p50 / p95', 'write op CPU p50', 'fsync floor p50'];
  const body = rows.map((r) => {
    const at50 = r.memories === 50_000;
    const writeMax = r.memories === 50_000 ? 2 : r.memories === 200_000 ? 3 : null;
    return [
      r.memories.toLocaleString('en-US'),
      f(r.load, 1),
      `${f(r.pingP50Ms)} ms`,
      vs(r.stdioSearchP50Ms, r.memories <= 200_000 ? 1 : null),
      `${f(r.stdioSearchP95Ms)} ms`,
      `${f(r.stdioServerCpuMs)} ms`,
      vs(r.stdioWriteP50Ms, writeMax),
      vs(r.stdioWriteP95Ms, at50 ? 10 : null),
      vs(r.opSearchP50Ms, at50 ? 0.5 : null),
      `${f(r.opSearchP95Ms)} ms`,
      `${f(r.opSearchCpuMeanMs, 3)} ms`,
      `${f(r.annP50Ms, 3)} / ${f(r.exactP50Ms, 2)} ms`,
      `${r.recallAt10 >= 0.95 ? `${f(r.recallAt10, 3)} pass` : `${f(r.recallAt10, 3)} FAIL`} / ${f(r.recallAt20, 3)}`,
      `${f(r.opWriteP50Ms)} / ${f(r.opWriteP95Ms)} ms`,
      `${f(r.opWriteCpuP50Ms)} ms`,
      `${f(r.fsyncFloorP50Ms)} ms`,
    ];
  });
  return render(head, body);
}
