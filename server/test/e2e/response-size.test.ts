// Response sizes pinned through the bundle. A realistic store (the judged eval's
// memories, written in cairn's own format from inside a repo) and the eval's queries: the
// average 5-hit memory_search response, budgets (max_chars) on search and show, and the cap on
// any response.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type Session } from '../helpers/mcp.ts';
import { fileNameFor, serializeMemory } from '../../src/core/store/memfile.ts';
import { newId } from '../../src/core/ids.ts';
import { testRecord } from '../helpers/records.ts';
import { MEMORIES } from '../../../bench/quality/memories.ts';
import { QUERIES } from '../../../bench/quality/queries.ts';

const DAY = 86_400_000;
let s: Session;
let ids: string[] = [];

function seed(): string {
  const store = mkdtempSync(join(tmpdir(), 'cairn-size-'));
  const t0 = Date.now() - 400 * DAY;
  MEMORIES.forEach((m, i) => {
    const at = new Date(t0 + i * DAY).toISOString();
    const rec = testRecord({ id: newId(t0 + i * DAY), created: at, updated: at, scopes: m.scopes, body: m.body });
    ids.push(rec.id);
    writeFileSync(join(store, fileNameFor(rec)), serializeMemory(rec));
  });
  return store;
}

async function searchSizes(args: Record<string, unknown> = {}) {
  const sizes: number[] = [];
  for (const q of QUERIES) {
    const r = await s.raw('memory_search', { query: q.q, max_results: 5, ...args });
    assert.ok(!r.isError, JSON.stringify(r.content));
    const text = (r.content[0] as { text: string }).text;
    if ((r.structuredContent as { hits: unknown[] }).hits.length === 5) sizes.push(Buffer.byteLength(text));
  }
  return sizes;
}

describe('response sizes', () => {
  before(async () => {
    const store = seed();
    s = await startServer({ store, cwd: store });
  });

  it('a 5-hit memory_search averages at most 2.0 KB of JSON', async () => {
    const sizes = await searchSizes();
    assert.ok(sizes.length >= 20, `only ${sizes.length} queries returned 5 hits`);
    const avg = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    console.log(`5-hit search responses: ${sizes.length}, average ${avg.toFixed(0)} bytes, max ${Math.max(...sizes)}`);
    assert.ok(avg <= 2000, `average ${avg.toFixed(0)} bytes`);
  });
});

describe('max_chars budgets and the 16 KB cap', () => {
  let big: Session;
  const bigIds: string[] = [];
  before(async () => {
    const store = mkdtempSync(join(tmpdir(), 'cairn-budget-'));
    const t0 = Date.now() - 10 * DAY;
    for (let i = 0; i < 12; i++) {
      const words = Array.from({ length: 600 }, (_, j) => `word${(i * 7 + j) % 97}`).join(' ');
      const rec = testRecord({ id: newId(t0 + i * 1000), body: `Budget memory ${i} about the deploy pipeline. ${words}` });
      bigIds.push(rec.id);
      writeFileSync(join(store, fileNameFor(rec)), serializeMemory(rec));
    }
    big = await startServer({ store, cwd: store });
  });

  it('memory_search fits max_chars: shorter snippets, then fewer hits, and says so', async () => {
    const full = await big.call('memory_search', { query: 'deploy pipeline budget', max_results: 10, auto_scope: false });
    assert.equal(full.hits.length, 10);
    for (const budget of [300, 700, 1500]) {
      const r = await big.raw('memory_search', { query: 'deploy pipeline budget', max_results: 10, auto_scope: false, max_chars: budget });
      const text = (r.content[0] as { text: string }).text;
      assert.ok(text.length <= budget, `${text.length} > ${budget}`);
      const out = r.structuredContent as any;
      assert.ok(out.truncated, 'truncated is reported');
      assert.equal(out.hits.length + out.truncated.hits_dropped, 10);
      for (const h of out.hits) assert.ok(h.id.length === 26 && typeof h.snippet === 'string' && h.relevance);
    }
    const expanded = await big.raw('memory_search', { query: 'budget memory 3 deploy pipeline', expand_top: true, auto_scope: false, max_chars: 1200 });
    assert.ok((expanded.content[0] as { text: string }).text.length <= 1200);
    const roomy = await big.call('memory_search', { query: 'deploy pipeline budget', max_results: 10, auto_scope: false, max_chars: 16000 });
    assert.equal(roomy.truncated, undefined);
    assert.match(await big.fail('memory_search', { query: 'x', max_chars: 10 }), /max_chars/);
  });

  it('memory_show fits max_chars: bodies shortened at word boundaries, then ids dropped and listed', async () => {
    const r = await big.raw('memory_show', { ids: bigIds.slice(0, 10) });
    const text = (r.content[0] as { text: string }).text;
    assert.ok(text.length <= 16_000, `default cap: ${text.length}`);
    assert.ok((r.structuredContent as any).truncated, '10 x 4 KB does not fit 16 KB');
    const small = await big.raw('memory_show', { ids: bigIds.slice(0, 10), max_chars: 2500 });
    const st = (small.content[0] as { text: string }).text;
    assert.ok(st.length <= 2500, `${st.length}`);
    const so = small.structuredContent as any;
    assert.deepEqual([...so.memories.map((m: any) => m.id), ...so.truncated.ids_dropped].sort(), bigIds.slice(0, 10).sort());
    assert.ok(so.truncated.bodies_shortened.length > 0);
    for (const m of so.memories) if (so.truncated.bodies_shortened.includes(m.id)) assert.match(m.body, /\S…$/);
    const one = await big.call('memory_show', { id: bigIds[0] });
    assert.equal(one.truncated, undefined, 'one memory fits the default budget whole');
  });

  it('memory_list with bodies pages under 16 KB instead of answering 50 KB at once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (; pages < 12; pages++) {
      const r = await big.raw('memory_list', { with_bodies: true, limit: 200, ...(cursor ? { cursor } : {}) });
      const text = (r.content[0] as { text: string }).text;
      assert.ok(text.length <= 16_000, `page ${pages}: ${text.length}`);
      const out = r.structuredContent as any;
      seen.push(...out.items.map((x: any) => x.id));
      if (!out.next_cursor) break;
      cursor = out.next_cursor;
    }
    assert.ok(pages >= 3, `${pages + 1} pages`);
    assert.deepEqual(seen.sort(), [...bigIds].sort());
  });
});
