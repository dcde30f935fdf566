// One memory: the rendered body, its frontmatter, signals, event timeline, similar memories and
// links; actions edit, verify, remove with a reason, change scopes (active) or restore (removed).
import { CONFIDENCES } from '../../core/types.ts';
import { badge, csrfField, day, errorBox, html, layout, raw, scopeList, verdictBadge, when, type Html } from '../html.ts';
import { markdown, MAX_CHARS } from '../markdown.ts';
import type { UiRequest, UiResponse } from '../request.ts';
import { backTo, splitList } from '../request.ts';

type Brief = { id: string; scopes: string[]; summary: string; removed: boolean; relation?: string };
const briefs = (title: string, id: string, xs: Brief[]) =>
  xs.length === 0 ? '' : html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2><ul class="plain">${xs.map((x) => html`<li>${x.relation && x.relation !== 'links_to' ? html`<span class="sub">${x.relation}</span> ` : ''}<a href="/m/${x.id}">${x.summary}</a>${x.removed ? badge('removed', 'bad') : ''} <span class="sub">${x.scopes.join(', ')}</span></li>`)}</ul></section>`;

export async function memoryPage(r: UiRequest, id: string): Promise<UiResponse> {
  const p = await r.cairn.memoryPage({ id });
  const m = p.memory;
  const dl = (rows: [string, Html | string][]) => html`<dl class="fm">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
  const v = m.verification;
  const actions = m.tombstoned
    ? html`<div class="actions"><form method="post" action="/m/${m.id}/restore">${csrfField(r.page)}<button type="submit" class="primary" id="restore">Restore</button></form></div>`
    : html`<div class="actions">
<a class="button" href="/m/${m.id}/edit" data-key="e" id="edit">Edit</a>
<form method="post" action="/m/${m.id}/verify" class="inline">${csrfField(r.page)}<label class="sr" for="verify-note">Verification note</label><input id="verify-note" name="note" placeholder="note (optional)"><button type="submit" data-key="v" id="verify">Verify: still true</button></form>
</div>
<details class="more" id="remove-box"><summary data-key="r">Remove\u2026</summary>
<form method="post" action="/m/${m.id}/remove">${csrfField(r.page)}<label for="reason">Why remove it? <span class="muted">(kept with the tombstone; restorable)</span></label>
<input id="reason" name="reason" required maxlength="2000"><button type="submit" class="danger" id="remove">Remove</button></form></details>
<details class="more"><summary>Change scopes\u2026</summary>
<form method="post" action="/m/${m.id}/scopes">${csrfField(r.page)}<label for="scopes">Scopes</label><input id="scopes" name="scopes" value="${m.scopes.join(', ')}" required><button type="submit">Save scopes</button></form></details>`;
  const timeline = p.events.length === 0
    ? html`<p class="muted">No events name this memory yet.</p>`
    : html`<div class="table-wrap"><table class="rows stack" id="timeline"><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th></tr></thead><tbody>${p.events.map(
        (e) => html`<tr data-kind="${e.kind}"><td data-label="when">${when(e.ts)}</td><td data-label="who">${e.actor === 'user' ? 'you' : 'model'}</td><td>${e.detail}</td></tr>`,
      )}</tbody></table></div>${p.events_total > p.events.length ? html`<p class="muted">${p.events_total - p.events.length} older events not shown.</p>` : ''}`;
  const body = html`<p class="crumbs"><a href="${m.tombstoned ? '/tombstones' : '/browse'}">${m.tombstoned ? 'Tombstones' : 'Browse'}</a> \u203a <code>${m.id}</code></p>
<h1 class="sr">Memory ${m.id}</h1>
${m.tombstoned ? html`<div class="gate bad" role="status" id="removed-note"><strong>Removed ${when(m.removed)}</strong>: ${m.removed_reason ?? ''}</div>` : ''}
<div class="badges">${m.store === 'team' ? badge('team', 'c1', 'in the repository\u2019s team store (.cairn/)') : ''}${verdictBadge(m.staleness_verdict)}${m.expired ? badge('expired', 'bad') : ''}${m.category === 'user-inference' ? badge('about you', 'c3') : ''}${badge(`${m.confidence} confidence`, 'c2')}</div>
<article class="md memory-body" id="body">${raw(markdown(m.body))}</article>
${actions}
<div class="cols">
<section aria-labelledby="h-fm"><h2 id="h-fm">Frontmatter</h2>${dl([
    ['scopes', scopeList(m.scopes)],
    ['category', m.category],
    ['confidence', m.confidence],
    ['source', m.source],
    ['created', when(m.created)],
    ['updated', when(m.updated)],
    ['last verified', when(m.last_verified_at)],
    ['expires', m.expires ? day(m.expires) : 'never'],
    ['aliases', m.aliases.length ? m.aliases.join(', ') : '\u2014'],
    ['repo', m.origin.repo ?? '\u2014'],
    ['branch', m.origin.branch ?? '\u2014'],
    ['written in', m.origin.cwd ?? '\u2014'],
    ['file', html`<code>${m.file}</code>`],
  ])}${m.extra_frontmatter.length ? html`<h3>Other frontmatter (kept as written)</h3><pre><code>${m.extra_frontmatter.join('\n')}</code></pre>` : ''}</section>
<section aria-labelledby="h-sig"><h2 id="h-sig">Signals</h2>${dl([
    ['verification', v.status === 'never' ? 'never verified' : v.warning ? `warning: ${v.warning}` : `${v.status}: verified ${v.age_days} days ago (stale after ${v.stale_after_days})`],
    ['cited paths', m.path_drift ? (m.path_drift.checked === 0 ? 'none checked' : `${m.path_drift.checked} checked, ${m.path_drift.missing.length} missing`) : '\u2014'],
    ...(m.path_drift && m.path_drift.missing.length ? [['missing', html`${m.path_drift.missing.map((x) => html`<code>${x}</code> `)}`] as [string, Html]] : []),
    ['commits since verified', m.commit_drift ? (m.commit_drift.status === 'not_applicable' ? 'not applicable' : m.commit_drift.commits_since_verify === null ? 'unknown' : String(m.commit_drift.commits_since_verify)) : '\u2014'],
    ['verdict', verdictBadge(m.staleness_verdict)],
  ])}</section>
</div>
<section aria-labelledby="h-tl"><h2 id="h-tl">Timeline</h2>${timeline}</section>
${briefs('Links in the text', 'h-links', p.links)}${briefs('Named by', 'h-back', p.backlinks)}${briefs('Similar memories', 'h-sim', p.similar)}`;
  return { html: layout(r.page, { title: m.body.slice(0, 60), active: m.tombstoned ? '/tombstones' : '/browse', body }) };
}

/**
 * The edit form. A text longer than MAX_CHARS is not put in the form (escaping and sending a
 * megabyte would hold the server, and the form post is capped below that): the page says where to
 * edit it, and the other fields still save, leaving the text as it is.
 */
function editForm(r: UiRequest, id: string, f: { content: string | null; scopes: string; confidence: string; expires: string; aliases: string }, file = ''): Html {
  const text = f.content === null
    ? html`<p class="gate warn" id="too-long">The text is too long to edit here (over ${MAX_CHARS.toLocaleString('en-US')} characters): edit its file${file ? html` <code>${file}</code>` : ''} or use <code>cairn update</code>. The fields below save without touching it.</p>`
    : html`<label for="content">Memory text <span class="muted">(markdown)</span></label><textarea id="content" name="content" rows="10" required>${f.content}</textarea>`;
  return html`<form class="edit" method="post" action="/m/${id}/edit" id="edit-form">${csrfField(r.page)}
${text}
<label for="scopes">Scopes</label><input id="scopes" name="scopes" value="${f.scopes}" required>
<div class="row"><label>Confidence<select name="confidence">${CONFIDENCES.map((c) => html`<option${c === f.confidence ? html` selected` : ''}>${c}</option>`)}</select></label>
<label>Expires <input type="date" name="expires" value="${f.expires}"></label></div>
<label for="aliases">Aliases <span class="muted">(comma separated; empty clears them)</span></label><input id="aliases" name="aliases" value="${f.aliases}">
<div class="actions"><button type="submit" class="primary">Save</button> <a href="/m/${id}">Cancel</a></div></form>`;
}

export async function editPage(r: UiRequest, id: string): Promise<UiResponse> {
  const { memory: m } = await r.cairn.memoryPage({ id, events: 0 });
  if (m.tombstoned) return { status: 409, html: layout(r.page, { title: 'Removed', active: '/browse', body: errorBox(`memory ${m.id} is removed: restore it first`) }) };
  const body = html`<p class="crumbs"><a href="/m/${m.id}">\u2190 back to the memory</a></p><h1>Edit memory</h1>${editForm(r, m.id, {
    content: m.body.length > MAX_CHARS ? null : m.body, scopes: m.scopes.join(', '), confidence: m.confidence, expires: m.expires ? m.expires.slice(0, 10) : '', aliases: m.aliases.join(', '),
  }, m.file)}`;
  return { html: layout(r.page, { title: 'Edit', active: '/browse', live: 'notify', body }) };
}

export async function updateAction(r: UiRequest, id: string): Promise<UiResponse> {
  // No content field: the text was too long for the form and stays as it is.
  const f = { content: r.form.get('content'), scopes: r.form.get('scopes') ?? '', confidence: r.form.get('confidence') ?? 'medium', expires: r.form.get('expires') ?? '', aliases: r.form.get('aliases') ?? '' };
  const { memory: m } = await r.cairn.memoryPage({ id, events: 0 });
  // Send only what changed: an unchanged expiry in the past must not fail the edit, and an
  // unchanged text keeps its verification.
  const input: Parameters<typeof r.cairn.update>[0] = { id };
  if (f.content !== null && f.content.replace(/\r\n?/g, '\n').trim() !== m.body) input.content = f.content;
  const scopes = splitList(f.scopes);
  if (scopes.join('\n') !== m.scopes.join('\n')) input.scopes = scopes;
  if (f.confidence !== m.confidence) input.confidence = f.confidence as never;
  if (f.expires !== (m.expires ? m.expires.slice(0, 10) : '')) input.expires = f.expires || null;
  const aliases = splitList(f.aliases, /[,\n]/);
  if (aliases.join('\n') !== m.aliases.join('\n')) input.aliases = aliases;
  if (Object.keys(input).length === 1) {
    r.flash('Nothing changed.');
    return { redirect: `/m/${id}` };
  }
  try {
    await r.cairn.update(input);
  } catch (err) {
    if ((err as Error).name !== 'ValidationError') throw err;
    const body = html`<p class="crumbs"><a href="/m/${id}">\u2190 back to the memory</a></p><h1>Edit memory</h1>
<div class="gate bad" role="alert" id="gate" data-status="refused"><h2>Not saved</h2><p>${(err as Error).message}</p></div>${editForm(r, id, f)}`;
    return { status: 400, html: layout(r.page, { title: 'Edit', active: '/browse', live: 'notify', body }) };
  }
  r.flash('Saved.');
  return { redirect: `/m/${id}` };
}

export async function scopesAction(r: UiRequest, id: string): Promise<UiResponse> {
  await r.cairn.update({ id, scopes: splitList(r.form.get('scopes')) });
  r.flash('Scopes saved.');
  return { redirect: backTo(r.form.get('back'), `/m/${id}`) };
}

export async function verifyAction(r: UiRequest, id: string): Promise<UiResponse> {
  const note = (r.form.get('note') ?? '').trim();
  await r.cairn.verify({ id, ...(note ? { note } : {}) });
  r.flash('Verified: marked as checked today.');
  return { redirect: backTo(r.form.get('back'), `/m/${id}`) };
}

export async function removeAction(r: UiRequest, id: string): Promise<UiResponse> {
  const out = await r.cairn.remove({ id, reason: r.form.get('reason') ?? '' });
  r.flash(`Removed ${out.removed}. It is in Tombstones, where you can restore it.`);
  return { redirect: backTo(r.form.get('back'), `/m/${id}`) };
}

export async function restoreAction(r: UiRequest, id: string): Promise<UiResponse> {
  const out = await r.cairn.restore({ id });
  r.flash(`Restored ${out.id}.`);
  return { redirect: backTo(r.form.get('back'), `/m/${id}`) };
}
