// Scores saved table files on the TUNING sets only (bench/quality old+dev, scripts/embed/devset.json,
// bench/quality/dev2 when present), or on the held-out blind set with --blind (run that once, for
// the chosen table; never tune on it). Prints one markdown row per table and set:
// size, load (read + check + index, in process), embedding time per text, semantic-leg and fused
// paraphrase R@1/R@5/MRR, fused lexical / morphology / identifier R@5, fused overall R@5/MRR,
// negatives without a `high` hit, fused+alternates overall R@5.
//   node --import tsx scripts/embed/compare.mjs [--blind] a.bin b.bin ...
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadEmbedModel } from '../../server/src/core/embed/builtin.ts';
import { tuningSets, heldOutSets, buildEngine, evaluate } from '../../bench/quality/semantic.ts';

const args = process.argv.slice(2);
const blind = args.includes('--blind');
const files = args.filter((a) => a !== '--blind');
const sets = blind ? heldOutSets() : tuningSets();
const f = (x) => x.toFixed(2);
const prf = (s) => `${f(s.r1)}/${f(s.r5)}/${f(s.mrr)}`;

console.log('| table | MB | load ms | µs/text | set | sem paraphrase | fused paraphrase | fused lex/morph/ident R@5 | fused overall R@5/MRR | neg no-high | alt overall R@5 |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const file of files) {
  const size = readFileSync(file).length;
  const loads = [];
  let m;
  for (let i = 0; i < 3; i++) { const t0 = performance.now(); m = loadEmbedModel(file); loads.push(performance.now() - t0); }
  const texts = sets.flatMap((s) => [...s.docs.map((d) => d.body), ...s.queries.map((q) => q.q)]);
  for (const t of texts) m.embed(t);
  const t1 = performance.now();
  const reps = 5;
  for (let r = 0; r < reps; r++) for (const t of texts) m.embed(t);
  const per = ((performance.now() - t1) / (reps * texts.length)) * 1000;
  const emb = { id: m.id, dim: m.dim, embedSync: (t) => m.embed(t), embed: async (ts) => ts.map((t) => m.embed(t)) };
  for (const set of sets) {
    const e = await buildEngine(set, emb);
    const sem = evaluate(e, set, 'semantic');
    const fu = evaluate(e, set, 'fused');
    const fa = set.hasAlternates ? evaluate(e, set, 'fused+alt') : null;
    const by = (s, k) => s.find((x) => x.kind === k);
    const lex = ['lexical', 'morphology', 'identifier'].map((k) => (by(fu, k).n ? f(by(fu, k).r5) : '-')).join('/');
    const neg = by(fu, 'negative').n ? f(by(fu, 'negative').noHigh) : '-';
    console.log(`| ${basename(file)} (${m.id}) | ${(size / 1e6).toFixed(1)} | ${Math.min(...loads).toFixed(0)} | ${per.toFixed(1)} | ${set.name} | ${prf(by(sem, 'paraphrase'))} | ${prf(by(fu, 'paraphrase'))} | ${lex} | ${f(by(fu, 'overall').r5)}/${f(by(fu, 'overall').mrr)} | ${neg} | ${fa ? f(by(fa, 'overall').r5) : '-'} |`);
  }
}
