// The upkeep of the semantic leg of one open store (semantic.ts asks it): a VectorIndex kept equal
// to the store's active memories (for those embedded so far) through the same change feed as the
// lexical index, seeded from `.cache/vectors.bin`, saved back on close and after enough changes.
// Memories without a vector are embedded in batches in the background (a fast built-in embedder
// does it at once for a one-shot command). When the embedder changes, a new VectorIndex is started
// for it and the store re-embedded, so one index never holds vectors of two embedders. A
// server's background pass waits while a call is in flight (core/foreground.ts).
import { existsSync } from 'node:fs';
import type { Store, StoreChange } from '../store/store.ts';
import type { StoredMemory } from '../types.ts';
import { VectorIndex } from './vectors.ts';
import { embedText, vectorKey, type VectorEmbedder } from './vectorRows.ts';
import { readVectors, rowFinder, VECTOR_FILE, writeVectorSource } from './vectorCache.ts';
import { collectGarbage } from './gc.ts';
import { sliceYield, nextTurn } from '../store/slices.ts';
import { foreground } from '../foreground.ts';



const BATCH = 64;
/** Memories embedded between two full collections in a long embedding pass (gc.ts). */
const GC_EVERY = 25_000;
const SAVE_AFTER = 200;
/** A slow embedder's background pass saves what it has at most this often. */
const SAVE_EVERY_MS = 30_000;
/** Memories whose cached vectors a server takes between two calls of its sliced yield while the leg opens (store/slices.ts). */
const OPEN_CHUNK = 64;

export interface SourcedEmbedder extends VectorEmbedder {
  close?(): Promise<void>;
  /** a slow embedder: start loading now; `ready` once it answers in milliseconds */
  warm?(): void;
  readonly ready?: boolean;
  whenReady?(): Promise<boolean>;
  embedWithSource?(texts: readonly string[]): Promise<{ vectors: Float32Array[]; embedder: { id: string; dim: number } }>;
}

export interface UpkeepOptions {
  /** false: one-shot command (embed what is missing now with a fast embedder, no timers) */
  watch: boolean;
  warn: (msg: string) => void;
  /** progress of a (re-)embedding, for the CLI: done of total */
  progress?: (done: number, total: number) => void;
  /** the cache's file name in .cache/ (default VECTOR_FILE) */
  cacheFile?: string;
  /** the leg that answers while this one cannot (semantic.ts): opened, settled and closed with it */
  interim?: { readonly embedder: { readonly id: string }; open(): Promise<void>; settle(): Promise<void>; close(): Promise<void> };
}

export class SemanticUpkeep {
  protected vec: VectorIndex<StoredMemory> | null = null;
  protected unsubscribe: (() => void) | null = null;
  protected pending = new Set<string>();
  protected running: Promise<void> | null = null;
  protected changes = 0;
  protected closed = false;
  protected warned = false;
  /** the embedder failed and an interim leg answers from then on */
  protected failed = false;

  constructor(
    protected readonly store: Store,
    readonly embedder: SourcedEmbedder,
    protected readonly opts: UpkeepOptions,
  ) {}

  /** Memories still waiting for a vector. */
  get backlog(): number {
    return this.pending.size;
  }

  /**
   * A server (watch) opens at once: the cache is read and the missing vectors are embedded in the
   * background. A one-shot command opens on first need (ready()), so commands that never search
   * or write never load the embedder or the vectors.
   */
  async open(): Promise<void> {
    await this.opts.interim?.open();
    // After the store's check of cached records: loading the table and the vectors must not
    // delay it (reads wait for it only briefly).
    if (this.opts.watch) {
      // a server loads its model at once, in its worker, while the interim leg answers; a model
      // that cannot load is reported now (one warning), not at the first embedding it would do
      this.embedder.warm?.();
      void this.embedder.whenReady?.().then((ok) => (ok ? undefined : this.embedBatch([''])));
      void this.ready();
    }
  }

  protected opening: Promise<void> | null = null;
  /** the cached vectors are all taken (doOpen ran to its end) */
  protected loaded = false;
  protected isOpen = false;
  /** Opens the leg if it is not open yet (a no-op after the first call). */
  ready(): Promise<void> {
    return (this.opening ??= this.store.validated().then(() => this.doOpen()).finally(() => {
      this.isOpen = true;
    }));
  }

  protected async doOpen(): Promise<void> {
    if (this.closed) return;
    let id: string;
    let dim: number;
    try {
      id = this.embedder.id;
      dim = this.embedder.dim;
    } catch (err) {
      this.warnOnce(`semantic search is off: ${(err as Error).message}`);
      return;
    }
    const vec = (this.vec = new VectorIndex<StoredMemory>(id, dim, capacityFor(this.store.activeCount)));
    // Listening from here on: a server yields between the steps below and every OPEN_CHUNK
    // memories of the loop (at 50k memories the open is ~0.2 s of work that would otherwise hold
    // up every call). A change made meanwhile is applied like any other (its vector is then
    // held, and the loop skips it); the loop sees the store's current records.
    this.unsubscribe = this.store.onChange((ch) => this.apply(ch));
    if (this.opts.watch) await nextTurn();
    if (this.closed || this.vec !== vec) return;
    const cached = readVectors(this.store.dir, (why) => this.opts.warn(`vector cache ignored (${why}); re-embedding`), this.opts.cacheFile ?? VECTOR_FILE);
    try {
      if (this.opts.watch) await nextTurn();
      if (this.closed || this.vec !== vec) return;
      if (cached && cached.embedder === id && cached.dim === dim) {
        const rowOf = rowFinder(cached);
        let k = 0;
        for (const m of this.store.active()) {
          if (this.opts.watch && ++k % OPEN_CHUNK === 0) {
            await sliceYield();
            if (this.closed || this.vec !== vec) return;
          }
          // Only a change applied during a server's yields can have given m a vector already: a
          // command's loop runs without a break, so it skips the check (a map miss per memory).
          if (this.opts.watch && vec.has(m)) continue;
          const i = rowOf(m.id, m.updated);
          if (i === undefined) continue;
          const cw = cached.codeWords;
          let row: Int8Array;
          try {
            row = cached.row(i);
          } catch (err) {
            // the rest is embedded again, like a cache without them
            this.opts.warn(`vector cache ignored part way (${(err as Error).message}); re-embedding the rest`);
            break;
          }
          vec.setRaw(m, row, cached.scales[i]!, cw > 0 ? cached.codes.subarray(i * cw, (i + 1) * cw) : undefined);
        }
      }
    } finally {
      cached?.close();
    }
    for (const m of this.store.active()) if (!vec.has(m)) this.pending.add(m.id);
    this.changes = this.pending.size;
    this.loaded = true;
    if (this.pending.size > 0) {
      if (!this.opts.watch && this.embedder.embedSync) this.embedPendingSync();
      else if (this.opts.watch || !this.opts.interim) this.kick();
    }
  }

  protected apply(ch: StoreChange): void {
    const v = this.vec;
    if (!v) return;
    if (ch.kind === 'upsert' && !ch.mem.tombstoned) {
      const m = ch.mem;
      const old = v.docOf(m.id);
      if (old && embedText(old) === embedText(m)) v.retarget(m);
      else if (this.embedder.embedSync && v.embedderId === this.embedder.id) {
        // A fast embedder: the vector is current as soon as the write is.
        try {
          v.set(m, this.embedder.embedSync(embedText(m)));
        } catch {
          v.remove(m.id);
          this.pending.add(m.id);
          this.kick();
        }
      } else {
        v.remove(m.id);
        this.pending.add(m.id);
        this.kick();
      }
    } else {
      const id = ch.kind === 'upsert' ? ch.mem.id : ch.prev.id;
      v.remove(id);
      this.pending.delete(id);
    }
    this.changes++;
  }

  protected embedPendingSync(): void {
    const v = this.vec!;
    const total = this.pending.size;
    let done = 0;
    for (const id of this.pending) {
      const m = this.store.get(id);
      if (m) v.set(m, this.embedder.embedSync!(embedText(m)));
      if (++done % 1000 === 0) this.opts.progress?.(done, total);
    }
    if (total > 0) this.opts.progress?.(total, total);
    this.pending.clear();
  }

  /** Starts the background embedding unless it runs. */
  protected kick(): void {
    if (this.running || this.closed) return;
    this.running = this.drain().finally(() => {
      this.running = null;
    });
  }

  protected async drain(): Promise<void> {
    const total = () => this.pending.size + done;
    let done = 0;
    let lastSave = Date.now();
    while (this.pending.size > 0 && !this.closed) {
      // A server's pass waits while a call is in flight (core/foreground.ts): the call has the
      // cores, and the memories it changes are embedded after it. An embedder in this thread
      // does a backlog of one batch at once (a write's memory, a small store: about a
      // millisecond), so a search right after it finds their vectors.
      if (this.opts.watch && foreground.busy && !(this.embedder.embedSync && this.pending.size <= BATCH)) {
        await foreground.idle(() => this.closed);
        continue;
      }
      const batch: StoredMemory[] = [];
      for (const id of this.pending) {
        const m = this.store.get(id);
        this.pending.delete(id);
        if (m) batch.push(m);
        if (batch.length === BATCH) break;
      }
      if (batch.length === 0) continue;
      const got = await this.embedBatch(batch.map(embedText), 'background');
      if (!got) {
        for (const m of batch) this.pending.add(m.id);
        return; // the embedder is down; the next change tries again
      }
      const v = this.vecFor(got.embedder);
      batch.forEach((m, i) => {
        // The store may hold a newer object for the same content (a re-read file): same vector.
        const cur = this.store.get(m.id);
        if (cur === m || (cur && vectorKey(cur) === vectorKey(m) && embedText(cur) === embedText(m))) v.set(cur!, got.vectors[i]!);
        else if (cur) this.pending.add(m.id);
      });
      done += batch.length;
      this.opts.progress?.(done, total());
      // A long pass (a first start, a provider switch) collects as it goes: its per-batch
      // temporaries, promoted by the pauses, are otherwise peak RSS (+70 MB at 200k memories).
      if (done % GC_EVERY < BATCH && done >= GC_EVERY) collectGarbage();
      // A slow embedder's long pass (minutes for a big store) saves as it goes, so a kill or a
      // crash loses at most SAVE_EVERY_MS of its work: the next start embeds only the rest.
      if (this.opts.watch && !this.embedder.embedSync && this.changes >= SAVE_AFTER && Date.now() - lastSave >= SAVE_EVERY_MS) {
        await this.save();
        lastSave = Date.now();
      }
      await nextTurn();
    }
    if (done >= GC_EVERY) collectGarbage();
    if (this.opts.watch && this.changes >= SAVE_AFTER) await this.save();
  }

  /** `urgent`: a query someone waits for; `background`: a batch of the store's pass (a model's worker pauses it while a call is in flight). */
  protected async embedBatch(texts: string[], mode?: 'urgent' | 'background'): Promise<{ vectors: Float32Array[]; embedder: { id: string; dim: number } } | null> {
    try {
      if (this.embedder.embedWithSource) return await this.embedder.embedWithSource(texts);
      return { vectors: await this.embedder.embed(texts, mode ? { [mode]: true } : undefined), embedder: { id: this.embedder.id, dim: this.embedder.dim } };
    } catch (err) {
      if (this.opts.interim) {
        if (!this.failed) {
          this.failed = true;
          this.opts.warn(`${(err as Error).message}; semantic search uses the built-in table instead (${this.opts.interim.embedder.id})`);
        }
        this.pending.clear();
        return null;
      }
      this.warnOnce(`embedding failed (${(err as Error).message}); searching without the semantic leg until it answers`);
      return null;
    }
  }

  /** The index for vectors of `e`: a new one (and a full re-embedding) when the embedder changed. */
  protected vecFor(e: { id: string; dim: number }): VectorIndex<StoredMemory> {
    if (this.vec && this.vec.embedderId === e.id && this.vec.dim === e.dim) return this.vec;
    this.vec = new VectorIndex<StoredMemory>(e.id, e.dim, capacityFor(this.store.activeCount));
    for (const m of this.store.active()) this.pending.add(m.id);
    this.changes = this.pending.size;
    return this.vec;
  }

  protected warnOnce(msg: string): void {
    if (this.warned) return;
    this.warned = true;
    this.opts.warn(msg);
  }
  /** Waits for the background embedding (tests, close). */
  async settle(): Promise<void> {
    while (this.running) await this.running;
    await this.opts.interim?.settle();
  }

  async save(): Promise<void> {
    const v = this.vec;
    if (!v || !existsSync(this.store.dir)) return;
    const docs: StoredMemory[] = [];
    const rows: number[] = []; // the index's row of each saved memory
    for (const { doc, row } of v.entries()) {
      if (this.store.get(doc.id) !== doc) continue;
      docs.push(doc);
      rows.push(row);
    }
    try {
      const saving = this.changes;
      // streamed from the index's own rows (vectorCache.ts): no copy of every vector; changes made
      // while its fsync runs off the event loop count toward the next save
      await writeVectorSource(this.store.dir, { embedder: v.embedderId, dim: v.dim, codeWords: v.codeWords, count: docs.length, key: (i) => vectorKey(docs[i]!), copyRows: (from, to, out) => v.copyRows(rows, from, to, out) }, this.opts.cacheFile ?? VECTOR_FILE);
      this.changes = Math.max(0, this.changes - saving);
    } catch (err) {
      this.opts.warn(`could not save the vector cache: ${(err as Error).message}`);
    }
  }

  async close(): Promise<void> {
    // A one-shot command finishes its embedding before it exits (the next one starts from the
    // saved vectors); a server stops at once and saves what it has.
    // With an interim leg the command does not wait for the model (readyForSearch waited for
    // what it would): it saves what was embedded, and the rest is embedded later.
    if (!this.opts.watch && this.opening && !this.opts.interim) {
      await this.opening;
      await this.settle();
    }
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.settle();
    // A leg closed before its cached vectors were all taken (an open under way stops at its next
    // yield) saves nothing: the file it would write would lack them.
    if (this.changes > 0 && this.loaded && !this.failed) await this.save();
    await this.embedder.close?.();
    await this.opts.interim?.close();
  }
}


/**
 * Rows a new vector index makes room for: the store's memories and an eighth more. Sized to the
 * store exactly, the first new memory grew it (a new WebAssembly memory twice the size, every
 * row copied: the first write after the vectors loaded took ~35 ms at 50k memories instead of
 * ~5). Room not written to costs address space, not memory.
 */
export function capacityFor(memories: number): number {
  return Math.max(64, memories + (memories >> 3));
}
