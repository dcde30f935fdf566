// npm run bench: performance at several store sizes plus the judged retrieval-quality eval.
//   BENCH_SIZES=1000,10000   limit the sizes (default: in-process 1k,10k,50k,100k,200k;
//                            outside-in 1k,50k,200k)
//   BENCH_ONLY=quality|perf|outside|inproc|semantic|ui|sync|team|embed|health   run one part (perf = outside + inproc + semantic)
//   BENCH_HEALTH_SIZES=3000,20000, BENCH_CLI_N=20000, BENCH_HEALTH_RUNS=3   the health/CLI part (bench/health.ts)
//   BENCH_TEAM_SIZE=1000     memories in each of the personal and the team store (bench/team.ts)
//   BENCH_SYNC_BASE=10000, BENCH_SYNC_CHANGED=1000   the sync part (bench/sync.ts): store size, changed memories
//   BENCH_SEMANTIC_SIZES=50000,100000   sizes of the semantic-leg part (bench/semantic.ts: each
//                            figure with and without the semantic leg)
//   CAIRN_BENCH_1M=1         outside-in also at 1,000,000 memories
//   BENCH_LIST_N=20000       store size for the outside-in `cairn list --all` (0 skips it)
//   BENCH_UI_SIZES=50000     store sizes of the `cairn ui` part (bench/ui.ts; BENCH_ONLY=ui runs only it)
// Prints tables and writes bench/results/bench-<time>.json (gitignored).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Cairn } from '../server/src/core/cairn.ts';
import { CorpusGen, writeCorpus } from './corpus.ts';
import { formatEval, runEval } from './quality/eval.ts';
import { startServer, BUNDLE } from './stdio.ts';
import { benchList, benchOutside, outsideTable, outsideTargets, type OutsideRow } from './outside.ts';
import { benchUi, uiTable, type UiRow } from './ui.ts';
import { benchCli, benchHealth, cliTable, healthTable, type HealthRow } from './health.ts';
import { benchSync, syncTable } from './sync.ts';
import { benchTeam, teamTable } from './team.ts';
import { benchSemantic, semanticTable, type SemanticRow } from './semantic.ts';
import { benchLinks, linksLine, writeLinking, type LinksRow } from './links.ts';
import { benchSteady, steadyTable, type SteadyRow } from './steady.ts';
import { benchEmbed } from './embed.ts';

const sizes = (dflt: string) => (process.env.BENCH_SIZES ?? dflt).split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
const SIZES = sizes('1000,10000,50000,100000,200000');
const OUTSIDE_SIZES = sizes('1000,50000,200000');
if (process.env.CAIRN_BENCH_1M === '1' && !OUTSIDE_SIZES.includes(1_000_000)) OUTSIDE_SIZES.push(1_000_000);
const LIST_N = Number(process.env.BENCH_LIST_N ?? 20000);
const ONLY = process.env.BENCH_ONLY ?? '';
const STDIO_QUERIES = 300;
const INPROC_QUERIES = 2000;
const WRITES = 100;

interface Row {
  memories: number;
  diskMb: number;
  cacheMb: number;
  coldNoCacheMs: number;
  coldCacheMs: number;
  indexP50Us: number;
  indexP95Us: number;
  opP50Ms: number;
  opP95Ms: number;
  stdioP50Ms: number;
  stdioP95Ms: number;
  writeP50Ms: number;
  writeP95Ms: number;
  rssNoCacheMb: number;
  rssCacheMb: number;
  links: LinksRow;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : statSync(p).blocks * 512;
  }
  return n;
}

async function coldStart(store: string, cwd: string, query: string) {
  const t0 = performance.now();
  const s = await startServer(store, cwd);
  await s.search(query);
  return { ms: performance.now() - t0, s };
}

async function benchSize(n: number): Promise<Row> {
  const root = mkdtempSync(join(tmpdir(), `cairn-bench-${n}-`));
  const store = join(root, 'store');
  try {
    const tg = performance.now();
    writeCorpus(store, n);
    process.stderr.write(`  ${n}: corpus written in ${((performance.now() - tg) / 1000).toFixed(1)} s\n`);
    const diskMb = dirBytes(store) / 1e6;
    const g = new CorpusGen(99);
    const queries = Array.from({ length: Math.max(STDIO_QUERIES, INPROC_QUERIES) }, () => g.query());

    // Cold start without a cache. The server then writes the cache in the background; wait for
    // it, so the latency below is the steady state, not the first seconds of a fresh store.
    const cold = await coldStart(store, root, queries[0]!);
    const cacheFile = join(store, '.cache', 'search-index.bin');
    for (let i = 0; i < 600 && !existsSync(cacheFile); i++) await new Promise((r) => setTimeout(r, 100));
    if (!existsSync(cacheFile)) throw new Error(`the server wrote no index cache within a minute: ${cold.s.stderr()}`);
    const stdio: number[] = [];
    for (const q of queries.slice(0, STDIO_QUERIES)) {
      const t = performance.now();
      await cold.s.search(q);
      stdio.push(performance.now() - t);
    }
    const rssNoCacheMb = cold.s.peakRssMb();
    await cold.s.close();
    const cacheMb = statSync(cacheFile).size / 1e6;

    const warm = await coldStart(store, root, queries[1]!);
    const rssCacheMb = warm.s.peakRssMb();
    if (/cache ignored/.test(warm.s.stderr())) throw new Error(`cache was not reused: ${warm.s.stderr()}`);
    await warm.s.close();

    // In-process: the engine alone, the whole memory_search operation, durable writes.
    const c = await Cairn.open({ dir: store, cwd: root, env: { HOME: root }, watch: true, warn: () => {} });
    const live = c.index.live!;
    const idx: number[] = [];
    const op: number[] = [];
    for (const q of queries.slice(0, INPROC_QUERIES)) {
      let t = performance.now();
      live.index.search(q, { limit: 5 });
      idx.push((performance.now() - t) * 1000);
      t = performance.now();
      await c.search({ query: q, auto_scope: false });
      op.push(performance.now() - t);
    }
    const writes: number[] = [];
    for (let i = 0; i < WRITES; i++) {
      const content = `${g.body()} Bench marker w${i}x${n}.`;
      const t = performance.now();
      const r = await c.write({ content, scopes: ['tools'], acknowledge_transient: true });
      writes.push(performance.now() - t);
      if (r.status !== 'committed') throw new Error(`bench write ${i} was ${r.status}`);
    }
    const ids = [...c.store.active()].map((m) => m.id);
    await c.close();

    // The link graph: 1% of the memories link two others; show and related, steady and after writes.
    const linking = Math.max(10, Math.floor(n / 100));
    writeLinking(store, ids, linking);
    const cl = await Cairn.open({ dir: store, cwd: root, env: { HOME: root }, watch: true, warn: () => {} });
    const links = await benchLinks(cl, ids, linking);
    await cl.close();

    return {
      memories: n,
      diskMb,
      cacheMb,
      coldNoCacheMs: cold.ms,
      coldCacheMs: warm.ms,
      indexP50Us: pct(idx, 50),
      indexP95Us: pct(idx, 95),
      opP50Ms: pct(op, 50),
      opP95Ms: pct(op, 95),
      stdioP50Ms: pct(stdio, 50),
      stdioP95Ms: pct(stdio, 95),
      writeP50Ms: pct(writes, 50),
      writeP95Ms: pct(writes, 95),
      rssNoCacheMb,
      rssCacheMb,
      links,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function table(rows: Row[]): string {
  const head = ['memories', 'disk MB', 'cache MB', 'cold start (no cache)', 'cold start (cache)', 'engine p50/p95', 'search op p50/p95', 'stdio p50/p95', 'write p50/p95', 'peak RSS no cache/cache'];
  const f = (x: number, d = 2) => x.toFixed(d);
  const body = rows.map((r) => [
    r.memories.toLocaleString('en-US'),
    f(r.diskMb, 1),
    f(r.cacheMb, 1),
    `${f(r.coldNoCacheMs / 1000)} s`,
    `${f(r.coldCacheMs / 1000)} s`,
    `${f(r.indexP50Us, 0)} / ${f(r.indexP95Us, 0)} µs`,
    `${f(r.opP50Ms)} / ${f(r.opP95Ms)} ms`,
    `${f(r.stdioP50Ms)} / ${f(r.stdioP95Ms)} ms`,
    `${f(r.writeP50Ms)} / ${f(r.writeP95Ms)} ms`,
    `${f(r.rssNoCacheMb, 0)} / ${f(r.rssCacheMb, 0)} MB`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

// The parts below measure the built-in table (the fast mode) unless told otherwise: the local
// model's own costs are bench/embed.ts's part (it asks for the model explicitly).
process.env.CAIRN_EMBED_PROVIDER ??= 'builtin';

async function main(): Promise<void> {
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform}`;
  const out: Record<string, unknown> = { machine, date: new Date().toISOString() };
  if (ONLY === '' || ONLY === 'quality') {
    const q = runEval();
    console.log(formatEval(q));
    out.quality = q;
  }
  if (ONLY === '' || ONLY === 'embed') {
    // the local transformer embedder's costs (bench/embed.ts; BENCH_EMBED_SIZES for outside-in)
    console.log(`\n${await benchEmbed()}`);
  }

  if (ONLY === '' || ONLY === 'ui') {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build first (npm run bench does)`);
    const rows: UiRow[] = [];
    for (const n of (process.env.BENCH_UI_SIZES ?? '50000').split(',').map(Number).filter((x) => x > 0)) {
      process.stderr.write(`bench: cairn ui at ${n} memories...\n`);
      rows.push(...(await benchUi(n)));
    }
    console.log('\ncairn ui (targets: server time per page <= 50 ms at 50k; search-as-you-type round trip <= 30 ms)');
    console.log(uiTable(rows));
    out.ui = rows;
  }
  if (ONLY === '' || ONLY === 'sync') {
    if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build first (npm run bench does)`);
    const base = Number(process.env.BENCH_SYNC_BASE ?? 10000);
    const changed = Number(process.env.BENCH_SYNC_CHANGED ?? 1000);
    process.stderr.write(`bench: sync, ${changed} changed of ${base} memories...\n`);
    const rows = await benchSync(base, changed);
    console.log(`\ncairn sync through the bundle, bare repository on local disk (target: 1,000 changed memories in a few seconds)`);
    console.log(syncTable(rows));
    out.sync = rows;
  }
  if (ONLY === '' || ONLY === 'team') {
    const n = Number(process.env.BENCH_TEAM_SIZE ?? 1000);
    process.stderr.write(`bench: team store, ${n} + ${n} memories...\n`);
    const rows = await benchTeam(n);
    console.log(`\nteam store beside the personal one, in process (target: no measurable cost without .cairn/)`);
    console.log(teamTable(rows));
    out.team = rows;
  }
  if (ONLY !== 'quality' && !existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build first (npm run bench does)`);
  if (ONLY === '' || ONLY === 'health') {
    const rows: HealthRow[] = [];
    for (const n of (process.env.BENCH_HEALTH_SIZES ?? '3000,20000').split(',').map(Number).filter((x) => x > 0)) {
      process.stderr.write(`bench: memory_health, ${n} look-alike memories...\n`);
      rows.push(...(await benchHealth(n)));
    }
    console.log('\nmemory_health on look-alike stores (targets: 3,000 <= 2 s with a search meanwhile <= 200 ms; 20,000 <= 5 s over MCP and the CLI)');
    console.log(healthTable(rows));
    const cliN = Number(process.env.BENCH_CLI_N ?? 20000);
    const cli = cliN > 0 ? await benchCli(cliN) : [];
    if (cli.length) console.log(`\n${cliTable(cliN, cli)}\n(targets: list --all <= 1.5 s, doctor <= 3 s, overview <= 1 s, the hook <= 0.3 s)`);
    out.health = { rows, cli };
  }
  if (ONLY === '' || ONLY === 'perf' || ONLY === 'outside') {
    const rows: OutsideRow[] = [];
    for (const n of OUTSIDE_SIZES) {
      process.stderr.write(`bench: outside-in, ${n} memories...\n`);
      rows.push(await benchOutside(n));
    }
    console.log(`\nOutside-in: the built bundle as a client and a terminal see it (${machine})`);
    console.log(outsideTable(rows));
    console.log(`targets:\n${outsideTargets(rows)}`);
    out.outside = rows;
    if (LIST_N > 0) {
      const l = await benchList(LIST_N);
      console.log(`cairn list --all, ${l.memories.toLocaleString('en-US')} memories: ${(l.firstMs / 1000).toFixed(2)} s without a cache, ${(l.laterMs / 1000).toFixed(2)} s with it, peak RSS ${l.rssMb.toFixed(0)} MB`);
      out.list = l;
    }
  }
  if (ONLY === '' || ONLY === 'perf' || ONLY === 'inproc') {
    const rows: Row[] = [];
    for (const n of SIZES) {
      process.stderr.write(`bench: in-process, ${n} memories...\n`);
      rows.push(await benchSize(n));
    }
    console.log(`\nIn-process and bench corpus (the engine, the op, durable writes through Cairn.write) (${machine})`);
    console.log(table(rows));
    for (const r of rows) console.log(linksLine(r.links));
    out.performance = rows;
  }
  if (ONLY === '' || ONLY === 'perf' || ONLY === 'semantic') {
    const rows: SemanticRow[] = [];
    for (const n of (process.env.BENCH_SEMANTIC_SIZES ?? '50000,100000').split(',').map(Number).filter((x) => x > 0)) {
      process.stderr.write(`bench: semantic leg, ${n} memories...\n`);
      rows.push(...(await benchSemantic(n)));
    }
    console.log(`\nThe semantic leg: each store measured lexical-only ([embed] enabled = false) and with the built-in embedder; (x %) = change against lexical-only (${machine})`);
    console.log(semanticTable(rows));
    out.semantic = rows;
  }
  if (ONLY === '' || ONLY === 'perf' || ONLY === 'steady') {
    const rows: SteadyRow[] = [];
    for (const n of (process.env.BENCH_STEADY_SIZES ?? '1000,50000,200000').split(',').map(Number).filter((x) => x > 0)) {
      process.stderr.write(`bench: steady state, ${n} memories...\n`);
      rows.push(await benchSteady(n));
      console.log(`\nSteady state with the semantic leg on (up and idle, caches saved, every memory embedded): stdio client-side and in-process, against the targets; "load" = 1-minute load average (${machine})`);
      console.log(steadyTable(rows));
    }
    out.steady = rows;
  }
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, dir);
  writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  console.log(`\nwrote ${file.pathname}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
