// A small English stemmer: Porter's steps 1a and 1b (plurals and -ed/-ing tenses) plus the final-e
// rule, so `backups` -> `backup`, `cached`/`caching`/`cache` -> `cach`, `retries`/`retried` -> `retry`.
// It deliberately stops there: derivational suffixes (-ation, -ment) are left to prefix matching,
// which keeps stems readable prefixes of their words (`deploy` still prefixes `deployment`).
//
// Invariant: stem() is a pure function of its input, applied identically to documents and
// queries; the persisted index records STEMMER_VERSION so a change here invalidates old caches.

export const STEMMER_VERSION = 2;

const VOWELS = 'aeiou';

function isConsonant(w: string, i: number): boolean {
  const ch = w[i]!;
  if (VOWELS.includes(ch)) return false;
  if (ch === 'y') return i === 0 || !isConsonant(w, i - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in w. */
function measure(w: string): number {
  let m = 0;
  let i = 0;
  const n = w.length;
  while (i < n && isConsonant(w, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(w, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(w, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** consonant-vowel-consonant at the end, the last not w, x or y (hop, not hoop or tax). */
function endsCvc(w: string): boolean {
  const n = w.length;
  if (n < 3) return false;
  const last = w[n - 1]!;
  return isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && !'wxy'.includes(last);
}

function step1a(w: string): string {
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ies')) return w.length > 4 ? w.slice(0, -3) + 'y' : w.slice(0, -1);
  // status, redis, class, analysis: a final s after u, i or s is not a plural (but apis, kpis are).
  if (w.endsWith('s') && !/(?:ss|us)$/.test(w) && !(w.endsWith('is') && w.length > 4)) return w.slice(0, -1);
  return w;
}

function step1b(w: string): string {
  if (w.endsWith('eed')) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  if (w.endsWith('ied') && w.length > 4) return w.slice(0, -3) + 'y';
  let base: string | null = null;
  if (w.endsWith('ed') && hasVowel(w.slice(0, -2))) base = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w.slice(0, -3))) base = w.slice(0, -3);
  if (base === null) return w;
  if (/(?:at|bl|iz)$/.test(base)) return base + 'e';
  if (endsDoubleConsonant(base) && !/[lsz]$/.test(base)) return base.slice(0, -1);
  if (measure(base) === 1 && endsCvc(base)) return base + 'e';
  return base;
}

function stepFinalE(w: string): string {
  if (!w.endsWith('e')) return w;
  const base = w.slice(0, -1);
  const m = measure(base);
  if (m > 1 || (m === 1 && !endsCvc(base))) return base;
  return w;
}

const ASCII_WORD = /^[a-z]+$/;

/**
 * Stems a lowercase word. Words that are not plain ASCII letters (k8s, ipv4, non-Latin scripts)
 * are returned unchanged; plural and tense endings are only taken off words of 4+ letters, so
 * acronyms such as aws, ios, ops keep their s (but `use` and `used` still meet at `us`).
 */
export function stem(word: string): string {
  if (word.length <= 2 || !ASCII_WORD.test(word)) return word;
  const out = stepFinalE(word.length >= 4 ? step1b(step1a(word)) : word);
  return out.length >= 2 ? out : word;
}
