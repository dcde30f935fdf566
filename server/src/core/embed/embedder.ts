// The contract every embedder meets: the built-in table (builtin.ts) and the optional HTTP
// providers (providers.ts). Vectors of different embedders never mix: `id` is part of the vector
// cache key, and withFallback() tells which embedder produced each answer.
import { CairnError } from '../errors.ts';

export interface Embedder {
  /** Stable id, part of the vector cache key: e.g. 'builtin:<name>-v1', 'ollama:nomic-embed-text', 'openai:text-embedding-3-small'. */
  readonly id: string;
  readonly dim: number;
  /** Unit-length vectors, one per text, same order. Never rejects for the built-in. */
  /**
   * `urgent`: a query someone waits for; `background`: the embedding of the store, which an
   * embedder with a queue pauses while a call is in flight (core/foreground.ts).
   */
  embed(texts: readonly string[], opts?: { urgent?: boolean; background?: boolean }): Promise<Float32Array[]>;
}

export interface SyncEmbedder extends Embedder {
  embedSync(text: string): Float32Array;
}

/** An embedder could not answer: its data file is missing or damaged, or a provider failed. The message names the file or the URL. */
export class EmbedError extends CairnError {
  override name = 'EmbedError' as const;
}

/** Scales `v` to unit length in place; a zero vector stays zero. Returns `v`. */
export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  if (s > 0) {
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  }
  return v;
}

/** Dot product; for unit vectors this is the cosine similarity. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}
