// Hashed character n-grams for words the built-in table does not know (identifiers, typos,
// new product names): the vector of such a word is the mean of its n-gram buckets. Shared with
// the build script, so the hash and the n-gram set must never change within a file version.

export const NGRAM_MIN = 3;
export const NGRAM_MAX = 5;

function fnv1a(s: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Bucket ids of the 3..5-grams of `<word>`; empty for words of one letter. */
export function ngramIds(word: string, buckets: number, out: number[] = []): number[] {
  if (word.length < 2) return out;
  const w = `<${word}>`;
  for (let n = NGRAM_MIN; n <= NGRAM_MAX; n++) {
    for (let i = 0; i + n <= w.length; i++) out.push(fnv1a(w, i, i + n) % buckets);
  }
  return out;
}
