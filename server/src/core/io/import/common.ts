// What every importer produces (`cairn import --from FORMAT PATH`), and the helpers they share.
// A parser reads the other tool's files and turns each source item into one candidate; it never
// writes. core/ops/transfer.ts runs every candidate through the write gates and writes (or, in a
// dry run, only reports). A malformed source is an error naming the file and line, raised before
// anything is written.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { CairnError } from '../../errors.ts';
import { LIMITS } from '../../limits.ts';
import { SCOPE_RE } from '../../scopes.ts';
import type { Category, Confidence, Origin, Source } from '../../types.ts';
import { yamlLoad } from '../yaml.ts';
import { atxHeading } from '../../notes/structure.ts';

export const IMPORT_FORMATS = ['claude-code', 'server-memory', 'basic-memory', 'memento', 'bettermemory', 'mem0', 'anthropic-memories'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** One source item, as cairn would store it. */
export interface ImportCandidate {
  /** Stable identity of the item in its source (recorded as imported_from.key): a second run finds it. */
  key: string;
  /** How the report names the item: file and line, entity name, source id. */
  label: string;
  body: string;
  /** Scopes derived from the source (replaced by --scope when given). */
  scopes: string[];
  /** Scopes that mark what the item is (e.g. `instructions`): kept even with --scope. */
  markScopes?: string[];
  category?: Category;
  source?: Source;
  confidence?: Confidence;
  aliases?: string[];
  created?: string;
  updated?: string;
  last_verified_at?: string | null;
  expires?: string | null;
  origin?: Origin;
  /** A removed item in the source: imported as a tombstone (it then guards against re-adding). */
  removed?: { at?: string; reason: string; session?: string | null };
}

export interface ParsedImport {
  format: ImportFormat;
  /** The path given, resolved. */
  path: string;
  candidates: ImportCandidate[];
  /** Source items that are not memories (an index line, an empty note), with why. */
  skipped: { label: string; reason: string }[];
}

export interface ParseOptions {
  /** claude-code: also import CLAUDE.md files (instructions). */
  includeClaudeMd?: boolean;
  /** $HOME, for claude-code's user-level CLAUDE.md. */
  home?: string;
}

export const NULL_ORIGIN: Origin = { cwd: null, repo: null, branch: null, worktree_root: null };

/** A source that cannot be read as its format (a failed import, exit 1; not a bad argument). */
export class SourceError extends CairnError {
  override name = 'SourceError' as const;
}

/** A malformed source: names the file and line; nothing is written. */
export function sourceError(file: string, line: number | null, msg: string): SourceError {
  return new SourceError(`${file}${line !== null ? `:${line}` : ''}: ${msg}`);
}

/** A short content hash: identity of text items, and "changed at source" for keyed ones. */
export function hashOf(text: string): string {
  return createHash('sha256').update(text.replace(/\s+/g, ' ').trim()).digest('hex').slice(0, 16);
}

/** Any text as a valid cairn scope (`Project Notes/API` -> `project-notes:api`), or the fallback. */
export function slugScope(text: string, fallback: string): string {
  const parts = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[/:\\]+/)
    .map((p) => p.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, ''))
    .filter((p) => p !== '');
  let s = parts.join(':');
  if (s.length > LIMITS.scopeChars) s = s.slice(0, LIMITS.scopeChars).replace(/[-:]+$/, '');
  return SCOPE_RE.test(s) ? s : fallback;
}

/** A date from a source (Date, ISO text, epoch seconds or ms) as ISO, or undefined; throws `bad` on an unparsable one. */
export function isoDate(v: unknown, bad: (what: string) => Error): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  let t = NaN;
  if (v instanceof Date) t = v.getTime();
  else if (typeof v === 'string') t = Date.parse(v);
  else if (typeof v === 'number') t = v < 1e11 ? v * 1000 : v;
  if (!Number.isFinite(t)) throw bad(`${JSON.stringify(v instanceof Date ? String(v) : v)} is not a date`);
  return new Date(t).toISOString();
}

export function mtimeIso(st: Stats): string {
  return new Date(st.mtimeMs).toISOString();
}

/** Reads a source file as text, refusing one over the import limit or that is not a file. */
export function readSource(file: string): { text: string; stat: Stats } {
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch (err) {
    throw new SourceError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`);
  }
  if (!st.isFile()) throw new SourceError(`${file} is not a file`);
  if (st.size > LIMITS.importFileBytes) throw new SourceError(`${file} is ${st.size} bytes, over the import limit of ${LIMITS.importFileBytes}`);
  const raw = readFileSync(file);
  if (raw.includes(0)) throw sourceError(file, null, 'is a binary file (it contains a NUL byte), not text');
  const text = raw.toString('utf8');
  return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, stat: st };
}

/** What a path is, or a clear error when it is missing. */
export function statPath(path: string): Stats {
  try {
    return lstatSync(path);
  } catch (err) {
    throw new SourceError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`);
  }
}

/** Files under `dir` (recursively, sorted, no dot entries, no symbolic links) that `want` accepts. */
export function walkFiles(dir: string, want: (name: string) => boolean, skipDirs: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name.startsWith('.') || e.isSymbolicLink()) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!skipDirs.has(relative(dir, p))) visit(p);
      } else if (e.isFile() && want(e.name)) out.push(p);
    }
  };
  visit(dir);
  return out;
}

/** Parses a JSON document, turning a syntax error into file:line. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const msg = (err as Error).message;
    const pos = /position (\d+)/.exec(msg);
    const lineM = /line (\d+)/.exec(msg);
    const line = pos ? text.slice(0, Number(pos[1])).split('\n').length : lineM ? Number(lineM[1]) : null;
    throw sourceError(file, line, `not valid JSON (${msg.replace(/ in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '')})`);
  }
}

/** Each non-blank line of a JSONL file parsed, with its line number; a bad line is file:line. */
export function jsonLines(text: string, file: string): { line: number; value: unknown }[] {
  const out: { line: number; value: unknown }[] = [];
  text.split('\n').forEach((raw, i) => {
    const s = raw.trim();
    if (s === '') return;
    try {
      out.push({ line: i + 1, value: JSON.parse(s) });
    } catch (err) {
      throw sourceError(file, i + 1, `not a JSON object on one line (${(err as Error).message.replace(/ in JSON at position \d+.*$/s, '')})`);
    }
  });
  return out;
}

export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A markdown file's YAML frontmatter (empty when it has none) and its body with the body's first line number. */
export function frontmatter(text: string, file: string): { data: Record<string, unknown>; body: string; bodyLine: number } {
  const lines = text.split('\n');
  if (lines[0]?.replace(/\r$/, '') !== '---') return { data: {}, body: text, bodyLine: 1 };
  const end = lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
  if (end === -1) throw sourceError(file, 1, 'frontmatter opened with "---" is never closed');
  let data: unknown;
  try {
    data = yamlLoad(lines.slice(1, end).join('\n'));
  } catch (err) {
    const mark = (err as { mark?: { line?: number } }).mark;
    throw sourceError(file, typeof mark?.line === 'number' ? mark.line + 2 : 1, `frontmatter is not valid YAML: ${((err as { reason?: string }).reason ?? (err as Error).message).split('\n')[0]}`);
  }
  if (data === null || data === undefined) data = {};
  if (!isObj(data)) throw sourceError(file, 2, 'frontmatter is not a mapping of keys to values');
  return { data, body: lines.slice(end + 1).join('\n'), bodyLine: end + 2 };
}

/** One piece of a markdown file that can stand as a memory: a top-level list item or a paragraph. */
export interface MarkdownItem {
  text: string;
  line: number;
  /** The nearest heading above it, if any. */
  heading: string | null;
  /** true for a list item (its marker is removed from text). */
  listItem: boolean;
}

const LIST_START = /^(?:[-*+]|\d+[.)])\s+/;

/**
 * Splits markdown into standalone items: each top-level list item (with its nested lines) and each
 * paragraph. Headings are context, not items; a fenced code block stays with the item it follows
 * (or stands alone). Line numbers count from `firstLine`.
 */
export function markdownItems(body: string, firstLine = 1): MarkdownItem[] {
  const items: MarkdownItem[] = [];
  let heading: string | null = null;
  let cur: { lines: string[]; line: number; listItem: boolean } | null = null;
  let inFence = false;
  const flush = () => {
    if (cur) {
      const text = cur.lines.join('\n').trimEnd();
      if (text.trim() !== '') items.push({ text, line: cur.line, heading, listItem: cur.listItem });
    }
    cur = null;
  };
  body.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const n = firstLine + i;
    if (inFence) {
      cur!.lines.push(line);
      if (/^\s*(```|~~~)/.test(line)) inFence = false;
      return;
    }
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = true;
      if (!cur) cur = { lines: [], line: n, listItem: false };
      cur.lines.push(line);
      return;
    }
    // A scanner, not /^#{1,6}\s+(.*?)\s*#*\s*$/: that pattern is super-linear in a run of spaces.
    const h = line.startsWith('#') ? atxHeading(line, 6) : null;
    if (h !== null) {
      flush();
      heading = h || null;
      return;
    }
    if (line.trim() === '') {
      // A blank line ends a paragraph; inside a list item it ends the item unless the next line
      // is indented (handled by simply ending here: loose lists become one item per entry).
      flush();
      return;
    }
    if (/^(?:-{3,}|\*{3,}|_{3,})\s*$/.test(line)) {
      flush();
      return;
    }
    const li = LIST_START.exec(line);
    if (li) {
      flush();
      cur = { lines: [line.slice(li[0].length)], line: n, listItem: true };
      return;
    }
    if (cur && cur.listItem && /^\s+\S/.test(line)) {
      cur.lines.push(line.replace(/^ {2,4}/, ''));
      return;
    }
    if (!cur) cur = { lines: [], line: n, listItem: false };
    else if (cur.listItem) {
      // A lazy continuation line of a list item.
      cur.lines.push(line.trim());
      return;
    }
    cur.lines.push(line);
  });
  if (inFence && cur) (cur as { lines: string[] }).lines.push('```');
  flush();
  return items;
}

export function stem(file: string): string {
  return basename(file).replace(/\.[^.]+$/, '');
}

/** Up to LIMITS.aliases distinct short aliases. */
export function aliasList(words: (string | null | undefined)[]): string[] | undefined {
  const out: string[] = [];
  for (const w of words) {
    const t = (w ?? '').replace(/\s+/g, ' ').trim();
    if (t === '' || t.length > LIMITS.aliasChars || out.includes(t)) continue;
    out.push(t);
    if (out.length === LIMITS.aliases) break;
  }
  return out.length ? out : undefined;
}
