// Runs the judged retrieval eval: cairn's engine and the plain BM25 baseline over the same
// memories and queries, recall@1, recall@5 and MRR per query kind (for generic queries: the share
// that got no `high` hit, and the share that got no hit at all).
import { SearchIndex, type IndexDoc } from '../../server/src/core/index/searchIndex.ts';
import { PlainBm25 } from './baseline.ts';
import { MEMORIES } from './memories.ts';
import { QUERIES, type QueryKind } from './queries.ts';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const DAY = 86_400_000;
const KINDS: QueryKind[] = ['lexical', 'morphology', 'identifier', 'paraphrase', 'generic'];

export interface KindScore {
  kind: QueryKind;
  queries: number;
  recall1: number;
  recall5: number;
  mrr: number;
  /** generic only: share of queries with no `high` hit */
  noHigh: number;
  /** generic only: share of queries with no hit at all */
  noHit: number;
}

export interface EvalResult {
  memories: number;
  queries: number;
  cairn: KindScore[];
  baseline: KindScore[];
  misses: Array<{ kind: QueryKind; q: string; want: string[]; got: string[] }>;
}

type Ranked = Array<{ id: string; relevance: 'high' | 'medium' | 'low' }>;

function score(kind: QueryKind, runs: Array<{ relevant: string[]; hits: Ranked }>): KindScore {
  let r1 = 0;
  let r5 = 0;
  let mrr = 0;
  let noHigh = 0;
  let noHit = 0;
  for (const { relevant, hits } of runs) {
    if (kind === 'generic') {
      if (!hits.some((h) => h.relevance === 'high')) noHigh++;
      if (hits.length === 0) noHit++;
      continue;
    }
    const rel = new Set(relevant);
    r1 += hits.slice(0, 1).filter((h) => rel.has(h.id)).length / rel.size;
    r5 += hits.slice(0, 5).filter((h) => rel.has(h.id)).length / rel.size;
    const first = hits.findIndex((h) => rel.has(h.id));
    mrr += first >= 0 ? 1 / (first + 1) : 0;
  }
  const n = Math.max(1, runs.length);
  return { kind, queries: runs.length, recall1: r1 / n, recall5: r5 / n, mrr: mrr / n, noHigh: noHigh / n, noHit: noHit / n };
}

export function runEval(): EvalResult {
  const docs: IndexDoc[] = MEMORIES.map((m) => {
    const t = new Date(NOW - m.age * DAY).toISOString();
    return { id: m.id, body: m.body, scopes: m.scopes, created: t, updated: t };
  });
  const ix = new SearchIndex<IndexDoc>();
  ix.load(docs);
  const base = new PlainBm25(MEMORIES);
  const misses: EvalResult['misses'] = [];
  const cairnRuns = new Map<QueryKind, Array<{ relevant: string[]; hits: Ranked }>>();
  const baseRuns = new Map<QueryKind, Array<{ relevant: string[]; hits: Ranked }>>();
  for (const q of QUERIES) {
    const hits = ix.search(q.q, { limit: 5, now: NOW, halfLifeDays: 30 }).map((h) => ({ id: h.doc.id, relevance: h.relevance }));
    const bhits = base.search(q.q, 5);
    (cairnRuns.get(q.kind) ?? cairnRuns.set(q.kind, []).get(q.kind)!).push({ relevant: q.relevant, hits });
    (baseRuns.get(q.kind) ?? baseRuns.set(q.kind, []).get(q.kind)!).push({ relevant: q.relevant, hits: bhits });
    const ok = q.kind === 'generic' ? !hits.some((h) => h.relevance === 'high') : q.relevant.includes(hits[0]?.id ?? '');
    if (!ok) misses.push({ kind: q.kind, q: q.q, want: q.relevant, got: hits.map((h) => `${h.id}(${h.relevance})`) });
  }
  return {
    memories: MEMORIES.length,
    queries: QUERIES.length,
    cairn: KINDS.map((k) => score(k, cairnRuns.get(k) ?? [])),
    baseline: KINDS.map((k) => score(k, baseRuns.get(k) ?? [])),
    misses,
  };
}

export function formatEval(r: EvalResult): string {
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`.padStart(5);
  const lines = [
    `Retrieval quality: ${r.memories} memories, ${r.queries} judged queries (cairn vs plain BM25)`,
    `${'kind'.padEnd(12)} ${'n'.padStart(3)}  ${'R@1 cairn/bm25'.padStart(15)}  ${'R@5 cairn/bm25'.padStart(15)}  ${'MRR cairn/bm25'.padStart(15)}`,
  ];
  r.cairn.forEach((c, i) => {
    const b = r.baseline[i]!;
    if (c.kind === 'generic') {
      lines.push(`${'generic'.padEnd(12)} ${String(c.queries).padStart(3)}  no high hit: cairn ${pct(c.noHigh)}, bm25 ${pct(b.noHigh)}; no hit at all: cairn ${pct(c.noHit)}, bm25 ${pct(b.noHit)}`);
    } else {
      const pair = (x: number, y: number) => `${x.toFixed(2)} / ${y.toFixed(2)}`.padStart(15);
      lines.push(`${c.kind.padEnd(12)} ${String(c.queries).padStart(3)}  ${pair(c.recall1, b.recall1)}  ${pair(c.recall5, b.recall5)}  ${pair(c.mrr, b.mrr)}`);
    }
  });
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = runEval();
  console.log(formatEval(r));
  if (process.argv.includes('--misses')) for (const m of r.misses) console.log(`  miss [${m.kind}] ${m.q} -> want ${m.want.join(',')} got ${m.got.join(' ')}`);
}
