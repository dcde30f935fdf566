// The semantic leg's cost: the same store measured twice, lexical only (config `[embed] enabled =
// false`) and with the default built-in embedder, so every figure has its lexical-only twin.
//
// Per size and mode: server cold start over stdio without any cache (the first search answers at
// once; vectors are embedded in the background) and with the caches (index + vectors.bin);
// 300 searches over stdio; in-process `memory_search` p50/p95 over 2,000 queries and 100 durable
// writes (with the semantic leg: the write's embedding, the semantic gates, the vector update);
// peak RSS (VmHWM) of both server starts. Semantic mode adds the vector index alone: the
// approximate search's p50 and its recall@10 against exact search over the same vectors, the
// exact search's p50, and embedding a short query.
//
//   BENCH_SEMANTIC_SIZES=50000,100000   sizes (default 50k and 100k)
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cairn } from '../server/src/core/cairn.ts';
import { CorpusGen, writeCorpus } from './corpus.ts';
import { startServer } from './stdio.ts';

const STDIO_QUERIES = 300;
const INPROC_QUERIES = 2000;
const VECTOR_QUERIES = 300;
const WRITES = 100;

export interface SemanticRow {
  memories: number;
  mode: 'lexical' | 'semantic';
  coldNoCacheMs: number;
  coldCacheMs: number;
  /** time until the background embedding had every vector and saved vectors.bin (semantic only) */
  embedAllMs: number;
  opP50Ms: number;
  opP95Ms: number;
  stdioP50Ms: number;
  stdioP95Ms: number;
  writeP50Ms: number;
  writeP95Ms: number;
  rssNoCacheMb: number;
  rssCacheMb: number;
  vectorsMb: number;
  annP50Ms: number;
  exactP50Ms: number;
  recallAt10: number;
  embedP50Ms: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(file: string, seconds: number, what: string, stderr: () => string): Promise<void> {
  for (let i = 0; i < seconds * 10 && !existsSync(file); i++) await sleep(100);
  if (!existsSync(file)) throw new Error(`no ${what} within ${seconds} s: ${stderr()}`);
}

async function runMode(store: string, root: string, n: number, mode: SemanticRow['mode'], queries: string[], g: CorpusGen): Promise<SemanticRow> {
  rmSync(join(store, '.cache'), { recursive: true, force: true });
  writeFileSync(join(store, 'config.toml'), mode === 'lexical' ? '[embed]\nenabled = false\n' : '');
  const indexFile = join(store, '.cache', 'search-index.bin');
  const vectorFile = join(store, '.cache', 'vectors.bin');

  let t0 = performance.now();
  const cold = await startServer(store, root);
  await cold.search(queries[0]!);
  const coldNoCacheMs = performance.now() - t0;
  await waitFor(indexFile, 120, 'index cache', cold.stderr);
  let embedAllMs = NaN;
  if (mode === 'semantic') {
    await waitFor(vectorFile, 900, 'vector cache', cold.stderr);
    embedAllMs = performance.now() - t0;
  }
  const stdio: number[] = [];
  for (const q of queries.slice(0, STDIO_QUERIES)) {
    const t = performance.now();
    await cold.search(q);
    stdio.push(performance.now() - t);
  }
  const rssNoCacheMb = cold.peakRssMb();
  await cold.close();

  t0 = performance.now();
  const warm = await startServer(store, root);
  await warm.search(queries[1]!);
  const coldCacheMs = performance.now() - t0;
  const rssCacheMb = warm.peakRssMb();
  if (/cache ignored/.test(warm.stderr())) throw new Error(`a cache was not reused: ${warm.stderr()}`);
  await warm.close();

  const c = await Cairn.open({ dir: store, cwd: root, env: { HOME: root }, watch: true, warn: () => {} });
  const leg = c.index.semantic;
  if (leg) {
    await leg.ready();
    await leg.settle();
  }
  if (mode === 'semantic' && (!leg || leg.backlog > 0 || !leg.index || leg.index.size < n)) throw new Error('the semantic leg is not complete in-process');
  const op: number[] = [];
  for (const q of queries.slice(0, INPROC_QUERIES)) {
    const t = performance.now();
    await c.search({ query: q, auto_scope: false });
    op.push(performance.now() - t);
  }
  let annP50Ms = NaN;
  let exactP50Ms = NaN;
  let recallAt10 = NaN;
  let embedP50Ms = NaN;
  if (mode === 'semantic' && leg?.index) {
    const ix = leg.index;
    const ann: number[] = [];
    const exact: number[] = [];
    const emb: number[] = [];
    let recall = 0;
    for (const q of queries.slice(0, VECTOR_QUERIES)) {
      let t = performance.now();
      const qv = (await leg.queryVector(q))!.q;
      emb.push(performance.now() - t);
      t = performance.now();
      const a = ix.search(qv, 10);
      ann.push(performance.now() - t);
      t = performance.now();
      const e = ix.searchExact(qv, 10);
      exact.push(performance.now() - t);
      const want = new Set(e.map((h) => h.doc.id));
      recall += a.filter((h) => want.has(h.doc.id)).length / Math.max(1, want.size);
    }
    annP50Ms = pct(ann, 50);
    exactP50Ms = pct(exact, 50);
    recallAt10 = recall / VECTOR_QUERIES;
    embedP50Ms = pct(emb, 50);
  }
  const writes: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const content = `${g.body()} Bench marker ${mode} w${i}x${n}.`;
    const t = performance.now();
    const r = await c.write({ content, scopes: ['tools'], acknowledge_transient: true });
    writes.push(performance.now() - t);
    if (r.status !== 'committed') throw new Error(`bench write ${i} was ${r.status}`);
  }
  await c.close();
  return {
    memories: n,
    mode,
    coldNoCacheMs,
    coldCacheMs,
    embedAllMs,
    opP50Ms: pct(op, 50),
    opP95Ms: pct(op, 95),
    stdioP50Ms: pct(stdio, 50),
    stdioP95Ms: pct(stdio, 95),
    writeP50Ms: pct(writes, 50),
    writeP95Ms: pct(writes, 95),
    rssNoCacheMb,
    rssCacheMb,
    vectorsMb: existsSync(vectorFile) ? statSync(vectorFile).size / 1e6 : 0,
    annP50Ms,
    exactP50Ms,
    recallAt10,
    embedP50Ms,
  };
}

export async function benchSemantic(n: number): Promise<SemanticRow[]> {
  const root = mkdtempSync(join(tmpdir(), `cairn-bench-sem-${n}-`));
  const store = join(root, 'store');
  try {
    writeCorpus(store, n);
    const qg = new CorpusGen(99);
    const queries = Array.from({ length: INPROC_QUERIES }, () => qg.query());
    const g = new CorpusGen(7);
    const out: SemanticRow[] = [];
    for (const mode of ['lexical', 'semantic'] as const) {
      process.stderr.write(`  ${n}: ${mode}...\n`);
      out.push(await runMode(store, root, n, mode, queries, g));
    }
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function semanticTable(rows: SemanticRow[]): string {
  const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '–');
  const rel = (r: SemanticRow, k: keyof SemanticRow) => {
    const base = rows.find((b) => b.memories === r.memories && b.mode === 'lexical');
    if (r.mode === 'lexical' || !base) return '';
    return ` (${(((r[k] as number) / (base[k] as number) - 1) * 100).toFixed(0)} %)`;
  };
  const head = ['memories', 'mode', 'cold start no cache', 'cold start cache', 'search op p50/p95', 'stdio p50/p95', 'write p50/p95', 'peak RSS no cache', 'peak RSS cache', 'all embedded after', 'vectors.bin'];
  const body = rows.map((r) => [
    r.memories.toLocaleString('en-US'),
    r.mode,
    `${f(r.coldNoCacheMs / 1000)} s${rel(r, 'coldNoCacheMs')}`,
    `${f(r.coldCacheMs / 1000)} s${rel(r, 'coldCacheMs')}`,
    `${f(r.opP50Ms)} / ${f(r.opP95Ms)} ms`,
    `${f(r.stdioP50Ms)} / ${f(r.stdioP95Ms)} ms`,
    `${f(r.writeP50Ms)} / ${f(r.writeP95Ms)} ms`,
    `${f(r.rssNoCacheMb, 0)} MB${rel(r, 'rssNoCacheMb')}`,
    `${f(r.rssCacheMb, 0)} MB${rel(r, 'rssCacheMb')}`,
    r.mode === 'semantic' ? `${f(r.embedAllMs / 1000, 1)} s` : '',
    r.mode === 'semantic' ? `${f(r.vectorsMb, 1)} MB` : '',
  ]);
  const vec = rows
    .filter((r) => r.mode === 'semantic')
    .map((r) => `${r.memories.toLocaleString('en-US')}: vector search approximate p50 ${f(r.annP50Ms, 3)} ms (recall@10 vs exact ${f(r.recallAt10, 3)}), exact p50 ${f(r.exactP50Ms, 3)} ms; embedding a query p50 ${f(r.embedP50Ms, 3)} ms`);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line), '', ...vec].join('\n');
}
