// The rewording rule of the semantic write gates: shared stems through inflection, numbers read
// through number words and ordinals, and thresholds per embedder family.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentStems, isRewording, numbersOf, rewordingRuleFor, sameNumbers, stemOverlap } from '../../src/core/trust/gates/rewording.ts';

test('stems meet across inflection: invoices / invoice, attachments / attached', () => {
  const a = contentStems('The billing service sends invoices as PDF attachments by email on the first day of each month');
  const b = contentStems('On the 1st of every month, billing emails customers their invoice as an attached PDF');
  assert.ok(stemOverlap(a, b) >= 0.4, `${[...a]} / ${[...b]}`);
});

test('numbers: ordinals and number words are digits; a different number is a different fact', () => {
  assert.deepEqual([...numbersOf('on the first day')], ['1']);
  assert.deepEqual([...numbersOf('on the 1st')], ['1']);
  assert.ok(sameNumbers('cached for five minutes', 'a 5 minute TTL'));
  assert.ok(!sameNumbers('Postgres listens on port 5432', 'Postgres listens on port 5433'));
  assert.ok(!sameNumbers('retried three times', 'retried four times'));
});

test('the rule: close meaning AND shared stems AND the same numbers, on texts of at least five stems', () => {
  const rule = { cos: 0.65, overlap: 0.3, related: 0.6 };
  const a = 'Lark API responses are cached in Redis for five minutes';
  assert.ok(isRewording(rule, 0.8, a, 'The Lark API caches its responses in Redis with a five minute TTL'));
  assert.ok(!isRewording(rule, 0.6, a, 'The Lark API caches its responses in Redis with a five minute TTL'), 'below the cosine');
  assert.ok(!isRewording(rule, 0.9, a, 'The Lark API caches its responses in Redis with a ten minute TTL'), 'other number');
  assert.ok(!isRewording(rule, 0.9, a, 'Grafana dashboards show the queue depth of every worker pool'), 'no shared stems');
  assert.ok(!isRewording(rule, 0.95, 'Use pnpm', 'Use pnpm always'), 'too short to judge');
});

test('thresholds are per embedder family; an unknown embedder gets conservative ones', () => {
  assert.notDeepEqual(rewordingRuleFor('builtin:use-distill-256-x'), rewordingRuleFor('openai:some-model'));
  assert.ok(rewordingRuleFor('openai:some-model').cos >= rewordingRuleFor('builtin:x').cos);
  // An E5 model is known by its family whatever the provider calls it: its cosines run high.
  assert.equal(rewordingRuleFor('openai:multilingual-e5-small-q4'), rewordingRuleFor('ollama:intfloat/e5-base-v2'));
  assert.ok(rewordingRuleFor('openai:multilingual-e5-small-q4').cos > rewordingRuleFor('openai:some-model').cos);
});
