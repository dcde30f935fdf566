// Health: every section of memory_health, each row with its proposed fix as a button. Nothing
// changes without a click; every button posts to the same action a memory page uses.
import type { HealthReport } from '../../core/cairn.ts';
import { csrfField, day, html, join, layout, type Html } from '../html.ts';
import type { UiRequest, UiResponse } from '../request.ts';
import { backTo } from '../request.ts';

type Row = { id: string; scopes: string[]; summary: string };

export async function healthPage(r: UiRequest): Promise<UiResponse> {
  const days = Number(r.query.get('days') ?? '') || undefined;
  const h: HealthReport = await r.cairn.healthCached({ ...(days ? { window_days: Math.min(3650, Math.max(1, Math.floor(days))) } : {}), top_k: 25 });
  const post = (action: string, label: string, back: string, fields: Record<string, string> = {}, cls = '') =>
    html`<form method="post" action="${action}" class="inline">${csrfField(r.page)}<input type="hidden" name="back" value="${back}">${join(
      Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`),
    )}<button type="submit"${cls ? html` class="${cls}"` : ''}>${label}</button></form>`;
  const remove = (id: string, reason: string, back: string) => post(`/m/${id}/remove`, 'Remove', back, { reason }, 'danger');
  const verify = (id: string, back: string) => post(`/m/${id}/verify`, 'Verify', back, { note: 'checked from cairn ui health' });
  const section = (id: string, title: string, count: number, intro: string, rows: Html[], total = count) =>
    html`<section aria-labelledby="h-${id}" id="${id}" class="hsec"><h2 id="h-${id}">${title} <span class="count">${count}</span></h2><p class="muted">${intro}</p>${
      rows.length ? html`<ul class="fixes">${rows}</ul>${total > rows.length ? html`<p class="muted">${total - rows.length} more not shown.</p>` : ''}` : html`<p class="ok-note">Nothing here.</p>`
    }</section>`;
  const item = (m: Row, what: Html | string, fixes: Html) => html`<li><div><a href="/m/${m.id}">${m.summary}</a> <span class="sub">${m.scopes.join(', ')}</span><div class="sub">${what}</div></div><div class="fix">${fixes}</div></li>`;
  const t = h.totals;
  // memory_health counts expired memories among the active ones (not removed); the page says
  // "active" for what search and the overview count: not removed and not expired.
  const body = html`<h1>Health</h1>
<p id="health-totals">${t.active - t.expired} active, ${t.expired} expired, ${t.tombstoned} tombstones, ${t.scopes} scopes. Last ${h.window_days} days: ${t.retrievals_in_window} retrievals by the model, ${t.user_lookups_in_window} of your lookups; uses ${t.uses_in_window.applied} applied, ${t.uses_in_window.ignored} ignored, ${t.uses_in_window.contradicted} contradicted, ${t.uses_in_window.corrected} corrected.</p>
${section('contradicted', 'Contradicted, not fixed since', h.contradicted.count, 'Shown wrong and not updated or verified since. Fix the text, or remove it.', h.contradicted.rows.map((m) => {
    const note = [...m.resolution_timeline].reverse().find((e) => e.event === 'contradicted' && e.note)?.note;
    return item(m, `${m.contradictions}× contradicted, last ${day(m.last_contradicted)}${note ? `: ${note}` : ''}`, html`<a class="button" href="/m/${m.id}/edit">Edit</a>${remove(m.id, `contradicted${note ? `: ${note}` : ''}`.slice(0, 2000), '/health#contradicted')}`);
  }))}
${section('dead_weight', 'Dead weight', h.dead_weight.count, `At least ${h.dead_weight.rule.min_age_days} days old, found by the model ${h.dead_weight.rule.min_retrievals}+ times at medium or high relevance, never applied.`, h.dead_weight.rows.map((m) =>
    item(m, m.why, remove(m.id, `dead weight: ${m.why}`.slice(0, 2000), '/health#dead_weight'))))}
${section('rare_scopes', 'Likely scope typos', h.rare_scopes.count, 'A scope used once that looks like another one. Renaming moves every memory (and tombstone) to the chosen spelling.', h.rare_scopes.rows.map((s) =>
    html`<li><div><code>${s.scope}</code> <span class="sub">only on <a href="/m/${s.id}">${s.id}</a></span></div><div class="fix">${s.similar_to.slice(0, 2).map((x) =>
      post('/health/rename-scope', `Rename to ${x.scope} (${x.count})`, '/health#rare_scopes', { old_scope: s.scope, new_scope: x.scope }))}</div></li>`))}
${section('verification_debt', 'Verification debt', h.verification_debt.never + h.verification_debt.stale, `${h.verification_debt.never} never verified, ${h.verification_debt.stale} stale, ${h.verification_debt.fresh} fresh. Check what the memory cites, then verify it (or edit it).`, h.verification_debt.rows.map((m) =>
    item(m, m.status === 'never' ? 'never verified' : m.warning ? `verified in the future (${day(m.last_verified_at)}): it vouches for nothing` : `verified ${m.age_days} days ago`, html`${verify(m.id, '/health#verification_debt')}<a class="button" href="/m/${m.id}/edit">Edit</a>`)))}
${h.commit_drift_debt.applies ? section('commit_drift_debt', `Commit drift in ${h.commit_drift_debt.repo ?? ''}`, h.commit_drift_debt.count, 'Verified before the latest commits of this repo.', h.commit_drift_debt.rows.map((m) =>
    item(m, `${m.commits_since_verify} commits since verified ${day(m.last_verified_at)}`, verify(m.id, '/health#commit_drift_debt')))) : ''}
${section('expired', 'Expired', h.expired.count, 'Past their expiry date: search no longer shows them.', h.expired.rows.map((m) =>
    item(m, `expired ${day(m.expires)}`, html`${remove(m.id, `expired ${day(m.expires)}`, '/health#expired')}<a class="button" href="/m/${m.id}/edit">Extend</a>`)))}
${section('cold', 'Cold', h.cold.count, `Not retrieved in the last ${h.window_days} days.`, h.cold.rows.map((m) =>
    item(m, `${m.age_days} days old, last retrieved ${day(m.last_retrieved)}`, remove(m.id, `cold: not retrieved in ${h.window_days} days`, '/health#cold'))))}
${section('heavily_used', 'Heavily used', h.heavily_used.count, `Applied ${h.min_applied}+ times: worth keeping true.`, h.heavily_used.rows.map((m) =>
    item(m, `applied ${m.applied}×, last ${day(m.last_applied)}`, verify(m.id, '/health#heavily_used'))))}
<section id="markers" aria-labelledby="h-markers" class="hsec"><h2 id="h-markers">Durability markers</h2><p class="muted">How often each "sounds temporary" marker fired and was overridden; a high rate may mean it is too strict.</p>
${h.marker_stats.length ? html`<div class="table-wrap"><table class="rows"><thead><tr><th scope="col">Marker</th><th scope="col">Fired</th><th scope="col">Overridden</th><th scope="col">Rate</th></tr></thead><tbody>${h.marker_stats.map((m) =>
    html`<tr><td>${m.marker}</td><td>${m.fires}</td><td>${m.overrides}</td><td>${m.override_rate === null ? '—' : `${Math.round(m.override_rate * 100)}%`}</td></tr>`)}</tbody></table></div>` : html`<p class="ok-note">No marker has fired.</p>`}</section>
<section id="scopes" aria-labelledby="h-scopes" class="hsec"><h2 id="h-scopes">Scopes</h2>
<div class="table-wrap"><table class="rows"><thead><tr><th scope="col">Scope</th><th scope="col">Active</th><th scope="col">Dead</th><th scope="col">Cold</th><th scope="col">Contradicted</th><th scope="col">Applied</th></tr></thead><tbody>${h.scope_health.map((s) =>
    html`<tr><td><a href="/browse?scope=${encodeURIComponent(s.scope)}">${s.scope}</a></td><td>${s.active}</td><td>${s.dead}</td><td>${s.cold}</td><td>${s.contradicted}</td><td>${s.applied}</td></tr>`)}</tbody></table></div></section>`;
  return { html: layout(r.page, { title: 'Health', active: '/health', body }) };
}

export async function renameScopeAction(r: UiRequest): Promise<UiResponse> {
  const out = await r.cairn.renameScope({ old_scope: r.form.get('old_scope') ?? '', new_scope: r.form.get('new_scope') ?? '' });
  r.flash(`Renamed: ${out.active.length} memories and ${out.tombstoned.length} tombstones changed.`);
  return { redirect: backTo(r.form.get('back'), '/health') };
}
