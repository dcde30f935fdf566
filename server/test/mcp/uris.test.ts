// The cairn:// URIs and the completion references, as pure functions: every form cairn serves
// parses, every other one is refused with a message naming the forms; each template variable and
// prompt argument that names something in the store maps to what it names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryUri, noteUri, parseUri, scopeUri } from '../../src/mcp/resources.ts';
import { completionKind } from '../../src/mcp/completions.ts';
import { firstLine } from '../../src/core/ops/resources.ts';

test('parseUri: the five forms, percent-encoding undone', () => {
  assert.deepEqual(parseUri('cairn://memory/01JQ3Z8V7M2K4T6Y9B1C3D5F7H'), { kind: 'memory', id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H' });
  assert.deepEqual(parseUri('cairn://notes/projects/widgets/api.md'), { kind: 'note', path: 'projects/widgets/api.md' });
  assert.deepEqual(parseUri('cairn://notes/projects%2Fmy%20notes.md'), { kind: 'note', path: 'projects/my notes.md' });
  assert.deepEqual(parseUri('cairn://scope/projects:widgets'), { kind: 'scope', scope: 'projects:widgets' });
  assert.deepEqual(parseUri('cairn://scope/projects%3Awidgets'), { kind: 'scope', scope: 'projects:widgets' });
  assert.deepEqual(parseUri('cairn://overview'), { kind: 'overview' });
  assert.deepEqual(parseUri('cairn://health'), { kind: 'health' });
  assert.equal(noteUri('projects/my notes.md'), 'cairn://notes/projects/my%20notes.md');
  assert.equal(scopeUri('projects:widgets'), 'cairn://scope/projects:widgets');
  assert.equal(memoryUri('X'), 'cairn://memory/X');
});

test('parseUri: anything else is refused, naming what is served', () => {
  for (const [uri, why] of [
    ['file:///etc/passwd', /is not a cairn:\/\/ URI/],
    ['cairn://memory/', /names no memory id/],
    ['cairn://memory/a/b', /names no memory id/],
    ['cairn://notes/', /names no note path/],
    ['cairn://scope/', /names no scope/],
    ['cairn://overview/x', /takes nothing after overview/],
    ['cairn://notes/%E0%A4%A', /malformed percent-encoding/],
    ['cairn://tombstones/x', /is of no kind cairn knows/],
  ] as const) {
    assert.throws(() => parseUri(uri), (err: Error) => why.test(err.message) && /cairn serves cairn:\/\/memory\/\{id\}/.test(err.message), uri);
  }
});

test('completionKind: template variables and prompt arguments that name scopes, ids and note paths', () => {
  assert.equal(completionKind({ type: 'ref/resource', uri: 'cairn://memory/{id}' }, 'id'), 'id');
  assert.equal(completionKind({ type: 'ref/resource', uri: 'cairn://notes/{+path}' }, 'path'), 'note');
  assert.equal(completionKind({ type: 'ref/resource', uri: 'cairn://notes/{+path}' }, '+path'), 'note');
  assert.equal(completionKind({ type: 'ref/resource', uri: 'cairn://notes/{path}' }, 'path'), 'note');
  assert.equal(completionKind({ type: 'ref/resource', uri: 'cairn://scope/{scope}' }, 'scope'), 'scope');
  assert.equal(completionKind({ type: 'ref/resource', uri: 'cairn://overview' }, 'x'), null);
  assert.equal(completionKind({ type: 'ref/prompt', name: 'memory_scope' }, 'scope'), 'scope');
  assert.equal(completionKind({ type: 'ref/prompt', name: 'memory_review' }, 'id'), 'id');
  assert.equal(completionKind({ type: 'ref/prompt', name: 'memory_guide' }, 'anything'), null);
  assert.throws(() => completionKind({ type: 'ref/prompt', name: 'nope' }, 'x'), /unknown prompt "nope": cairn's prompts are memory_guide, memory_scope, memory_review/);
});

test('firstLine: the first non-blank line, heading marks dropped, long lines cut at a word', () => {
  assert.equal(firstLine('\n\n  # Widgets architecture  \nmore'), 'Widgets architecture');
  assert.equal(firstLine('plain first line\nsecond'), 'plain first line');
  assert.equal(firstLine(''), '');
  const long = firstLine(`${'word '.repeat(40)}end`);
  assert.ok(long.length <= 100 && long.endsWith('…') && !long.includes('wor…'), long);
});
