// `basic-memory`: a Basic Memory project folder (basicmachines-co/basic-memory): markdown notes,
// any depth, each with optional YAML frontmatter (title, type, tags, permalink, created,
// modified) and a body whose list items carry the knowledge graph:
//   - [category] content #tag (context)        an observation
//   - relation_type [[Target]] (context)       a relation ("quoted type" for several words)
//   - [[Target]]                               a bare link (links_to)
// Each observation becomes one memory, prefixed with the note's title (an observation alone,
// "[expertise] Lisp", means nothing without its entity): "Title: content (context)", aliases
// the category and the #tags. A note's relations become one memory listing them as
// `type [[Target]]` lines. Other prose (paragraphs, plain list items) becomes one memory per
// piece, prefixed with the title too. Dates: frontmatter created/modified, else the file's
// mtime. Scope: the note's top folder, else the project folder's name.
import { basename, relative, sep } from 'node:path';
import { aliasList, frontmatter, hashOf, isoDate, markdownItems, mtimeIso, readSource, slugScope, sourceError, statPath, stem, walkFiles, type ImportCandidate, type ParsedImport } from './common.ts';

// Linear in the line: no lazy group before trailing spaces (the text is trimmed in code instead).
const OBSERVATION = /^\s*[-*]\s+\[([^\[\]()]+)\]\s+(.+)$/;
const RELATION = /^\s*[-*]\s+(?:"([^"]+)"|'([^']+)'|([^\s[\]]+))\s+\[\[([^\]]+)\]\](?:\s*\(([^()]*)\))?\s*$/;
const BARE_LINK = /^\s*[-*]\s+\[\[([^\]]+)\]\]\s*$/;

/** A trailing `(context)` (no parentheses inside): where it starts, spaces before it included. */
function trailingParens(text: string): { index: number; inner: string } | null {
  if (!text.endsWith(')')) return null;
  const open = text.lastIndexOf('(');
  if (open === -1) return null;
  const inner = text.slice(open + 1, -1);
  if (inner.includes(')')) return null;
  return { index: text.slice(0, open).trimEnd().length, inner };
}

export function parseBasicMemory(path: string): ParsedImport {
  if (!statPath(path).isDirectory()) throw sourceError(path, null, 'is not a directory: give the Basic Memory project folder (~/basic-memory by default)');
  const files = walkFiles(path, (n) => n.endsWith('.md'));
  if (files.length === 0) throw sourceError(path, null, 'holds no notes (*.md): is it a Basic Memory project folder?');
  const candidates: ImportCandidate[] = [];
  const skipped: ParsedImport['skipped'] = [];
  const projectScope = slugScope(basename(path), 'notes');
  for (const file of files) {
    const rel = relative(path, file).split(sep).join('/');
    const { text, stat } = readSource(file);
    const { data, body, bodyLine } = frontmatter(text, file);
    const fmLine = (key: string) => {
      const i = text.split('\n').findIndex((l) => l.startsWith(`${key}:`));
      return i === -1 ? 1 : i + 1;
    };
    const str = (key: string): string | undefined => {
      const v = data[key];
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'string' || typeof v === 'number') return String(v);
      throw sourceError(file, fmLine(key), `${key} must be text, got ${JSON.stringify(v)}`);
    };
    const title = str('title') ?? stem(file);
    const permalink = str('permalink') ?? rel.replace(/\.md$/, '');
    const tags = Array.isArray(data.tags) ? data.tags.map(String) : typeof data.tags === 'string' ? data.tags.split(',').map((t) => t.trim()) : [];
    const date = (key: string) => isoDate(data[key], (w) => sourceError(file, fmLine(key), `${key} ${w}`));
    const created = date('created') ?? mtimeIso(stat);
    const updated = date('modified') ?? date('updated') ?? mtimeIso(stat);
    const scopes = [rel.includes('/') ? slugScope(rel.slice(0, rel.indexOf('/')), projectScope) : projectScope];
    const base = { scopes, created, updated: Date.parse(updated) < Date.parse(created) ? created : updated };

    const rest: string[] = [];
    const relations: string[] = [];
    let relLine = 0;
    let inFence = false;
    body.split('\n').forEach((raw, i) => {
      const line = raw.replace(/\r$/, '');
      const n = bodyLine + i;
      if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
      if (inFence || /^\s*(```|~~~)/.test(line)) {
        rest.push(line);
        return;
      }
      const obs = OBSERVATION.exec(line);
      if (obs && !/^[ xX-]$/.test(obs[1]!) && !/^\(/.test(obs[2]!)) {
        const category = obs[1]!.trim();
        let content = obs[2]!.trimEnd();
        const ctx = trailingParens(content);
        if (ctx !== null) content = content.slice(0, ctx.index);
        const inlineTags = [...content.matchAll(/(?:^|\s)#([\p{L}\p{N}_-]+)/gu)].map((m) => m[1]!);
        content = content.replace(/(?:^|\s)#[\p{L}\p{N}_-]+/gu, '').trim();
        rest.push('');
        if (content === '') {
          skipped.push({ label: `${rel}:${n}`, reason: 'an observation with no text' });
          return;
        }
        const text = `${title}: ${content}${ctx ? ` (${ctx.inner.trim()})` : ''}`;
        candidates.push({ key: `${permalink}#${hashOf(`${category}|${text}`)}`, label: `${rel}:${n}`, body: text, aliases: aliasList([category, ...inlineTags, ...tags]), ...base });
        return;
      }
      const r = RELATION.exec(line);
      const bare = BARE_LINK.exec(line);
      if (r || bare) {
        if (!relLine) relLine = n;
        relations.push(r ? `- ${r[1] ?? r[2] ?? r[3]} [[${r[4]}]]${r[5] ? ` (${r[5].trim()})` : ''}` : `- links_to [[${bare![1]}]]`);
        rest.push('');
        return;
      }
      rest.push(line);
    });
    if (relations.length) {
      const text = `${title}\n${relations.join('\n')}`;
      candidates.push({ key: `${permalink}#relations`, label: `${rel}:${relLine} (relations)`, body: text, aliases: aliasList([title]), ...base });
    }
    const before = candidates.length;
    for (const item of markdownItems(rest.join('\n'), bodyLine)) {
      if (item.text.trim() === title.trim()) continue;
      const text = `${title}: ${item.text}`;
      candidates.push({ key: `${permalink}#${hashOf(item.text)}`, label: `${rel}:${item.line}`, body: text, aliases: aliasList([item.heading && !/^(observations|relations)$/i.test(item.heading) ? item.heading : null, ...tags]), ...base });
    }
    if (candidates.length === before && !relations.length && !candidates.some((c) => c.key.startsWith(`${permalink}#`))) skipped.push({ label: rel, reason: 'a note with no observations, relations or text' });
  }
  return { format: 'basic-memory', path, candidates, skipped };
}
