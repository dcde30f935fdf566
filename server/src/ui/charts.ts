// Inline SVG charts drawn on the server: horizontal bars for categories and columns for weeks.
// Every bar is a link to the rows behind it and carries its count as text (and as data-count,
// which the browser tests read). Colours come from CSS classes (no style attributes: the CSP
// forbids inline style), so the light and dark themes apply.
import { esc, html, raw, type Html } from './html.ts';

export interface Bar {
  label: string;
  value: number;
  href: string;
  /** CSS class suffix for the colour: c1..c4, ok, warn, bad. */
  tone?: string;
  /** Text after the value, e.g. "%" */
  unit?: string;
}

const W = 480;
/** The longest label shown whole (what fits the chart's width); a longer one keeps its end. */
const LABEL_CHARS = 64;

/** A label cut from the left: a repo's owner and name, at the end, are what tell repos apart. */
function shortLabel(s: string): string {
  return s.length > LABEL_CHARS ? `\u2026${s.slice(s.length - LABEL_CHARS + 1)}` : s;
}

/**
 * Horizontal bars, one row each, longest first as given. Each label sits above its bar, across
 * the chart's full width, so a long name (a repo's path) is never cut at the left edge. `legend`
 * says what the colours mean when they differ between bars for a reason the labels do not give.
 */
export function barChart(id: string, title: string, bars: readonly Bar[], legend: readonly { tone: string; name: string }[] = []): Html {
  if (bars.length === 0) return html`<figure class="chart" id="${id}"><figcaption>${title}</figcaption><p class="muted">Nothing yet.</p></figure>`;
  const row = 38;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const h = bars.length * row + 4;
  const body = bars
    .map((b, i) => {
      const y = i * row;
      const w = Math.max(b.value > 0 ? 2 : 0, Math.round(((W - 56) * b.value) / max));
      return `<a href="${esc(b.href)}" class="bar-link" data-label="${esc(b.label)}" data-count="${b.value}"><title>${esc(b.label)}: ${b.value}${esc(b.unit ?? '')}</title>` +
        `<rect x="0" y="${y}" width="${W}" height="${row}" class="hit"></rect><text x="0" y="${y + 14}" class="lbl">${esc(shortLabel(b.label))}</text>` +
        `<rect x="0" y="${y + 19}" width="${w}" height="14" rx="3" class="bar ${esc(b.tone ?? 'c1')}"></rect>` +
        `<text x="${w + 6}" y="${y + 31}" class="val">${b.value}${esc(b.unit ?? '')}</text></a>`;
    })
    .join('');
  const key = legend.length ? html`<ul class="legend">${legend.map((l) => html`<li><span class="key ${l.tone}"></span>${l.name}</li>`)}</ul>` : '';
  return html`<figure class="chart" id="${id}"><figcaption>${title}</figcaption>${raw(
    `<svg viewBox="0 0 ${W} ${h}" role="img" aria-label="${esc(title)}" preserveAspectRatio="xMinYMin meet">${body}</svg>`,
  )}${key}</figure>`;
}

export interface Series {
  name: string;
  tone: string;
  values: number[];
}

/** Columns per bucket, the series stacked; each column links to its bucket's rows. */
export function columnChart(id: string, title: string, labels: readonly string[], series: readonly Series[], hrefs: readonly string[]): Html {
  const h = 180;
  const TOP = 20; // room above the tallest column for its value
  const base = h - 28;
  const left = 34;
  const totals = labels.map((_, i) => series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const step = (W - left - 6) / labels.length;
  const bw = Math.max(4, step * 0.7);
  let body = `<line x1="${left}" y1="${base}" x2="${W}" y2="${base}" class="axis"></line>` +
    `<text x="${left - 6}" y="${TOP + 4}" class="tick" text-anchor="end">${max}</text><text x="${left - 6}" y="${base}" class="tick" text-anchor="end">0</text>`;
  labels.forEach((label, i) => {
    const x = left + i * step + (step - bw) / 2;
    let y = base;
    let parts = '';
    for (const s of series) {
      const v = s.values[i] ?? 0;
      if (v <= 0) continue;
      const hh = Math.max(1, ((base - TOP) * v) / max);
      y -= hh;
      parts += `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${bw.toFixed(1)}" height="${hh.toFixed(1)}" class="bar ${esc(s.tone)}"></rect>`;
    }
    const tip = `${label}: ${series.map((s) => `${s.name} ${s.values[i] ?? 0}`).join(', ')}`;
    body += `<a href="${esc(hrefs[i] ?? '#')}" class="bar-link" data-label="${esc(label)}" data-count="${totals[i]}"><title>${esc(tip)}</title>` +
      `<rect x="${(left + i * step).toFixed(1)}" y="0" width="${step.toFixed(1)}" height="${base}" class="hit"></rect>${parts}` +
      (totals[i]! > 0 ? `<text x="${(x + bw / 2).toFixed(1)}" y="${(y - 3).toFixed(1)}" class="val" text-anchor="middle">${totals[i]}</text>` : '') +
      (i % Math.ceil(labels.length / 6) === 0 ? `<text x="${(x + bw / 2).toFixed(1)}" y="${h - 10}" class="tick" text-anchor="middle">${esc(label.slice(5))}</text>` : '') +
      `</a>`;
  });
  const legend = series.length > 1 ? html`<ul class="legend">${series.map((s) => html`<li><span class="key ${s.tone}"></span>${s.name}</li>`)}</ul>` : '';
  return html`<figure class="chart" id="${id}"><figcaption>${title}</figcaption>${raw(
    `<svg viewBox="0 0 ${W} ${h}" role="img" aria-label="${esc(title)}" preserveAspectRatio="xMinYMin meet">${body}</svg>`,
  )}${legend}</figure>`;
}
