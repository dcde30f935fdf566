// MCP resources over stdio against the built bundle: a full resources/list walk (every page), one
// resources/read, completions, and how long a subscribed client waits for
// notifications/resources/updated after a hand edit and after another server process's write.
//   node --import tsx bench/mcp.ts            (BENCH_MCP_N=20000 memories, BENCH_MCP_RUNS=9 edits)
// Prints one table; the latencies are medians (and maxima) over the runs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { writeCorpus } from './corpus.ts';
import { startServer } from './stdio.ts';

const N = Number(process.env.BENCH_MCP_N ?? 20000);
const RUNS = Number(process.env.BENCH_MCP_RUNS ?? 9);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'cairn-bench-mcp-'));
  const store = join(root, 'store');
  const cwd = join(root, 'work');
  execFileSync('git', ['init', '-q', cwd]);
  try {
    writeCorpus(store, N);
    const a = await startServer(store, cwd);
    const b = await startServer(store, cwd);
    // Timed once the servers settled: the first start builds the index and its cache.
    await a.search('warm up');
    await b.search('warm up');
    await new Promise((r) => setTimeout(r, 3000));
    let t = performance.now();
    let cursor: string | undefined;
    let pages = 0;
    let listed = 0;
    do {
      const p = await a.client.listResources(cursor === undefined ? {} : { cursor });
      listed += p.resources.length;
      cursor = p.nextCursor;
      pages++;
    } while (cursor !== undefined);
    const walk = performance.now() - t;
    t = performance.now();
    await a.client.listResources({});
    const firstPage = performance.now() - t;

    // A memory of our own to edit: its file is known from the write.
    const w = await a.client.callTool({ name: 'memory_write', arguments: { content: 'The bench memory number 0 that is edited by hand and by another process.', scopes: ['bench'] } });
    const { id, file } = w.structuredContent as { id: string; file: string };
    const uri = `cairn://memory/${id}`;
    t = performance.now();
    await a.client.readResource({ uri });
    const read = performance.now() - t;
    t = performance.now();
    await a.client.complete({ ref: { type: 'ref/resource', uri: 'cairn://scope/{scope}' }, argument: { name: 'scope', value: 'pro' } });
    const completeScope = performance.now() - t;
    t = performance.now();
    await a.client.complete({ ref: { type: 'ref/resource', uri: 'cairn://memory/{id}' }, argument: { name: 'id', value: 'bench memory' } });
    const completeId = performance.now() - t;

    let heard: (() => void) | null = null;
    a.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      if (n.params.uri === uri) heard?.();
    });
    await a.client.subscribeResource({ uri });
    const waitUpdate = (change: () => Promise<void> | void) =>
      new Promise<number>((resolve, reject) => {
        const t0 = performance.now();
        const timer = setTimeout(() => reject(new Error('no update within 10 s')), 10_000);
        heard = () => {
          clearTimeout(timer);
          heard = null;
          resolve(performance.now() - t0);
        };
        void Promise.resolve(change()).catch(reject);
      });
    const hand: number[] = [];
    const other: number[] = [];
    for (let i = 1; i <= RUNS; i++) {
      hand.push(await waitUpdate(() => writeFileSync(file, readFileSync(file, 'utf8').replace(/number \d+/, `number ${i}`))));
      await new Promise((r) => setTimeout(r, 200));
      other.push(await waitUpdate(async () => void (await b.client.callTool({ name: 'memory_update', arguments: { id, content: `The bench memory number ${i}x that is edited by hand and by another process.` } }))));
      await new Promise((r) => setTimeout(r, 200));
    }
    await a.close();
    await b.close();
    console.log(`MCP resources, ${N} memories (stdio, built bundle)`);
    console.log(`  resources/list walk       ${pages} pages, ${listed} resources, ${ms(walk)} (${ms(walk / pages)} a page); first page again ${ms(firstPage)}`);
    console.log(`  resources/read            ${ms(read)}`);
    console.log(`  completion scope / id     ${ms(completeScope)} / ${ms(completeId)}`);
    console.log(`  update after hand edit    median ${ms(median(hand))}, max ${ms(Math.max(...hand))} (${RUNS} runs)`);
    console.log(`  update after other write  median ${ms(median(other))}, max ${ms(Math.max(...other))} (from the call, ${RUNS} runs)`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
