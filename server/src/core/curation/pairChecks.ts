// The cheap checks the consolidation index runs before the pair judge (consolidate.ts judgePair),
// on the term ids the index gives each memory.
import { CONSOLIDATE_SUBJECT, REWORD_JACCARD, SUPERSEDE_CONTAINMENT, type ConsolidateGroup } from './consolidate.ts';

/** A memory's tokens as the index holds them: ascending term ids. */
export interface TermSets {
  /** term ids of every token */
  terms: Int32Array;
  /** term ids of the tokens that state no value */
  words: Int32Array;
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
export function mayRelate(older: TermSets, newer: TermSets): boolean {
  const e = 1e-9; // a ratio exactly at a threshold passes, as in judgePair's division
  const all = common(older.terms, newer.terms);
  if (all > 0 && all >= REWORD_JACCARD * (older.terms.length + newer.terms.length - all) - e) return true;
  if (all > 0 && all >= SUPERSEDE_CONTAINMENT * older.terms.length - e) return true;
  const w = common(older.words, newer.words);
  return w > 0 && w >= CONSOLIDATE_SUBJECT * (older.words.length + newer.words.length - w) - e;
}

export function cosine(a: Float32Array, b: Float32Array): number {
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

/** The cosine a rewording pair was judged at (its reason carries it); other pairs need none. */
export function minOf(g: ConsolidateGroup): number {
  return /^the same in other words/.test(g.reason) ? 0 : 2;
}
