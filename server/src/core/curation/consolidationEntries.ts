// The memories the consolidation index holds, one entry (slot) each: its text, its place
// (consolidationContext.ts), its tokens once parsed, and which copies of one text (the same tokens
// in the same place) it shares with others. The first copy stands for the text: it alone is in
// the blocking index's term lists (consolidationTerms.ts) and judged; the others join its
// duplicate cluster.
import { parse, type ConsolidateMemory, type Parsed } from './consolidate.ts';
import { textKey, type Contexts } from './consolidationContext.ts';
import type { TermLists } from './consolidationTerms.ts';
import type { Steps } from './steps.ts';

export interface Entry {
  mem: ConsolidateMemory;
  /** its text and place's digest: its key in a snapshot (consolidationSnapshot.ts) */
  key: string;
  /** its place (Contexts id) */
  ctx: number;
  /** its place and token set's digest: the key of its copies */
  sig: string;
  /**
   * Its tokens, parsed when first needed: a memory taken back from a snapshot is parsed only once
   * something must be judged or reported on it (a report on an unchanged store parses nothing).
   */
  parsed: Parsed | null;
  /** term ids of parsed.all, ascending */
  terms: Int32Array;
  /** term ids of parsed.words, ascending */
  words: Int32Array;
  /** its body's vector, once a rewording check needed it (dropped with the entry) */
  vec?: Float32Array;
  /** whether it stands for its text (judged, and in the term lists once parsed); its copies are not */
  indexed: boolean;
  /** whether it is in the term lists */
  listed: boolean;
}
export type ParsedEntry = Entry & { parsed: Parsed };

const NONE = new Int32Array(0);

export class Entries {
  readonly slots: Array<Entry | null> = [];
  readonly slotOf = new Map<string, number>();
  /** The slots of each text's copies, the one that stands for them first. */
  readonly sigs = new Map<string, number[]>();
  /** Stand-ins not parsed yet (taken back from a snapshot): listed before anything is judged. */
  private unlisted = new Set<number>();

  constructor(
    private readonly contexts: Contexts,
    private readonly terms: TermLists,
  ) {}

  /** The key a memory would have (consolidationSnapshot.ts). */
  keyOf(m: ConsolidateMemory, ctx: number): string {
    return textKey(m.body) + this.contexts.digestOf(ctx);
  }

  /**
   * A new entry for a memory not held. `sig`: its copies key as a snapshot gave it (the entry is
   * then parsed only when needed); null: parsed now. Returns its slot, and whether it is the first
   * of its copies (it then stands for its text: standFor).
   */
  add(m: ConsolidateMemory, ctx: number, key: string, sig: string | null): { slot: number; first: boolean } {
    const slot = this.slots.length;
    this.slots.push({ mem: { id: m.id, body: m.body }, key, ctx, sig: sig ?? '', parsed: null, terms: NONE, words: NONE, indexed: false, listed: false });
    this.terms.open(slot, ctx);
    this.slotOf.set(m.id, slot);
    const e = sig === null ? this.parse(slot) : this.slots[slot]!;
    const copies = this.sigs.get(e.sig);
    if (copies) copies.push(slot);
    else this.sigs.set(e.sig, [slot]);
    return { slot, first: copies === undefined };
  }

  /** Parses a slot's text (once): its term ids, and its copies' key. */
  parse(slot: number): ParsedEntry {
    const e = this.slots[slot]!;
    if (e.parsed !== null) return e as ParsedEntry;
    const parsed = parse(e.mem.body);
    const { terms, words } = this.terms.idsOf(slot, parsed);
    // A memory taken back keeps the copies key the snapshot gave it (the same, by its key).
    const sig = e.sig !== '' ? e.sig : `${this.contexts.digestOf(e.ctx)}:${this.terms.setDigest(terms)}`;
    Object.assign(e, { parsed, terms, words, sig });
    return e as ParsedEntry;
  }

  /** The slot stands for its text from now on: in the term lists (once parsed). */
  standFor(slot: number): void {
    const e = this.slots[slot]!;
    e.indexed = true;
    if (e.parsed !== null) this.list(slot);
    else this.unlisted.add(slot);
  }

  private list(slot: number): void {
    const e = this.slots[slot]!;
    e.listed = true;
    this.terms.add(slot, e.terms);
  }

  /** Whether some stand-in waits to be parsed and listed. */
  get unlistedAny(): boolean {
    return this.unlisted.size > 0;
  }

  /** Parses and lists every stand-in not listed yet (a candidate walk needs them all). */
  *listAll(): Steps<void> {
    let n = 0;
    for (const slot of this.unlisted) {
      this.unlisted.delete(slot);
      this.parse(slot);
      this.list(slot);
      if (++n % 64 === 0) yield;
    }
  }

  /**
   * Forgets a memory's entry. Returns it (null when not held), and, when it stood for its text
   * and a copy is left, the copy's slot: the caller makes it stand for the text.
   */
  remove(id: string): { e: Entry; next: number | null } | null {
    const at = this.slotOf.get(id);
    if (at === undefined) return null;
    const e = this.slots[at]!;
    this.slots[at] = null;
    this.terms.close(at);
    this.slotOf.delete(id);
    const copies = this.sigs.get(e.sig)!;
    copies.splice(copies.indexOf(at), 1);
    if (copies.length === 0) this.sigs.delete(e.sig);
    if (!e.indexed) return { e, next: null };
    this.unlisted.delete(at);
    if (e.listed) this.terms.drop(e.terms);
    return { e, next: copies[0] ?? null };
  }

  /** Candidates for a slot's judging (consolidationTerms.ts), the slot parsed. */
  candidates(slot: number): number[] {
    const e = this.parse(slot);
    return this.terms.candidates(slot, e.terms, e.ctx, this.slots.length);
  }

  /** Two slots, parsed, the older (by id) first. */
  ordered(x: number, y: number): [ParsedEntry, ParsedEntry] {
    const a = this.parse(x);
    const b = this.parse(y);
    return a.mem.id < b.mem.id ? [a, b] : [b, a];
  }

  /** The ids of each text's copies, the one standing for them first. */
  copies(): string[][] {
    return [...this.sigs.values()].map((c) => c.map((s) => this.slots[s]!.mem.id));
  }

  /** The ids of the copies of this memory's text (itself included). */
  copiesOf(id: string): string[] {
    return this.sigs.get(this.slots[this.slotOf.get(id)!]!.sig)!.map((s) => this.slots[s]!.mem.id);
  }
}
