// Fusion parameter sweep on the old + dev set only (never the blind set): per setting, fused and
// fused + alternates R@5 / MRR overall, paraphrase R@5 / MRR, the worst R@5 of the lexical kinds,
// and negatives without a `high` hit.   node --import tsx bench/quality/sweep.mts
import { oldSet, buildEngine, embedders } from './semantic.ts';
import { fuse, type FusionParams } from '../../server/src/core/index/fusion.ts';
import { DEV_PARAPHRASES } from './dev.ts';

const set = oldSet();
// The dev paraphrases (no shared word with their target, like the failure the blind set showed) reported apart.
const devQ = new Set(DEV_PARAPHRASES.map((q) => q.q));
for (const q of set.queries) if (devQ.has(q.q)) (q as { kind: string }).kind = 'dev';
const embs = await embedders();
const e = await buildEngine(set, embs[0]!);
const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const opts = { limit: 20, now: NOW, halfLifeDays: 30 };
const sem = (t: string) => e.vec!.search(e.embed!(t), 20, { now: NOW });
const semAlone = (kind: string) => {
  let r5 = 0, n = 0;
  for (const q of set.queries) if (q.kind === (kind as string)) { const hits = sem(q.q).filter((h) => h.sim >= e.cal.floor).slice(0, 5); r5 += hits.filter((h) => q.relevant.includes(h.doc.id)).length / q.relevant.length; n++; }
  return r5 / n;
};
console.log(`semantic alone: old paraphrase R@5 ${semAlone('paraphrase').toFixed(3)}, dev R@5 ${semAlone('dev').toFixed(3)}`);
const f = (x: number) => x.toFixed(3);
function run(p: Partial<FusionParams>, withAlt: boolean) {
  const by = new Map<string, { r5: number; mrr: number; n: number; noHigh: number }>();
  for (const q of set.queries) {
    const hits = fuse({ limit: 5, main: { lexical: e.lex.search(q.q, opts), semantic: sem(q.q) }, alternates: withAlt ? q.alternates.map((a) => ({ lexical: e.lex.search(a, opts), semantic: sem(a) })) : [], calibration: e.cal, params: p });
    const s = by.get(q.kind) ?? { r5: 0, mrr: 0, n: 0, noHigh: 0 };
    by.set(q.kind, s);
    s.n++;
    if (!hits.some((h) => h.relevance === 'high')) s.noHigh++;
    if (q.kind === 'negative') continue;
    const rel = new Set(q.relevant);
    const i = hits.findIndex((h) => rel.has(h.doc.id));
    s.r5 += hits.filter((h) => rel.has(h.doc.id)).length / rel.size;
    s.mrr += i >= 0 ? 1 / (i + 1) : 0;
  }
  const pos = [...by].filter(([k]) => k !== 'negative');
  const tot = pos.reduce((a, [, s]) => ({ r5: a.r5 + s.r5, mrr: a.mrr + s.mrr, n: a.n + s.n }), { r5: 0, mrr: 0, n: 0 });
  const para = by.get('paraphrase')!;
  const lexMin = Math.min(...pos.filter(([k]) => k !== 'paraphrase' && k !== 'dev').map(([, s]) => s.r5 / s.n));
  const dev = by.get('dev')!;
  const neg = by.get('negative')!;
  return `R@5 ${f(tot.r5 / tot.n)} MRR ${f(tot.mrr / tot.n)} para R@5 ${f(para.r5 / para.n)} MRR ${f(para.mrr / para.n)} dev R@5 ${f(dev.r5 / dev.n)} MRR ${f(dev.mrr / dev.n)} lexmin R@5 ${f(lexMin)} neg ${f(neg.noHigh / neg.n)}`;
}
for (const k of [10, 20]) for (const lexCov of [1, 0.5, 0.25, 0]) for (const semBoost of [0, 0.5, 1, 2, 4]) {
  const p = { k, lexCov, semBoost };
  console.log(`k=${k} lexCov=${lexCov} semBoost=${semBoost} | fused ${run(p, false)} | +alt ${run(p, true)}`);
}
