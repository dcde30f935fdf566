// YAML written by core/io/yaml.ts (the `yaml` package, in js-yaml's style) and read back by the
// reader every memory's frontmatter goes through (gray-matter's js-yaml): the fixtures' values are
// written byte for byte as js-yaml wrote them, and every value, tricky ones included, reads back
// as the value that was written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { yamlDump, yamlLoad } from '../../src/core/io/yaml.ts';

/** js-yaml's safeDump as gray-matter bundles it: what cairn wrote before. */
const jsYamlDump = (matter as unknown as { engines: { yaml: { stringify: (v: unknown) => string } } }).engines.yaml.stringify;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));
}
const ROOT = new URL('../', import.meta.url).pathname;
const FIXTURES = walk(ROOT).filter((f) => readFileSync(f, 'utf8').startsWith('---'));

test('the fixture memory files with frontmatter are all found', () => {
  assert.ok(FIXTURES.length >= 8, FIXTURES.join('\n'));
});

for (const file of FIXTURES) {
  test(`frontmatter of ${file.slice(ROOT.length)}: written as js-yaml wrote it, read back the same`, () => {
    const data = matter(readFileSync(file, 'utf8')).data;
    const text = yamlDump(data);
    assert.equal(text, jsYamlDump(data));
    assert.deepEqual(yamlLoad(text), data);
  });
}

const TRICKY: Record<string, unknown> = {
  date: new Date('2024-01-02T03:04:05Z'),
  date_string: '2024-01-02',
  time_string: '2024-01-02T03:04:05Z',
  colon: 'a: b',
  colon_tight: 'projects:widgets',
  url: 'https://example.com/a?b=c#d',
  ssh: 'git@github.com:acme/widgets.git',
  windows: 'C:\\Users\\sam\\cairn',
  hash: 'a #b',
  quotes: 'it\'s "quoted"',
  multi_line: 'line one\nline two\n',
  multi_no_end: 'line one\nline two',
  unicode: 'h\u00e9llo \u65e5\u672c',
  emoji: 'ship it \u{1f389}',
  id_leading_zero: '0123',
  ulid: '01JQZ9X2V3W4Y5Z6A7B8C9D0E1',
  yes: 'yes',
  no: 'no',
  on: 'On',
  off: 'OFF',
  y: 'y',
  true_string: 'true',
  null_string: 'null',
  tilde: '~',
  empty: '',
  number_string: '12',
  float_string: '1.5',
  exp_string: '1e3',
  hex_string: '0x1F',
  octal_string: '0o17',
  sexagesimal: '1:20',
  underscore_number: '1_000',
  dot_inf: '.inf',
  leading_space: ' x',
  trailing_space: 'x ',
  dash: '-y',
  indicators: ['?x', '&a', '*a', '!x', '|x', '>x', '%x', '@x', '`x', '{a}', '[a]', 'a, b', '<<', '='],
  control: 'a\tb',
  bom: '\ufeffx',
  line_separator: 'a\u2028b',
  long: 'word '.repeat(30).trim(),
  number: 5,
  negative: -1.5,
  bool: false,
  nothing: null,
  empty_list: [],
  empty_map: {},
  servers: [{ name: 'cairn', command: '/usr/bin/node', args: ['/opt/cairn/server/dist/cairn.mjs'], env: { MALLOC_ARENA_MAX: '2' } }],
  'key: with colon': 1,
  '0123': 'key that looks like a number',
};

test('tricky values read back exactly as written', () => {
  const text = yamlDump(TRICKY);
  const back = yamlLoad(text) as Record<string, unknown>;
  for (const [k, v] of Object.entries(TRICKY)) assert.deepEqual(back[k], v, `${k}: ${text.split('\n').find((l) => l.includes(k.slice(0, 6)))}`);
  assert.deepEqual(Object.keys(back), Object.keys(TRICKY));
});

test('each tricky value is written as js-yaml wrote it, except where js-yaml was needlessly odd', () => {
  // js-yaml escaped characters outside the Basic Multilingual Plane and folded long strings at
  // 80 columns with a trailing space kept; the `yaml` package writes both on one plain line. A
  // byte-order mark or a line separator inside a string is escaped by js-yaml and written as it
  // is (in double quotes) by `yaml`; both read back the same (the test above).
  const differs = new Set(['emoji', 'long', 'bom', 'line_separator']);
  for (const [k, v] of Object.entries(TRICKY)) {
    const mine = yamlDump({ [k]: v });
    if (differs.has(k)) assert.notEqual(mine, jsYamlDump({ [k]: v }), k);
    else assert.equal(mine, jsYamlDump({ [k]: v }), k);
  }
  assert.equal(yamlDump({ emoji: TRICKY.emoji }), 'emoji: ship it \u{1f389}\n');
  assert.equal(yamlDump({ long: TRICKY.long }), `long: ${TRICKY.long}\n`);
});

test('a __proto__ key is written as a key, and read back as one', () => {
  const v = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
  const text = yamlDump(v);
  assert.equal(text, '__proto__:\n  x: 1\n');
});
