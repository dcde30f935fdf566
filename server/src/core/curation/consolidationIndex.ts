// The pairs memory_consolidate reports, kept between calls and brought up to date one memory at
// a time (the caller feeds it the store's changes): a new or edited memory is judged against its
// candidates, a removed one takes its pairs with it, and nothing else is judged again. A report
// is then a walk over the pairs already judged, never a pass over all pairs.
//
// Candidates come from a blocking index over the memories' stemmed tokens (consolidate.ts parse):
// a memory's rarest terms first, their lists walked up to WALK_BUDGET entries, the
// CANDIDATES_PER_MEMORY memories sharing the largest part of its tokens judged. A store that
// repeats itself (the same note for twenty projects) makes every term common; the budget keeps
// the work per memory bounded there too, and the clusters still form, since each member is
// joined to the ones most like it. The work runs in slices of SLICE_MS between which the event
// loop answers other calls.
import { CONSOLIDATE_SUBJECT, groupsOf, judgePair, parse, REWORD_JACCARD, SUPERSEDE_CONTAINMENT, wantsSemantic, type ConsolidateGroup, type ConsolidateMemory, type Parsed } from './consolidate.ts';

/** Memories judged against each memory: the ones sharing the largest part of its tokens. */
export const CANDIDATES_PER_MEMORY = 12;
/** Posting entries walked per memory, rarest terms first. */
export const WALK_BUDGET = 2048;
/** The longest run of judging between two yields to the event loop, ms. */
const SLICE_MS = 8;
/** Time one settle may spend on embeddings for the rewording check; the rest waits for the next. */
const SEMANTIC_BUDGET_MS = 2000;

/**
 * The store's embedder, for the rewording check (consolidate.ts judgePair): only the memories in
 * a pair that shares enough words without being a duplicate on words alone are embedded (their
 * bodies, as the rewording threshold was measured), and kept while their text stays.
 */
export interface SemanticSource {
  /** The cosine at or over which two memories sharing enough words say the same thing. */
  min(): number;
  /** One vector per text; null when the embedder cannot answer now. */
  embed(texts: string[]): Promise<Float32Array[] | null>;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export interface SettleOptions {
  semantic?: SemanticSource | null;
  /** Memories judged so far of those waiting when the work began (plus any that came since). */
  progress?: (done: number, total: number) => void;
  /** What runs between two slices; a setImmediate by default. */
  pause?: () => Promise<void>;
}

interface Entry {
  mem: ConsolidateMemory;
  parsed: Parsed;
  /** term ids of parsed.all */
  terms: Int32Array;
  /** term ids of parsed.words, ascending */
  words: Int32Array;
  /** its body's vector, once a rewording check needed it (dropped with the entry) */
  vec?: Float32Array;
  /** its token set, as sorted term ids: the key of its copies */
  sig: string;
  /** whether it stands for its text (in the term lists, judged); its copies are not */
  indexed: boolean;
}

const immediate = () => new Promise<void>((r) => setImmediate(r));

export class ConsolidationIndex {
  private slots: Array<Entry | null> = [];
  private slotOf = new Map<string, number>();
  private termIds = new Map<string, number>();
  private df: number[] = [];
  private lists: number[][] = [];
  /** Entries of the lists naming removed slots (dropped once they outnumber the live ones). */
  private deadEntries = 0;
  private liveEntries = 0;
  /** The slots holding each token set, the one that stands for them first. */
  private sigs = new Map<string, number[]>();
  /** Judged relations, under both ids. */
  private edges = new Map<string, Map<string, ConsolidateGroup>>();
  /** Ids still to judge, in the order they came. */
  private queue = new Set<string>();
  /** Ids with a pair the rewording check could not look at yet (no vectors then). */
  private semanticLater = new Set<string>();
  private hits = new Int32Array(0);
  /** 1 for a slot holding a memory (the walk's test, without loading the entry) */
  private alive = new Uint8Array(64);
  /** the number of tokens of each slot */
  private lengths = new Int32Array(64);
  private settling: Promise<void> | null = null;

  /** Changes with every change to the memories held or to their pairs (a report made at one version holds for it). */
  version = 0;

  /** Memories held. */
  get size(): number {
    return this.slotOf.size;
  }
  /** Memories still to judge. */
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
   * every other call for its duration). A later upsert or remove of one of them wins.
   */
  addLater(mems: Iterable<ConsolidateMemory>): void {
    for (const m of mems) this.incoming.push({ id: m.id, body: m.body });
  }

  /**
   * Adds a memory or takes its new text; a memory whose text did not change is not judged again.
   * A memory with exactly the tokens of one held already is a copy of it: it joins that one's
   * duplicate cluster without being judged or walked (a store that repeats itself holds many).
   */
  upsert(m: ConsolidateMemory): void {
    if (this.incomingAt < this.incoming.length) this.superseded.add(m.id);
    const at = this.slotOf.get(m.id);
    if (at !== undefined) {
      const e = this.slots[at]!;
      if (e.mem.body === m.body) return;
      this.remove(m.id);
    }
    this.version++;
    const parsed = parse(m.body);
    const terms = new Int32Array(parsed.all.size);
    const words = new Int32Array(parsed.words.size);
    let i = 0;
    let w = 0;
    for (const t of parsed.all) {
      let id = this.termIds.get(t);
      if (id === undefined) {
        id = this.df.length;
        this.termIds.set(t, id);
        this.df.push(0);
        this.lists.push([]);
      }
      terms[i++] = id;
      if (parsed.words.has(t)) words[w++] = id;
    }
    terms.sort();
    words.sort();
    const sig = terms.join(',');
    const slot = this.slots.length;
    this.slots.push({ mem: { id: m.id, body: m.body }, parsed, terms, words, sig, indexed: false });
    if (slot >= this.alive.length) {
      const grow = <T extends Uint8Array | Int32Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.alive = grow(this.alive, (n) => new Uint8Array(n));
      this.lengths = grow(this.lengths, (n) => new Int32Array(n));
    }
    this.alive[slot] = 1;
    this.lengths[slot] = terms.length;
    this.slotOf.set(m.id, slot);
    const copies = this.sigs.get(sig);
    if (copies) copies.push(slot);
    else {
      this.sigs.set(sig, [slot]);
      this.index(slot);
    }
  }

  /** Puts a slot in the term lists and in the queue: it stands for its text from now on. */
  private index(slot: number): void {
    const e = this.slots[slot]!;
    e.indexed = true;
    for (const t of e.terms) {
      this.df[t]!++;
      this.lists[t]!.push(slot);
    }
    this.liveEntries += e.terms.length;
    this.queue.add(e.mem.id);
  }

  /** Forgets a memory and every pair it was in; a copy of it then stands for their text. */
  remove(id: string): void {
    if (this.incomingAt < this.incoming.length) this.superseded.add(id);
    const at = this.slotOf.get(id);
    if (at === undefined) return;
    const e = this.slots[at]!;
    this.version++;
    this.slots[at] = null;
    this.alive[at] = 0;
    this.slotOf.delete(id);
    const copies = this.sigs.get(e.sig)!;
    copies.splice(copies.indexOf(at), 1);
    if (copies.length === 0) this.sigs.delete(e.sig);
    if (!e.indexed) return;
    for (const t of e.terms) this.df[t]!--;
    this.liveEntries -= e.terms.length;
    this.deadEntries += e.terms.length;
    this.queue.delete(id);
    this.semanticLater.delete(id);
    const mine = this.edges.get(id);
    if (mine) {
      for (const other of mine.keys()) this.edges.get(other)?.delete(id);
      this.edges.delete(id);
    }
    if (copies.length > 0) this.index(copies[0]!);
    if (this.deadEntries > this.liveEntries) this.compact();
  }

  private compact(): void {
    for (let t = 0; t < this.lists.length; t++) {
      const l = this.lists[t]!;
      if (l.length > this.df[t]!) this.lists[t] = l.filter((s) => this.alive[s] === 1);
    }
    this.deadEntries = 0;
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
    return (this.settling ??= this.run(opts).finally(() => {
      this.settling = null;
    }));
  }

  private async run(opts: SettleOptions): Promise<void> {
    const pause = opts.pause ?? immediate;
    const sem = opts.semantic ?? null;
    let done = 0;
    let semSpent = 0;
    let t0 = performance.now();
    const total = () => done + this.queue.size + this.incoming.length - this.incomingAt;
    while (this.incomingAt < this.incoming.length) {
      const m = this.incoming[this.incomingAt++]!;
      if (!this.superseded.has(m.id)) {
        const keep = this.superseded;
        this.superseded = new Set();
        this.upsert(m);
        this.superseded = keep;
      }
      if (performance.now() - t0 >= SLICE_MS) {
        opts.progress?.(done, total());
        await pause();
        t0 = performance.now();
      }
    }
    this.incoming = [];
    this.incomingAt = 0;
    this.superseded.clear();
    while (this.queue.size > 0) {
      const id = this.queue.values().next().value as string;
      this.queue.delete(id);
      const slot = this.slotOf.get(id);
      if (slot === undefined) continue;
      const borderline = this.judge(slot);
      if (borderline.length > 0) {
        if (sem === null || semSpent >= SEMANTIC_BUDGET_MS) this.semanticLater.add(id);
        else {
          const ts = performance.now();
          const ok = await this.embedAll([slot, ...borderline], sem);
          semSpent += performance.now() - ts;
          // The memory may have changed or gone while the vectors were computed.
          if (this.slotOf.get(id) === slot) {
            if (!ok) this.semanticLater.add(id);
            else this.judgeSemantic(slot, borderline, sem.min());
          }
        }
      }
      done++;
      if (performance.now() - t0 >= SLICE_MS) {
        opts.progress?.(done, done + this.queue.size);
        await pause();
        t0 = performance.now();
      }
    }
    opts.progress?.(done, done);
  }

  /** The slots sharing the largest part of this slot's tokens, best first (at most CANDIDATES_PER_MEMORY). */
  private candidates(slot: number): number[] {
    const e = this.slots[slot]!;
    const order = Array.from(e.terms).sort((a, b) => this.df[a]! - this.df[b]! || a - b);
    if (this.hits.length < this.slots.length) this.hits = new Int32Array(Math.max(this.slots.length, this.hits.length * 2, 64));
    const hits = this.hits;
    const alive = this.alive;
    const touched: number[] = [];
    let walked = 0;
    for (const t of order) {
      if (walked >= WALK_BUDGET) break;
      const list = this.lists[t]!;
      const end = Math.min(list.length, WALK_BUDGET - walked);
      walked += end;
      for (let i = 0; i < end; i++) {
        const o = list[i]!;
        if (o === slot || alive[o] === 0) continue;
        if (hits[o] === 0) touched.push(o);
        hits[o]!++;
      }
    }
    // Best by the share of tokens seen in common (a Jaccard estimate), then the older slot.
    const n = e.terms.length;
    const lengths = this.lengths;
    const score = (o: number) => hits[o]! / (n + lengths[o]! - hits[o]!);
    const best: number[] = [];
    const scores: number[] = [];
    for (const o of touched) {
      const s = score(o);
      if (best.length === CANDIDATES_PER_MEMORY && (s < scores[best.length - 1]! || (s === scores[best.length - 1]! && o > best[best.length - 1]!))) continue;
      let i = best.length === CANDIDATES_PER_MEMORY ? best.length - 1 : best.length;
      while (i > 0 && (scores[i - 1]! < s || (scores[i - 1]! === s && best[i - 1]! > o))) {
        best[i] = best[i - 1]!;
        scores[i] = scores[i - 1]!;
        i--;
      }
      best[i] = o;
      scores[i] = s;
    }
    for (const o of touched) hits[o] = 0;
    return best;
  }

  private setEdge(g: ConsolidateGroup): void {
    this.version++;
    const [a, b] = g.ids as [string, string];
    (this.edges.get(a) ?? this.edges.set(a, new Map()).get(a)!).set(b, g);
    (this.edges.get(b) ?? this.edges.set(b, new Map()).get(b)!).set(a, g);
  }

  private ordered(x: number, y: number): [Entry, Entry] {
    const a = this.slots[x]!;
    const b = this.slots[y]!;
    return a.mem.id < b.mem.id ? [a, b] : [b, a];
  }

  /** Judges a slot against its candidates on words; returns the pairs left for the rewording check. */
  private judge(slot: number): number[] {
    const id = this.slots[slot]!.mem.id;
    const known = this.edges.get(id);
    const borderline: number[] = [];
    for (const o of this.candidates(slot)) {
      const [older, newer] = this.ordered(slot, o);
      if (known?.has(this.slots[o]!.mem.id)) continue;
      if (!mayRelate(older, newer)) continue;
      const g = judgePair(older.mem, newer.mem, older.parsed, newer.parsed);
      if (g) this.setEdge(g);
      else if (wantsSemantic(older.parsed, newer.parsed)) borderline.push(o);
    }
    return borderline;
  }

  /** Gives these slots their vectors (those still held that lack one); false when the embedder could not. */
  private async embedAll(slots: number[], sem: SemanticSource): Promise<boolean> {
    const need = slots.map((s) => this.slots[s]).filter((e): e is Entry => e !== null && e !== undefined && e.vec === undefined);
    if (need.length === 0) return true;
    let got: Float32Array[] | null;
    try {
      got = await sem.embed(need.map((e) => e.mem.body));
    } catch {
      got = null;
    }
    if (got === null || got.length !== need.length) return false;
    need.forEach((e, i) => (e.vec = got[i]!));
    return true;
  }

  /** The rewording check of a slot's borderline pairs (their vectors are held). */
  private judgeSemantic(slot: number, borderline: number[], min: number): void {
    const self = this.slots[slot]!;
    for (const o of borderline) {
      const other = this.slots[o];
      if (!other || !self.vec || !other.vec || this.edges.get(self.mem.id)?.has(other.mem.id)) continue;
      const c = cosine(self.vec, other.vec);
      const [older, newer] = this.ordered(slot, o);
      const g = judgePair(older.mem, newer.mem, older.parsed, newer.parsed, () => ({ cosine: c, min }));
      if (g) this.setEdge(g);
    }
  }

  /**
   * The groups among the memories `include` admits (both ends of a pair), in consolidate.ts's
   * order. The copies of a text make one duplicate cluster; a pair judged between two texts is
   * reported on the memories that stand for them, or when one is not admitted, on its first
   * admitted copy (judged again on that one's ids).
   */
  groups(include: (id: string) => boolean): ConsolidateGroup[] {
    const { edges, slots, sigs, slotOf } = this;
    const standIn = (id: string): Entry | null => {
      if (include(id)) return slots[slotOf.get(id)!]!;
      for (const s of sigs.get(slots[slotOf.get(id)!]!.sig)!) if (include(slots[s]!.mem.id)) return slots[s]!;
      return null;
    };
    function* pairs(): Generator<ConsolidateGroup> {
      for (const copies of sigs.values()) {
        if (copies.length < 2) continue;
        const ids = copies.map((s) => slots[s]!.mem.id).filter(include).sort();
        for (let i = 1; i < ids.length; i++) {
          yield { kind: 'duplicates', ids: [ids[0]!, ids[i]!], reason: 'the same words', suggested_action: 'memory_merge them into one memory' };
        }
      }
      for (const [a, m] of edges) {
        const sa = standIn(a);
        if (sa === null) continue;
        for (const [b, g] of m) {
          if (a > b) continue;
          const sb = standIn(b);
          if (sb === null) continue;
          if (sa.mem.id === a && sb.mem.id === b) {
            yield g;
            continue;
          }
          const [older, newer] = sa.mem.id < sb.mem.id ? [sa, sb] : [sb, sa];
          const va = slots[slotOf.get(a)!]!.vec;
          const vb = slots[slotOf.get(b)!]!.vec;
          const again = judgePair(older.mem, newer.mem, older.parsed, newer.parsed, va && vb ? () => ({ cosine: cosine(va, vb), min: minOf(g) }) : undefined);
          if (again) yield again;
        }
      }
    }
    return groupsOf(pairs());
  }
}

/** |a ∩ b| of two ascending id arrays. */
function common(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      n++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}

/**
 * Whether judgePair could find a relation, from the sizes of the overlaps alone (exact, on the
 * same token sets): a contradiction needs 60% of the words shared, a superseded pair 80% of the
 * older memory's tokens in the newer, a duplicate or a rewording 30% of all tokens. Most
 * candidates fail all three, and a merge of two sorted arrays is far cheaper than the judge.
 */
function mayRelate(older: Entry, newer: Entry): boolean {
  const e = 1e-9; // a ratio exactly at a threshold passes, as in judgePair's division
  const all = common(older.terms, newer.terms);
  if (all > 0 && all >= REWORD_JACCARD * (older.terms.length + newer.terms.length - all) - e) return true;
  if (all > 0 && all >= SUPERSEDE_CONTAINMENT * older.terms.length - e) return true;
  const w = common(older.words, newer.words);
  return w > 0 && w >= CONSOLIDATE_SUBJECT * (older.words.length + newer.words.length - w) - e;
}

/** The cosine a rewording pair was judged at (its reason carries it); other pairs need none. */
function minOf(g: ConsolidateGroup): number {
  return /^the same in other words/.test(g.reason) ? 0 : 2;
}
