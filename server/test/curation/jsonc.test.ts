// The JSONC reader/editor behind `cairn init` (core/io/jsonc.ts, on jsonc-parser): values as
// JSON.parse gives them, comments and trailing commas accepted, and edits that change only the
// member they set, byte for byte everywhere else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedOnlyAt, memberSpan, parseJsonc, setJsonc } from '../../src/core/io/jsonc.ts';

test('parses what JSON.parse parses, the same way', () => {
  for (const t of ['{}', '[]', '"a\\"b\\u00e9"', '-1.5e3', 'null', '{"a":[1,{"b":true}],"a":2}', '{"__proto__": 1}', '\ufeff{"x": "y"}']) {
    assert.deepEqual(parseJsonc(t), JSON.parse(t.replace(/^\ufeff/, '')), t);
  }
  const proto = parseJsonc('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(proto), Object.prototype, '__proto__ is an own key, not the prototype');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('comments and trailing commas are skipped, but not inside strings', () => {
  const t = '{ // c\n "url": "http://x/*y*/", /* c */ "a": [1, 2,], "b": "//not a comment",\n}';
  assert.deepEqual(parseJsonc(t), { url: 'http://x/*y*/', a: [1, 2], b: '//not a comment' });
});

test('errors name what was wrong, the line and the column', () => {
  assert.throws(() => parseJsonc('{\n  "a": 1\n  "b": 2\n}'), /expected "," at line 3 column 3/);
  assert.throws(() => parseJsonc('{"a": 1} x'), /unexpected character at line 1 column 10/);
  assert.throws(() => parseJsonc('{"a": "x\ny"}'), /at line 1 column/);
  assert.throws(() => parseJsonc('{"a": 01}'), /at line 1 column/);
  assert.throws(() => parseJsonc('{ /* open'), /unclosed \/\* comment at line 1 column 3/);
});

/** `after` is `before` plus exactly `inserted` at one place. */
function insertedOnce(before: string, after: string, inserted: string): boolean {
  const at = after.indexOf(inserted);
  return at >= 0 && after.slice(0, at) + after.slice(at + inserted.length) === before;
}

test('setJsonc: replaces only the value, or adds one member in the file\'s indentation', () => {
  const t = '{\n    "a": 1, // one\n    "b": [\n        2\n    ] // two\n}';
  assert.equal(setJsonc(t, ['a'], 'x'), t.replace('"a": 1', '"a": "x"'));
  const added = setJsonc(t, ['c'], { d: [1] });
  assert.deepEqual(parseJsonc(added), { a: 1, b: [2], c: { d: [1] } });
  assert.ok(changedOnlyAt(t, added, ['c']));
  assert.match(added, /\n {4}"c": \{\n {8}"d": \[\n {12}1\n {8}\]\n {4}\}/, 'four-space indentation, as the file');
  // A one-line object: formatting would rewrap the line, so the member goes in as it is.
  const inline = '{"a": {"b": 1}}';
  const one = setJsonc(inline, ['a', 'c'], [1, 'x']);
  assert.deepEqual(parseJsonc(one), { a: { b: 1, c: [1, 'x'] } });
  assert.ok(insertedOnce(inline, one, ', "c": [1, "x"]'), one);
  const crlf = '{\r\n  "s": {}\r\n}\r\n';
  assert.equal(setJsonc(crlf, ['s', 'k'], true), '{\r\n  "s": {\r\n    "k": true\r\n  }\r\n}\r\n');
  assert.throws(() => setJsonc('{"a": ', ['a'], 1), /at line 1/);
  assert.equal(setJsonc('\ufeff{"a": 1}', ['a'], 2), '\ufeff{"a": 2}');
});

test('changedOnlyAt: a change outside the member is caught', () => {
  const before = '{\n  "x": 1,\n  "m": {"cairn": 1}\n}';
  assert.ok(changedOnlyAt(before, '{\n  "x": 1,\n  "m": {"cairn": 2}\n}', ['m', 'cairn']));
  assert.ok(!changedOnlyAt(before, '{\n  "x": 2,\n  "m": {"cairn": 2}\n}', ['m', 'cairn']));
  // A member added as the first of its object, the file's other text untouched.
  const first = '{\n  "m": {\n    "x": 1, // keep\n  }\n}';
  assert.ok(changedOnlyAt(first, '{\n  "m": {\n    "cairn": 2,\n    "x": 1, // keep\n  }\n}', ['m', 'cairn']));
  assert.ok(!changedOnlyAt(first, '{\n  "m": {\n    "cairn": 2,\n    "x": 1 // keep\n  }\n}', ['m', 'cairn']));
  assert.deepEqual(memberSpan(before, ['m', 'cairn']), { start: before.indexOf('"cairn"'), end: before.indexOf('"cairn"') + 10 });
  assert.equal(memberSpan(before, ['nope']), null);
});
