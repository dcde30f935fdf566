// Browse: every memory with filters, sortable columns and pages (offset paging: the filters
// change the set, and a person wants "page 3 of 40").
import { badge, day, html, join, layout, qs, scopeList, verdictBadge } from '../html.ts';
import type { UiRequest, UiResponse } from '../request.ts';

const FILTERS = ['repo', 'scope', 'tags', 'category', 'confidence', 'verification', 'verdict', 'expired', 'drift', 'text', 'created_from', 'created_to'] as const;
const PAGE = 50;

function opt(value: string, label: string, cur: string | null) {
  return html`<option value="${value}"${cur === value ? html` selected` : ''}>${label}</option>`;
}
function select(name: string, label: string, cur: string | null, options: [string, string][]) {
  return html`<label>${label}<select name="${name}"><option value="">any</option>${options.map(([v, l]) => opt(v, l, cur))}</select></label>`;
}

export async function browsePage(r: UiRequest): Promise<UiResponse> {
  const q = r.query;
  const get = (k: string) => q.get(k) ?? '';
  const offset = Math.max(0, Math.floor(Number(q.get('offset') ?? 0)) || 0);
  const res = await r.cairn.browse({
    repo: get('repo') || undefined,
    scope: get('scope') || undefined,
    category: get('category') || undefined,
    confidence: get('confidence') || undefined,
    verification: get('verification') || undefined,
    verdict: get('verdict') || undefined,
    expired: get('expired') || undefined,
    drift: q.get('drift') === '1',
    text: get('text') || undefined,
    tags: get('tags') || undefined,
    created_from: get('created_from') || undefined,
    created_to: get('created_to') || undefined,
    sort: get('sort') || undefined,
    order: get('order') || undefined,
    offset,
    limit: PAGE,
  });
  const sort = get('sort') || 'updated';
  const order = get('order') || 'desc';
  const keep: Record<string, string> = {};
  for (const k of FILTERS) if (get(k)) keep[k] = get(k);
  const sortLink = (key: string, label: string) => {
    const next = sort === key && order === 'desc' ? 'asc' : 'desc';
    const aria = sort === key ? (order === 'asc' ? 'ascending' : 'descending') : 'none';
    return html`<th scope="col" aria-sort="${aria}"><a href="/browse${qs({ ...keep, sort: key, order: next })}">${label}${sort === key ? (order === 'asc' ? ' \u25b2' : ' \u25bc') : ''}</a></th>`;
  };
  const rows = res.items.map(
    (m) => html`<tr><td><a href="/m/${m.id}" data-row>${m.summary}</a><div class="sub">${scopeList(m.scopes)}</div></td>
<td data-label="updated">${day(m.updated)}</td><td data-label="created">${day(m.created)}</td><td data-label="verified">${m.verification.status === 'never' ? 'never' : `${m.verification.age_days} d ago`}</td>
<td>${m.store === 'team' ? badge('team', 'c1', 'in the repository\u2019s team store (.cairn/)') : ''}${verdictBadge(m.staleness_verdict)}${m.expired ? badge('expired', 'bad') : ''}${m.category === 'user-inference' ? badge('about you', 'c3') : ''}${m.path_drift_missing > 0 ? badge(`${m.path_drift_missing} path(s) missing`, 'warn') : ''}</td></tr>`,
  );
  const from = res.total === 0 ? 0 : offset + 1;
  const to = Math.min(res.total, offset + PAGE);
  const pager = html`<nav class="pager" aria-label="Pages"><span id="browse-count">${from}\u2013${to} of ${res.total}</span>
${offset > 0 ? html`<a href="/browse${qs({ ...keep, sort, order, offset: Math.max(0, offset - PAGE) })}" rel="prev">\u2190 Previous</a>` : ''}
${to < res.total ? html`<a href="/browse${qs({ ...keep, sort, order, offset: offset + PAGE })}" rel="next">Next \u2192</a>` : ''}</nav>`;
  const body = html`<h1>Browse</h1>
<form class="filters" method="get" action="/browse">
<label>Words<input type="search" name="text" value="${get('text')}" placeholder="in the text"></label>
${select('repo', 'Repo', get('repo'), res.repos.map((x) => [x.repo, `${x.repo === 'none' ? '(no repo)' : x.repo.replace(/^root:/, '')} (${x.count})`]))}
<label>Scope<input name="scope" value="${get('scope')}" placeholder="tools or projects:*"></label>
<label>Tags<input name="tags" value="${get('tags')}" placeholder="#deploy #ci"></label>
${select('category', 'Category', get('category'), [['fact', 'fact'], ['user-inference', 'about the user']])}
${select('confidence', 'Confidence', get('confidence'), [['high', 'high'], ['medium', 'medium'], ['low', 'low']])}
${select('verification', 'Verified', get('verification'), [['never', 'never'], ['stale', 'stale'], ['fresh', 'fresh']])}
${select('verdict', 'Verdict', get('verdict'), [['fresh', 'fresh'], ['spot_check_recommended', 'spot-check recommended'], ['spot_check_required', 'spot-check required']])}
<label>Expired<select name="expired">${opt('hide', 'hidden', get('expired') || 'hide')}${opt('include', 'shown', get('expired'))}${opt('only', 'only expired', get('expired'))}</select></label>
<label class="check"><input type="checkbox" name="drift" value="1"${q.get('drift') === '1' ? html` checked` : ''}> has drift</label>
${get('created_from') ? html`<input type="hidden" name="created_from" value="${get('created_from')}">` : ''}${get('created_to') ? html`<input type="hidden" name="created_to" value="${get('created_to')}">` : ''}
<input type="hidden" name="sort" value="${sort}"><input type="hidden" name="order" value="${order}">
<div class="actions"><button type="submit">Filter</button> <a href="/browse">Clear</a></div>
</form>
${get('created_from') ? html`<p class="muted">Created ${get('created_from')} to ${get('created_to') || 'now'}.</p>` : ''}
${pager}
<div class="table-wrap"><table class="rows stack"><caption class="sr">Memories</caption><thead><tr><th scope="col">Memory</th>${sortLink('updated', 'Updated')}${sortLink('created', 'Created')}${sortLink('verified', 'Verified')}<th scope="col">Signals</th></tr></thead>
<tbody>${res.items.length ? join(rows) : html`<tr><td colspan="5" class="muted">No memory matches these filters.</td></tr>`}</tbody></table></div>
${res.total > PAGE ? pager : ''}`;
  return { html: layout(r.page, { title: 'Browse', active: '/browse', body }) };
}
