// The pairs memory_consolidate reports, kept between calls and brought up to date one memory at
// a time (the caller feeds it the store's changes): a new or edited memory is judged against its
// candidates, a removed one takes its pairs with it, and nothing else is judged again. A report
// is then a walk over the pairs already judged, never a pass over all pairs. What it judged can be
// kept in the store's cache (snapshot(), consolidationSnapshot.ts) and taken back by the next
// process (addLater with the snapshot): only the memories whose text or place changed since are
// judged again.
//
// Candidates come from a blocking index over the memories' stemmed tokens (consolidate.ts parse):
// a memory's rarest terms first, their lists walked up to WALK_BUDGET entries, the
// CANDIDATES_PER_MEMORY memories sharing the largest part of its tokens judged, among those it
// may be compared with at all (consolidationContext.ts: the same place and a shared scope). A
// store that repeats itself (the same note for twenty projects) makes every term common; the
// budget keeps the work per memory bounded there too, and the clusters still form, since each
// member is joined to the ones most like it. The work runs in slices (steps.ts SLICE_MS) between
// which the event loop answers other calls.
import {
  CONSOLIDATE_DUPLICATE, CONSOLIDATE_SUBJECT, REWORD_JACCARD, SUPERSEDE_CONTAINMENT, SUPERSEDE_GROWTH, SUPERSEDE_MIN_NEW,
  judgePair, wantsSemantic, type ConsolidateGroup, type ConsolidateMemory, type GroupKind,
} from './consolidate.ts';
import { Contexts } from './consolidationContext.ts';
import { Entries, type Entry } from './consolidationEntries.ts';
import { countSteps, groupSteps, type JudgedPairs } from './consolidationReport.ts';
import type { Snapshot } from './consolidationSnapshot.ts';
import { CANDIDATES_PER_MEMORY, TermLists, WALK_BUDGET } from './consolidationTerms.ts';
import { cosine, mayRelate, minOf } from './pairChecks.ts';
import { vectorsLater, vectorsNow, type SemanticSource } from './consolidationSemantic.ts';
import { runSliced, runSteps, SLICE_MS, type Steps } from './steps.ts';
import { nextTurn } from '../store/slices.ts';

export { CANDIDATES_PER_MEMORY, WALK_BUDGET } from './consolidationTerms.ts';
export type { SemanticSource } from './consolidationSemantic.ts';
/** Time one settle may spend waiting for an embedder that answers out of process; the rest waits for the next. */
const SEMANTIC_BUDGET_MS = 2000;
/** Raised whenever parse(), the stemmer or judgePair change what a pair is judged to be. */
const JUDGE_VERSION = 3;
/** What judges the pairs: a snapshot made under other rules or limits is not used. */
export const JUDGE = [JUDGE_VERSION, CANDIDATES_PER_MEMORY, WALK_BUDGET, CONSOLIDATE_DUPLICATE, CONSOLIDATE_SUBJECT, SUPERSEDE_CONTAINMENT, SUPERSEDE_GROWTH, SUPERSEDE_MIN_NEW, REWORD_JACCARD].join('/');

export interface SettleOptions {
  semantic?: SemanticSource | null;
  /** Memories taken and judged so far of those waiting when the work began (plus any that came since). */
  progress?: (done: number, total: number) => void;
  /** What runs between two slices; a setImmediate by default. */
  pause?: () => Promise<void>;
  /**
   * Work nobody waits for (a server judging ahead of its calls): what runs between two slices
   * instead of `pause` while no caller waits for this run (a caller without it joining the run
   * lifts it), e.g. a wait for the calls in flight to end.
   */
  background?: () => Promise<void>;
}

/** A snapshot being taken in: the memories whose key still matches keep their pairs. */
interface Restoring {
  snap: Snapshot;
  /** id -> its index in the snapshot's arrays */
  at: Map<string, number>;
  /** the entries made from it (a later change replaces the entry, and its pairs are not taken) */
  entries: Map<string, Entry>;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export class ConsolidationIndex {
  private readonly held: Entries;
  /** Judged relations, under both ids. */
  private edges = new Map<string, Map<string, ConsolidateGroup>>();
  /** Ids still to judge, in the order they came. */
  private queue = new Set<string>();
  /** Ids with a pair the rewording check could not look at yet (no vectors then). */
  private semanticLater = new Set<string>();
  private settling: Promise<void> | null = null;
  private readonly contexts: Contexts;
  private readonly global: string[];
  /** `<embedder id>@<cosine>` once the rewording check has judged a pair */
  private semanticUsed: string | null = null;
  private restoring: Restoring | null = null;

  /** Changes with every change to the memories held or to their pairs (a report made at one version holds for it). */
  version = 0;
  /**
   * Changes with every change a snapshot would show, except what a snapshot being taken in
   * brings back: a process that judged nothing new has nothing new to save.
   */
  changes = 0;

  /** `globalScopes`: config scopes.global, which let memories of two repos be compared (consolidationContext.ts). */
  constructor(opts: { globalScopes?: readonly string[] } = {}) {
    this.global = [...(opts.globalScopes ?? [])];
    this.contexts = new Contexts(this.global);
    this.held = new Entries(this.contexts, new TermLists(this.contexts));
  }

  /** Memories held. */
  get size(): number {
    return this.held.slotOf.size;
  }
  /** Memories whose pairs wait for the rewording check (its embedder could not answer yet). */
  get semanticPending(): number {
    return this.semanticLater.size;
  }
  /** Memories still to judge (or to take in). */
  get pending(): number {
    return this.queue.size + this.incoming.length - this.incomingAt;
  }

  /** Memories given by addLater, taken (parsed and indexed) by the next settle, in slices. */
  private incoming: ConsolidateMemory[] = [];
  private incomingAt = 0;
  /** ids removed or given a newer text while still incoming: their incoming entry is skipped */
  private superseded = new Set<string>();

  /**
   * Adds memories at the next settle, a slice at a time (a whole store's parsing at once held up
   * every other call for its duration). A later upsert or remove of one of them wins. With a
   * snapshot made under the same rules (JUDGE, the global scopes), the memories whose key it holds
   * keep the pairs it holds between them and are not judged again; the caller checks that the
   * rewording check's embedder is the one it names.
   */
  addLater(mems: Iterable<ConsolidateMemory>, from: Snapshot | null = null): void {
    if (!(from && from.judge === JUDGE && sameList(from.global, this.global) && this.restoring === null)) {
      for (const m of mems) this.incoming.push(m);
      return;
    }
    const r: Restoring = { snap: from, at: new Map(), entries: new Map() };
    from.ids.forEach((id, i) => r.at.set(id, i));
    this.restoring = r;
    // The memories that stood for their texts first (in their order): each text's pairs are on them.
    const later: ConsolidateMemory[] = [];
    for (const m of mems) (from.standIn[r.at.get(m.id) ?? -1] === 1 ? this.incoming : later).push(m);
    for (const m of later) this.incoming.push(m);
  }

  /**
   * Adds a memory or takes its new text or place; one whose text and place did not change is not
   * judged again. A memory with exactly the tokens of one held already, in the same place, is a
   * copy of it: it joins that one's duplicate cluster without being judged or walked (a store
   * that repeats itself holds many).
   */
  upsert(m: ConsolidateMemory): void {
    if (this.incomingAt < this.incoming.length) this.superseded.add(m.id);
    this.put(m, false);
  }

  private put(m: ConsolidateMemory, fromSnapshot: boolean): void {
    const ctx = this.contexts.idOf(m);
    const at = this.held.slotOf.get(m.id);
    if (at !== undefined) {
      const e = this.held.slots[at]!;
      if (e.mem.body === m.body && e.ctx === ctx) return;
      this.remove(m.id);
    }
    this.version++;
    const key = this.held.keyOf(m, ctx);
    const r = this.restoring;
    const i = fromSnapshot && r !== null ? r.at.get(m.id) : undefined;
    const restored = i !== undefined && r!.snap.keys[i] === key;
    if (!restored) this.changes++;
    const { slot, first } = this.held.add(m, ctx, key, restored ? r!.snap.sigs[i]! : null);
    if (restored) r!.entries.set(m.id, this.held.slots[slot]!);
    // A memory that stood for its text in the snapshot has its pairs there: not judged again.
    if (first) this.standFor(slot, !(restored && r!.snap.standIn[i] === 1));
  }

  /** The slot stands for its text from now on, and is judged unless `judge` is false. */
  private standFor(slot: number, judge = true): void {
    this.held.standFor(slot);
    if (judge) this.queue.add(this.held.slots[slot]!.mem.id);
  }

  /** Forgets a memory and every pair it was in; a copy of it then stands for their text. */
  remove(id: string): void {
    if (this.incomingAt < this.incoming.length) this.superseded.add(id);
    const gone = this.held.remove(id);
    if (gone === null) return;
    this.version++;
    this.changes++;
    if (!gone.e.indexed) return;
    this.queue.delete(id);
    this.semanticLater.delete(id);
    const mine = this.edges.get(id);
    if (mine) {
      for (const other of mine.keys()) this.edges.get(other)?.delete(id);
      this.edges.delete(id);
    }
    if (gone.next !== null) this.standFor(gone.next);
  }

  /**
   * Judges every memory waiting (one run at a time: a second caller waits for the same run),
   * yielding to the event loop every SLICE_MS.
   */
  settle(opts: SettleOptions = {}): Promise<void> {
    if (opts.semantic && this.semanticLater.size > 0) {
      for (const id of this.semanticLater) this.queue.add(id);
      this.semanticLater.clear();
    }
    if (this.queue.size === 0 && this.incomingAt >= this.incoming.length && this.settling === null) return Promise.resolve();
    const run = (this.settling ??= this.run(opts).finally(() => {
      this.settling = null;
    }));
    if (opts.background) return run;
    // Someone waits for this run: it no longer takes the background pause (one under way ends).
    this.waiting++;
    this.joined?.();
    return run.finally(() => this.waiting--);
  }
  /** Callers (without `background`) waiting for the run under way. */
  private waiting = 0;
  /** Ends the background pause under way, if any (a caller joined the run). */
  private joined: (() => void) | null = null;

  private async run(opts: SettleOptions): Promise<void> {
    const foreground = opts.pause ?? nextTurn;
    const background = opts.background;
    const pause = background
      ? () => {
          if (this.waiting > 0) return foreground();
          return new Promise<void>((resolve) => {
            this.joined = resolve;
            void background().then(resolve);
          }).finally(() => (this.joined = null));
        }
      : foreground;
    const sem = opts.semantic ?? null;
    let done = 0;
    let semSpent = 0;
    let t0 = performance.now();
    const total = () => done + this.queue.size + this.incoming.length - this.incomingAt;
    const tick = async () => {
      if (performance.now() - t0 < SLICE_MS) return;
      opts.progress?.(done, total());
      await pause();
      t0 = performance.now();
    };
    while (this.incomingAt < this.incoming.length) {
      const m = this.incoming[this.incomingAt++]!;
      if (!this.superseded.has(m.id)) {
        const keep = this.superseded;
        this.superseded = new Set();
        this.put(m, true);
        this.superseded = keep;
      }
      done++;
      await tick();
    }
    this.incoming = [];
    this.incomingAt = 0;
    this.superseded.clear();
    const r = this.restoring;
    if (r !== null) {
      await runSliced(this.restorePairs(r), pause);
      this.restoring = null;
    }
    while (this.queue.size > 0) {
      // A candidate walk needs every stand-in in the term lists (a change may bring one unparsed).
      if (this.held.unlistedAny) await runSliced(this.held.listAll(), pause);
      const id = this.queue.values().next().value as string;
      this.queue.delete(id);
      const slot = this.held.slotOf.get(id);
      if (slot === undefined) continue;
      this.changes++;
      const borderline = this.judge(slot);
      if (borderline.length > 0) {
        const need = [slot, ...borderline].map((s) => this.held.slots[s]!).filter((e) => e.vec === undefined);
        if (sem === null) this.semanticLater.add(id);
        else if (sem.embedSync) {
          if (vectorsNow(need, { ...sem, embedSync: sem.embedSync })) this.judgeSemantic(slot, borderline, sem);
          else this.semanticLater.add(id);
        } else if (semSpent >= SEMANTIC_BUDGET_MS || sem.ready?.() === false) this.semanticLater.add(id);
        else {
          const ts = performance.now();
          const got = await vectorsLater(need, sem);
          semSpent += performance.now() - ts;
          // The memory may have changed or gone while the vectors were computed.
          if (this.held.slotOf.get(id) === slot) {
            if (!got) this.semanticLater.add(id);
            else this.judgeSemantic(slot, borderline, sem);
          }
        }
      }
      done++;
      await tick();
    }
    opts.progress?.(done, done);
  }

  /** The snapshot's pairs between memories that kept their key (and still stand for their texts). */
  private *restorePairs(r: Restoring): Steps<void> {
    const kept = (id: string) => {
      const e = r.entries.get(id);
      return e !== undefined && e.indexed && this.held.slots[this.held.slotOf.get(id) ?? -1] === e;
    };
    let n = 0;
    for (const g of r.snap.pairs) {
      if (kept(g.ids[0]!) && kept(g.ids[1]!)) this.setEdge(g);
      if (++n % 512 === 0) yield;
    }
    for (const id of r.snap.later) if (kept(id) && !this.queue.has(id)) this.semanticLater.add(id);
    if (r.snap.semantic !== null) this.semanticUsed ??= r.snap.semantic;
  }

  private setEdge(g: ConsolidateGroup): void {
    this.version++;
    const [a, b] = g.ids as [string, string];
    (this.edges.get(a) ?? this.edges.set(a, new Map()).get(a)!).set(b, g);
    (this.edges.get(b) ?? this.edges.set(b, new Map()).get(b)!).set(a, g);
  }

  /** Judges a slot against its candidates on words; returns the pairs left for the rewording check. */
  private judge(slot: number): number[] {
    const known = this.edges.get(this.held.slots[slot]!.mem.id);
    const borderline: number[] = [];
    for (const o of this.held.candidates(slot)) {
      if (known?.has(this.held.slots[o]!.mem.id)) continue;
      const [older, newer] = this.held.ordered(slot, o);
      if (!mayRelate(older, newer)) continue;
      const g = judgePair(older.mem, newer.mem, older.parsed, newer.parsed);
      if (g) this.setEdge(g);
      else if (wantsSemantic(older.parsed, newer.parsed)) borderline.push(o);
    }
    return borderline;
  }

  /** The rewording check of a slot's borderline pairs (their vectors are held). */
  private judgeSemantic(slot: number, borderline: number[], sem: SemanticSource): void {
    const min = sem.min();
    this.semanticUsed = `${sem.id()}@${min}`;
    const self = this.held.slots[slot]!;
    for (const o of borderline) {
      const other = this.held.slots[o];
      if (!other || !self.vec || !other.vec || this.edges.get(self.mem.id)?.has(other.mem.id)) continue;
      const c = cosine(self.vec, other.vec);
      const [older, newer] = this.held.ordered(slot, o);
      const g = judgePair(older.mem, newer.mem, older.parsed, newer.parsed, () => ({ cosine: c, min }));
      if (g) this.setEdge(g);
    }
  }

  /**
   * What a snapshot holds of this index (consolidationSnapshot.ts), or null while memories wait to
   * be taken in or judged (a snapshot holds only what is judged).
   */
  snapshot(): Snapshot | null {
    if (this.pending > 0 || this.settling !== null) return null;
    const s: Snapshot = { judge: JUDGE, semantic: this.semanticUsed, global: [...this.global], ids: [], keys: [], sigs: [], standIn: [], pairs: [], later: [...this.semanticLater] };
    for (const e of this.held.slots) {
      if (!e) continue;
      s.ids.push(e.mem.id);
      s.keys.push(e.key);
      s.sigs.push(e.sig);
      s.standIn.push(e.indexed ? 1 : 0);
    }
    for (const [a, m] of this.edges) for (const [b, g] of m) if (a < b) s.pairs.push(g);
    return s;
  }

  /** What the report reads (consolidationReport.ts). */
  private judged(): JudgedPairs {
    const h = this.held;
    return {
      copies: () => h.copies(),
      copiesOf: (id) => h.copiesOf(id),
      edges: this.edges,
      again: (g, a, b) => {
        const [older, newer] = h.ordered(h.slotOf.get(a)!, h.slotOf.get(b)!);
        const va = h.slots[h.slotOf.get(g.ids[0]!)!]!.vec;
        const vb = h.slots[h.slotOf.get(g.ids[1]!)!]!.vec;
        return judgePair(older.mem, newer.mem, older.parsed, newer.parsed, va && vb ? () => ({ cosine: cosine(va, vb), min: minOf(g) }) : undefined);
      },
    };
  }

  /** The groups among the memories `include` admits, in consolidate.ts's order (consolidationReport.ts); `sliced`: in slices. */
  groups(include: (id: string) => boolean): ConsolidateGroup[];
  groups(include: (id: string) => boolean, sliced: true): Promise<ConsolidateGroup[]>;
  groups(include: (id: string) => boolean, sliced = false): ConsolidateGroup[] | Promise<ConsolidateGroup[]> {
    return sliced ? runSliced(groupSteps(this.judged(), include)) : runSteps(groupSteps(this.judged(), include));
  }

  /** How many groups of each kind groups(include) gives, without making them; `sliced`: in slices. */
  counts(include: (id: string) => boolean): Record<GroupKind, number>;
  counts(include: (id: string) => boolean, sliced: true): Promise<Record<GroupKind, number>>;
  counts(include: (id: string) => boolean, sliced = false): Record<GroupKind, number> | Promise<Record<GroupKind, number>> {
    return sliced ? runSliced(countSteps(this.judged(), include)) : runSteps(countSteps(this.judged(), include));
  }
}
