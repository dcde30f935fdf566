// Fusion parameter sweep on the TUNING sets only (never the blind set): per setting and set, fused
// paraphrase R@1/R@5/MRR, overall R@5 and MRR, the worst R@5 of the lexical kinds, negatives without
// a `high` hit, and the same with alternates where the set has them (beside the joined plain-BM25
// baseline the fusion must not lose to).
//   node --import tsx bench/quality/sweep.mts ['{"k":60,"lexCov":0.25}' ...]   (CAIRN_EMBED_FILE picks a table;
//   EVAL_PROVIDER_URL etc. as in provider.ts sweep a configured provider's vectors instead)
import { tuningSets, buildEngine, embedders, type EvalSet, type Engine } from './semantic.ts';
import { providerEmbedder, providerEngine } from './providerEngine.ts';
import { fuse, joinedQuery, type FusionParams } from '../../server/src/core/index/fusion.ts';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const opts = { limit: 20, now: NOW, halfLifeDays: 30 };
const f = (x: number) => x.toFixed(2);
const provider = process.env.EVAL_PROVIDER_URL ? providerEmbedder() : null;
// EVAL_EMBEDDER=local (an id prefix) picks that embedder; default the first (the built-in table)
const all = provider ? [] : await embedders();
const emb = provider ?? all.find((e) => e.id.startsWith(`${process.env.EVAL_EMBEDDER ?? ''}`)) ?? all[0]!;
const engines: Array<[EvalSet, Engine]> = [];
for (const set of tuningSets()) engines.push([set, provider ? await providerEngine(set, provider) : await buildEngine(set, emb as Awaited<ReturnType<typeof embedders>>[number])]);

function run(set: EvalSet, e: Engine, p: Partial<FusionParams> | 'joined-bm25', withAlt: boolean): string {
  const sem = (t: string) => e.vec!.search(e.embed!(t), 20, { now: NOW });
  const by = new Map<string, { r1: number; r5: number; mrr: number; n: number; noHigh: number }>();
  for (const q of set.queries) {
    const alts = withAlt ? q.alternates : [];
    const j = joinedQuery(q.q, alts);
    const hits = p === 'joined-bm25'
      ? e.plain.search(j, 5).map((h) => ({ doc: { id: h.id }, relevance: h.relevance }))
      : fuse({ limit: 5, main: { lexical: e.lex.search(q.q, opts), semantic: sem(q.q) }, alternates: alts, ...(alts.length > 0 ? { joined: { lexical: e.lex.search(j, opts), semantic: sem(j) } } : {}), calibration: e.cal, params: p });
    const s = by.get(q.kind) ?? { r1: 0, r5: 0, mrr: 0, n: 0, noHigh: 0 };
    by.set(q.kind, s);
    s.n++;
    if (!hits.some((h) => h.relevance === 'high')) s.noHigh++;
    if (q.kind === 'negative') continue;
    const rel = new Set(q.relevant);
    const i = hits.findIndex((h) => rel.has(h.doc.id));
    s.r1 += hits.slice(0, 1).filter((h) => rel.has(h.doc.id)).length / rel.size;
    s.r5 += hits.filter((h) => rel.has(h.doc.id)).length / rel.size;
    s.mrr += i >= 0 ? 1 / (i + 1) : 0;
  }
  const pos = [...by].filter(([k]) => k !== 'negative');
  const tot = pos.reduce((a, [, s]) => ({ r5: a.r5 + s.r5, mrr: a.mrr + s.mrr, n: a.n + s.n }), { r5: 0, mrr: 0, n: 0 });
  const para = by.get('paraphrase');
  const lex = pos.filter(([k]) => k !== 'paraphrase');
  const lexMin = lex.length ? Math.min(...lex.map(([, s]) => s.r5 / s.n)) : NaN;
  const neg = by.get('negative');
  return `para ${para ? `${f(para.r1 / para.n)}/${f(para.r5 / para.n)}/${f(para.mrr / para.n)}` : '-'} all ${f(tot.r5 / tot.n)}/${f(tot.mrr / tot.n)} lexMin ${f(lexMin)} neg ${neg ? f(neg.noHigh / neg.n) : '-'}`;
}

const grid: Array<Partial<FusionParams>> = process.argv.length > 2 ? process.argv.slice(2).map((a) => JSON.parse(a) as Partial<FusionParams>) : [];
if (grid.length === 0) for (const k of [5, 10, 20, 60]) for (const lexCov of [1, 0.5, 0.25, 0]) grid.push({ k, lexCov });
console.log(`embedder ${emb.id}`);
for (const [set, e] of engines) if (set.hasAlternates) console.log(`  ${set.name.padEnd(9)} joined plain BM25 | +alt ${run(set, e, 'joined-bm25', true)}`);
for (const p of grid) {
  console.log(JSON.stringify(p));
  for (const [set, e] of engines) console.log(`  ${set.name.padEnd(9)} fused ${run(set, e, p, false)}${set.hasAlternates ? ` | +alt ${run(set, e, p, true)}` : ''}`);
}
process.exit(0); // the local embedder's worker
