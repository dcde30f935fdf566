// Turns query text into query terms, each with its alternatives ("variants") resolved against the
// vocabulary: the exact term, prefix extensions, synonyms. Recall aids carry a weight below 1 so
// that, everything else equal, a memory with the word the user typed ranks first.
import type { Postings } from './postings.ts';
import { PREFIX_KEY } from './postings.ts';
import type { SynonymTable } from './synonyms.ts';
import { tokenize } from './tokenize.ts';

export const WEIGHT_EXACT = 1;
export const WEIGHT_SYNONYM = 0.8;
export const WEIGHT_PREFIX = 0.6;
/** Prefix extensions per query term, most frequent first: bounds the work of a short prefix. */
const MAX_PREFIX_TERMS = 32;
/** Shortest indexed stem that may stand for a longer query word. */
const MIN_REVERSE_PREFIX = 5;
/** Coverage is a bit mask per document. */
export const MAX_QUERY_TERMS = 31;

export interface Variant {
  /** term ids that must all be present (more than one only for multi-word synonyms) */
  terms: number[];
  weight: number;
}

export interface QueryTerm {
  /** lowercase word as typed: what match_terms reports */
  surface: string;
  /** its index term (stemmed) */
  term: string;
  variants: Variant[];
  /** every single index term that counts as this query term (for adjacency and snippets) */
  alternatives: Set<string>;
}

/** Query words as index terms, stopwords and repeats dropped, in query order. */
export function queryWords(text: string): Array<{ surface: string; term: string }> {
  const seen = new Set<string>();
  const out: Array<{ surface: string; term: string }> = [];
  for (const t of tokenize(text)) {
    if (t.whole || t.stop || seen.has(t.term)) continue;
    seen.add(t.term);
    out.push({ surface: t.surface, term: t.term });
    if (out.length === MAX_QUERY_TERMS) break;
  }
  return out;
}

export function parseQuery(text: string, p: Postings, synonyms: SynonymTable): QueryTerm[] {
  return queryWords(text).map(({ surface, term }) => {
    const variants: Variant[] = [];
    const alternatives = new Set<string>([term]);
    const live = (id: number | undefined): id is number => id !== undefined && p.df[id]! > 0;

    const exact = p.termIds.get(term);
    if (live(exact)) variants.push({ terms: [exact], weight: WEIGHT_EXACT });

    if (term.length >= PREFIX_KEY) {
      const ext = (p.prefixBuckets.get(term.slice(0, PREFIX_KEY)) ?? []).filter(
        (id) => id !== exact && p.df[id]! > 0 && p.terms[id]!.startsWith(term),
      );
      ext.sort((a, b) => p.df[b]! - p.df[a]! || a - b);
      for (const id of ext.slice(0, MAX_PREFIX_TERMS)) {
        variants.push({ terms: [id], weight: WEIGHT_PREFIX });
        alternatives.add(p.terms[id]!);
      }
    }

    // The other direction: a shorter indexed stem that starts this word (`configuration` finds
    // `configured`, stemmed `configur`). Kept to stems covering most of the word.
    for (let k = term.length - 1; k >= Math.max(MIN_REVERSE_PREFIX, Math.ceil(term.length * 0.6)); k--) {
      const id = p.termIds.get(term.slice(0, k));
      if (live(id) && id !== exact && !alternatives.has(p.terms[id]!)) {
        variants.push({ terms: [id], weight: WEIGHT_PREFIX });
        alternatives.add(p.terms[id]!);
      }
    }

    for (const entry of synonyms.get(term) ?? []) {
      if (entry.length === 1 && entry[0] === term) continue;
      const ids = entry.map((t) => p.termIds.get(t));
      if (ids.every(live)) {
        variants.push({ terms: ids as number[], weight: WEIGHT_SYNONYM });
        if (entry.length === 1) alternatives.add(entry[0]!);
      }
    }
    return { surface, term, variants, alternatives };
  });
}
