// Tries table options (fit + contrastive refinement) on the TUNING sets only (bench/quality old+dev,
// scripts/embed/devset.json, bench/quality/dev2 when present; never the blind set) and prints, per
// candidate and set: semantic-alone and fused paraphrase R@1/R@5/MRR, the worst fused R@5 of the
// lexical kinds, overall fused R@5, negatives without a `high` hit, fused+alternates overall R@5.
//   node --import tsx scripts/embed/tune.mjs '{}' '{"contrast":{...}}'   (options merged into DEFAULT_OPTS)
//   --save FILE writes the last candidate's table file.
import { writeFileSync } from 'node:fs';
import { loadData } from './data.mjs';
import { DEFAULT_OPTS, CONTRAST_OPTS, fitCached, contrastInputs, fitAll, tableFromFit, withExtra } from './build.mjs';
import { encodeEmbedFile, decodeEmbedFile, StaticEmbedModel } from '../../server/src/core/embed/builtin.ts';
import { tuningSets, buildEngine, evaluate } from '../../bench/quality/semantic.ts';

const tools = process.env.CAIRN_EMBED_TOOLS ?? '/tmp/cairn-embed-tools';
const args = process.argv.slice(2);
const saveAt = args.indexOf('--save');
const save = saveAt >= 0 ? args.splice(saveAt, 2)[1] : null;
const sets = tuningSets();
const f = (x) => x.toFixed(2);
const dirAt = args.indexOf('--save-dir');
const saveDir = dirAt >= 0 ? args.splice(dirAt, 2)[1] : null;
// --files a.bin b.bin: score saved tables only (no fit)
if (args[0] === '--files') {
  const { loadEmbedModel } = await import('../../server/src/core/embed/builtin.ts');
  for (const file of args.slice(1)) {
    const m = loadEmbedModel(file);
    console.log(`== ${file} ${m.id}`);
    for (const l of await scoreModel(m)) console.log('   ' + l);
  }
  process.exit(0);
}
const log = process.env.TUNE_LOG ? (m) => process.stderr.write(m + '\n') : () => {};
const data = await loadData(tools);
const base = fitCached(tools, data, DEFAULT_OPTS, log);
const inputs = contrastInputs(tools, data, base);


async function scoreModel(m) {
  const emb = { id: m.id, dim: m.dim, embedSync: (t) => m.embed(t), embed: async (ts) => ts.map((t) => m.embed(t)) };
  const out = [];
  for (const set of sets) {
    const e = await buildEngine(set, emb);
    const sem = evaluate(e, set, 'semantic');
    const fu = evaluate(e, set, 'fused');
    const fa = set.hasAlternates ? evaluate(e, set, 'fused+alt') : null;
    const by = (s, k) => s.find((x) => x.kind === k);
    const lexMin = Math.min(...['lexical', 'morphology', 'identifier'].map((k) => by(fu, k)).filter((x) => x.n > 0).map((x) => x.r5), 1);
    const p = (s) => `${f(by(s, 'paraphrase').r1)}/${f(by(s, 'paraphrase').r5)}/${f(by(s, 'paraphrase').mrr)}`;
    out.push(`${set.name}: sem ${p(sem)} fused ${p(fu)} lexMin ${f(lexMin)} all ${f(by(fu, 'overall').r5)} neg ${by(fu, 'negative').n ? f(by(fu, 'negative').noHigh) : '-'}${fa ? ` alt ${f(by(fa, 'overall').r5)}/${f(by(fa, 'paraphrase').r5)} altMin ${f(Math.min(...['lexical', 'morphology', 'identifier'].map((k) => by(fa, k)).filter((x) => x.n > 0).map((x) => x.r5)))}` : ''}`);
  }
  return out;
}

let last = null;
for (const a of args.length ? args : ['{}']) {
  const o = JSON.parse(a);
  const opts = { ...DEFAULT_OPTS, ...o, contrast: o.contrast ? { ...DEFAULT_CONTRAST(), ...o.contrast, mix: { ...DEFAULT_CONTRAST().mix, ...o.contrast.mix } } : null };
  const t0 = Date.now();
  const fit = fitAll(tools, opts.extra ? await withExtra(tools, data, opts.extra) : data, opts, log, opts.extra ? null : inputs);
  const table = tableFromFit(fit, opts);
  const bytes = encodeEmbedFile(table);
  const m = new StaticEmbedModel(decodeEmbedFile(bytes, 'mem'));
  console.log(`== ${a} (${(bytes.length / 1e6).toFixed(1)} MB, ${((Date.now() - t0) / 1000).toFixed(0)} s) ${m.id}`);
  for (const l of await scoreModel(m)) console.log('   ' + l);
  last = bytes;
  if (saveDir) writeFileSync(`${saveDir}/${m.name}.bin`, bytes);
}
if (save && last) writeFileSync(save, last);

function DEFAULT_CONTRAST() {
  return { ...CONTRAST_OPTS, refitBuckets: true };
}
