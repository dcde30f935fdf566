// `claude-code`: Claude Code's auto memory and, opt-in, its CLAUDE.md files.
//
// Auto memory lives in ~/.claude/projects/<project>/memory/: MEMORY.md (the index Claude Code
// loads at session start) and topic files beside it. <project> is the project's path with every
// character other than a letter or digit turned into "-" (/home/me/src/widgets ->
// -home-me-src-widgets); it is matched back to a directory on this machine, and when that
// directory is a git repository its remote becomes the memories' origin repo.
// A topic file with frontmatter (name, description, type: user | feedback | project | reference)
// is one memory. A file without it (older auto memory, and MEMORY.md) is split into standalone
// pieces: each top-level list item, each paragraph, the heading above as an alias. MEMORY.md
// lines that only point at a topic file ("- [Testing](testing.md) - ...") are index entries,
// skipped: the topic file itself is imported.
// CLAUDE.md files are instructions the user wrote, not facts Claude learnt: they are read only
// with --include-claude-md (the project's CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md, and
// ~/.claude/CLAUDE.md when PATH is ~/.claude), split the same way, and every memory made from
// them carries the scope `instructions` (kept even when --scope replaces the other scopes).
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { repoInfo } from '../../origin.ts';
import type { Category, Origin, Source } from '../../types.ts';
import { aliasList, frontmatter, hashOf, markdownItems, mtimeIso, NULL_ORIGIN, readSource, slugScope, sourceError, statPath, walkFiles, type ImportCandidate, type ParseOptions, type ParsedImport } from './common.ts';

export const INSTRUCTIONS_SCOPE = 'instructions';

const encode = (name: string) => name.replace(/[^a-zA-Z0-9]/g, '-');

/** The directory a Claude Code project folder name stands for, when one on this machine matches. */
export function decodeProjectDir(name: string, root = '/'): string | null {
  const visit = (rest: string, dir: string, depth: number): string | null => {
    if (rest === '') return dir;
    if (depth > 40 || !rest.startsWith('-')) return null;
    let entries: string[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name);
    } catch {
      return null;
    }
    // Longest names first: "my-app" before "my" when both exist.
    for (const e of entries.sort((a, b) => b.length - a.length)) {
      const enc = `-${encode(e)}`;
      if (rest === enc || rest.startsWith(`${enc}-`)) {
        const found = visit(rest.slice(enc.length), join(dir, e), depth + 1);
        if (found) return found;
      }
    }
    return null;
  };
  return visit(name, root, 0);
}

const TYPES: Record<string, { category: Category; source: Source }> = {
  user: { category: 'user-inference', source: 'inferred' },
  feedback: { category: 'fact', source: 'user-correction' },
  project: { category: 'fact', source: 'inferred' },
  reference: { category: 'fact', source: 'inferred' },
};

interface Project {
  dir: string;
  name: string;
  path: string | null;
  scope: string;
  origin: Origin;
}

async function projectOf(dir: string): Promise<Project> {
  const name = basename(dir);
  const path = decodeProjectDir(name);
  const tail = name.split('-').filter(Boolean).pop() ?? name;
  const scope = `projects:${slugScope(path ? basename(path) : tail, 'unknown')}`;
  let origin: Origin = NULL_ORIGIN;
  if (path) {
    const info = await repoInfo(path);
    origin = info ? { cwd: path, repo: info.url, branch: null, worktree_root: info.root } : { cwd: path, repo: null, branch: null, worktree_root: null };
  }
  return { dir, name, path, scope: scope.length > 64 ? 'projects:unknown' : scope, origin };
}

/** The project folders PATH names: ~/.claude, ~/.claude/projects, one project, or its memory/. */
function projectDirs(path: string): { projects: string[]; claudeHome: string | null } {
  if (!statPath(path).isDirectory()) throw sourceError(path, null, 'is not a directory: give ~/.claude, ~/.claude/projects, a project folder in it, or its memory/ folder');
  const subdirs = (d: string) => readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(d, e.name)).sort();
  if (existsSync(join(path, 'projects'))) return { projects: subdirs(join(path, 'projects')).filter((d) => existsSync(join(d, 'memory'))), claudeHome: path };
  if (basename(path) === 'memory') return { projects: [dirname(path)], claudeHome: null };
  if (existsSync(join(path, 'memory'))) return { projects: [path], claudeHome: null };
  const inside = subdirs(path).filter((d) => existsSync(join(d, 'memory')));
  if (inside.length) return { projects: inside, claudeHome: null };
  throw sourceError(path, null, 'holds no Claude Code auto memory (no memory/ folder): give ~/.claude, ~/.claude/projects or ~/.claude/projects/<project>');
}

const INDEX_LINK = /\[[^\]]*\]\(([^)\s]+\.md)\)/g;

function splitFile(label: string, keyBase: string, text: string, firstLine: number, skipIndexIn: string | null, skipped: ParsedImport['skipped']) {
  const out: { key: string; label: string; body: string; aliases?: string[] }[] = [];
  for (const item of markdownItems(text, firstLine)) {
    if (/^@\S+$/.test(item.text.trim())) {
      skipped.push({ label: `${label}:${item.line}`, reason: 'an @import line (import that file itself if it holds memories)' });
      continue;
    }
    if (skipIndexIn) {
      const links = [...item.text.matchAll(INDEX_LINK)].map((m) => m[1]!);
      if (links.length && links.every((l) => existsSync(join(skipIndexIn, l)))) {
        skipped.push({ label: `${label}:${item.line}`, reason: `an index entry pointing to ${links.join(', ')} (imported from there)` });
        continue;
      }
    }
    out.push({ key: `${keyBase}#${hashOf(item.text)}`, label: `${label}:${item.line}`, body: item.text, ...(aliasList([item.heading]) ? { aliases: aliasList([item.heading])! } : {}) });
  }
  return out;
}

export async function parseClaudeCode(path: string, opts: ParseOptions = {}): Promise<ParsedImport> {
  const { projects, claudeHome } = projectDirs(path);
  const candidates: ImportCandidate[] = [];
  const skipped: ParsedImport['skipped'] = [];
  for (const dir of projects) {
    const p = await projectOf(dir);
    const memDir = join(dir, 'memory');
    const files = existsSync(memDir) ? walkFiles(memDir, (n) => n.endsWith('.md')) : [];
    const base = { scopes: [p.scope], origin: p.origin };
    for (const file of files) {
      const rel = relative(memDir, file).split(sep).join('/');
      const label = `${p.name}/memory/${rel}`;
      const { text, stat } = readSource(file);
      const date = mtimeIso(stat);
      const { data, body, bodyLine } = frontmatter(text, file);
      const type = data.type;
      if (Object.keys(data).length > 0 && (typeof data.type === 'string' || typeof data.name === 'string')) {
        if (type !== undefined && (typeof type !== 'string' || !(type in TYPES))) {
          const i = text.split('\n').findIndex((l) => l.startsWith('type:'));
          throw sourceError(file, i === -1 ? 1 : i + 1, `type is ${JSON.stringify(type)}: Claude Code's memory types are ${Object.keys(TYPES).join(', ')}`);
        }
        const content = body.trim();
        if (content === '') {
          skipped.push({ label, reason: 'a topic file with no text' });
          continue;
        }
        const kind = TYPES[(type as string | undefined) ?? 'project']!;
        candidates.push({
          key: `${p.name}/memory/${rel}`,
          label,
          body: content,
          ...base,
          ...kind,
          aliases: aliasList([typeof data.name === 'string' ? data.name : null, typeof data.description === 'string' ? data.description : null]),
          created: date,
          updated: date,
        });
        continue;
      }
      const pieces = splitFile(label, `${p.name}/memory/${rel}`, body, bodyLine, rel === 'MEMORY.md' ? memDir : null, skipped);
      if (pieces.length === 0 && !skipped.some((s) => s.label.startsWith(`${label}:`))) skipped.push({ label, reason: 'an empty file' });
      for (const piece of pieces) candidates.push({ ...piece, ...base, source: 'inferred', created: date, updated: date });
    }
    if (opts.includeClaudeMd && p.path) {
      for (const f of ['CLAUDE.md', join('.claude', 'CLAUDE.md'), 'CLAUDE.local.md']) candidates.push(...instructionFile(join(p.path, f), base, skipped));
    }
  }
  if (opts.includeClaudeMd && claudeHome) candidates.push(...instructionFile(join(claudeHome, 'CLAUDE.md'), { scopes: [], origin: NULL_ORIGIN }, skipped));
  return { format: 'claude-code', path, candidates, skipped };
}

function instructionFile(file: string, base: { scopes: string[]; origin: Origin }, skipped: ParsedImport['skipped']): ImportCandidate[] {
  if (!existsSync(file)) return [];
  const { text, stat } = readSource(file);
  const date = mtimeIso(stat);
  const { body, bodyLine } = frontmatter(text, file);
  return splitFile(file, `CLAUDE.md:${file}`, body, bodyLine, null, skipped).map((piece) => ({
    ...piece,
    ...base,
    markScopes: [INSTRUCTIONS_SCOPE],
    source: 'explicit-statement' as const,
    created: date,
    updated: date,
  }));
}
