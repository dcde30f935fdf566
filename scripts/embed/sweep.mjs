// Tries fit options on the cached teacher data; prints the eval table row of each.
//   node --import tsx scripts/embed/sweep.mjs '{"dim":128}' '{"sifA":0}' ...
import { loadData } from './data.mjs';
import { fitTable } from './fit.mjs';
import { DEFAULT_OPTS, tableFromFit } from './build.mjs';
import { encodeEmbedFile, decodeEmbedFile, StaticEmbedModel } from '../../server/src/core/embed/builtin.ts';
import { evaluate, fmtRow, HEADER } from './evalcore.ts';

const tools = process.env.CAIRN_EMBED_TOOLS ?? '/tmp/cairn-embed-tools';
const data = await loadData(tools);
console.log(HEADER);
for (const a of process.argv.slice(2).length ? process.argv.slice(2) : ['{}']) {
  const opts = { ...DEFAULT_OPTS, ...JSON.parse(a) };
  const t0 = Date.now();
  const fit = fitTable(data, opts, () => {});
  const bytes = encodeEmbedFile(tableFromFit(fit, opts));
  const m = new StaticEmbedModel(decodeEmbedFile(bytes, 'mem'));
  console.log(fmtRow(`${a} (${(bytes.length / 1e6).toFixed(1)}MB, fit ${((Date.now() - t0) / 1000).toFixed(0)}s)`, evaluate((t) => m.embed(t))));
}
