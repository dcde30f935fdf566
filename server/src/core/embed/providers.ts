// Optional embedding providers over HTTP (Ollama, OpenAI-compatible), and the fallback wrapper
// that degrades to the built-in when a provider fails. Nothing is contacted unless configured:
// these functions only build objects; the first request goes out on the first embed().
import { EmbedError, normalize, type Embedder, type SyncEmbedder } from './embedder.ts';

export const DEFAULT_BATCH = 64;
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface OllamaOptions {
  /** e.g. http://127.0.0.1:11434 */
  url: string;
  /** e.g. nomic-embed-text */
  model: string;
  timeoutMs?: number;
  /** texts per request */
  batch?: number;
}

export interface OpenAIOptions {
  /** e.g. https://api.openai.com/v1 (POSTs to <url>/embeddings) or a full .../embeddings URL */
  url: string;
  /** e.g. text-embedding-3-small */
  model: string;
  /** name of the environment variable that holds the API key (never the key itself); none: no Authorization header */
  apiKeyEnv?: string;
  timeoutMs?: number;
  batch?: number;
}

function trimSlash(u: string): string {
  return u.replace(/\/+$/, '');
}

/** The endpoint an OpenAI-style url means: a url already ending in /embeddings is used as-is. */
export function openaiEndpoint(url: string): string {
  const u = trimSlash(url);
  return /\/embeddings$/.test(u) ? u : `${u}/embeddings`;
}

async function postJson(what: string, endpoint: string, body: unknown, headers: Record<string, string>, timeoutMs: number): Promise<unknown> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: ctl.signal,
    });
  } catch (err) {
    clearTimeout(timer);
    if (ctl.signal.aborted) throw new EmbedError(`${what}: no answer from ${endpoint} within ${timeoutMs} ms`);
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new EmbedError(`${what}: cannot reach ${endpoint}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  try {
    const text = await res.text();
    if (!res.ok) {
      throw new EmbedError(`${what}: ${endpoint} answered HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new EmbedError(`${what}: ${endpoint} answered something that is not JSON`);
    }
  } catch (err) {
    if (ctl.signal.aborted && !(err instanceof EmbedError)) throw new EmbedError(`${what}: no answer from ${endpoint} within ${timeoutMs} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

function toVector(what: string, v: unknown, dim: number | null): Float32Array {
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'number' || !Number.isFinite(x))) {
    throw new EmbedError(`${what}: an embedding is not a non-empty array of numbers`);
  }
  if (dim !== null && v.length !== dim) throw new EmbedError(`${what}: embeddings of different lengths (${dim} and ${v.length})`);
  return normalize(Float32Array.from(v as number[]));
}

/** Shared batching: `call` embeds one batch; checks count and a consistent dim across batches. */
function batched(
  what: string,
  batch: number,
  call: (texts: string[]) => Promise<unknown[]>,
): { embed(texts: readonly string[]): Promise<Float32Array[]>; dim: () => number } {
  let dim: number | null = null;
  return {
    dim: () => dim ?? 0,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batch) {
        const chunk = texts.slice(i, i + batch);
        const raw = await call(chunk);
        if (raw.length !== chunk.length) throw new EmbedError(`${what}: asked for ${chunk.length} embeddings, got ${raw.length}`);
        for (const v of raw) {
          const vec = toVector(what, v, dim);
          dim = vec.length;
          out.push(vec);
        }
      }
      return out;
    },
  };
}

/** An embedder whose dim is known after its first answer (0 before). */
export interface RemoteEmbedder extends Embedder {
  readonly endpoint: string;
}

/** Ollama: POST <url>/api/embed {model, input: [...]} -> {embeddings: number[][]}. */
export function ollamaEmbedder(opts: OllamaOptions): RemoteEmbedder {
  const endpoint = `${trimSlash(opts.url)}/api/embed`;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const what = `ollama embedder (${opts.model})`;
  const b = batched(what, Math.max(1, opts.batch ?? DEFAULT_BATCH), async (input) => {
    const body = await postJson(what, endpoint, { model: opts.model, input }, {}, timeoutMs);
    const embs = (body as { embeddings?: unknown } | null)?.embeddings;
    if (!Array.isArray(embs)) throw new EmbedError(`${what}: answer from ${endpoint} has no embeddings array`);
    return embs;
  });
  return {
    id: `ollama:${opts.model}`,
    endpoint,
    get dim() {
      return b.dim();
    },
    embed: (texts) => b.embed(texts),
  };
}

/** OpenAI-compatible: POST <url>/embeddings {model, input} -> {data: [{embedding, index}]}. */
export function openaiEmbedder(opts: OpenAIOptions): RemoteEmbedder {
  const endpoint = openaiEndpoint(opts.url);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const what = `openai embedder (${opts.model})`;
  const b = batched(what, Math.max(1, opts.batch ?? DEFAULT_BATCH), async (input) => {
    const headers: Record<string, string> = {};
    if (opts.apiKeyEnv) {
      const key = process.env[opts.apiKeyEnv];
      if (!key) throw new EmbedError(`${what}: environment variable ${opts.apiKeyEnv} (embed.api_key_env) is not set`);
      headers.authorization = `Bearer ${key}`;
    }
    const body = await postJson(what, endpoint, { model: opts.model, input }, headers, timeoutMs);
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new EmbedError(`${what}: answer from ${endpoint} has no data array`);
    const out: unknown[] = new Array(input.length);
    for (let i = 0; i < data.length; i++) {
      const row = data[i] as { embedding?: unknown; index?: unknown } | null;
      const idx = typeof row?.index === 'number' ? row.index : i;
      if (!Number.isInteger(idx) || idx < 0 || idx >= input.length || out[idx] !== undefined) {
        throw new EmbedError(`${what}: answer from ${endpoint} has a bad or repeated index ${String(row?.index)}`);
      }
      out[idx] = row?.embedding;
    }
    if (data.length !== input.length) return data;
    return out;
  });
  return {
    id: `openai:${opts.model}`,
    endpoint,
    get dim() {
      return b.dim();
    },
    embed: (texts) => b.embed(texts),
  };
}

/** What withFallback() answered with last, so a caller never mixes two embedders' vectors in one index. */
export interface FallbackEmbedder extends Embedder {
  readonly primary: Embedder;
  readonly fallback: SyncEmbedder;
  /** The embedder that produced the last answer (null before the first). */
  readonly lastUsed: Embedder | null;
  /** True once the primary has failed: from then on every call uses the fallback. */
  readonly degraded: boolean;
  /** Like embed(), also telling which embedder produced the vectors. */
  embedWithSource(texts: readonly string[]): Promise<{ vectors: Float32Array[]; embedder: Embedder }>;
}

/**
 * Tries `primary`; on its first failure (HTTP error, timeout, bad answer) warns once and answers
 * with `fallback` from then on (the process never goes back to the primary, so one index never
 * holds both kinds of vectors). `id` and `dim` are those of the embedder currently in use.
 */
export function withFallback(primary: Embedder, fallback: SyncEmbedder, warn: (m: string) => void): FallbackEmbedder {
  let degraded = false;
  let lastUsed: Embedder | null = null;
  const current = (): Embedder => (degraded ? fallback : primary);
  const embedWithSource = async (texts: readonly string[]) => {
    if (!degraded) {
      try {
        const vectors = await primary.embed(texts);
        if (!degraded) {
          lastUsed = primary;
          return { vectors, embedder: primary };
        }
      } catch (err) {
        if (!degraded) {
          degraded = true;
          warn(`${(err as Error).message}; using the built-in embedder (${fallback.id}) instead for the rest of this session`);
        }
      }
    }
    const vectors = await fallback.embed(texts);
    lastUsed = fallback;
    return { vectors, embedder: fallback as Embedder };
  };
  return {
    primary,
    fallback,
    get id() {
      return current().id;
    },
    get dim() {
      return current().dim;
    },
    get lastUsed() {
      return lastUsed;
    },
    get degraded() {
      return degraded;
    },
    embedWithSource,
    embed: async (texts) => (await embedWithSource(texts)).vectors,
  };
}
