// The consolidation index's blocking index: for each stemmed token, the slots (memories standing
// for their texts) that hold it, and the candidate walk over those lists. Slots are the index's
// (consolidationIndex.ts); per slot this keeps what the walk reads without loading an entry:
// alive, token count, context.
import type { Parsed } from './consolidate.ts';
import { textKey, type Contexts } from './consolidationContext.ts';

/** Memories judged against each memory: the ones sharing the largest part of its tokens. */
export const CANDIDATES_PER_MEMORY = 12;
/** Posting entries walked per memory, rarest terms first. */
export const WALK_BUDGET = 2048;

const grow = <T extends Uint8Array | Int32Array>(a: T, make: (n: number) => T, need: number): T => {
  if (need < a.length) return a;
  const b = make(Math.max(need + 1, a.length * 2));
  b.set(a);
  return b;
};

export class TermLists {
  private termIds = new Map<string, number>();
  /** two 32-bit digests of each term's text (consolidationContext.ts textKey): a token set's digest is their sums */
  private digests: number[] = [];
  private df: number[] = [];
  private lists: number[][] = [];
  /** Entries of the lists naming removed slots (dropped once they outnumber the live ones). */
  private deadEntries = 0;
  private liveEntries = 0;
  private hits = new Int32Array(0);
  /** 1 for a slot holding a memory (the walk's test, without loading the entry) */
  private alive = new Uint8Array(64);
  /** the number of tokens of each slot */
  private lengths = new Int32Array(64);
  /** the context of each slot */
  private ctxOf = new Int32Array(64);

  constructor(private readonly contexts: Contexts) {}

  /** A new slot, holding a memory of context `ctx`. */
  open(slot: number, ctx: number): void {
    this.alive = grow(this.alive, (n) => new Uint8Array(n), slot);
    this.lengths = grow(this.lengths, (n) => new Int32Array(n), slot);
    this.ctxOf = grow(this.ctxOf, (n) => new Int32Array(n), slot);
    this.alive[slot] = 1;
    this.ctxOf[slot] = ctx;
  }

  /** The slot's memory is gone. */
  close(slot: number): void {
    this.alive[slot] = 0;
  }

  /** The term ids of a slot's parsed text, ascending: of every token, and of the tokens that state no value. */
  idsOf(slot: number, parsed: Parsed): { terms: Int32Array; words: Int32Array } {
    const terms = new Int32Array(parsed.all.size);
    const words = new Int32Array(parsed.words.size);
    let i = 0;
    let w = 0;
    for (const t of parsed.all) {
      let id = this.termIds.get(t);
      if (id === undefined) {
        id = this.df.length;
        this.termIds.set(t, id);
        const k = textKey(t);
        this.digests.push(parseInt(k.slice(0, 8), 16), parseInt(k.slice(8), 16));
        this.df.push(0);
        this.lists.push([]);
      }
      terms[i++] = id;
      if (parsed.words.has(t)) words[w++] = id;
    }
    terms.sort();
    words.sort();
    this.lengths[slot] = terms.length;
    return { terms, words };
  }

  /**
   * A digest of a token set, whatever its order: the sums of its terms' digests (64 bits), and its
   * size. The same in every process for the same tokens (a snapshot keeps it: consolidationSnapshot.ts).
   */
  setDigest(terms: Int32Array): string {
    let a = 0;
    let b = 0;
    for (const t of terms) {
      a = (a + this.digests[2 * t]!) >>> 0;
      b = (b + this.digests[2 * t + 1]!) >>> 0;
    }
    return `${a.toString(16)}.${b.toString(16)}.${terms.length}`;
  }

  /** Puts a slot in the lists of its terms. */
  add(slot: number, terms: Int32Array): void {
    for (const t of terms) {
      this.df[t]!++;
      this.lists[t]!.push(slot);
    }
    this.liveEntries += terms.length;
  }

  /** Takes a closed slot's terms out of the counts (its list entries go at the next compaction). */
  drop(terms: Int32Array): void {
    for (const t of terms) this.df[t]!--;
    this.liveEntries -= terms.length;
    this.deadEntries += terms.length;
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
   * The slots sharing the largest part of this slot's tokens, best first (at most
   * CANDIDATES_PER_MEMORY), among those its context may be compared with (consolidationContext.ts).
   */
  candidates(slot: number, terms: Int32Array, ctx: number, slots: number): number[] {
    const order = Array.from(terms).sort((a, b) => this.df[a]! - this.df[b]! || a - b);
    if (this.hits.length < slots) this.hits = new Int32Array(Math.max(slots, this.hits.length * 2, 64));
    const { hits, alive, lengths, ctxOf, contexts } = this;
    // This memory's verdicts on the other contexts: 1 compared, 2 not, 0 not asked yet.
    const verdict = contexts.rowOf(ctx);
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
        const v = verdict[ctxOf[o]!];
        if (v === 2 || (v === 0 && !contexts.comparable(ctx, ctxOf[o]!))) continue;
        if (hits[o] === 0) touched.push(o);
        hits[o]!++;
      }
    }
    // Best by the share of tokens seen in common (a Jaccard estimate), then the older slot.
    const n = terms.length;
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
}
