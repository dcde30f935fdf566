// Tombstones: removed memories with when and why; restore; prune (cairn's only hard delete)
// behind a dry run that lists exactly what would go, then a second click.
import { csrfField, html, join, layout, qs, when } from '../html.ts';
import type { UiRequest, UiResponse } from '../request.ts';

export async function tombstonesPage(r: UiRequest): Promise<UiResponse> {
  const cursor = r.query.get('cursor') || undefined;
  const res = await r.cairn.listTombstones({ limit: 50, ...(cursor ? { cursor } : {}) });
  const rows = res.items.map(
    (t) => html`<tr><td><a href="/m/${t.id}" data-row>${t.summary}</a><div class="sub">${t.scopes.join(', ')}</div></td><td data-label="removed">${when(t.removed)}</td><td data-label="why">${t.removed_reason}</td>
<td><form method="post" action="/m/${t.id}/restore">${csrfField(r.page)}<input type="hidden" name="back" value="/tombstones"><button type="submit" aria-label="Restore ${t.summary}">Restore</button></form></td></tr>`,
  );
  const body = html`<h1>Tombstones</h1>
<p class="muted">Removed memories stay on disk, with when and why, until you prune them. Restoring brings one back exactly as it was.</p>
<div class="table-wrap"><table class="rows stack" id="tombstones"><thead><tr><th scope="col">Memory</th><th scope="col">Removed</th><th scope="col">Why</th><th scope="col"><span class="sr">Action</span></th></tr></thead>
<tbody>${res.items.length ? join(rows) : html`<tr><td colspan="4" class="muted">No tombstones.</td></tr>`}</tbody></table></div>
<nav class="pager" aria-label="Pages">${cursor ? html`<a href="/tombstones">\u2190 Newest</a>` : ''}${res.next_cursor ? html`<a href="/tombstones${qs({ cursor: res.next_cursor })}" rel="next">Older \u2192</a>` : ''}</nav>
<section aria-labelledby="h-prune"><h2 id="h-prune">Prune</h2>
<form method="post" action="/tombstones/prune" class="row">${csrfField(r.page)}<label>Delete for good tombstones removed more than <input type="number" name="older_than_days" min="0" max="36500" value="90" required> days ago</label>
<button type="submit" id="prune-preview">Show what would be deleted</button></form></section>`;
  return { html: layout(r.page, { title: 'Tombstones', active: '/tombstones', body }) };
}

export async function pruneAction(r: UiRequest): Promise<UiResponse> {
  const days = Number(r.form.get('older_than_days'));
  const confirmed = r.form.get('confirm') === '1';
  const res = await r.cairn.pruneTombstones({ older_than_days: days, dry_run: !confirmed });
  if (confirmed) {
    r.flash(`Deleted ${res.pruned.length} tombstone(s) for good.`);
    return { redirect: '/tombstones' };
  }
  const body = html`<h1>Prune tombstones</h1>
${res.candidates.length === 0
    ? html`<p id="prune-none">No tombstone was removed more than ${days} days ago: nothing to delete.</p><p><a href="/tombstones">Back to tombstones</a></p>`
    : html`<div class="gate bad" role="alert"><h2>Delete ${res.candidates.length} tombstone(s) for good?</h2><p>This cannot be undone: the files are deleted.</p></div>
<ul class="plain" id="prune-list">${res.candidates.map((c) => html`<li><a href="/m/${c.id}">${c.summary}</a> <span class="sub">removed ${when(c.removed)}: ${c.removed_reason}</span></li>`)}</ul>
<div class="actions"><form method="post" action="/tombstones/prune">${csrfField(r.page)}<input type="hidden" name="older_than_days" value="${days}"><input type="hidden" name="confirm" value="1"><button type="submit" class="danger" id="prune-confirm">Delete ${res.candidates.length} for good</button></form>
<a href="/tombstones">Cancel</a></div>`}`;
  return { html: layout(r.page, { title: 'Prune', active: '/tombstones', live: 'notify', body }) };
}
