// The local transformer embedder's costs (docs/semantic.md), measured on this machine:
//   node --import tsx bench/embed.ts        (after npm run build; BENCH_ONLY=embed in npm run bench)
//   BENCH_EMBED_SIZES=1000,10000            outside-in store sizes (default 1000)
// In process: the model's load time in its worker, ms per query (one text, urgent), ms per memory
// in background batches, the process's RSS with the worker; the built-in table's for contrast;
// bytes shipped. Outside in (the spawned bundle, a store written by a plain script): time until
// the model's vectors cover the store (the model's vector cache appears), search p50/p95 over
// stdio after that, and the server's peak RSS. CPU time is printed beside wall time: on a shared
// machine wall time measures the neighbours too.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinEmbedder } from '../server/src/core/embed/builtin.ts';
import { localEmbedder } from '../server/src/core/embed/local.ts';
import { CorpusGen, writeCorpus } from './corpus.ts';
import { startServer } from './stdio.ts';
import { MEMORIES } from './quality/memories.ts';

const dist = (f: string) => fileURLToPath(new URL(`../server/dist/${f}`, import.meta.url));
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const pct = (a: number[], p: number) => a.slice().sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))] ?? NaN;
const f1 = (x: number) => x.toFixed(1);

const QUERIES = [
  'who has to sign off before going live',
  'how long do we keep database copies',
  'which package manager should I use in the web repo',
  'what did we settle on for logging',
  'why do we avoid ORMs',
  'didnt I say I dislike tabs',
  'how are money amounts stored',
  'where do feature flags live',
];

export async function benchEmbedInProcess(): Promise<string[]> {
  const out: string[] = [];
  const bytes = ['cairn.mjs', 'cairn-embed.bin', 'cairn-embed-worker.mjs', 'cairn-model.bin', 'cairn-ort.wasm.br'].map((f) => [f, statSync(dist(f)).size] as const);
  const total = bytes.reduce((s, [, b]) => s + b, 0);
  out.push(`bytes shipped: ${bytes.map(([f, b]) => `${f} ${(b / 1e6).toFixed(2)} MB`).join(', ')}; total ${(total / 1e6).toFixed(1)} MB`);

  const b = builtinEmbedder();
  let t0 = performance.now();
  b.load();
  const bLoad = performance.now() - t0;
  t0 = performance.now();
  for (let i = 0; i < 2000; i++) b.embedSync(QUERIES[i % QUERIES.length]! + i);
  out.push(`builtin table: load ${f1(bLoad)} ms, ${((performance.now() - t0) / 2000 * 1000).toFixed(0)} µs per query`);

  const rss0 = process.memoryUsage().rss / 1e6;
  const l = localEmbedder();
  t0 = performance.now();
  let c0 = cpuMs();
  await l.whenReady();
  out.push(`local model: load ${f1(performance.now() - t0)} ms wall, ${f1(cpuMs() - c0)} ms CPU; RSS +${f1(process.memoryUsage().rss / 1e6 - rss0)} MB with the worker`);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 40; i++) {
    const q = `${QUERIES[i % QUERIES.length]!} ${i}`;
    t0 = performance.now();
    c0 = cpuMs();
    await l.embed([q], { urgent: true });
    wall.push(performance.now() - t0);
    cpu.push(cpuMs() - c0);
  }
  out.push(`  per query: p50 ${f1(pct(wall, 0.5))} ms wall (${f1(pct(cpu, 0.5))} ms CPU), p95 ${f1(pct(wall, 0.95))} ms`);
  const gen = new CorpusGen(42);
  const bodies = [...MEMORIES.map((m) => m.body), ...Array.from({ length: 256 - MEMORIES.length }, () => gen.body())];
  t0 = performance.now();
  c0 = cpuMs();
  for (let i = 0; i < bodies.length; i += 64) await l.embed(bodies.slice(i, i + 64));
  const perMem = (performance.now() - t0) / bodies.length;
  const perMemCpu = (cpuMs() - c0) / bodies.length;
  out.push(`  per memory (batches of 64, ${bodies.length} memories): ${f1(perMem)} ms wall (${f1(perMemCpu)} ms CPU) -> 10k memories in ~${f1((perMemCpu * 10_000) / 1000)} s of one core`);
  out.push(`  process RSS with the model loaded: ${f1(process.memoryUsage().rss / 1e6)} MB`);
  await l.close();
  return out;
}

/** The spawned bundle, default config (the local model), a store of `n` memories written by a plain script. */
export async function benchEmbedOutside(n: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-embed-'));
  try {
    const store = join(dir, 'store');
    writeCorpus(store, n);
    const t0 = performance.now();
    // the spawned server takes the environment as it is now: the local model, whatever the caller set
    const saved = process.env.CAIRN_EMBED_PROVIDER;
    process.env.CAIRN_EMBED_PROVIDER = 'local';
    const s = await startServer(store, dir).finally(() => {
      if (saved === undefined) delete process.env.CAIRN_EMBED_PROVIDER;
      else process.env.CAIRN_EMBED_PROVIDER = saved;
    });
    await s.search('warm up');
    const ready = performance.now() - t0;
    // the model's vectors cover the store when its cache file is written (the embedding's end)
    const cacheDir = join(store, '.cache');
    const hasModelCache = () => {
      try {
        return readdirSync(cacheDir).some((f) => f.startsWith('vectors-local'));
      } catch {
        return false;
      }
    };
    const during: number[] = [];
    const limit = Date.now() + 1_800_000;
    while (!hasModelCache() && Date.now() < limit) {
      const q0 = performance.now();
      await s.search(QUERIES[during.length % QUERIES.length]!);
      during.push(performance.now() - q0);
      await new Promise((r) => setTimeout(r, 200));
    }
    const embedded = (performance.now() - t0) / 1000;
    const lat: number[] = [];
    for (let i = 0; i < 100; i++) {
      const q0 = performance.now();
      await s.search(`${QUERIES[i % QUERIES.length]!} ${i % 7}`);
      lat.push(performance.now() - q0);
    }
    const rss = s.peakRssMb();
    await s.close();
    return `${n} memories: first answer ${f1(ready)} ms; model vectors cover the store after ${f1(embedded)} s (searches meanwhile p50 ${f1(pct(during, 0.5))} ms, p95 ${f1(pct(during, 0.95))} ms); then search p50 ${f1(pct(lat, 0.5))} ms, p95 ${f1(pct(lat, 0.95))} ms; peak RSS ${f1(rss)} MB`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchEmbed(): Promise<string> {
  const lines = ['local embedder (docs/semantic.md):', ...(await benchEmbedInProcess())];
  const sizes = (process.env.BENCH_EMBED_SIZES ?? '1000').split(',').map(Number).filter((x) => x > 0);
  for (const n of sizes) lines.push(`  outside-in, ${await benchEmbedOutside(n)}`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchEmbed());
  process.exit(0);
}
