// Overview: counts now (tiles) and over time (charts), each linking to the rows behind it.
import { barChart, columnChart } from '../charts.ts';
import { html, layout, qs } from '../html.ts';
import type { UiRequest, UiResponse } from '../request.ts';

const repoLabel = (r: string) => (r === 'none' ? '(no repo)' : r.replace(/^root:/, ''));

export async function overviewPage(r: UiRequest): Promise<UiResponse> {
  const o = await r.cairn.overview({ weeks: 12 });
  const h = o.health;
  const tile = (label: string, n: number, href: string, id: string) =>
    html`<a class="tile" href="${href}" id="${id}"><span class="n">${n}</span><span class="l">${label}</span></a>`;
  const weeks = o.weekly.map((b) => b.start);
  const weekHref = o.weekly.map((b) => `/browse${qs({ created_from: b.start, created_to: b.end, expired: 'include', sort: 'created' })}`);
  const scopes = o.by_scope.slice(0, 12);
  const body = html`<h1>Overview</h1>
<div class="tiles">
${tile('active memories', o.active, '/browse', 't-active')}
${tile('expired', o.expired, '/browse?expired=only', 't-expired')}
${tile('tombstones', o.tombstoned, '/tombstones', 't-tombstones')}
${tile('pending', o.pending, '/pending', 't-pending')}
${tile('scopes', o.by_scope.length, '/browse', 't-scopes')}
${tile('dead weight', h.dead_weight.count, '/health#dead_weight', 't-dead')}
${tile('contradicted', h.contradicted.count, '/health#contradicted', 't-contradicted')}
</div>
<div class="charts">
${barChart('c-repos', 'Memories per repo', o.by_repo.slice(0, 10).map((x) => ({ label: repoLabel(x.repo), value: x.count, href: `/browse${qs({ repo: x.repo })}`, tone: 'c1' })))}
${barChart('c-scopes', `Memories per scope${o.by_scope.length > scopes.length ? ` (top ${scopes.length} of ${o.by_scope.length})` : ''}`, scopes.map((x) => ({ label: x.scope, value: x.count, href: `/browse${qs({ scope: x.scope })}`, tone: 'c2' })))}
${columnChart('c-created', 'Memories created per week', weeks, [{ name: 'created', tone: 'c1', values: o.weekly.map((b) => b.created) }], weekHref)}
${columnChart('c-retrievals', 'Retrievals per week', weeks, [
  { name: 'by the model', tone: 'c1', values: o.weekly.map((b) => b.retrievals) },
  { name: 'your lookups', tone: 'c3', values: o.weekly.map((b) => b.user_lookups) },
], weeks.map(() => '/health#heavily_used'))}
${columnChart('c-outcomes', 'Use outcomes per week', weeks, [
  { name: 'applied', tone: 'ok', values: o.weekly.map((b) => b.uses.applied) },
  { name: 'ignored', tone: 'c4', values: o.weekly.map((b) => b.uses.ignored) },
  { name: 'contradicted', tone: 'bad', values: o.weekly.map((b) => b.uses.contradicted) },
  { name: 'corrected', tone: 'warn', values: o.weekly.map((b) => b.uses.corrected) },
], weeks.map(() => '/health#contradicted'))}
${barChart('c-verification', 'Verification debt', [
  { label: 'never verified', value: o.verification.never, href: '/browse?verification=never', tone: 'bad' },
  { label: 'stale', value: o.verification.stale, href: '/browse?verification=stale', tone: 'warn' },
  { label: 'fresh', value: o.verification.fresh, href: '/browse?verification=fresh', tone: 'ok' },
], [{ tone: 'bad', name: 'needs a check' }, { tone: 'warn', name: 'check soon' }, { tone: 'ok', name: 'fine' }])}
${barChart('c-dead', 'Dead weight, cold and heavily used', [
  { label: 'dead weight', value: h.dead_weight.count, href: '/health#dead_weight', tone: 'bad' },
  { label: `cold (${h.window_days} days)`, value: h.cold.count, href: '/health#cold', tone: 'c4' },
  { label: 'heavily used', value: h.heavily_used.count, href: '/health#heavily_used', tone: 'ok' },
], [{ tone: 'bad', name: 'remove' }, { tone: 'c4', name: 'review' }, { tone: 'ok', name: 'keep true' }])}
${barChart('c-markers', 'Durability marker override rates', h.marker_stats.map((m) => ({
  label: `${m.marker} (${m.overrides}/${m.fires})`,
  value: m.override_rate === null ? 0 : Math.round(m.override_rate * 100),
  unit: '%',
  href: '/health#markers',
  tone: (m.override_rate ?? 0) > 0.5 ? 'warn' : 'c2',
})), [{ tone: 'c2', name: 'overridden at most half the time' }, { tone: 'warn', name: 'overridden more often: the marker may be too strict' }])}
</div>
<p class="muted">Counts as of ${o.generated_at.slice(0, 16).replace('T', ' ')} UTC; retrievals and uses from the event log (last ${o.weekly.length} weeks).</p>`;
  return { html: layout(r.page, { title: 'Overview', active: '/', body }) };
}
