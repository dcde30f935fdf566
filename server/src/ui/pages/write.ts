// New memory: the memory_write form, and the gate outcomes shown as the tool returns them —
// secret refused (no override), transient warning (store as written, or reword), duplicate and
// previously removed (the other memory linked; store anyway), pending (confirm here or later).
import { CATEGORIES, CONFIDENCES, SOURCES } from '../../core/types.ts';
import { csrfField, day, errorBox, html, join, layout, type Html } from '../html.ts';
import type { UiRequest, UiResponse } from '../request.ts';
import { splitList } from '../request.ts';

interface Draft {
  content: string;
  scopes: string;
  category: string;
  confidence: string;
  source: string;
  expires: string;
  aliases: string;
}

function draftOf(f: URLSearchParams): Draft {
  const g = (k: string) => f.get(k) ?? '';
  return { content: g('content'), scopes: g('scopes'), category: g('category') || 'fact', confidence: g('confidence') || 'medium', source: g('source') || 'explicit-statement', expires: g('expires'), aliases: g('aliases') };
}

function choice(name: string, label: string, cur: string, values: readonly string[]) {
  return html`<label>${label}<select name="${name}">${values.map((v) => html`<option value="${v}"${v === cur ? html` selected` : ''}>${v}</option>`)}</select></label>`;
}

export function writeForm(r: UiRequest, d: Draft, extra: Html | string = ''): Html {
  return html`<form class="edit" method="post" action="/new" id="write-form">${csrfField(r.page)}
<label for="content">Memory text <span class="muted">(markdown; one durable fact)</span></label>
<textarea id="content" name="content" rows="8" required>${d.content}</textarea>
<label for="scopes">Scopes <span class="muted">(comma or space separated, like tools or projects:widgets)</span></label>
<input id="scopes" name="scopes" value="${d.scopes}" required>
<div class="row">${choice('category', 'Category', d.category, CATEGORIES)}${choice('confidence', 'Confidence', d.confidence, CONFIDENCES)}${choice('source', 'Source', d.source, SOURCES)}
<label>Expires <input type="date" name="expires" value="${d.expires}"></label></div>
<label for="aliases">Aliases <span class="muted">(other words a search may use; comma separated)</span></label>
<input id="aliases" name="aliases" value="${d.aliases}">
${extra}
<div class="actions"><button type="submit" class="primary">Store</button></div></form>`;
}

export async function newPage(r: UiRequest): Promise<UiResponse> {
  const d = draftOf(r.query);
  return { html: layout(r.page, { title: 'New memory', active: '/new', live: 'notify', body: html`<h1>New memory</h1>${writeForm(r, d)}` }) };
}

type Outcome = Record<string, any> & { status: string };

function matchList(ms: Outcome[]): Html {
  return html`<ul class="matches">${ms.map(
    (m) => html`<li><a href="/m/${m.id}">${m.snippet}</a> <span class="muted">(${Math.round(m.similarity * 100)}% similar${m.removed_at ? `; removed ${day(m.removed_at)}: ${m.removed_reason ?? ''}` : ''})</span></li>`,
  )}</ul>`;
}

function gateBox(r: UiRequest, out: Outcome, d: Draft): Html {
  const resubmit = (flag: 'acknowledge_transient' | 'force', label: string) =>
    html`<form method="post" action="/new" class="inline">${csrfField(r.page)}${join(
      (Object.entries(d) as [string, string][]).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`),
    )}<input type="hidden" name="${flag}" value="1"><button type="submit" id="override">${label}</button></form>`;
  switch (out.status) {
    case 'secret_detected':
      return html`<div class="gate bad" role="alert" id="gate" data-status="secret_detected"><h2>Secret found: nothing was stored</h2>
<ul>${(out.findings as Outcome[]).map((f) => html`<li><strong>${f.kind}</strong>: <code>${f.snippet}</code></li>`)}</ul><p>${out.hint}</p></div>`;
    case 'transient_warning':
      return html`<div class="gate warn" role="alert" id="gate" data-status="transient_warning"><h2>This reads as temporary: nothing was stored yet</h2>
<ul>${(out.markers as Outcome[]).map((m) => html`<li><strong>${m.marker}</strong>: \u201c${m.snippet}\u201d</li>`)}</ul><p>${out.hint}</p>
<p>Reword it below, or ${resubmit('acknowledge_transient', 'Store as written anyway')}</p></div>`;
    case 'duplicate':
      return html`<div class="gate warn" role="alert" id="gate" data-status="duplicate"><h2>Already stored: nothing was written</h2>${matchList(out.matches)}<p>${out.hint}</p>
<p>${resubmit('force', 'It is a different fact: store anyway')}</p></div>`;
    case 'previously_removed':
      return html`<div class="gate warn" role="alert" id="gate" data-status="previously_removed"><h2>You removed this before: nothing was written</h2>${matchList(out.matches)}<p>${out.hint}</p>
<p>Open it to restore it, or ${resubmit('force', 'write it anew')}</p></div>`;
    case 'pending':
      return html`<div class="gate info" role="status" id="gate" data-status="pending"><h2>Waiting for your confirmation</h2><p>${out.hint}</p>
<div class="actions"><form method="post" action="/pending/${out.pending_id}/confirm">${csrfField(r.page)}<button type="submit" class="primary" id="confirm-now">Confirm and store</button></form>
<form method="post" action="/pending/${out.pending_id}/cancel">${csrfField(r.page)}<button type="submit">Cancel</button></form> <a href="/pending">All pending writes</a></div></div>`;
    default:
      return html`<div class="gate" id="gate" data-status="${out.status}"><p>${out.status}</p></div>`;
  }
}

export async function writeAction(r: UiRequest): Promise<UiResponse> {
  const d = draftOf(r.form);
  let out: Outcome;
  try {
    out = (await r.cairn.write({
      content: d.content,
      scopes: splitList(d.scopes),
      category: d.category as never,
      confidence: d.confidence as never,
      source: d.source as never,
      expires: d.expires || null,
      aliases: splitList(d.aliases, /[,\n]/),
      force: r.form.get('force') === '1',
      acknowledge_transient: r.form.get('acknowledge_transient') === '1',
    })) as Outcome;
  } catch (err) {
    if ((err as Error).name !== 'ValidationError') throw err;
    return { status: 400, html: layout(r.page, { title: 'New memory', active: '/new', live: 'notify', body: html`<h1>New memory</h1>${errorBox((err as Error).message)}${writeForm(r, d)}` }) };
  }
  if (out.status === 'committed') {
    r.flash(`Stored as ${out.id}${out.related?.length ? `; related: ${out.related.map((x: Outcome) => x.id).join(', ')}` : ''}.`);
    return { redirect: `/m/${out.id}` };
  }
  return { html: layout(r.page, { title: 'New memory', active: '/new', live: 'notify', body: html`<h1>New memory</h1>${gateBox(r, out, d)}${out.status === 'pending' ? '' : writeForm(r, d)}` }) };
}
