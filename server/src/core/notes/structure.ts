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

const OBSERVATION = /^\s*[-*+]\s+\[([^\]\n]+)\]\s+(.+)$/;
const RELATION = /^\s*[-*+]\s+([\p{L}_][\p{L}\p{N}_ -]*?)\s+\[\[([^\]\n]+)\]\]/u;
const WIKILINK = /\[\[([^\]\n]+)\]\]/g;
const TAG = /(?:^|[\s(])#([\p{L}][\p{L}\p{N}_/-]*)/gu;

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
  for (const m of text.matchAll(TAG)) out.push(m[1]!.toLowerCase().replace(/[/-]+$/, ''));
  return out;
}

/** Frontmatter of a note written in Basic Memory's style: its title and tags, read leniently. */
function frontmatter(body: string): { title: string | null; tags: string[]; rest: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(body);
  if (!m) return { title: null, tags: [], rest: body };
  const fm = m[1]!;
  const title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(fm)?.[1] ?? null;
  const tags: string[] = [];
  const flow = /^tags:\s*\[(.*)\]\s*$/m.exec(fm);
  if (flow) tags.push(...flow[1]!.split(',').map((t) => t.trim().replace(/^["'#]+|["']+$/g, '')));
  const block = /^tags:\s*\n((?:\s+-\s*.+\n?)+)/m.exec(fm);
  if (block) tags.push(...block[1]!.split('\n').map((l) => l.replace(/^\s*-\s*/, '').trim().replace(/^["'#]+|["']+$/g, '')));
  return { title, tags: tags.filter((t) => t !== '').map((t) => t.toLowerCase()), rest: body.slice(m[0].length) };
}

export function parseStructure(body: string): Structure {
  const fm = frontmatter(body);
  const observations: Observation[] = [];
  const links: Link[] = [];
  const tags = new Set(fm.tags);
  let title = fm.title;
  let inFence = false;
  for (const line of fm.rest.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (title === null) {
      const h = headingTitle(line);
      if (h !== null) title = h;
    }
    for (const t of tagsIn(line)) tags.add(t);
    const rel = RELATION.exec(line);
    let relSpan = '';
    if (rel && !/^\[/.test(rel[1]!)) {
      links.push({ relation: relationName(rel[1]!), target: targetOf(rel[2]!) });
      relSpan = `[[${rel[2]}]]`;
    }
    const obs = OBSERVATION.exec(line);
    if (obs && !/^\s*[xX ]?\s*$/.test(obs[1]!) && !obs[2]!.startsWith('(')) {
      const text = obs[2]!.trim();
      observations.push({ category: obs[1]!.trim().toLowerCase(), text, tags: tagsIn(text) });
    }
    let usedRel = false;
    for (const w of line.matchAll(WIKILINK)) {
      if (!usedRel && w[0] === relSpan) {
        usedRel = true;
        continue;
      }
      const target = targetOf(w[1]!);
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

/**
 * The text of a level-1 ATX heading (`# Title #`), else null. A loop, not a regular expression:
 * `^#\s+(.+?)\s*#*\s*$` takes cubic time in a run of spaces (a body `# a`, 2,500 spaces and a
 * word held a write for 40 s).
 */
function headingTitle(line: string): string | null {
  if (line.charCodeAt(0) !== 35 || !/^\s$/.test(line.charAt(1))) return null;
  const text = line.slice(1).trim();
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 35) end--;
  const closed = text.slice(0, end).trimEnd();
  const title = closed.length > 0 ? closed : text;
  return title.length > 0 ? title : null;
}
