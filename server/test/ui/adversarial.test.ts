// Every piece of the web page that runs a regular expression or the markdown parser over text a
// memory, a form or a URL supplies, fed the worst repetitions for it at the largest size that can
// reach it: a memory body (LIMITS.contentChars) for the renderer, the snippet marker and the list
// fields; the largest form post (MAX_BODY) for the escaping of what a form sends back, which is
// where the longest text is escaped (a longer body is cut by the renderer, kept out of the edit
// form). Each must finish within 50 ms of CPU (median of three runs; CPU time, not wall time, so a
// busy machine does not fail the test). Rendering runs on the event loop every request shares, so
// these bounds are what keeps one hostile memory from freezing the page for everyone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/core/limits.ts';
import { highlight, markdown, markupCost, MAX_CHARS, MAX_MARKUP } from '../../src/ui/markdown.ts';
import { esc } from '../../src/ui/html.ts';
import { MAX_BODY } from '../../src/ui/server.ts';
import { backTo, splitList } from '../../src/ui/request.ts';
import { route, type UiRequest } from '../../src/ui/routes.ts';

const MAX: number = LIMITS.contentChars;
const BOUND_MS = 50;

function cpuMs(fn: () => unknown): number {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    runs.push((c.user + c.system) / 1000);
  }
  return runs.sort((a, b) => a - b)[1]!;
}

const fill = (unit: string, n: number = MAX) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

/** The longest repetition of `unit` that markdown-it still parses (within both budgets). */
function atBudget(unit: string): string {
  let n = MAX_CHARS;
  while (n > unit.length && markupCost(fill(unit, n)) > MAX_MARKUP) n = Math.floor(n * 0.95);
  return fill(unit, n);
}

// Patterns known to be costly for markdown parsers (markdown-it's and commonmark's pathological
// cases), plus the two bodies that froze and crashed the hand-written renderer this replaced.
const HOSTILE: Record<string, string> = {
  'heading then a run of spaces': `# a${' '.repeat(2_500)}word`,
  'nested quotes': '>'.repeat(4_000),
  'spaces after a heading marker': `#${' '.repeat(MAX - 10)}x`,
  'nested quotes, spaced': '> ',
  'open brackets': '[',
  'unclosed links': '[a](',
  'nested link parens': '[(',
  'emphasis runs': '*a **a ',
  'underscore runs': '_a __a ',
  'emphasis around text': '**a',
  'backtick runs': '`a``',
  'angle brackets': '<',
  'autolink starts': '<https://a',
  'bare urls': 'https://a.example/ ',
  'flat list': '- a\n',
  'nested list': '- ',
  'numbered list': '1. a\n',
  'quote in list': '> - ',
  'reference definitions': '[a]: b\n',
  'image starts': '![',
  'entities': '&#',
  'strikethrough': '~~a',
  'table rows': '|a|b|\n',
  'table delimiter': '|-',
  'line breaks': 'a\n',
  'blank lines': '\n',
  'setext headings': 'a\n=\n',
  'fences': '```\n',
  'indented code': '    a\n',
  'backslashes': '\\*',
  'spaces': ' ',
  'tabs then text': '\t\ta',
};

for (const [name, unit] of Object.entries(HOSTILE)) {
  const full = unit.length > 100 ? unit : fill(unit);
  test(`markdown: ${name} at ${full.length.toLocaleString('en-US')} characters renders within ${BOUND_MS} ms`, () => {
    let out = '';
    const ms = cpuMs(() => (out = markdown(full)));
    assert.ok(ms <= BOUND_MS, `${ms.toFixed(1)} ms`);
    assert.ok(out.length > 0);
  });
  if (unit.length <= 100) {
    const parsed = atBudget(unit);
    test(`markdown: ${name}, the most markdown-it parses (${parsed.length.toLocaleString('en-US')} characters), within ${BOUND_MS} ms`, () => {
      let out = '';
      const ms = cpuMs(() => (out = markdown(parsed)));
      assert.ok(ms <= BOUND_MS, `${ms.toFixed(1)} ms`);
      assert.doesNotMatch(out, /Shown as plain text/, 'this size is parsed as markdown');
    });
  }
}

test('the two bodies that broke the old renderer: a heading, and quotes shown as text', () => {
  assert.match(markdown(`# a${' '.repeat(2_500)}word`), /^<h3>a +word<\/h3>/);
  // 4,000 marks are over the markup budget: plain text, every character kept.
  assert.match(markdown('>'.repeat(4_000)), /^<p class="muted plain-note">Shown as plain text: it has more markup than the page renders\.<\/p>\n<pre class="plain">(&gt;){4000}<\/pre>$/);
  // Within the budget, nesting stops at the cap and the rest stays text.
  const deep = markdown('>'.repeat(1_000));
  assert.doesNotMatch(deep, /Shown as plain text/);
  assert.ok((deep.match(/<blockquote>/g) ?? []).length <= 20, 'nesting stops at the cap');
});

test('a body over the budget is shown escaped as plain text; a long one cut, saying so', () => {
  const body = `<b>x</b>\n${'- item\n'.repeat(2_000)}tail`;
  const out = markdown(body);
  assert.match(out, /^<p class="muted plain-note">Shown as plain text: it has more markup than the page renders\.<\/p>/);
  assert.match(out, /<pre class="plain">&lt;b&gt;x&lt;\/b&gt;\n- item\n/);
  assert.match(out, /tail<\/pre>$/);
  const long = markdown('a'.repeat(MAX_CHARS + 1));
  assert.match(long, /it is 65,537 characters long; the first 65,536 are shown/);
  assert.equal(long.length - long.indexOf('<pre'), '<pre class="plain">'.length + MAX_CHARS + '</pre>'.length);
});

const WORST_TEXT: Record<string, string> = {
  'markup characters': '<&>"\'',
  'one long word': 'a',
  'short words': 'ab ',
  'spaces': ' ',
  'spaces and commas': ' ,',
  'commas and line ends': ',\n',
  'letters and digits': 'a1_',
  'unicode letters': '\u00e9\u65e5',
  'return path characters': '/a?b=&%:+~#',
};

for (const [name, unit] of Object.entries(WORST_TEXT)) {
  test(`escaping, snippet marks, list fields and the return path: ${name} within ${BOUND_MS} ms each`, () => {
    const body = fill(unit);
    const form = fill(unit, MAX_BODY);
    const checks: [string, () => unknown][] = [
      ['esc (a form field sent back)', () => esc(form)],
      ['highlight', () => highlight(body, ['ab', 'a', '\u00e9', 'deploy', 'a1_'])],
      ['splitList (scopes)', () => splitList(form)],
      ['splitList (aliases)', () => splitList(form, /[,\n]/)],
      ['backTo', () => backTo(`/${form} `, '/')],
    ];
    for (const [what, fn] of checks) {
      const ms = cpuMs(fn);
      assert.ok(ms <= BOUND_MS, `${what}: ${ms.toFixed(1)} ms`);
    }
  });
}

test(`the route table matches hostile paths within ${BOUND_MS} ms`, async () => {
  const page = { csrf: 'x', pending: 0, store: '/s' };
  for (const path of [`/m/${'A'.repeat(MAX)}`, `/m/${'A'.repeat(26)}${'/edit'.repeat(MAX / 5)}`, '/'.repeat(MAX), `/pending/p_${'a'.repeat(MAX)}/confirm`]) {
    const r = { method: 'GET', path, query: new URLSearchParams(), form: new URLSearchParams(), cairn: null as never, page, flash: () => {} } satisfies UiRequest;
    const c0 = process.cpuUsage();
    const out = await route(r);
    const c = process.cpuUsage(c0);
    assert.ok((c.user + c.system) / 1000 <= BOUND_MS, `${path.slice(0, 20)}: ${(c.user + c.system) / 1000} ms`);
    assert.equal('status' in out ? out.status : 0, 404);
  }
});
