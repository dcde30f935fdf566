// The JSONC reader/editor behind `cairn init` (core/io/jsonc.ts): values as JSON.parse gives
// them, comments and trailing commas accepted, and edits that touch only the member they set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonc, setMember, toValue, memberOf } from '../../src/core/io/jsonc.ts';

test('parses what JSON.parse parses, the same way', () => {
  for (const t of ['{}', '[]', '"a\\"b\\u00e9"', '-1.5e3', 'null', '{"a":[1,{"b":true}],"a":2}', '{"__proto__": 1}', '\ufeff{"x": "y"}']) {
    assert.deepEqual(toValue(parseJsonc(t)), JSON.parse(t.replace(/^\ufeff/, '')), t);
  }
});

test('comments and trailing commas are skipped, but not inside strings', () => {
  const t = '{ // c\n "url": "http://x/*y*/", /* c */ "a": [1, 2,], "b": "//not a comment",\n}';
  assert.deepEqual(toValue(parseJsonc(t)), { url: 'http://x/*y*/', a: [1, 2], b: '//not a comment' });
});

test('errors name the line and column', () => {
  assert.throws(() => parseJsonc('{\n  "a": 1\n  "b": 2\n}'), /expected "," or "}" at line 3 column 3/);
  assert.throws(() => parseJsonc('{"a": 1} x'), /unexpected text after the end of the document at line 1 column 10/);
  assert.throws(() => parseJsonc('{"a": "x\ny"}'), /line break inside a string/);
  assert.throws(() => parseJsonc('{"a": 01}'), /expected "," or "}"/);
});

test('setMember: replaces only the value, or appends one member in the object\'s own layout', () => {
  const t = '{\n    "a": 1, // one\n    "b": [\n        2\n    ] // two\n}';
  const root = parseJsonc(t);
  assert.equal(setMember(t, root, 'a', 'x'), t.replace('"a": 1', '"a": "x"'));
  assert.equal(setMember(t, root, 'c', { d: [1] }), '{\n    "a": 1, // one\n    "b": [\n        2\n    ], // two\n    "c": {\n        "d": [\n            1\n        ]\n    }\n}');
  const inline = '{"a": {"b": 1}}';
  assert.equal(setMember(inline, memberOf(parseJsonc(inline), 'a')!.value, 'c', [1, 'x']), '{"a": {"b": 1, "c": [1, "x"]}}');
  const empty = '{\r\n  "s": {}\r\n}\r\n';
  assert.equal(setMember(empty, memberOf(parseJsonc(empty), 's')!.value, 'k', true), '{\r\n  "s": {\r\n    "k": true\r\n  }\r\n}\r\n');
});
