// memory_consolidate: candidate groups for the host model to act on, read-only. Pairs come from
// a blocking index over the memories' rare terms (curation/consolidationIndex.ts: bounded work per
// memory, never all pairs), between memories that apply to the same place
// (curation/consolidationContext.ts); each pair is judged on the write gate's dedup tokens
// (trust/gates/dedup.ts) with plural and tense endings taken off (index/stem.ts), so "caches" and
// "cached", "minutes" and "minute" count as the same word:
//
// - contradiction: the words that are not values overlap a lot (Jaccard >= 0.6 of the tokens left
//   after taking numbers and number words out) and both state values that differ once number
//   words are read as numbers ("TTL is 5 minutes" vs "TTL is ten minutes");
// - superseded: the newer memory contains at least 80% of the older one's tokens and adds at
//   least 20% more of its own, and at least 3 (it restates and extends it);
// - duplicates: token Jaccard >= 0.6 otherwise; or a rewording: the store's embedder puts the two
//   close (cosine at least the write gate's rewording threshold for that embedder), they share at
//   least REWORD_JACCARD of their tokens and state the same values. Pairs are joined into clusters.
import { dedupTokenSet, jaccard } from '../trust/gates/dedup.ts';
import { stem } from '../index/stem.ts';
import { runSteps, type Steps } from './steps.ts';

export const CONSOLIDATE_DUPLICATE = 0.6;
export const CONSOLIDATE_SUBJECT = 0.6;
export const SUPERSEDE_CONTAINMENT = 0.8;
export const SUPERSEDE_GROWTH = 1.2;
export const SUPERSEDE_MIN_NEW = 3;
/** A rewording shares at least this much of its stemmed tokens (with a close enough cosine). */
export const REWORD_JACCARD = 0.3;

/** How close two memories are by meaning: cosine at or over `min` says "the same thing". */
export interface SemanticCheck {
  cosine: number;
  min: number;
}

export interface ConsolidateMemory {
  id: string;
  body: string;
  /**
   * Where the memory applies (consolidationContext.ts): its scopes and its origin's repo key. Two
   * memories are compared only when some view shows both and they share a scope; a memory given
   * without scopes is compared with every other.
   */
  scopes?: readonly string[];
  repo?: string | null;
}

export type GroupKind = 'duplicates' | 'contradiction' | 'superseded';

export interface ConsolidateGroup {
  kind: GroupKind;
  /** duplicates: every member, oldest first; contradiction: both; superseded: older, then newer. */
  ids: string[];
  reason: string;
  suggested_action: string;
}

const NUMBER_WORDS = new Map<string, string>(Object.entries({
  zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12', fifteen: '15', twenty: '20', thirty: '30', forty: '40', fifty: '50', sixty: '60', ninety: '90',
  hundred: '100', thousand: '1000', once: '1', twice: '2', single: '1', double: '2', half: '0.5',
}));

/** A token that states a value: digits (with unit suffixes like 5m, 10gb) or a number word. */
function valueOf(tok: string): string | null {
  const c = tok.charCodeAt(0);
  if (c < 48 || c > 57) return NUMBER_WORDS.get(tok) ?? null;
  const m = /^(\d+(?:\.\d+)?)([a-z]*)$/.exec(tok);
  return m ? m[1]! + (m[2] ? `:${m[2]}` : '') : null;
}

export interface Parsed {
  /** Every token, words stemmed. */
  all: Set<string>;
  /** The stemmed tokens that state no value. */
  words: Set<string>;
  /** The values, number words read as numbers. */
  values: Set<string>;
}

/** Stems of the words seen, kept while few (a store's vocabulary is small next to its memories). */
const stems = new Map<string, string>();
const STEMS_KEPT = 100_000;
function stemOf(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= STEMS_KEPT) stems.clear();
    stems.set(word, (s = stem(word)));
  }
  return s;
}

export function parse(body: string): Parsed {
  const all = new Set<string>();
  const words = new Set<string>();
  const values = new Set<string>();
  for (const t of dedupTokenSet(body)) {
    const v = valueOf(t);
    if (v === null) {
      const s = stemOf(t);
      words.add(s);
      all.add(s);
    } else {
      values.add(v);
      all.add(t);
    }
  }
  return { all, words, values };
}

const containment = (a: Set<string>, b: Set<string>) => {
  if (a.size === 0) return 0;
  let n = 0;
  for (const t of a) if (b.has(t)) n++;
  return n / a.size;
};
const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * The relation of two memories (older first, by id), or null when they are unrelated. `semantic`
 * is asked only for a pair the words alone leave unrelated but that shares at least
 * REWORD_JACCARD of its tokens and the same values (null: no vectors for them).
 */
export function judgePair(
  older: ConsolidateMemory,
  newer: ConsolidateMemory,
  po = parse(older.body),
  pn = parse(newer.body),
  semantic?: () => SemanticCheck | null,
): ConsolidateGroup | null {
  const subject = jaccard(po.words, pn.words);
  if (subject >= CONSOLIDATE_SUBJECT && po.values.size > 0 && pn.values.size > 0 && !sameSet(po.values, pn.values)) {
    const differ = [...po.values].filter((v) => !pn.values.has(v)).concat([...pn.values].filter((v) => !po.values.has(v)));
    return {
      kind: 'contradiction',
      ids: [older.id, newer.id],
      reason: `same subject (${pct(subject)} of the other words shared) with different values (${differ.map((v) => v.replace(':', '')).join(' vs ')})`,
      suggested_action: 'ask the user which value holds; memory_update the right one and memory_remove the other (or memory_merge them)',
    };
  }
  const c = containment(po.all, pn.all);
  if (c >= SUPERSEDE_CONTAINMENT && pn.all.size >= po.all.size * SUPERSEDE_GROWTH && pn.all.size - po.all.size >= SUPERSEDE_MIN_NEW) {
    return {
      kind: 'superseded',
      ids: [older.id, newer.id],
      reason: `the newer memory restates ${pct(c)} of the older one and adds ${pn.all.size - po.all.size} more words`,
      suggested_action: `memory_remove ${older.id} (reason: superseded by ${newer.id}), or memory_merge both`,
    };
  }
  const sim = jaccard(po.all, pn.all);
  if (sim >= CONSOLIDATE_DUPLICATE) {
    return { kind: 'duplicates', ids: [older.id, newer.id], reason: `${pct(sim)} of their words shared`, suggested_action: 'memory_merge them into one memory' };
  }
  if (semantic && sim >= REWORD_JACCARD && sameSet(po.values, pn.values)) {
    const s = semantic();
    if (s !== null && s.cosine >= s.min) {
      return { kind: 'duplicates', ids: [older.id, newer.id], reason: `the same in other words (cosine ${s.cosine.toFixed(2)}, ${pct(sim)} of their words shared)`, suggested_action: 'memory_merge them into one memory' };
    }
  }
  return null;
}

/** Whether a pair is close enough in words for judgePair to ask for its cosine. */
export function wantsSemantic(po: Parsed, pn: Parsed): boolean {
  const sim = jaccard(po.all, pn.all);
  return sim >= REWORD_JACCARD && sim < CONSOLIDATE_DUPLICATE && sameSet(po.values, pn.values);
}

/**
 * The groups of a set of judged pairs (judgePair's answers, each unordered pair once): the
 * contradiction and superseded pairs as they are, the duplicate pairs joined into clusters. In a
 * stable order: contradictions first, then superseded chains, then duplicate clusters, each by
 * oldest id.
 */
export function groupsOf(pairs: Iterable<ConsolidateGroup>): ConsolidateGroup[] {
  return runSteps(groupsOfSteps(pairs));
}

/** Duplicate pairs joined into clusters: each id's cluster is named by its oldest id. */
class Clusters {
  private parent = new Map<string, string>();
  /** clusters so far */
  count = 0;
  find(x: string): string {
    const parent = this.parent;
    let r = x;
    for (let p = parent.get(r)!; p !== r; p = parent.get(r)!) {
      parent.set(r, parent.get(p)!); // path halving
      r = p;
    }
    return r;
  }
  join(x: string, y: string): void {
    for (const id of [x, y]) {
      if (this.parent.has(id)) continue;
      this.parent.set(id, id);
      this.count++;
    }
    const a = this.find(x);
    const b = this.find(y);
    if (a === b) return;
    this.parent.set(a < b ? b : a, a < b ? a : b);
    this.count--;
  }
  ids(): Iterable<string> {
    return this.parent.keys();
  }
}

/** How many groups of each kind groupsOf would make of these pairs, without making them. */
export function* groupCountSteps(pairs: Iterable<ConsolidateGroup>): Steps<Record<GroupKind, number>> {
  let n = 0;
  const counts: Record<GroupKind, number> = { contradiction: 0, superseded: 0, duplicates: 0 };
  const clusters = new Clusters();
  for (const g of pairs) {
    if (++n % 512 === 0) yield;
    if (g.kind === 'duplicates') clusters.join(g.ids[0]!, g.ids[1]!);
    else counts[g.kind]++;
  }
  counts.duplicates = clusters.count;
  return counts;
}

/** groupsOf, yielding every few hundred pairs (steps.ts). */
export function* groupsOfSteps(pairs: Iterable<ConsolidateGroup>): Steps<ConsolidateGroup[]> {
  let n = 0;
  const out: ConsolidateGroup[] = [];
  const joined = new Clusters();
  const dupReasons = new Map<string, string>();
  for (const g of pairs) {
    if (++n % 512 === 0) yield;
    if (g.kind !== 'duplicates') {
      out.push(g);
      continue;
    }
    const [older, newer] = g.ids as [string, string];
    joined.join(older, newer);
    dupReasons.set(older, g.reason);
  }
  const clusters = new Map<string, string[]>();
  for (const id of joined.ids()) {
    if (++n % 512 === 0) yield;
    const r = joined.find(id);
    (clusters.get(r) ?? clusters.set(r, []).get(r)!).push(id);
  }
  const dups: ConsolidateGroup[] = [...clusters.values()].map((ids) => {
    ids.sort();
    return {
      kind: 'duplicates',
      ids,
      reason: ids.length === 2 ? `near-duplicates: ${dupReasons.get(ids[0]!) ?? 'most words shared'}` : `${ids.length} near-duplicates (each shares at least ${pct(CONSOLIDATE_DUPLICATE)} of its words with another, or says the same in other words)`,
      suggested_action: 'memory_merge them into one memory',
    };
  });
  const order: Record<GroupKind, number> = { contradiction: 0, superseded: 1, duplicates: 2 };
  return [...out, ...dups].sort((a, b) => order[a.kind] - order[b.kind] || (a.ids[0]! < b.ids[0]! ? -1 : a.ids[0]! > b.ids[0]! ? 1 : 0) || (a.ids[1]! < b.ids[1]! ? -1 : a.ids[1]! > b.ids[1]! ? 1 : 0));
}
