// Search: memory_search's ranking (the same index and fusion, through the facade), match terms
// marked, relevance and staleness badges. The page's script fetches /search/results as you type
// in the header's search box (the page has no box of its own).
import type { SearchHit } from '../../core/cairn.ts';
import { badge, day, html, join, layout, raw, scopeList, verdictBadge, type Html } from '../html.ts';
import { highlight } from '../markdown.ts';
import type { UiRequest, UiResponse } from '../request.ts';

function results(q: string, hits: SearchHit[]): Html {
  if (q.trim() === '') return html`<p class="muted">Type to search every memory. The ranking is memory_search's.</p>`;
  if (hits.length === 0) return html`<p class="muted" id="search-count">No memory matches ${JSON.stringify(q)}.</p>`;
  return html`<p class="muted" id="search-count">${hits.length} ${hits.length === 1 ? 'hit' : 'hits'}</p><ol class="hits">${join(
    hits.map(
      (h) => html`<li class="hit"><a href="/m/${h.id}" data-row class="hit-link">${raw(highlight(h.snippet, h.match_terms))}</a>
<div class="sub">${h.store === 'team' ? badge('team', 'c1', 'in the repository’s team store (.cairn/)') : ''}${badge(`${h.relevance} relevance`, h.relevance === 'high' ? 'ok' : h.relevance === 'medium' ? 'c2' : 'c4')}${verdictBadge(h.staleness_verdict)}
${h.verification.status === 'never' ? badge('never verified', 'c4') : ''} ${scopeList(h.scopes)} <span class="muted">updated ${day(h.updated)}</span></div></li>`,
    ),
  )}</ol>`;
}

async function run(r: UiRequest): Promise<{ q: string; out: Html }> {
  const q = (r.query.get('q') ?? '').slice(0, 2000);
  const { hits } = await r.cairn.searchPreview({ query: q, max_results: 30 });
  return { q, out: results(q, hits) };
}

export async function searchPage(r: UiRequest): Promise<UiResponse> {
  const { q, out } = await run(r);
  const body = html`<h1>Search</h1>
<p id="search-help" class="muted small">Results update as you type in the search box above. Arrow down or <kbd>j</kbd> moves into the hits.</p>
<div id="results" aria-live="polite" data-query="${q}">${out}</div>`;
  return { html: layout(r.page, { title: q ? `Search: ${q}` : 'Search', active: '/search', body, query: q }) };
}

export async function searchResults(r: UiRequest): Promise<UiResponse> {
  const { out } = await run(r);
  return { fragment: out.s };
}
