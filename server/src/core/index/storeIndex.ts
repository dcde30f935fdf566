// The index of one open store, as one thing with one life: the lexical index (live.ts) and, when
// an embedder is configured, the semantic leg (semantic.ts), opened together with the store and
// closed with it. The facade owns one per open store; operations ask it (lexical, semantic,
// candidates) and never open, replace or close what it holds.
import type { Store } from '../store/store.ts';
import type { OneShotFreshness, PhaseProgress, StoredMemory } from '../types.ts';
import { LiveIndex } from './live.ts';
import { SemanticLeg } from './semantic.ts';
import type { SourcedEmbedder } from './semanticUpkeep.ts';
import { vectorFileFor } from './vectorCache.ts';

/** The embedders of the semantic leg (embed/config.ts legEmbedders): index/ does not depend on embed/. */
export type LegEmbedders = { embedder: SourcedEmbedder; interim: SourcedEmbedder | null } | null;

export interface StoreIndexOptions {
  synonyms: Record<string, string[]>;
  /** false for one-shot commands (LiveIndexOptions.watch). */
  watch: boolean;
  oneShot: OneShotFreshness;
  warn: (msg: string) => void;
  /** Asked once the lexical index is open: the semantic leg's embedders, or null (embedding off). */
  embedders: () => LegEmbedders;
}

export class StoreIndex {
  private liveAt: LiveIndex | null = null;
  private semanticAt: SemanticLeg | null = null;

  constructor(
    private readonly store: Store,
    private readonly opts: StoreIndexOptions,
  ) {}

  /** The lexical index; null before open and after close. */
  get live(): LiveIndex | null {
    return this.liveAt;
  }

  /** The semantic leg (vectors of the configured embedder); null when embedding is off, before open and after close. */
  get semantic(): SemanticLeg | null {
    return this.semanticAt;
  }

  /** The open lexical index: a call made before the store opened (or after it closed) is a bug. */
  lexical(): LiveIndex {
    const l = this.liveAt;
    if (l === null) throw new Error('the search index is not open (Cairn.open opens it)');
    return l;
  }

  /** `progress` hears how the open goes: reading the index cache, checking and loading files (the CLI's progress line). */
  async open(progress?: PhaseProgress): Promise<void> {
    const { watch, warn } = this.opts;
    const l = new LiveIndex(this.store, { synonyms: this.opts.synonyms, watch, oneShot: this.opts.oneShot, warn, ...(progress ? { progress } : {}) });
    this.liveAt = l;
    await l.open();
    const e = this.opts.embedders();
    if (e !== null) {
      // provider "local": the model's leg, the built-in table's answering until it can.
      const interim = e.interim && new SemanticLeg(this.store, e.interim, { watch, warn, progress: embedProgress(watch) });
      const leg = new SemanticLeg(this.store, e.embedder, {
        watch, warn, progress: embedProgress(watch),
        ...(interim ? { interim, cacheFile: vectorFileFor(e.embedder.id) } : {}),
      });
      this.semanticAt = leg;
      await leg.open();
    }
  }

  /** Lets the lexical index's background work begin (Cairn.during: once no call is in flight). */
  startBackground(): void {
    this.liveAt?.startBackground();
  }

  async close(): Promise<void> {
    const l = this.liveAt;
    const s = this.semanticAt;
    this.liveAt = null;
    this.semanticAt = null;
    if (s !== null) await s.close();
    if (l !== null) await l.close();
  }

  /** Ids of active memories sharing the rarest terms of `text`, best first: dedup candidates. */
  candidatesFor(text: string, limit: number): string[] {
    return this.lexical().index.candidatesFor(text, limit);
  }

  /** The memories candidatesFor names: the write gates take the records the index holds. */
  candidateRecordsFor(text: string, limit: number): StoredMemory[] {
    return this.lexical().index.candidateDocsFor(text, limit);
  }
}

/**
 * Progress of a (re-)embedding of at least EMBED_NOTE_MIN memories in a one-shot command, on
 * stderr (never in a server): live on a terminal, else one line when done.
 */
const EMBED_NOTE_MIN = 100;
function embedProgress(watch: boolean): ((done: number, total: number) => void) | undefined {
  if (watch) return undefined;
  // The end of a pass may be reported twice (the last batch, then the drain's end): said once.
  let ended = false;
  const end = (done: number, total: number) => {
    if (done < total) ended = false;
    else if (ended) return true;
    else ended = true;
    return false;
  };
  if (!process.stderr.isTTY) {
    return (done, total) => {
      if (end(done, total)) return;
      if (done >= total && total >= EMBED_NOTE_MIN) process.stderr.write(`embedded ${total} memories for semantic search\n`);
    };
  }
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (end(done, total)) return;
    if (total < EMBED_NOTE_MIN || (done < total && now - last < 500)) return;
    last = now;
    process.stderr.write(`\rembedding memories for semantic search: ${done}/${total}${done >= total ? '\n' : ''}`);
  };
}
