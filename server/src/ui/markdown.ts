// A small, safe markdown renderer for memory bodies. Everything is escaped first; the only markup
// produced is paragraphs, headings (demoted to h3-h6), fenced and indented code blocks, code
// spans, bullet and numbered lists, block quotes, bold, italic, and links whose target is http(s)
// (any other scheme — javascript:, data:, file: — stays plain text). Raw HTML in a memory is shown
// as text, never interpreted.
import { esc } from './html.ts';

const SAFE_URL = /^https?:\/\/[^\s<>"'`]+$/i;

/** Inline markup of one line (or paragraph): code spans first, so nothing inside them is touched. */
export function inline(text: string): string {
  const parts = text.split(/(`[^`\n]+`)/);
  return parts
    .map((p, i) => {
      if (i % 2 === 1) return `<code>${esc(p.slice(1, -1))}</code>`;
      let s = '';
      const rest = p;
      // [label](url): found on the raw text so the URL can be checked before it is escaped.
      const link = /\[([^\]\n]{1,300})\]\(([^)\s]{1,2000})\)|(https?:\/\/[^\s<>()"'`]+[^\s<>()"'`.,;:!?])/gi;
      let last = 0;
      for (const m of rest.matchAll(link)) {
        s += emphasis(esc(rest.slice(last, m.index)));
        const url = m[2] ?? m[3]!;
        const label = m[1] ?? m[3]!;
        if (SAFE_URL.test(url)) s += `<a href="${esc(url)}" rel="noopener noreferrer" target="_blank">${emphasis(esc(label))}</a>`;
        else s += emphasis(esc(m[0]));
        last = m.index! + m[0].length;
      }
      s += emphasis(esc(rest.slice(last)));
      return s;
    })
    .join('');
}

/** **bold** and *italic* / _italic_ on already-escaped text (the markers survive escaping). */
function emphasis(s: string): string {
  return s
    .replace(/\*\*([^*\n]+?)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[\s(])\*([^*\s][^*\n]*?)\*(?=[\s).,;:!?]|$)/g, '$1<em>$2</em>')
    .replace(/(^|[\s(])_([^_\s][^_\n]*?)_(?=[\s).,;:!?]|$)/g, '$1<em>$2</em>');
}

const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;

export function markdown(src: string): string {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push(`<p>${para.map(inline).join('<br>')}</p>`);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*(```+|~~~+)\s*([\w+-]*)\s*$/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      const lang = fence[2] ? ` data-lang="${esc(fence[2])}"` : '';
      out.push(`<pre${lang}><code>${esc(body.join('\n'))}</code></pre>`);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(6, heading[1]!.length + 2);
      out.push(`<h${level}>${inline(heading[2]!)}</h${level}>`);
      continue;
    }
    if (/^( {4}|\t)/.test(line) && para.length === 0) {
      const body: string[] = [];
      while (i < lines.length && (/^( {4}|\t)/.test(lines[i]!) || lines[i]!.trim() === '')) body.push(lines[i++]!.replace(/^( {4}|\t)/, ''));
      i--;
      out.push(`<pre><code>${esc(body.join('\n').replace(/\n+$/, ''))}</code></pre>`);
      continue;
    }
    const list = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
    if (list) {
      flush();
      const tag = list === BULLET ? 'ul' : 'ol';
      const items: string[] = [];
      while (i < lines.length && list.test(lines[i]!)) {
        let item = list.exec(lines[i]!)![1]!;
        // continuation lines indented under the item
        while (i + 1 < lines.length && /^\s{2,}\S/.test(lines[i + 1]!) && !BULLET.test(lines[i + 1]!) && !NUMBERED.test(lines[i + 1]!)) item += ` ${lines[++i]!.trim()}`;
        items.push(`<li>${inline(item)}</li>`);
        i++;
      }
      i--;
      out.push(`<${tag}>${items.join('')}</${tag}>`);
      continue;
    }
    if (/^\s*>/.test(line)) {
      flush();
      const body: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) body.push(lines[i++]!.replace(/^\s*>\s?/, ''));
      i--;
      out.push(`<blockquote>${markdown(body.join('\n'))}</blockquote>`);
      continue;
    }
    para.push(line.trim());
  }
  flush();
  return out.join('\n');
}

/**
 * A snippet with the match terms marked: escaped text, each word that starts with a term wrapped
 * in <mark>. Terms are the index's surface forms; a prefix match also marks inflected forms.
 */
export function highlight(text: string, terms: readonly string[]): string {
  const ts = [...new Set(terms.map((t) => t.toLowerCase()).filter((t) => t.length > 0))];
  if (ts.length === 0) return esc(text);
  return text
    .split(/([\p{L}\p{N}_]+)/u)
    .map((w, i) => {
      if (i % 2 === 0) return esc(w);
      const lw = w.toLowerCase();
      return ts.some((t) => lw === t || (t.length >= 3 && lw.startsWith(t))) ? `<mark>${esc(w)}</mark>` : esc(w);
    })
    .join('');
}
