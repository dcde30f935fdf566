// The link graph at scale: memory_show (which lists backlinks) and memory_related, both in steady
// state and right after a write (the graph follows the store's change feed, so a write costs the
// links of the changed memory, not a rebuild over the store).
//   node --import tsx bench/links.ts 50000        standalone, one size
// run.ts calls benchLinks for each in-process size.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cairn } from '../server/src/core/cairn.ts';
import { fileNameFor, serializeMemory } from '../server/src/core/store/memfile.ts';
import { CorpusGen, rng, writeCorpus } from './corpus.ts';

export interface LinksRow {
  memories: number;
  linking: number;
  showP50Ms: number;
  showP95Ms: number;
  showAfterWriteP50Ms: number;
  relatedAfterWriteP50Ms: number;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** Adds `k` memories to `dir`, each linking two random ids of `ids` (a relation and a wikilink). */
export function writeLinking(dir: string, ids: string[], k: number): void {
  const g = new CorpusGen(1234);
  const r = rng(77);
  const pick = () => ids[Math.floor(r() * ids.length)]!;
  for (let i = 0; i < k; i++) {
    const rec = g.record(Date.parse('2026-03-01T00:00:00.000Z'));
    rec.body = `${g.body()}\n- depends_on [[${pick()}]]\nSee also [[${pick()}]].`;
    writeFileSync(join(dir, fileNameFor(rec)), serializeMemory(rec), { mode: 0o600 });
  }
}

/** Show and related latency over an open store whose ids are `ids` (some of them linked). */
export async function benchLinks(c: Cairn, ids: string[], linking: number): Promise<LinksRow> {
  const r = rng(5);
  const pick = () => ids[Math.floor(r() * ids.length)]!;
  await c.show({ id: pick() }); // first use builds the graph
  const show: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await c.show({ id: pick() });
    show.push(performance.now() - t);
  }
  const g = new CorpusGen(4321);
  const afterWrite: number[] = [];
  const relatedAfter: number[] = [];
  for (let i = 0; i < 20; i++) {
    const target = pick();
    await c.write({ content: `${g.body()} Links bench w${i}: depends on [[${target}]].`, scopes: ['tools'], acknowledge_transient: true, force: true });
    let t = performance.now();
    const shown = await c.show({ id: target });
    afterWrite.push(performance.now() - t);
    if ((shown.memories[0] as { backlinks: { id: string }[] }).backlinks.length === 0) throw new Error(`bench: the write's link to ${target} is not among its backlinks`);
    await c.write({ content: `${g.body()} Links bench r${i}: see [[${target}]].`, scopes: ['tools'], acknowledge_transient: true, force: true });
    t = performance.now();
    await c.related({ id: target, depth: 2 });
    relatedAfter.push(performance.now() - t);
  }
  return {
    memories: ids.length,
    linking,
    showP50Ms: pct(show, 50),
    showP95Ms: pct(show, 95),
    showAfterWriteP50Ms: pct(afterWrite, 50),
    relatedAfterWriteP50Ms: pct(relatedAfter, 50),
  };
}

export function linksLine(l: LinksRow): string {
  return `links, ${l.memories.toLocaleString('en-US')} memories (${l.linking} linking): memory_show p50/p95 ${l.showP50Ms.toFixed(2)} / ${l.showP95Ms.toFixed(2)} ms, show right after a write p50 ${l.showAfterWriteP50Ms.toFixed(2)} ms, memory_related depth 2 right after a write p50 ${l.relatedAfterWriteP50Ms.toFixed(2)} ms`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 50000);
  const root = mkdtempSync(join(tmpdir(), `cairn-links-${n}-`));
  const store = join(root, 'store');
  try {
    writeCorpus(store, n);
    const c0 = await Cairn.open({ dir: store, cwd: root, env: { HOME: root }, watch: false, warn: () => {} });
    const ids = [...c0.store.active()].map((m) => m.id);
    await c0.close();
    const k = Math.max(10, Math.floor(n / 100));
    writeLinking(store, ids, k);
    const c = await Cairn.open({ dir: store, cwd: root, env: { HOME: root }, watch: true, warn: () => {} });
    console.log(linksLine(await benchLinks(c, ids, k)));
    await c.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
