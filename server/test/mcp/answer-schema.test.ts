// Every structured answer is checked against the tool's own output schema on the server: strictly
// in tests (the call fails), as a one-time bug report on stderr in production (the answer still goes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkAnswer } from '../../src/mcp/tool.ts';
import { allTools } from '../../src/mcp/registry.ts';

const search = allTools.find((t) => t.name === 'memory_search')!;
const wrong = { hits: [{ id: 42 }] };

test('a conforming answer passes in both modes', () => {
  const lines: string[] = [];
  assert.equal(checkAnswer(search, { hits: [] }, { CAIRN_STRICT_SCHEMAS: '1' }, (l) => lines.push(l)), null);
  assert.equal(checkAnswer(search, { hits: [] }, {}, (l) => lines.push(l)), null);
  assert.deepEqual(lines, []);
});

test('strict mode turns an answer outside the schema into an error naming the tool and the field', () => {
  const err = checkAnswer(search, wrong, { CAIRN_STRICT_SCHEMAS: '1' }, () => assert.fail('strict mode reports through the answer'));
  assert.match(err ?? '', /^memory_search answered outside its output schema \(hits\.0\.\w+: /);
});

test('production sends the answer and reports the bug once per tool on stderr', () => {
  const lines: string[] = [];
  const show = allTools.find((t) => t.name === 'memory_show')!;
  assert.equal(checkAnswer(show, { nope: true }, {}, (l) => lines.push(l)), null);
  assert.equal(checkAnswer(show, { nope: true }, {}, (l) => lines.push(l)), null);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^cairn: bug: memory_show answered outside its output schema/);
});

test('every tool with structured answers has an output schema to check against', () => {
  const textTools = allTools.filter((t) => !t.output).map((t) => t.name);
  assert.deepEqual(textTools, ['memory']);
});
