import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileNameFor, parseMemoryText, serializeMemory, splitBlocks, splitMatter, yamlScalar } from '../../src/core/store/memfile.ts';
import type { MemoryRecord } from '../../src/core/types.ts';

const rec: MemoryRecord = {
  id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H',
  created: '2026-03-14T10:23:00.000Z',
  updated: '2026-03-14T10:23:00.000Z',
  scopes: ['learning-style', 'tools'],
  confidence: 'high',
  source: 'explicit-statement',
  category: 'user-inference',
  last_verified_at: null,
  expires: null,
  origin: { cwd: '/home/me/src/foo', repo: 'git@github.com:me/foo.git', branch: 'main', worktree_root: '/home/me/src/foo' },
  body: 'When I ask for a "zero to hero" tutorial, I want a hands-on walkthrough\nwith code I can run.',
};

test('serialize then parse round-trips every known key', () => {
  const text = serializeMemory(rec);
  const { record, extra } = parseMemoryText(text);
  assert.deepEqual(record, rec);
  assert.deepEqual(extra, []);
});

test('the format.md example parses', () => {
  const text = `---
schema_version: 1
id: 01JQ3Z8V7M2K4T6Y9B1C3D5F7H
created: 2026-03-14T10:23:00.000Z
updated: 2026-03-14T10:23:00.000Z
scopes: [learning-style, tools]
confidence: high            # low | medium | high
source: explicit-statement  # explicit-statement | inferred | user-correction
category: user-inference    # fact | user-inference
last_verified_at: null
expires: null               # optional ISO date-time; expired memories leave search and list
origin:
  cwd: /home/me/src/foo
  repo: git@github.com:me/foo.git
  branch: main
  worktree_root: /home/me/src/foo
---
When I ask for a "zero to hero" tutorial, I want a hands-on walkthrough
with code I can run.
`;
  assert.deepEqual(parseMemoryText(text).record, rec);
});

test('unknown top-level blocks are kept verbatim, in order, comments included', () => {
  const custom = ['x-owner: platform   # team', 'x-links:\n  - https://example.com/a\n  - "b: c"', '# a standalone comment'];
  const text = serializeMemory(rec, custom);
  const { extra } = parseMemoryText(text);
  assert.deepEqual(extra, custom);
  assert.equal(serializeMemory(rec, extra), text);
});

test('strings that YAML would misread are quoted', () => {
  for (const v of ['true', 'null', '123', '1.5', 'a: b', '#x', ' lead', 'yes', '~']) {
    assert.notEqual(yamlScalar(v), v, v);
    assert.equal(JSON.parse(yamlScalar(v)), v);
  }
  assert.equal(yamlScalar('git@github.com:me/foo.git'), 'git@github.com:me/foo.git');
  const weird = { ...rec, origin: { ...rec.origin, cwd: '/tmp/dir with: colon # and hash' } };
  assert.equal(parseMemoryText(serializeMemory(weird)).record.origin.cwd, '/tmp/dir with: colon # and hash');
});

test('files that must not be guessed at are refused with a reason', () => {
  const cases: [string, RegExp][] = [
    ['no frontmatter here', /no YAML frontmatter/],
    ['---js\nmodule.exports = { id: require("child_process").execSync("id").toString() }\n---\nx', /no YAML frontmatter/],
    ['---\n- a\n- b\n---\nx', /not a mapping/],
    ['---\nschema_version: 2\nscopes: [a]\ncreated: 2026-01-01T00:00:00Z\n---\nx', /schema_version 2 is newer/],
    ['---\nid: nope\nscopes: [a]\ncreated: 2026-01-01T00:00:00Z\n---\nx', /id is not a ULID/],
    ['---\nscopes: [Bad]\ncreated: 2026-01-01T00:00:00Z\n---\nx', /scope "Bad"/],
    ['---\nscopes: [a]\ncreated: yesterday\n---\nx', /created is not a date-time/],
    ['---\nscopes: [a]\ncreated: 2026-01-01T00:00:00Z\nconfidence: huge\n---\nx', /confidence must be one of/],
    ['---\nfoo: [\n---\nx', /not valid YAML/],
  ];
  for (const [text, re] of cases) assert.throws(() => parseMemoryText(text), re, text);
});

test('the minimal hand-made form parses: scopes and a body; id, created and updated left to the store', () => {
  const { record } = parseMemoryText('---\nscopes: [tools]\n---\nUse pnpm.\n');
  assert.deepEqual([record.id, record.created, record.updated, record.scopes, record.body], [null, null, null, ['tools'], 'Use pnpm.']);
});

test('a YAML alias bomb does not blow up (aliases are references, unknown keys are copied as text)', () => {
  const lines = ['---', 'scopes: [a]', 'created: 2026-01-01T00:00:00Z', 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 12; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
  lines.push('---', 'body');
  const { record, extra } = parseMemoryText(lines.join('\n'));
  assert.equal(record.body, 'body');
  assert.equal(extra.length, 12);
});

test('splitBlocks keeps continuation lines with their key', () => {
  assert.deepEqual(splitBlocks('a: 1\nb:\n  c: 2\n  - d\n"q k": 3'), [
    { key: 'a', text: 'a: 1' },
    { key: 'b', text: 'b:\n  c: 2\n  - d' },
    { key: 'q k', text: '"q k": 3' },
  ]);
});

test('file names: date, slug of the first words, last 6 chars of the id', () => {
  assert.equal(fileNameFor(rec), '2026-03-14-when-i-ask-for-a-zero-3d5f7h.md');
  assert.equal(fileNameFor({ ...rec, body: '東京タワー!!' }), '2026-03-14-memory-3d5f7h.md');
  assert.equal(fileNameFor({ ...rec, body: 'Café déjà vu' }), '2026-03-14-cafe-deja-vu-3d5f7h.md');
});

test('the frontmatter is split off the body exactly where gray-matter splits it', async () => {
  const { default: matter } = await import('gray-matter');
  const samples = [
    '---\nid: x\n---\nbody\n',
    '---\r\nid: x\r\n---\r\nbody\r\n',
    '---\nid: x\n---',
    '---\nid: x\n---\n\n\nbody after blank lines\n',
    '---\nid: x\n----\nfour dashes close it too\n',
    '---\nid: x\n--- trailing text\nbody\n',
    '---\nno_closing: line at all\nscopes: [a]\n',
    '---\n---\nempty frontmatter\n',
    '---\n# only a comment\n---\nbody\n',
    '---\nid: x\n---\nbody\n---\nnot a second frontmatter\n',
    `---\n${'\n'.repeat(50)}id: x\n---\nblank lines first\n`,
  ];
  for (const src of samples) {
    const gm = matter(src, { engines: { js: () => ({}) } }) as unknown as { matter: string; content: string };
    assert.deepEqual(splitMatter(src), { matter: gm.matter, content: gm.content }, JSON.stringify(src));
  }
});
