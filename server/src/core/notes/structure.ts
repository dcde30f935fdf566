// Structure inside any memory or note body (Basic Memory's conventions):
//   observations  `- [category] text #tag #other`      (a task box `- [ ]` / `- [x]` is not one)
//   relations     `- relation_type [[Target Title]]`    (one per list item)
//   wikilinks     `[[Target]]` anywhere else in prose   (relation `links_to`)
//   tags          `#tag` after a space or at a line start, and a note's frontmatter `tags:`
// Parsed once per record object (records are replaced, never mutated, when their file changes).
import type { StoredMemory } from '../types.ts';

export interface Observation {
  category: string;
  text: string;
  tags: string[];
}
export interface Link {
  relation: string;
  /** As written inside [[ ]], before any `|label` or `#heading`. */
  target: string;
}
export interface Structure {
  title: string | null;
  observations: Observation[];
  links: Link[];
  tags: string[];
  categories: string[];
}

// Every pattern here runs over text a model or a user wrote, so each is linear in the line: the
// regular expressions below have no two quantifiers that can trade the same characters, and the
// shapes that would need them (a heading's closing #s, a relation's name before `[[`, wikilinks
// after a run of `[`) are read by the small scanners that follow.
const OBSERVATION = /^\s*[-*+]\s+\[([^\]\n]+)\]\s+(.+)$/;
const LIST_MARK = /^\s*[-*+]\s+/;
const RELATION_NAME = /^[\p{L}_][\p{L}\p{N}_ -]*$/u;
const TAG = /(?:^|[\s(])#([\p{L}][\p{L}\p{N}_/-]*)/gu;

/**
 * The text of an ATX heading of level 1 to `maxLevel` (`# Title`, `## Title ##`), or null. The
 * closing run of #s goes when a space precedes it (`# C#` keeps its #), as in CommonMark.
 */
export function atxHeading(line: string, maxLevel = 1): string | null {
  let i = 0;
  while (i < line.length && line[i] === ' ' && i < 3) i++;
  const start = i;
  while (i < line.length && line[i] === '#') i++;
  if (i === start || i - start > maxLevel) return null;
  if (i < line.length && !/\s/.test(line[i]!)) return null;
  let text = line.slice(i).trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) text = '';
  else if (end < text.length && /\s/.test(text[end - 1]!)) text = text.slice(0, end).trimEnd();
  return text;
}

/** `- relation_type [[Target]]` at the start of a line: the name and what is inside the brackets. */
function relationIn(line: string): { name: string; inner: string } | null {
  const mark = LIST_MARK.exec(line);
  if (!mark) return null;
  const open = line.indexOf('[[', mark[0].length);
  if (open === -1 || !/\s/.test(line[open - 1] ?? '')) return null;
  const name = line.slice(mark[0].length, open).trimEnd();
  if (!RELATION_NAME.test(name)) return null;
  const close = line.indexOf(']', open + 2);
  if (close <= open + 2 || line[close + 1] !== ']' || line.slice(open + 2, close).includes('\n')) return null;
  return { name, inner: line.slice(open + 2, close) };
}

/** Every `[[...]]` in a line (no `]` or line break inside): what is inside, and the whole span. */
function* wikilinksIn(line: string): Generator<{ inner: string; whole: string }> {
  let at = 0;
  for (;;) {
    const open = line.indexOf('[[', at);
    if (open === -1) return;
    let close = open + 2;
    while (close < line.length && line[close] !== ']' && line[close] !== '\n') close++;
    // A start further into a run of [ ends at the same ], so a failed one rules them all out.
    if (close > open + 2 && line[close] === ']' && line[close + 1] === ']') {
      yield { inner: line.slice(open + 2, close), whole: line.slice(open, close + 2) };
      at = close + 2;
    } else at = Math.max(close, open + 1);
  }
}

export const LINKS_TO = 'links_to';

/** Lowercase, inner spaces and dashes to `_`: `Relates To` and `relates-to` are `relates_to`. */
export function relationName(s: string): string {
  return s.trim().toLowerCase().replace(/[\s-]+/g, '_');
}
function targetOf(inner: string): string {
  return inner.split('|')[0]!.split('#')[0]!.trim();
}
function tagsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TAG)) {
    const t = m[1]!.toLowerCase();
    let end = t.length;
    while (end > 0 && (t[end - 1] === '/' || t[end - 1] === '-')) end--; // not /[/-]+$/: quadratic in a long tag
    out.push(t.slice(0, end));
  }
  return out;
}

/** The `title:` of frontmatter, without quotes or surrounding spaces (the first such line). */
function titleLine(fm: string): string | null {
  for (const line of fm.split('\n')) {
    if (!line.startsWith('title:')) continue;
    let v = line.slice(6).trim();
    if (v.startsWith('"') || v.startsWith("'")) v = v.slice(1);
    if (v.endsWith('"') || v.endsWith("'")) v = v.slice(0, -1);
    v = v.trim();
    if (v !== '') return v;
  }
  return null;
}

/** Frontmatter of a note written in Basic Memory's style: its title and tags, read leniently. */
function frontmatter(body: string): { title: string | null; tags: string[]; rest: string } {
  // Line by line (the closing `---` found with indexOf): linear whatever the frontmatter holds.
  const open = body.startsWith('---\n') ? 4 : body.startsWith('---\r\n') ? 5 : -1;
  if (open === -1) return { title: null, tags: [], rest: body };
  const close = body.indexOf('\n---', open);
  if (close === -1) return { title: null, tags: [], rest: body };
  const fm = body.slice(open, body[close - 1] === '\r' && close > open ? close - 1 : close);
  let after = close + 4;
  if (body[after] === '\r') after++;
  if (body[after] === '\n') after++;
  const title = titleLine(fm);
  const tags: string[] = [];
  const unquote = (t: string) => {
    let v = t.trim();
    let i = 0;
    while (i < v.length && '"\'#'.includes(v[i]!)) i++;
    let j = v.length;
    while (j > i && '"\''.includes(v[j - 1]!)) j--;
    return v.slice(i, j);
  };
  const lines = fm.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (!line.startsWith('tags:')) continue;
    const v = line.slice(5).trim();
    if (v.startsWith('[') && v.endsWith(']')) {
      tags.push(...v.slice(1, -1).split(',').map(unquote));
    } else if (v === '') {
      for (let j = i + 1; j < lines.length; j++) {
        const item = lines[j]!.replace(/\r$/, '');
        if (item.trim() === '') continue;
        const dash = /^\s+-/.exec(item);
        if (!dash) break;
        tags.push(unquote(item.slice(dash[0].length)));
      }
    }
  }
  return { title, tags: tags.filter((t) => t !== '').map((t) => t.toLowerCase()), rest: body.slice(after) };
}

export function parseStructure(body: string): Structure {
  const fm = frontmatter(body);
  const observations: Observation[] = [];
  const links: Link[] = [];
  const tags = new Set(fm.tags);
  let title = fm.title;
  let inFence = false;
  for (const line of fm.rest.split('\n')) {
    if (line === '') continue;
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (title === null) {
      const h = line.startsWith('#') ? atxHeading(line) : null;
      if (h) title = h;
    }
    for (const t of tagsIn(line)) tags.add(t);
    const rel = relationIn(line);
    let relSpan = '';
    if (rel) {
      links.push({ relation: relationName(rel.name), target: targetOf(rel.inner) });
      relSpan = `[[${rel.inner}]]`;
    }
    const obs = OBSERVATION.exec(line);
    if (obs && !/^\s*[xX ]?\s*$/.test(obs[1]!) && !obs[2]!.startsWith('(')) {
      const text = obs[2]!.trim();
      observations.push({ category: obs[1]!.trim().toLowerCase(), text, tags: tagsIn(text) });
    }
    let usedRel = false;
    for (const w of wikilinksIn(line)) {
      if (!usedRel && w.whole === relSpan) {
        usedRel = true;
        continue;
      }
      const target = targetOf(w.inner);
      if (target !== '') links.push({ relation: LINKS_TO, target });
    }
  }
  return { title, observations, links, tags: [...tags], categories: [...new Set(observations.map((o) => o.category))] };
}

const cache = new WeakMap<StoredMemory, Structure>();
/** The structure of a record's body, parsed once per record object. */
export function structureOf(m: StoredMemory): Structure {
  let s = cache.get(m);
  if (s === undefined) cache.set(m, (s = parseStructure(m.body)));
  return s;
}
