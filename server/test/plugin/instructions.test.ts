import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INSTRUCTIONS, MAX_INSTRUCTIONS_BYTES, REQUIRED_PHRASES } from '../../src/mcp/instructions.ts';

test('server instructions stay within the 1,500-byte budget (UTF-8)', () => {
  assert.equal(MAX_INSTRUCTIONS_BYTES, 1500);
  const bytes = Buffer.byteLength(INSTRUCTIONS, 'utf8');
  assert.ok(bytes <= MAX_INSTRUCTIONS_BYTES, `INSTRUCTIONS is ${bytes} bytes, over the ${MAX_INSTRUCTIONS_BYTES}-byte limit: move detail to a tool description or the skill`);
});

test('server instructions keep every required phrase of the policy', () => {
  const missing = REQUIRED_PHRASES.filter((p) => !INSTRUCTIONS.includes(p));
  assert.deepEqual(missing, [], `INSTRUCTIONS lost required phrase(s): ${missing.map((p) => JSON.stringify(p)).join(', ')}`);
});

test('the required phrases cover each rule of the policy', () => {
  // Guards the guard: shrinking REQUIRED_PHRASES must not quietly drop a rule.
  const rules: Array<[string, RegExp]> = [
    ['opt-in', /opt-in/],
    ['no search for generic questions', /generic questions/],
    ['search to resolve ambiguity', /ambiguity/],
    ['search on prior decisions/preferences', /prior decisions/],
    ['say out loud', /Say out loud/],
    ['spot-check non-fresh hits', /not fresh/],
    ['then verify', /^memory_verify$/],
    ['or update', /^memory_update$/],
    ['user claims as user-inference', /category=user-inference/],
    ['record outcomes', /^memory_record_use$/],
    ['durable facts only', /durable facts only/],
    ['alternates when asking in own words', /alternates/],
    ['aliases on writes', /aliases/],
  ];
  for (const [rule, re] of rules) {
    assert.ok(REQUIRED_PHRASES.some((p) => re.test(p)), `no required phrase pins the rule: ${rule}`);
  }
});

test('instructions are plain text the client can show as-is', () => {
  assert.equal(INSTRUCTIONS, INSTRUCTIONS.trim());
  assert.doesNotMatch(INSTRUCTIONS, /\t|\r/);
});
