// The UI's pure pieces: the safe markdown renderer, match highlighting, and the core's counts
// over time and per-memory timeline that the overview and memory pages draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { highlight, markdown } from '../../src/ui/markdown.ts';
import { esc, html, raw } from '../../src/ui/html.ts';
import { activity } from '../../src/core/curation/activity.ts';
import { memoryEvents } from '../../src/core/curation/timeline.ts';

test('markdown escapes raw HTML and renders only http(s) links', () => {
  const out = markdown('Hi <script>alert(1)</script>\n\n[x](javascript:alert(1)) [ok](https://a.example/b?c=1&d=2) <img src=x onerror=y>');
  assert.doesNotMatch(out, /<script|<img/);
  assert.match(out, /&lt;script&gt;/);
  assert.doesNotMatch(out, /href="javascript/);
  assert.match(out, /<a href="https:\/\/a\.example\/b\?c=1&amp;d=2" rel="noopener noreferrer" target="_blank">ok<\/a>/);
  assert.doesNotMatch(markdown('[a](data:text/html,hi) [b](file:///etc/passwd) [c](/m/01ARZ3NDEKTSV4RRFFQ69G5FAV) [d](JavaScript:x) <javascript:alert(1)>'), /<a /);
  // Images are off: nothing in a memory makes the page fetch.
  assert.doesNotMatch(markdown('![i](https://x.example/i.png)'), /<img/);
  // An attribute cannot be broken out of: quotes in a URL are percent-encoded.
  assert.doesNotMatch(markdown('[q](https://x.example/"onmouseover="alert(1))'), /onmouseover="/);
  assert.match(markdown('see https://x.example/p?q=1 or <https://y.example>'), /<a href="https:\/\/x\.example\/p\?q=1" rel="noopener noreferrer" target="_blank">.*<a href="https:\/\/y\.example"/);
  // No fuzzy guessing: a bare domain or an e-mail address stays text.
  assert.doesNotMatch(markdown('example.com and a@b.example'), /<a /);
});

test('markdown renders paragraphs, code spans and blocks, lists, headings and quotes', () => {
  const out = markdown('# Title\n\nRun `npm test` **now**.\n\n- one\n- two\n\n1. first\n2. second\n\n```sh\nrm -rf <dir>\n```\n\n> quoted');
  assert.match(out, /<h3>Title<\/h3>/);
  assert.match(out, /<p>Run <code>npm test<\/code> <strong>now<\/strong>\.<\/p>/);
  assert.match(out, /<ul>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>/);
  assert.match(out, /<ol>\s*<li>first<\/li>\s*<li>second<\/li>\s*<\/ol>/);
  assert.match(out, /<pre data-lang="sh"><code>rm -rf &lt;dir&gt;<\/code><\/pre>/);
  assert.match(out, /<blockquote>\s*<p>quoted<\/p>\s*<\/blockquote>/);
  assert.match(markdown('## Sub\n###### Deep'), /<h4>Sub<\/h4>\s*<h6>Deep<\/h6>/);
  assert.match(markdown('one\ntwo'), /<p>one<br>\s*two<\/p>/);
  assert.match(markdown('`**not bold**`'), /<code>\*\*not bold\*\*<\/code>/);
});

test('highlight marks whole words that start with a match term, escaping the rest', () => {
  assert.equal(highlight('Deploys <b> via deploy', ['deploy']), '<mark>Deploys</mark> &lt;b&gt; via <mark>deploy</mark>');
  assert.equal(highlight('a <x>', []), 'a &lt;x&gt;');
});

test('the html template escapes every interpolation unless it is already Html', () => {
  assert.equal(html`<p title="${'"x"'}">${'<b>'}${raw('<i>ok</i>')}</p>`.s, '<p title="&quot;x&quot;">&lt;b&gt;<i>ok</i></p>');
  assert.equal(esc(`'&`), '&#39;&amp;');
});

test('activity counts created, removed, retrievals, lookups and uses per week', () => {
  const now = new Date('2026-03-20T12:00:00Z');
  const ev = (ts: string, kind: string, f: Record<string, unknown>) => ({ ts, session: 's', kind, ...f });
  const weeks = activity(
    now,
    [{ created: '2026-03-19T00:00:00Z' }, { created: '2026-03-02T00:00:00Z', removed: '2026-03-18T00:00:00Z' }, { created: 'garbage' }],
    [
      ev('2026-03-19T01:00:00Z', 'search', { hits: [{ id: 'A', relevance: 'high' }, { id: 'B', relevance: 'low' }] }),
      ev('2026-03-19T02:00:00Z', 'search', { hits: [{ id: 'A' }], actor: 'user' }),
      ev('2026-03-19T03:00:00Z', 'use', { ids: ['A', 'B'], outcome: 'applied' }),
      ev('2026-03-03T03:00:00Z', 'show', { ids: ['A'] }),
      ev('2025-01-01T00:00:00Z', 'show', { ids: ['A'] }),
    ],
    { buckets: 4, days: 7 },
  );
  assert.equal(weeks.length, 4);
  const last = weeks[3]!;
  assert.equal(last.end, '2026-03-20');
  assert.deepEqual([last.created, last.removed, last.retrievals, last.user_lookups, last.uses.applied], [1, 1, 2, 1, 2]);
  const early = weeks.find((w) => w.start <= '2026-03-02' && w.end >= '2026-03-02')!;
  assert.deepEqual([early.created, early.retrievals], [1, 1]);
  assert.equal(weeks.reduce((s, w) => s + w.retrievals, 0), 3, 'the event outside the range is not counted');
});

test('memoryEvents tells one memory\'s story newest first', () => {
  const ev = (ts: string, kind: string, f: Record<string, unknown>) => ({ ts, session: 's', kind, ...f });
  const log = [
    ev('2026-01-01T00:00:00Z', 'write', { status: 'committed', id: 'A' }),
    ev('2026-01-02T00:00:00Z', 'search', { query: 'deploy', hits: [{ id: 'A', relevance: 'high' }] }),
    ev('2026-01-03T00:00:00Z', 'use', { ids: ['A'], outcome: 'contradicted', note: 'port changed' }),
    ev('2026-01-04T00:00:00Z', 'update', { id: 'A', fields: ['content'], content_changed: true }),
    ev('2026-01-05T00:00:00Z', 'remove', { id: 'B', reason: 'other' }),
    ev('2026-01-06T00:00:00Z', 'remove', { id: 'A', reason: 'obsolete' }),
  ];
  const { total, events } = memoryEvents(log, 'A', 3);
  assert.equal(total, 5);
  assert.deepEqual(events.map((e) => e.detail), ['removed: obsolete', 'updated: content (text changed)', 'contradicted: port changed']);
  assert.match(memoryEvents(log, 'A', 10).events[3]!.detail, /found by search "deploy" \(high relevance\)/);
});
