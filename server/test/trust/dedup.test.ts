// Near-duplicate similarity: tokenization and the two thresholds at their exact edges.
import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import {
  DUPLICATE_THRESHOLD,
  RELATED_THRESHOLD,
  STOPWORDS,
  classifySimilarity,
  dedupTokenSet,
  dedupTokens,
  jaccard,
  roundSimilarity,
  similarity,
} from '../../src/core/trust/gates/dedup.ts';

const set = (...xs: string[]) => new Set(xs);
/** Two texts whose token sets share `shared` tokens and each have `onlyA` / `onlyB` of their own. */
function texts(shared: number, onlyA: number, onlyB: number): [string, string] {
  const s = Array.from({ length: shared }, (_, i) => `shared${i}`);
  const a = Array.from({ length: onlyA }, (_, i) => `alpha${i}`);
  const b = Array.from({ length: onlyB }, (_, i) => `beta${i}`);
  return [[...s, ...a].join(' '), [...s, ...b].join(' ')];
}

describe('dedup tokens', () => {
  it('lowercases, strips stopwords and single letters, keeps order without repeats', () => {
    assert.deepEqual(dedupTokens('The user prefers PNPM over npm, and the user is x'), ['user', 'prefers', 'pnpm', 'npm']);
  });

  it('keeps single digits: facts that differ by a number are not identical', () => {
    assert.deepEqual(dedupTokens('retry 3 times'), ['retry', '3', 'times']);
    assert.ok(similarity('Paging fact number 0.', 'Paging fact number 1.') < 1);
  });

  it('splits kebab, snake, dotted and path compounds into their parts', () => {
    assert.deepEqual(dedupTokens('dark-mode memory_write config.toml src/core/store.ts'), [
      'dark', 'mode', 'memory', 'write', 'config', 'toml', 'src', 'core', 'store', 'ts',
    ]);
    assert.equal(similarity('enable dark-mode', 'enable dark mode'), 1);
  });

  it('keeps digits and non-ASCII letters', () => {
    assert.deepEqual(dedupTokens('node 20 über café'), ['node', '20', 'über', 'café']);
  });

  it('a text made only of stopwords has no tokens and is similar to nothing', () => {
    assert.deepEqual(dedupTokens('the and of it is'), []);
    assert.equal(similarity('the and of', 'it is the'), 0);
  });
});

describe('jaccard and thresholds', () => {
  it('jaccard basics', () => {
    assert.equal(jaccard(set('a', 'b'), set('a', 'b')), 1);
    assert.equal(jaccard(set('a'), set('b')), 0);
    assert.equal(jaccard(set(), set()), 0);
    assert.equal(jaccard(set('a', 'b', 'c'), set('a')), 1 / 3);
  });

  it('is a set measure: repeating words changes nothing', () => {
    assert.equal(similarity('cache cache cache redis', 'redis cache'), 1);
  });

  it('exactly 0.75 is a duplicate', () => {
    const [a, b] = texts(3, 1, 0); // 3 / 4
    assert.equal(similarity(a, b), 0.75);
    assert.equal(DUPLICATE_THRESHOLD, 0.75);
    assert.equal(classifySimilarity(similarity(a, b)), 'duplicate');
  });

  it('just below 0.75 is related', () => {
    const [a, b] = texts(74, 13, 13); // 74 / 100
    assert.equal(similarity(a, b), 0.74);
    assert.equal(classifySimilarity(similarity(a, b)), 'related');
    assert.equal(classifySimilarity(0.7499999), 'related');
  });

  it('exactly 0.40 is related', () => {
    const [a, b] = texts(2, 2, 1); // 2 / 5
    assert.equal(similarity(a, b), 0.4);
    assert.equal(RELATED_THRESHOLD, 0.4);
    assert.equal(classifySimilarity(similarity(a, b)), 'related');
  });

  it('just below 0.40 is distinct', () => {
    const [a, b] = texts(39, 31, 30); // 39 / 100
    assert.equal(similarity(a, b), 0.39);
    assert.equal(classifySimilarity(similarity(a, b)), 'distinct');
    assert.equal(classifySimilarity(0.3999999), 'distinct');
  });

  it('a rephrased memory with the same content words is a duplicate', () => {
    const sim = similarity(
      'The user prefers pnpm over npm for JavaScript projects.',
      'For JavaScript projects, the user prefers pnpm rather than npm.',
    );
    assert.ok(sim >= DUPLICATE_THRESHOLD, String(sim));
  });

  it('rounding for display never rounds up across a threshold', () => {
    assert.equal(roundSimilarity(0.74999), 0.749);
    assert.equal(roundSimilarity(0.75), 0.75);
    assert.equal(roundSimilarity(2 / 3), 0.666);
  });
});

test('the ASCII scan gives exactly the tokens of the Unicode split, on random texts and real notes', () => {
  // The reference: the Unicode rule written out (lowercase, split on non letters/digits, single
  // letters and stopwords dropped, single digits kept), applied to texts made of the characters
  // where the two could differ (case, digits, joiners, whitespace, a non-ASCII letter).
  const reference = (text: string) => {
    const out = new Set<string>();
    for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      if ((raw.length < 2 && !/\p{N}/u.test(raw)) || STOPWORDS.has(raw)) continue;
      out.add(raw);
    }
    return [...out];
  };
  const alphabet = 'aZ09 _-./:A\tq\nB7é';
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const texts = ['Use pnpm, not npm: The CI (GitHub Actions) runs `pnpm install --frozen-lockfile` on Node 20.', 'A 3 B x9 Z', 'The THE the', 'memory_write-confirm v2.1.0'];
  for (let i = 0; i < 3000; i++) {
    let s = '';
    for (let j = Math.floor(rnd() * 40); j > 0; j--) s += alphabet[Math.floor(rnd() * alphabet.length)];
    texts.push(s);
  }
  for (const t of texts) assert.deepEqual([...dedupTokenSet(t)], reference(t), JSON.stringify(t));
});
