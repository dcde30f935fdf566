// The semantic leg of one open store: a VectorIndex kept equal to the store's active memories
// (for those embedded so far) through the same change feed as the lexical index, seeded from
// `.cache/vectors.bin`, saved back on close and after enough changes.
//
// Embedding never blocks a search: memories without a vector are embedded in batches in the
// background (a fast built-in embedder does it at once for a one-shot command), and a search uses
// whatever vectors exist. When a provider fails, the fallback embedder answers from then on: the
// leg then starts a new VectorIndex for it (re-embedding in the background), so one ranking never
// compares vectors of two embedders.
//
// A slow embedder (the local transformer model) has an `interim` leg over the built-in table:
// until the model's vectors cover the store (a first start, a model change) and whenever the
// model cannot run, every search, gate and neighbour question is answered by the interim leg, so
// recall never drops below the table's while the model catches up in the background.
import type { Store } from '../store/store.ts';
import type { StoredMemory } from '../types.ts';
import type { VectorIndex } from './vectors.ts';
import { embedText, vectorKey, type VectorHit } from './vectorRows.ts';
import { SemanticUpkeep, type SourcedEmbedder, type UpkeepOptions } from './semanticUpkeep.ts';

/** Below this many memories a call waits for the leg to open (a few ms); above, it does not. */
const WAIT_OPEN_BELOW = 10_000;
/**
 * A one-shot command with an interim leg waits for the model to embed a backlog up to this size
 * (a few seconds, progress shown) before it answers; a bigger one is left to the server, and the
 * command answers with the interim leg.
 */
const ONE_SHOT_WAIT_MAX = 256;

export interface SemanticOptions extends UpkeepOptions {
  /** answers while this leg's vectors do not cover the store, or its embedder fails (see above) */
  interim?: SemanticLeg;
}

/** The semantic leg: answers searches, gates and neighbour questions from the vectors its upkeep keeps. */
export class SemanticLeg extends SemanticUpkeep {
  declare protected readonly opts: SemanticOptions;

  constructor(store: Store, embedder: SourcedEmbedder, opts: SemanticOptions) {
    super(store, embedder, opts);
  }

  /** tombstones' vectors, by embedder id + vector key */
  private tombVecs = new Map<string, Float32Array>();

  /** The index the current embedder's vectors live in (null until the embedder answered once); the interim leg's while it answers. */
  get index(): VectorIndex<StoredMemory> | null {
    const d = this.delegate();
    return d ? d.index : this.vec;
  }
  /**
   * True when (nearly) every memory has its vector. While a store is being (re-)embedded, a
   * search uses the lexical leg alone (or the interim leg): a half-embedded store would favour
   * whatever was embedded first.
   */
  get complete(): boolean {
    const d = this.delegate();
    return d ? d.complete : this.ownComplete();
  }
  private ownComplete(): boolean {
    return this.vec !== null && this.loaded && this.pending.size <= Math.max(10, this.vec.size / 100);
  }
  /** The interim leg while it answers for this one, else null. */
  private delegate(): SemanticLeg | null {
    const i = this.opts.interim;
    if (!i) return null;
    return this.failed || !this.isOpen || this.embedder.ready === false || !this.ownComplete() || this.vec!.embedderId !== this.embedder.id ? i : null;
  }
  /** Whose vectors answer now: this leg's embedder, or the interim leg's (tests, the bench). */
  get answering(): string | null {
    return this.index?.embedderId ?? null;
  }

  /**
   * How far the store's embedding is (memory_health's `semantic_index`): the embedder's id, whose
   * vectors answer now, how many active memories have this embedder's vector and how many wait
   * for one. Read as it is: nothing waits for the embedding. Null in a command that never
   * opened the leg (it did not search): its vectors were not read.
   */
  coverage(): { embedder: string | null; answering: string | null; embedded: number; pending: number } | null {
    if (!this.opts.watch && this.opening === null) return null;
    let id: string | null;
    try {
      id = this.embedder.id;
    } catch {
      id = null;
    }
    const v = this.vec;
    return { embedder: id, answering: this.answering, embedded: v !== null && v.embedderId === id ? v.size : 0, pending: this.loaded ? this.pending.size : this.store.activeCount - (v?.size ?? 0) };
  }

  /**
   * For a search or a write gate: waits for the leg to open unless the store is still checking
   * its cached records (a big store's first second), or a server's big store is still loading its
   * vectors: it then answers at once (false: no semantic leg for this call) and the leg opens in
   * the background. A small store's leg opens in a few milliseconds and is waited for.
   */
  async readyForSearch(): Promise<boolean> {
    const i = this.opts.interim;
    if (i) {
      if (!this.opts.watch) {
        // a command: a small backlog is embedded before it answers, a big one left to the server
        await this.ready();
        if (this.pending.size <= ONE_SHOT_WAIT_MAX && !this.failed) {
          // the model is loaded (~0.5-2 s) for a command whose answer it can give
          if (this.embedder.whenReady && !(await this.embedder.whenReady())) await this.embedBatch(['']);
          if (this.pending.size > 0) {
            this.kick();
            await this.settle();
          }
        }
      } else void this.ready();
      return this.delegate() ? i.readyForSearch() : true;
    }
    if (this.isOpen) return true;
    if (this.store.validating || (this.opts.watch && this.store.activeCount >= WAIT_OPEN_BELOW)) {
      void this.ready();
      return false;
    }
    await this.ready();
    return true;
  }

  private lastQuery: { text: string; embedder: string; q: Float32Array } | null = null;

  /** The query's vector and the index it may be compared with; null when the leg cannot answer. */
  async queryVector(text: string): Promise<{ q: Float32Array; index: VectorIndex<StoredMemory> } | null> {
    const d = this.delegate();
    if (d) return d.queryVector(text);
    await this.ready();
    if (!this.vec) return null;
    let got: { vectors: Float32Array[]; embedder: { id: string; dim: number } } | null;
    if (this.embedder.embedSync && this.vec.embedderId === this.embedder.id) {
      try {
        // A write's gates ask for the same text twice (active and removed neighbours).
        const last = this.lastQuery;
        const q = last && last.text === text && last.embedder === this.vec.embedderId ? last.q : this.embedder.embedSync(text);
        this.lastQuery = { text, embedder: this.vec.embedderId, q };
        got = { vectors: [q], embedder: { id: this.vec.embedderId, dim: this.vec.dim } };
      } catch (err) {
        this.warnOnce(`embedding failed (${(err as Error).message}); searching without the semantic leg`);
        return null;
      }
    } else {
      const last = this.lastQuery;
      if (last && last.text === text && last.embedder === this.vec.embedderId) got = { vectors: [last.q], embedder: { id: this.vec.embedderId, dim: this.vec.dim } };
      else {
        got = await this.embedBatch([text], 'urgent');
        if (got) this.lastQuery = { text, embedder: got.embedder.id, q: got.vectors[0]! };
      }
    }
    if (!got) return null;
    const index = this.vecFor(got.embedder);
    if (this.pending.size > 0) this.kick();
    return { q: got.vectors[0]!, index };
  }

  /** Semantic neighbours of several texts at once (one embedding call). */
  async search(texts: string[], k: number, opts: { now: number; allow?: (m: StoredMemory) => boolean }): Promise<VectorHit<StoredMemory>[][]> {
    const d = this.delegate();
    if (d) return d.search(texts, k, opts);
    const out: VectorHit<StoredMemory>[][] = [];
    if (texts.length > 1 && !this.embedder.embedSync && this.vec && this.isOpen) {
      // a slow embedder: the query and its alternates in one call, not one round trip each
      const got = await this.embedBatch(texts, 'urgent');
      if (got && got.embedder.id === this.vec.embedderId) {
        const v = this.vec;
        if (this.pending.size > 0) this.kick();
        return got.vectors.map((q) => v.search(q, k, opts));
      }
    }
    for (const t of texts) {
      const qv = await this.queryVector(t);
      out.push(qv ? qv.index.search(qv.q, k, opts) : []);
    }
    return out;
  }

  /** Semantic neighbours of `text` among active memories: id and cosine, best first. */
  async neighbours(text: string, limit: number): Promise<Array<{ id: string; cosine: number; mem: StoredMemory }>> {
    const d = this.delegate();
    if (d) return d.neighbours(text, limit);
    const qv = await this.queryVector(text);
    if (!qv) return [];
    return qv.index.search(qv.q, limit).map((h) => ({ id: h.doc.id, cosine: h.sim, mem: h.doc }));
  }

  /** Semantic neighbours among tombstones (their vectors embedded on first need, kept per content). */
  async removedNeighbours(text: string, limit: number): Promise<Array<{ id: string; cosine: number }>> {
    const d = this.delegate();
    if (d) return d.removedNeighbours(text, limit);
    const qv = await this.queryVector(text);
    if (!qv) return [];
    const tombs = [...this.store.tombstones()];
    const missing = tombs.filter((t) => !this.tombVecs.has(`${qv.index.embedderId}\n${vectorKey(t)}`));
    if (missing.length > 0) {
      const got = await this.embedBatch(missing.map(embedText));
      if (!got || got.embedder.id !== qv.index.embedderId) return [];
      missing.forEach((t, i) => this.tombVecs.set(`${got.embedder.id}\n${vectorKey(t)}`, got.vectors[i]!));
    }
    const out: Array<{ id: string; cosine: number }> = [];
    for (const t of tombs) {
      const v = this.tombVecs.get(`${qv.index.embedderId}\n${vectorKey(t)}`)!;
      let s = 0;
      for (let i = 0; i < v.length; i++) s += v[i]! * qv.q[i]!;
      out.push({ id: t.id, cosine: s });
    }
    return out.sort((a, b) => b.cosine - a.cosine).slice(0, limit);
  }

}
