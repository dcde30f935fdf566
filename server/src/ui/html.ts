// HTML building for `cairn ui`: one escape function every value passes through, a tagged
// template that escapes interpolations unless they are already-built Html, and the page layout.
// Invariant: text from memories, the event log or the request reaches the page only through
// esc() (or markdown.ts, which escapes first); nothing here emits inline script or style, so the
// Content-Security-Policy can forbid both.

export class Html {
  constructor(readonly s: string) {}
  toString(): string {
    return this.s;
  }
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (c) => ESC[c]!);
}

type Part = Html | string | number | null | undefined | false | Part[];
function render(p: Part): string {
  if (p === null || p === undefined || p === false) return '';
  if (p instanceof Html) return p.s;
  if (Array.isArray(p)) return p.map(render).join('');
  return esc(p);
}

/** html`<p>${text}</p>`: every interpolation is escaped unless it is Html (or an array of them). */
export function html(strings: TemplateStringsArray, ...vals: Part[]): Html {
  let out = strings[0]!;
  vals.forEach((v, i) => (out += render(v) + strings[i + 1]!));
  return new Html(out);
}
export const raw = (s: string) => new Html(s);
export const join = (parts: Part[]) => new Html(parts.map(render).join(''));

/** A query string from the given params, leaving out empty values. */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '' && v !== false) u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}

export const day = (ts: string | null | undefined) => (ts ? ts.slice(0, 10) : '\u2014');
export const when = (ts: string | null | undefined) => (ts ? `${ts.slice(0, 10)} ${ts.slice(11, 16)}` : '\u2014');

export function badge(text: string, kind: string, title?: string): Html {
  return html`<span class="badge b-${kind}"${title ? raw(` title="${esc(title)}"`) : ''}>${text}</span>`;
}

export function verdictBadge(v: string): Html {
  const label = v === 'fresh' ? 'fresh' : v === 'spot_check_recommended' ? 'spot-check recommended' : 'spot-check required';
  return badge(label, v === 'fresh' ? 'ok' : v === 'spot_check_recommended' ? 'warn' : 'bad', 'staleness verdict');
}

export function scopeList(scopes: readonly string[]): Html {
  return join(scopes.map((s) => html`<a class="scope" href="/browse${qs({ scope: s })}">${s}</a> `));
}

export interface PageCtx {
  csrf: string;
  pending: number;
  store: string;
}

export const NAV = [
  ['/', 'Overview', 'o'],
  ['/browse', 'Browse', 'b'],
  ['/search', 'Search', 's'],
  ['/new', 'New', 'n'],
  ['/tombstones', 'Tombstones', 't'],
  ['/health', 'Health', 'h'],
  ['/pending', 'Pending', 'p'],
] as const;

/** A hidden field every form carries: the session's CSRF token (server.ts checks it). */
export function csrfField(ctx: PageCtx): Html {
  return html`<input type="hidden" name="csrf" value="${ctx.csrf}">`;
}

/**
 * The page around a body. The header's search box is the only one: it searches as you type on
 * every page (the script shows the hits in place of the page); `query` is what it holds on the
 * search page.
 */
export function layout(ctx: PageCtx, opts: { title: string; active: string; body: Html; live?: 'replace' | 'notify'; flash?: Html | null; query?: string }): string {
  const nav = NAV.map(
    ([href, label, key]) =>
      html`<a href="${href}" data-nav="${key}"${opts.active === href ? raw(' aria-current="page"') : ''}>${label}${
        href === '/pending' && ctx.pending > 0 ? html` <span class="count" id="pending-count">${ctx.pending}</span>` : ''
      }</a>`,
  );
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} \u00b7 cairn</title><link rel="icon" href="/assets/icon.svg" type="image/svg+xml"><link rel="stylesheet" href="/assets/app.css"><script src="/assets/app.js" defer></script></head>
<body data-live="${opts.live ?? 'replace'}">
<a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="/" aria-label="cairn overview">cairn</a><nav aria-label="Pages">${nav}</nav>
<form class="quick" action="/search" method="get" role="search"><label class="sr" for="q">Search memories</label><input id="q" name="q" type="search" value="${opts.query ?? ''}" placeholder="Search  /" autocomplete="off" aria-controls="results"${opts.active === '/search' ? raw(' autofocus') : ''}></form></header>
<div id="live-note" class="live-note" role="status" aria-live="polite" hidden></div>
<main id="main" tabindex="-1">${opts.flash ? html`<div class="flash" role="status">${opts.flash}</div>` : ''}${opts.body}</main>
<footer><span>store ${ctx.store}</span> \u00b7 <button type="button" class="linkish" id="keys-open">keyboard shortcuts (?)</button></footer>
<dialog id="keys" aria-labelledby="keys-title"><h2 id="keys-title">Keyboard shortcuts</h2><dl class="keys">
<dt><kbd>/</kbd></dt><dd>search</dd><dt><kbd>g</kbd> then <kbd>o</kbd> <kbd>b</kbd> <kbd>s</kbd> <kbd>n</kbd> <kbd>t</kbd> <kbd>h</kbd> <kbd>p</kbd></dt><dd>go to Overview, Browse, Search, New, Tombstones, Health, Pending</dd>
<dt><kbd>j</kbd> / <kbd>k</kbd></dt><dd>next / previous row</dd><dt><kbd>Enter</kbd></dt><dd>open the row</dd>
<dt><kbd>e</kbd> <kbd>v</kbd> <kbd>r</kbd></dt><dd>on a memory: edit, verify, remove</dd><dt><kbd>?</kbd></dt><dd>this help</dd><dt><kbd>Esc</kbd></dt><dd>close, leave a field</dd></dl>
<form method="dialog"><button>Close</button></form></dialog>
</body></html>`.s}`;
}

/** A page's error box, for a refused or invalid action: the core's message as it is. */
export function errorBox(message: string): Html {
  return html`<div class="error" role="alert"><strong>Not done.</strong> ${message}</div>`;
}
