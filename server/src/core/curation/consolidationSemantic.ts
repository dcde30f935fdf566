// The rewording check's vectors (consolidate.ts judgePair): only the memories in a pair that
// shares enough words without being a duplicate on words alone are embedded (their bodies, as
// the rewording threshold was measured), and kept on the index's entry while its text stays.

/**
 * The embedder of the rewording check, and the cosine at or over which two memories sharing
 * enough words say the same thing.
 */
export interface SemanticSource {
  /** The embedder's id: part of what a snapshot was judged with. */
  id(): string;
  min(): number;
  /** One vector per text; null when the embedder cannot answer now. */
  embed(texts: string[]): Promise<Float32Array[] | null>;
  /** An embedder in this thread (the built-in table) answers at once: no wait per memory. */
  embedSync?(texts: string[]): Float32Array[] | null;
  /**
   * False while the embedder cannot answer in milliseconds (a model still loading in a server):
   * the pairs it would judge wait for a later settle instead of for the model.
   */
  ready?(): boolean;
}

/** What holds a vector: an index entry. */
export interface Vectored {
  mem: { body: string };
  vec?: Float32Array;
}

function take(need: Vectored[], got: Float32Array[] | null): boolean {
  if (got === null || got.length !== need.length) return false;
  need.forEach((e, i) => (e.vec = got[i]!));
  return true;
}

/** Gives these entries their vectors from an embedder in this thread; false when it could not. */
export function vectorsNow(need: Vectored[], sem: SemanticSource & { embedSync: NonNullable<SemanticSource['embedSync']> }): boolean {
  if (need.length === 0) return true;
  try {
    return take(need, sem.embedSync(need.map((e) => e.mem.body)));
  } catch {
    return false;
  }
}

/** The same from an embedder out of this thread (a worker, a server): awaited. */
export async function vectorsLater(need: Vectored[], sem: SemanticSource): Promise<boolean> {
  if (need.length === 0) return true;
  try {
    return take(need, await sem.embed(need.map((e) => e.mem.body)));
  } catch {
    return false;
  }
}
