// Does feedback-aware ranking keep retrieval quality? Both judged sets (bench/quality
// and the held-out bench/quality/blind, measured only) are loaded into a real store and searched
// through the Cairn facade (ranking.feedback on, defaults). Pass 1 scores the plain ranking (no
// events yet); then a simulated session records what a model would: `applied` for a relevant
// memory it found in the top 5, `ignored` for an irrelevant top hit; pass 2 scores again. The
// held-out half is scored on queries whose outcomes were never recorded (feedback from the other
// half only), so a lift there is not the answer key leaking back.
//   node --import tsx bench/quality/feedback.ts
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cairn } from '../../server/src/core/cairn.ts';
import { fileNameFor, serializeMemory } from '../../server/src/core/store/memfile.ts';
import { newId } from '../../server/src/core/ids.ts';
import type { MemoryRecord } from '../../server/src/core/types.ts';
import { MEMORIES } from './memories.ts';
import { QUERIES } from './queries.ts';

interface Set { name: string; memories: Array<{ id: string; scopes: string[]; body: string; age: number }>; queries: Array<{ kind: string; q: string; relevant: string[] }> }
const DAY = 86_400_000;

function blind(): Set {
  const mem = JSON.parse(readFileSync(new URL('./blind/memories.json', import.meta.url), 'utf8')) as Array<{ id: string; scopes: string[]; body: string; age_days: number }>;
  const qs = JSON.parse(readFileSync(new URL('./blind/queries.json', import.meta.url), 'utf8')) as Set['queries'];
  return { name: 'blind (held out)', memories: mem.map((m) => ({ id: m.id, scopes: m.scopes, body: m.body, age: m.age_days })), queries: qs };
}

interface Score { n: number; r1: number; r5: number; mrr: number; genericNoHigh: number; generic: number }
async function score(c: Cairn, set: Set, toUlid: Map<string, string>, only?: (i: number) => boolean): Promise<Score> {
  const s: Score = { n: 0, r1: 0, r5: 0, mrr: 0, genericNoHigh: 0, generic: 0 };
  for (const [i, q] of set.queries.entries()) {
    if (only && !only(i)) continue;
    const { hits } = await c.search({ query: q.q, auto_scope: false, max_results: 5 });
    if (q.relevant.length === 0) {
      s.generic++;
      if (!hits.some((h) => h.relevance === 'high')) s.genericNoHigh++;
      continue;
    }
    const rel = new Set(q.relevant.map((r) => toUlid.get(r)!));
    s.n++;
    s.r1 += hits.slice(0, 1).filter((h) => rel.has(h.id)).length / rel.size;
    if (process.env.FB_DEBUG && hits[0] && !rel.has(hits[0].id)) {
      const ex = (await c.search({ query: q.q, auto_scope: false, max_results: 5, explain: true })).hits.slice(0, 3);
      console.log('MISS', q.q, [...rel].join(','), JSON.stringify(ex.map((h) => [h.id.slice(-4), h.relevance, h.score, h.explain!.feedback])));
    }
    s.r5 += hits.filter((h) => rel.has(h.id)).length / rel.size;
    const first = hits.findIndex((h) => rel.has(h.id));
    s.mrr += first >= 0 ? 1 / (first + 1) : 0;
  }
  return s;
}

const fmt = (s: Score) =>
  `R@1 ${(s.r1 / s.n).toFixed(3)}  R@5 ${(s.r5 / s.n).toFixed(3)}  MRR ${(s.mrr / s.n).toFixed(3)}  (n=${s.n}; generic with no high hit ${s.genericNoHigh}/${s.generic})`;

async function run(set: Set): Promise<void> {
  const store = mkdtempSync(join(tmpdir(), 'cairn-fbeval-'));
  try {
    const now = Date.now();
    const toUlid = new Map<string, string>();
    set.memories.forEach((m, i) => {
      const t = now - m.age * DAY - i;
      const at = new Date(t).toISOString();
      const rec: MemoryRecord = {
        id: newId(t), created: at, updated: at, scopes: m.scopes, confidence: 'medium', source: 'explicit-statement', category: 'fact',
        last_verified_at: null, expires: null, origin: { cwd: null, repo: null, branch: null, worktree_root: null }, body: m.body,
      };
      toUlid.set(m.id, rec.id);
      if (process.env.FB_CONFIG) writeFileSync(join(store, 'config.toml'), process.env.FB_CONFIG.replace(/;/g, '\n'));
      writeFileSync(join(store, fileNameFor(rec)), serializeMemory(rec));
    });
    const c = await Cairn.open({ dir: store, cwd: store, env: { HOME: store }, watch: false, warn: () => {} });
    try {
      const even = (i: number) => i % 2 === 0;
      const odd = (i: number) => i % 2 === 1;
      const before = await score(c, set, toUlid);
      const beforeOdd = await score(c, set, toUlid, odd);
      // The session: outcomes for the even queries only.
      for (const [i, q] of set.queries.entries()) {
        if (!even(i)) continue;
        const { hits } = await c.search({ query: q.q, auto_scope: false, max_results: 5 });
        const rel = new Set(q.relevant.map((r) => toUlid.get(r)!));
        const found = hits.filter((h) => rel.has(h.id)).map((h) => h.id);
        if (found.length) await c.recordUse({ memory_ids: found, outcome: 'applied' });
        if (hits[0] && !rel.has(hits[0].id)) await c.recordUse({ memory_ids: [hits[0].id], outcome: 'ignored' });
      }
      const after = await score(c, set, toUlid);
      const afterOdd = await score(c, set, toUlid, odd);
      console.log(`${set.name}: ${set.memories.length} memories, ${set.queries.length} queries`);
      console.log(`  all queries     before ${fmt(before)}`);
      console.log(`                  after  ${fmt(after)}`);
      console.log(`  held-out half   before ${fmt(beforeOdd)}`);
      console.log(`                  after  ${fmt(afterOdd)}`);
    } finally {
      await c.close();
    }
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}

await run({ name: 'bench/quality', memories: MEMORIES, queries: QUERIES });
await run(blind());
