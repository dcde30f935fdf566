// Near-duplicate detection for the write gate: token-set Jaccard similarity. Sets, not bags, so a
// memory cannot look "more similar" by repeating a word; stopwords stripped so two notes do not
// look alike because both say "the" and "is"; compound identifiers (kebab, snake, dotted, paths)
// split into their parts so `dark-mode` and "dark mode" are the same tokens.
import { isAsciiAlnum } from '../../index/tokenize.ts';

/** >= this similarity blocks the write as `duplicate` (or `previously_removed`). */
export const DUPLICATE_THRESHOLD = 0.75;
/** >= this (and below DUPLICATE_THRESHOLD) commits with a `related` list. */
export const RELATED_THRESHOLD = 0.4;

export type Similarity = 'duplicate' | 'related' | 'distinct';

// English function words plus filler common in notes. Deliberately small and fixed: changing it
// changes every similarity score.
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing done down during each else etc even ever every few for ' +
    'from further get gets got had has have having he her here hers him his how however i if in into is it ' +
    'its itself just let lets like may me might more most much must my no nor not now of off on once one only ' +
    'or other our ours out over own per please same she should so some such than that the their theirs them ' +
    'then there these they this those through thus to too under until up upon us use used uses using very via ' +
    'was we were what when where whether which while who whom whose why will with within without would yet you ' +
    'your yours'
  ).split(' '),
);

/**
 * The dedup tokens of a text, in first-occurrence order without repeats: lowercased, split on
 * anything that is not a letter or digit (so `memory_write-confirm` gives memory, write, confirm),
 * single letters and stopwords dropped (single digits kept). Exported so the index's candidate lookup sees
 * exactly the terms the similarity is computed on.
 */
export function dedupTokens(text: string): string[] {
  return [...dedupTokenSet(text)];
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** dedupTokens as a set (what the similarity compares); an ASCII text is scanned by hand (~3x faster than the Unicode split, same tokens). */
export function dedupTokenSet(text: string): Set<string> {
  if (!ASCII_ONLY.test(text)) return unicodeTokens(text);
  const out = new Set<string>();
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (!isAsciiAlnum(c)) {
      i++;
      continue;
    }
    const start = i;
    let upper = false;
    for (; i < n; i++) {
      c = text.charCodeAt(i);
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) continue;
      if (c >= 65 && c <= 90) {
        upper = true;
        continue;
      }
      break;
    }
    if (i - start < 2) {
      const d = text.charCodeAt(start);
      if (!(d >= 48 && d <= 57)) continue;
    }
    const raw = upper ? text.slice(start, i).toLowerCase() : text.slice(start, i);
    if (!STOPWORDS.has(raw)) out.add(raw);
  }
  return out;
}

function unicodeTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    // Single letters carry nothing; single digits do ("retry 3 times" is not "retry 5 times").
    if ((raw.length < 2 && !/\p{N}/u.test(raw)) || STOPWORDS.has(raw)) continue;
    out.add(raw);
  }
  return out;
}

/** |A ∩ B| / |A ∪ B|; two empty sets are not similar (0), so empty notes never "duplicate". */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let inter = 0;
  for (const t of small) if (large.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

export function similarity(a: string, b: string): number {
  return jaccard(dedupTokenSet(a), dedupTokenSet(b));
}

export function classifySimilarity(sim: number): Similarity {
  if (sim >= DUPLICATE_THRESHOLD) return 'duplicate';
  if (sim >= RELATED_THRESHOLD) return 'related';
  return 'distinct';
}

/** Similarity rounded for display (3 decimals), so 0.7499 is not shown as 0.75. */
export function roundSimilarity(sim: number): number {
  return Math.floor(sim * 1000) / 1000;
}
