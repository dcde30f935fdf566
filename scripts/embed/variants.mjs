// Builds candidate tables from the teacher named by $CAIRN_TEACHER (data.mjs) and saves them, for
// compare.mjs to score:  node --import tsx scripts/embed/variants.mjs DIR '{"dim":128}' '{"method":"words"}' ...
// Each argument is merged into DEFAULT_OPTS (build.mjs); `name` defaults to <teacher>-<method>-<dim>.
import { writeFileSync, mkdirSync } from 'node:fs';
import { loadData, teacherName } from './data.mjs';
import { DEFAULT_OPTS, fitAll, tableFromFit, withExtra } from './build.mjs';
import { encodeEmbedFile } from '../../server/src/core/embed/builtin.ts';

const tools = process.env.CAIRN_EMBED_TOOLS ?? '/tmp/cairn-embed-tools';
const [dir, ...variants] = process.argv.slice(2);
mkdirSync(dir, { recursive: true });
const log = process.env.TUNE_LOG ? (m) => process.stderr.write(m + '\n') : () => {};
const parsed = (variants.length ? variants : ['{}']).map((a) => JSON.parse(a));
const data = await loadData(tools, { sentences: !parsed.every((o) => o.method === 'words') });
const teacher = teacherName();
for (const a of variants.length ? variants : ['{}']) {
  const o = JSON.parse(a);
  const opts = { ...DEFAULT_OPTS, contrast: null, ...o };
  opts.name = o.name ?? `${teacher}-${opts.method === 'words' ? 'm2v' : 'distill'}-${opts.dim}`;
  const t0 = Date.now();
  const fit = fitAll(tools, opts.extra ? await withExtra(tools, data, opts.extra) : data, opts, log);
  const table = tableFromFit(fit, opts);
  const bytes = encodeEmbedFile(table);
  const file = `${dir}/${table.name}.bin`;
  writeFileSync(file, bytes);
  console.log(`${file}\t${a}\t${(bytes.length / 1e6).toFixed(1)} MB\t${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
