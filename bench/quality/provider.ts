// Retrieval quality with a configured provider (Ollama or OpenAI-compatible) instead of the
// built-in table: the same sets, modes and scoring as `npm run eval` (semantic.ts), through
// cairn's own provider clients (core/embed/providers.ts) and the calibration a configured
// provider gets (calibration.ts: unknown embedders are conservative).
//
//   EVAL_SETS=tuning|blind|all EVAL_PROVIDER=openai EVAL_PROVIDER_URL=http://127.0.0.1:18777/v1 EVAL_PROVIDER_MODEL=use-lite \
//     node --import tsx bench/quality/provider.ts
//
// On a machine without Ollama or network, `node scripts/embed/serve.cjs 18777` serves a real small
// model (Universal Sentence Encoder lite) on loopback for this. Nothing is tuned here.
import { SearchIndex } from '../../server/src/core/index/searchIndex.ts';
import { VectorIndex, embedText } from '../../server/src/core/index/vectors.ts';
import { calibrationFor } from '../../server/src/core/index/calibration.ts';
import { ollamaEmbedder, openaiEmbedder } from '../../server/src/core/embed/providers.ts';
import { normalize, type Embedder } from '../../server/src/core/embed/embedder.ts';
import { PlainBm25 } from './baseline.ts';
import { evaluate, formatScores, selectedSets, type Engine, type EvalSet, type Mode, type Score } from './semantic.ts';

function provider(): Embedder {
  const kind = process.env.EVAL_PROVIDER ?? 'openai';
  const url = process.env.EVAL_PROVIDER_URL ?? 'http://127.0.0.1:18777/v1';
  const model = process.env.EVAL_PROVIDER_MODEL ?? 'use-lite';
  if (kind === 'ollama') return ollamaEmbedder({ url, model, timeoutMs: 120_000 });
  if (kind === 'openai') return openaiEmbedder({ url, model, timeoutMs: 120_000 });
  throw new Error(`EVAL_PROVIDER must be openai or ollama, not ${kind}`);
}

async function engineFor(set: EvalSet, emb: Embedder): Promise<Engine> {
  const lex = new SearchIndex<(typeof set.docs)[number]>();
  lex.load(set.docs);
  const docVecs = (await emb.embed(set.docs.map(embedText))).map((v) => normalize(Float32Array.from(v)));
  const vec = new VectorIndex<(typeof set.docs)[number]>(emb.id, docVecs[0]!.length);
  set.docs.forEach((d, i) => vec.set(d, docVecs[i]!));
  // Queries are embedded up front (a provider is async; the eval's runQuery is sync).
  const texts = [...new Set(set.queries.flatMap((q) => [q.q, ...q.alternates]))];
  const qv = await emb.embed(texts);
  const cache = new Map(texts.map((t, i) => [t, normalize(Float32Array.from(qv[i]!))]));
  return { lex, plain: new PlainBm25(set.docs), vec, embed: (t) => cache.get(t)!, cal: calibrationFor(emb.id) };
}

const emb = provider();
const sets = selectedSets();
const out: string[] = [];
for (const set of sets) {
  const t0 = performance.now();
  const e = await engineFor(set, emb);
  const ms = performance.now() - t0;
  const rows: Array<{ label: string; scores: Score[] }> = [];
  if (set.hasAlternates) rows.push({ label: 'joined BM25 (plain, query + alternates as one query)', scores: evaluate(e, set, 'joined-bm25') });
  for (const mode of ['semantic', 'fused', ...(set.hasAlternates ? ['fused+alt'] : [])] as Mode[]) rows.push({ label: `${mode} (${emb.id})`, scores: evaluate(e, set, mode) });
  out.push(formatScores(`\n${set.name}: ${set.docs.length} memories, ${set.queries.length} queries; embedded by ${emb.id} in ${(ms / 1000).toFixed(1)} s`, rows));
}
console.log(out.join('\n'));
