// Pending: writes that wait for the user (claims about the user, or every write when
// behavior.require_write_confirmation is set). Confirm commits through memory_write_confirm.
import { csrfField, day, html, join, layout, raw, when } from '../html.ts';
import { markdown } from '../markdown.ts';
import type { UiRequest, UiResponse } from '../request.ts';

export async function pendingPage(r: UiRequest): Promise<UiResponse> {
  const items = await r.cairn.pendingWrites();
  const body = html`<h1>Pending writes</h1>
<p class="muted">Writes that wait for you: claims about you, or every write when the store asks for confirmation. Nothing is stored until you confirm.</p>
${items.length === 0 ? html`<p id="pending-empty">Nothing is waiting.</p>` : join(
    items.map(
      (p) => html`<article class="card" id="${p.pending_id}"><div class="md">${raw(markdown(p.write.content))}</div>
<p class="sub">${p.reason === 'user-inference' ? 'a claim about you' : 'confirmation required by config'} \u00b7 scopes ${p.write.scopes.join(', ')} \u00b7 asked ${when(p.created_at)} \u00b7 expires ${when(p.expires_at)}${p.write.expires ? ` \u00b7 memory expires ${day(p.write.expires)}` : ''}</p>
<div class="actions"><form method="post" action="/pending/${p.pending_id}/confirm">${csrfField(r.page)}<button type="submit" class="primary">Confirm and store</button></form>
<form method="post" action="/pending/${p.pending_id}/cancel">${csrfField(r.page)}<button type="submit">Cancel</button></form></div></article>`,
    ),
  )}`;
  return { html: layout(r.page, { title: 'Pending', active: '/pending', body }) };
}

export async function confirmAction(r: UiRequest, pid: string): Promise<UiResponse> {
  const out = await r.cairn.writeConfirm({ pending_id: pid });
  r.flash(`Stored as ${out.id}.`);
  return { redirect: `/m/${out.id}` };
}

export async function cancelAction(r: UiRequest, pid: string): Promise<UiResponse> {
  const out = await r.cairn.writeCancel({ pending_id: pid });
  r.flash(out.existed ? 'Cancelled: nothing was stored.' : 'It was no longer pending (already confirmed, cancelled or expired).');
  return { redirect: '/pending' };
}
