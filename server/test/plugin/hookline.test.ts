import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOOK_LINE_MAX_BYTES, formatHookLine } from '../../src/cli/commands/overview.ts';

test('hook line: nothing at all means no line', () => {
  assert.equal(formatHookLine({ here: 0, scopes: {}, elsewhere: 0 }), '');
});

test('hook line: only other repos hold memories', () => {
  assert.equal(
    formatHookLine({ here: 0, scopes: {}, elsewhere: 4 }),
    'cairn memory: no memories for this project; 4 in other repos. Search them only when stored context could help.',
  );
});

test('hook line: scopes largest first, ties by name, singular forms', () => {
  assert.equal(
    formatHookLine({ here: 1, scopes: { tools: 1 }, elsewhere: 0 }),
    'cairn memory: 1 memory for this project (tools 1). Search them only when stored context could help.',
  );
  assert.equal(
    formatHookLine({ here: 5, scopes: { b: 2, a: 2, z: 3 }, elsewhere: 1 }),
    'cairn memory: 5 memories for this project (z 3, a 2, b 2); 1 more in other repos. Search them only when stored context could help.',
  );
});

test('hook line: memories bound to no repo are counted apart from the project\'s own', () => {
  assert.equal(
    formatHookLine({ here: 5, project: 3, scopes: { a: 3, b: 2 }, elsewhere: 1 }),
    'cairn memory: 3 memories for this project and 2 not tied to any repo (a 3, b 2); 1 more in other repos. Search them only when stored context could help.',
  );
  assert.equal(
    formatHookLine({ here: 2, project: 0, scopes: { tools: 2 }, elsewhere: 0 }),
    'cairn memory: no memories for this project, 2 not tied to any repo (tools 2). Search them only when stored context could help.',
  );
  // Outside a repo the view is named as such; nothing is "for this project" there.
  assert.equal(
    formatHookLine({ here: 2, project: 0, scopes: { tools: 2 }, elsewhere: 3, outside: true }),
    'cairn memory: 2 memories in view outside a git repo (repo-less and global scopes) (tools 2); 3 more in other repos (search them with auto_scope=false). Search them only when stored context could help.',
  );
});

test('hook line: elides scopes from the end to fit the byte budget', () => {
  const scopes: Record<string, number> = {};
  for (let i = 0; i < 100; i++) scopes[`projects:some-long-project-name:component-${i}`] = 100 - i;
  const line = formatHookLine({ here: 5000, scopes, elsewhere: 0 });
  assert.ok(Buffer.byteLength(line) <= HOOK_LINE_MAX_BYTES, `${Buffer.byteLength(line)} bytes`);
  assert.match(line, /\(projects:some-long-project-name:component-0 100, .*, \+\d+ more scopes\)\. Search/);
  // A single scope longer than the budget leaves only the count of scopes.
  const huge = formatHookLine({ here: 1, scopes: { [`x${'-y'.repeat(200)}`]: 1 }, elsewhere: 0 });
  assert.equal(huge, 'cairn memory: 1 memory for this project (1 scope). Search them only when stored context could help.');
});
