// "Says the same thing in other words": the rule the duplicate gate, the previously-removed gate
// and the related hint apply to a semantic neighbour of a write.
//
// A neighbour is a rewording when its cosine with the write reaches the embedder's `cos` AND the
// two texts share at least `overlap` of their content stems AND they carry the same numbers. The
// stems are the search index's (invoices / invoice, attached / attachments meet), so a rewording
// that inflects its words still shares them; numbers are compared after number words are read as
// digits ("first" / "1st", "five" / "5"), and two notes whose numbers differ (port 5432 / 5433)
// are distinct facts however close their meaning. A static embedder alone cannot tell a rewording
// from a distinct note on the same topic; the shared stems do.
//
// The thresholds are per embedder family: a cosine means different things for different models.
// Each is measured by bench/quality/gates.mts on the ordinary-notes corpus (false positives among
// pairs of distinct notes, at most 1 %) and on the dev rewordings there (catch rate). An embedder
// without its own row gets conservative ones.
import { tokenize } from '../../index/tokenize.ts';
import { STOPWORDS } from './dedup.ts';

export interface RewordingRule {
  /** cosine at or above which a neighbour may be a rewording */
  cos: number;
  /** share of content stems (Jaccard) at or above which it is one */
  overlap: number;
  /** cosine at or above which a neighbour is listed as related */
  related: number;
}

const RULES: Array<[prefix: string, rule: RewordingRule]> = [
  // bench/quality/gates.mts: see bench/README.md "Semantic write gates" for the measured figures.
  ['builtin:', { cos: 0.65, overlap: 0.3, related: 0.6 }],
  // The local model (all-MiniLM-L6-v2): its rewordings sit at 0.75-0.92, distinct notes rarely above 0.8.
  ['local:', { cos: 0.75, overlap: 0.3, related: 0.55 }],
  ['test:', { cos: 0.6, overlap: 0.3, related: 0.6 }],
];
/** Provider models known by family, whatever the provider calls them (index/calibration.ts). */
const FAMILIES: Array<[pattern: RegExp, rule: RewordingRule]> = [
  // E5 puts any two notes between cosine 0.7 and 0.95; its rewordings sit at 0.93 and above.
  [/^(openai|ollama):.*\be5-(small|base|large)/i, { cos: 0.92, overlap: 0.3, related: 0.9 }],
];
const UNKNOWN: RewordingRule = { cos: 0.85, overlap: 0.3, related: 0.7 };

/** The rule for vectors of embedder `embedderId` (its id's family prefix, or its model family). */
export function rewordingRuleFor(embedderId: string): RewordingRule {
  for (const [p, r] of RULES) if (embedderId.startsWith(p)) return r;
  for (const [re, r] of FAMILIES) if (re.test(embedderId)) return r;
  return UNKNOWN;
}

const NUMBER_WORDS: Record<string, string> = {
  zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12', fifteen: '15', twenty: '20', thirty: '30', sixty: '60', hundred: '100', thousand: '1000',
  first: '1', second: '2', third: '3', fourth: '4', fifth: '5', sixth: '6', seventh: '7', eighth: '8', ninth: '9', tenth: '10',
  once: '1', twice: '2', single: '1', double: '2', half: '0.5',
};
// "second" is a unit of time as often as an ordinal: read as a number only before a noun it counts
// is not decidable here, so it is left out of the number set (it still counts as a stem).
const AMBIGUOUS = new Set(['second', 'one', 'once', 'single', 'double']);

/** The content stems of a text: the index's terms, stopwords and single letters dropped, number words as digits. */
export function contentStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of tokenize(text)) {
    if (t.whole || t.stop || STOPWORDS.has(t.surface)) continue;
    const ord = /^(\d+)(?:st|nd|rd|th)$/.exec(t.surface);
    const n = ord ? ord[1]! : NUMBER_WORDS[t.surface];
    if (n !== undefined && !AMBIGUOUS.has(t.surface)) out.add(n);
    else if (t.term.length > 1 || /\d/.test(t.term)) out.add(t.term);
  }
  return out;
}

/** The numbers a text states, with number words and ordinals read as digits. */
export function numbersOf(text: string): Set<string> {
  const out = new Set(text.match(/\d+(?:[.,:]\d+)*/g) ?? []);
  for (const t of tokenize(text)) {
    if (t.whole) continue;
    const ord = /^(\d+)(?:st|nd|rd|th)$/.exec(t.surface);
    if (ord) {
      out.add(ord[1]!);
      continue;
    }
    const n = NUMBER_WORDS[t.surface];
    if (n !== undefined && !AMBIGUOUS.has(t.surface)) out.add(n);
  }
  return out;
}

export function sameNumbers(a: string, b: string): boolean {
  const x = numbersOf(a);
  const y = numbersOf(b);
  return x.size === y.size && [...x].every((n) => y.has(n));
}

/** Jaccard of two stem sets. */
export function stemOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/** On fewer than 5 content stems one shared stem moves the overlap by 0.2 or more: too coarse to confirm a rewording. */
export const MIN_STEMS = 5;

/** Whether `b` (a neighbour at `cosine`) says what `a` says in other words, by `rule`. */
export function isRewording(rule: RewordingRule, cosine: number, a: string, b: string): boolean {
  if (cosine < rule.cos) return false;
  const x = contentStems(a);
  const y = contentStems(b);
  if (x.size < MIN_STEMS || y.size < MIN_STEMS) return false;
  return stemOverlap(x, y) >= rule.overlap && sameNumbers(a, b);
}
