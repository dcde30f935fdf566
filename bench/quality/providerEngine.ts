// A configured provider (Ollama or OpenAI-compatible) as the eval's embedder, through cairn's own
// provider clients (core/embed/providers.ts). Vectors may be kept in a file between runs
// (EVAL_PROVIDER_CACHE=path), so a parameter sweep does not embed every set again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SearchIndex } from '../../server/src/core/index/searchIndex.ts';
import { VectorIndex } from '../../server/src/core/index/vectors.ts';
import { embedText } from '../../server/src/core/index/vectorRows.ts';
import { calibrationFor } from '../../server/src/core/index/calibration.ts';
import { joinedQuery } from '../../server/src/core/index/fusion.ts';
import { ollamaEmbedder, openaiEmbedder } from '../../server/src/core/embed/providers.ts';
import { normalize, type Embedder } from '../../server/src/core/embed/embedder.ts';
import { PlainBm25 } from './baseline.ts';
import type { Engine, EvalSet } from './semantic.ts';

/** The provider EVAL_PROVIDER (openai | ollama) at EVAL_PROVIDER_URL serving EVAL_PROVIDER_MODEL. */
export function providerEmbedder(): Embedder {
  const kind = process.env.EVAL_PROVIDER ?? 'openai';
  const url = process.env.EVAL_PROVIDER_URL ?? 'http://127.0.0.1:18777/v1';
  const model = process.env.EVAL_PROVIDER_MODEL ?? 'use-lite';
  if (kind === 'ollama') return ollamaEmbedder({ url, model, timeoutMs: 120_000 });
  if (kind === 'openai') return openaiEmbedder({ url, model, timeoutMs: 120_000 });
  throw new Error(`EVAL_PROVIDER must be openai or ollama, not ${kind}`);
}

const cacheFile = process.env.EVAL_PROVIDER_CACHE;
let cache: Record<string, number[]> | null = null;

/** Normalized vectors of `texts`, from the cache file where it has them. */
async function embedAll(emb: Embedder, texts: string[]): Promise<Float32Array[]> {
  if (cacheFile && cache === null) cache = existsSync(cacheFile) ? (JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, number[]>) : {};
  const key = (t: string) => `${emb.id}\n${t}`;
  const missing = [...new Set(texts.filter((t) => !cache?.[key(t)]))];
  const got = new Map<string, Float32Array>();
  for (let i = 0; i < missing.length; i += 64) {
    const part = missing.slice(i, i + 64);
    (await emb.embed(part)).forEach((v, j) => got.set(part[j]!, normalize(Float32Array.from(v))));
  }
  if (cache && cacheFile && missing.length > 0) {
    for (const [t, v] of got) cache[key(t)] = [...v];
    writeFileSync(cacheFile, JSON.stringify(cache));
  }
  return texts.map((t) => got.get(t) ?? Float32Array.from(cache![key(t)]!));
}

export async function providerEngine(set: EvalSet, emb: Embedder): Promise<Engine> {
  const lex = new SearchIndex<(typeof set.docs)[number]>();
  lex.load(set.docs);
  const docVecs = await embedAll(emb, set.docs.map(embedText));
  const vec = new VectorIndex<(typeof set.docs)[number]>(emb.id, docVecs[0]!.length);
  set.docs.forEach((d, i) => vec.set(d, docVecs[i]!));
  // Queries are embedded up front (a provider is async; the eval's runQuery is sync).
  const texts = [...new Set(set.queries.flatMap((q) => [q.q, ...(q.alternates.length > 0 ? [joinedQuery(q.q, q.alternates)] : [])]))];
  const qv = await embedAll(emb, texts);
  const byText = new Map(texts.map((t, i) => [t, qv[i]!]));
  return { lex, plain: new PlainBm25(set.docs), vec, embed: (t) => byText.get(t)!, cal: calibrationFor(emb.id) };
}
