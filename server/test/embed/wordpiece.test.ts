// The TypeScript WordPiece tokenizer gives the reference tokenizer's ids (Hugging Face
// `tokenizers` over the model's tokenizer.json, recorded by scripts/embed/reference-tokens.py)
// for strings that exercise its normaliser and pre-tokenizer: accents, CJK, controls, emoji,
// punctuation, identifiers, over-long words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readModelFile } from '../../src/core/embed/modelFile.ts';
import { WordPiece } from '../../src/core/embed/wordpiece.ts';

const MODEL = fileURLToPath(new URL('../../dist/cairn-model.bin', import.meta.url));
const REFERENCE = JSON.parse(readFileSync(new URL('./fixtures/wordpiece-reference.json', import.meta.url), 'utf8')) as Array<{ text: string; ids: number[] }>;
const wp = new WordPiece(readModelFile(MODEL).vocab);

test('token ids equal the reference tokenizer on every recorded string', () => {
  assert.ok(REFERENCE.length >= 30);
  const bad = REFERENCE.filter(({ text, ids }) => JSON.stringify(wp.encode(text, 100_000)) !== JSON.stringify(ids)).map((r) => r.text);
  assert.deepEqual(bad, []);
});

test('encode cuts to maxTokens, keeping [CLS] first and [SEP] last', () => {
  const ids = wp.encode('word '.repeat(500), 16);
  assert.equal(ids.length, 16);
  assert.equal(ids[0], wp.cls);
  assert.equal(ids[15], wp.sep);
});

test('a long adversarial input tokenizes in linear time', () => {
  const text = 'x'.repeat(99) + ' ' + 'ab'.repeat(200_000) + ' ' + '!?'.repeat(100_000);
  const t0 = performance.now();
  wp.tokenize(text);
  assert.ok(performance.now() - t0 < 5000);
});
