// Memory bodies as HTML, rendered by markdown-it (a maintained CommonMark parser) configured to be
// safe by default:
// - raw HTML is off: `<script>` or `<img onerror>` in a memory is shown as text, never interpreted;
// - images are off (a memory cannot make the page fetch anything);
// - a link is made only when its target is http(s): validateLink refuses every other scheme
//   (javascript:, data:, file:, relative paths), which then stays plain text; links open in a new
//   tab with rel="noopener noreferrer";
// - bare URLs become links only with an explicit http(s):// scheme (no fuzzy "a.com" or e-mail
//   guessing, whose scanning is the costliest part of linkify on hostile text).
// Headings are demoted to h3-h6 (the page owns h1/h2), fenced code keeps its language as
// data-lang, and single line breaks are kept, as memories are written line by line.
//
// Bounded work, so one hostile memory cannot hold the server (rendering runs on the event loop
// every request shares): nesting stops at MAX_NESTING (markdown-it's maxNesting; deeper quotes or
// lists stay text), and a body longer than MAX_CHARS or with more markup than MAX_MARKUP is not
// parsed at all: it is shown as escaped plain text (its first MAX_CHARS characters) with a note
// saying why. markdown-it is
// linear in practice, and its cost grows with the number of lines and punctuation marks it has
// to consider; the budget keeps a render to a few milliseconds of CPU for any body.
import MarkdownIt from 'markdown-it';
import { esc } from './html.ts';

/** The longest body rendered as markdown; a longer one is shown as plain text. */
export const MAX_CHARS = 64 * 1024;
/** Markup budget: a line counts 4, a colon (a possible link) 8, each other mark markdown-it acts on 1. */
export const MAX_MARKUP = 2_000;
/** Deepest nesting of quotes, lists and inline markup. */
export const MAX_NESTING = 20;

const SAFE_URL = /^https?:\/\//i;

const md = new MarkdownIt('default', { html: false, linkify: true, breaks: true, typographer: false, maxNesting: MAX_NESTING });
md.disable(['image', 'html_block', 'html_inline']);
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
md.validateLink = (url) => SAFE_URL.test(url.trim());

const rules = md.renderer.rules;
rules.heading_open = (tokens, i) => `<h${demote(tokens[i]!.tag)}>`;
rules.heading_close = (tokens, i) => `</h${demote(tokens[i]!.tag)}>\n`;
rules.link_open = (tokens, i, options, _env, self) => {
  tokens[i]!.attrSet('rel', 'noopener noreferrer');
  tokens[i]!.attrSet('target', '_blank');
  return self.renderToken(tokens, i, options);
};
rules.fence = (tokens, i) => {
  const t = tokens[i]!;
  const lang = t.info.trim().split(/\s/, 1)[0] ?? '';
  const attr = lang ? ` data-lang="${esc(lang.slice(0, 40))}"` : '';
  return `<pre${attr}><code>${esc(trimNewlines(t.content))}</code></pre>\n`;
};
rules.code_block = (tokens, i) => `<pre><code>${esc(trimNewlines(tokens[i]!.content))}</code></pre>\n`;

/** The text without its trailing line ends (a loop: `/\n+$/` backtracks on many inner ones). */
function trimNewlines(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 10) end--;
  return s.slice(0, end);
}

function demote(tag: string): number {
  return Math.min(6, Number(tag.slice(1)) + 2);
}

/** The marks markdown-it may act on; a line end and a colon (a possible URL) weigh more. */
const WEIGHT = new Uint8Array(128);
for (const c of '[]()*_`~<>&!|@\\#') WEIGHT[c.charCodeAt(0)] = 1;
WEIGHT[10] = 4;
WEIGHT[58] = 8;

/** The markup cost of a body (see MAX_MARKUP); stops counting once over the budget. */
export function markupCost(src: string): number {
  let cost = 0;
  for (let i = 0; i < src.length && cost <= MAX_MARKUP; i++) {
    const c = src.charCodeAt(i);
    if (c < 128) cost += WEIGHT[c]!;
  }
  return cost;
}

/**
 * A memory body as HTML: markdown within the budget; else plain escaped text with a note, at
 * most MAX_CHARS of it (the page is not the place to read a megabyte; the file has it all).
 */
export function markdown(src: string): string {
  if (src.length <= MAX_CHARS && markupCost(src) <= MAX_MARKUP) return md.render(src);
  const n = (x: number) => x.toLocaleString('en-US');
  const why = src.length > MAX_CHARS
    ? `it is ${n(src.length)} characters long; the first ${n(MAX_CHARS)} are shown`
    : 'it has more markup than the page renders';
  return `<p class="muted plain-note">Shown as plain text: ${why}.</p>\n<pre class="plain">${esc(src.slice(0, MAX_CHARS))}</pre>`;
}

/** The longest snippet highlight() marks; longer text is cut (snippets are a few lines). */
export const MAX_SNIPPET = 2_000;

/**
 * A snippet with the match terms marked: escaped text, each word that starts with a term wrapped
 * in <mark>. Terms are the index's surface forms; a prefix match also marks inflected forms.
 */
export function highlight(full: string, terms: readonly string[]): string {
  const text = full.length > MAX_SNIPPET ? `${full.slice(0, MAX_SNIPPET)}\u2026` : full;
  const ts = [...new Set(terms.map((t) => t.toLowerCase()).filter((t) => t.length > 0))];
  if (ts.length === 0) return esc(text);
  return text
    .split(/([\p{L}\p{N}_]+)/u)
    .map((w, i) => {
      if (i % 2 === 0) return esc(w);
      const lw = w.toLowerCase();
      return ts.some((t) => lw === t || (t.length >= 3 && lw.startsWith(t))) ? `<mark>${esc(w)}</mark>` : esc(w);
    })
    .join('');
}
