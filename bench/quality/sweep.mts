// RRF parameter sweep on the old + dev set only (never the blind set): fused and fused + alternates R@5/MRR.
import { oldSet, buildEngine, embedders } from './semantic.ts';
import { fuse, semanticRelevance } from '../../server/src/core/index/fusion.ts';
const set = oldSet();
const embs = await embedders();
const e = await buildEngine(set, embs[0]!);
const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const opts = { limit: 20, now: NOW, halfLifeDays: 30 };
const sem = (t: string) => e.vec!.search(e.embed!(t), 20, { now: NOW });
for (const k of [5, 10, 20, 60]) for (const wSem of [0.7, 1, 1.5, 2]) for (const wAlt of [0.4, 0.6, 1]) {
  let r5 = 0, mrr = 0, n = 0, pr5 = 0, pn = 0, ar5 = 0, amrr = 0;
  for (const q of set.queries) {
    if (q.kind === 'negative') continue;
    for (const withAlt of [false, true]) {
      const hits = fuse({ limit: 5, main: { lexical: e.lex.search(q.q, opts), semantic: sem(q.q) }, alternates: withAlt ? q.alternates.map((a) => ({ lexical: e.lex.search(a, opts), semantic: sem(a) })) : [], calibration: e.cal, params: { k, wSem, wAlt } });
      const rel = new Set(q.relevant);
      const f = hits.findIndex((h) => rel.has(h.doc.id));
      const x = hits.filter((h) => rel.has(h.doc.id)).length / rel.size;
      if (!withAlt) { r5 += x; mrr += f >= 0 ? 1 / (f + 1) : 0; n++; if (q.kind === 'paraphrase') { pr5 += x; pn++; } }
      else { ar5 += x; amrr += f >= 0 ? 1 / (f + 1) : 0; }
    }
  }
  console.log(`k=${k} wSem=${wSem} wAlt=${wAlt}  fused R@5 ${(r5 / n).toFixed(3)} MRR ${(mrr / n).toFixed(3)} para R@5 ${(pr5 / pn).toFixed(3)} | +alt R@5 ${(ar5 / n).toFixed(3)} MRR ${(amrr / n).toFixed(3)}`);
}
