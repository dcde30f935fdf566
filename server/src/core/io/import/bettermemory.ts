// `bettermemory`: a bettermemory store directory (~/.claude-memory, ./.claude-memory or
// $BETTERMEMORY_DIR): one markdown file per memory with YAML frontmatter (schema_version, id,
// created, updated, scopes, confidence, source, category, last_verified_at, expires, origin
// {cwd, repo, branch}), and removed memories in .tombstones/ with removed, removed_reason,
// removed_session. cairn's format grew from the same design, so the mapping is one to one: every
// key keeps its value (a scope cairn does not accept is rewritten to one it does), tombstones
// become cairn tombstones. Only *.md files directly in the folder and in .tombstones/ are read.
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CATEGORIES, CONFIDENCES, SOURCES, type Origin } from '../../types.ts';
import { aliasList, frontmatter, isObj, isoDate, mtimeIso, NULL_ORIGIN, readSource, slugScope, sourceError, statPath, type ImportCandidate, type ParsedImport } from './common.ts';

function mdFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.md') && !e.name.startsWith('.')).map((e) => e.name);
  } catch {
    return [];
  }
  return names.sort().map((n) => join(dir, n));
}

function lineOf(text: string, key: string): number {
  const i = text.split('\n').findIndex((l) => l.startsWith(`${key}:`));
  return i === -1 ? 1 : i + 1;
}

export function parseBettermemory(path: string): ParsedImport {
  if (!statPath(path).isDirectory()) throw sourceError(path, null, 'is not a directory: give the bettermemory store folder (~/.claude-memory)');
  const active = mdFiles(path);
  const tombs = mdFiles(join(path, '.tombstones'));
  if (active.length === 0 && tombs.length === 0) throw sourceError(path, null, 'holds no memory files (*.md): is it a bettermemory store?');
  const candidates: ImportCandidate[] = [];
  const skipped: ParsedImport['skipped'] = [];
  for (const file of [...active, ...tombs]) {
    const { text, stat } = readSource(file);
    const { data, body } = frontmatter(text, file);
    const bad = (key: string, msg: string) => sourceError(file, lineOf(text, key), msg);
    if (Object.keys(data).length === 0) throw sourceError(file, 1, 'has no YAML frontmatter: a bettermemory file starts with "---"');
    const sv = data.schema_version ?? 1;
    if (typeof sv !== 'number' || sv > 1) throw bad('schema_version', `schema_version ${JSON.stringify(sv)} is not one this importer reads (1)`);
    const rawScopes = typeof data.scopes === 'string' ? [data.scopes] : data.scopes;
    if (!Array.isArray(rawScopes) || rawScopes.length === 0 || !rawScopes.every((s) => typeof s === 'string')) throw bad('scopes', 'scopes is missing or not a list of names');
    const oneOf = <T extends string>(key: string, allowed: readonly T[]): T | undefined => {
      const v = data[key];
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
      throw bad(key, `${key} is ${JSON.stringify(v)}: expected one of ${allowed.join(', ')}`);
    };
    const date = (key: string) => isoDate(data[key], (w) => bad(key, `${key} ${w}`));
    let origin: Origin = NULL_ORIGIN;
    if (data.origin !== undefined && data.origin !== null) {
      if (!isObj(data.origin)) throw bad('origin', 'origin is not a mapping of cwd, repo, branch');
      const o = data.origin;
      const s = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : null);
      origin = { cwd: s('cwd'), repo: s('repo'), branch: s('branch'), worktree_root: s('worktree_root') };
    }
    const id = data.id === undefined || data.id === null ? null : String(data.id);
    const created = date('created') ?? mtimeIso(stat);
    const label = `${id ? `memory ${id}` : 'memory'} (${relative(path, file).split(sep).join('/')})`;
    const content = body.replace(/^\s*\n/, '').trimEnd();
    if (content.trim() === '') {
      skipped.push({ label, reason: 'empty body' });
      continue;
    }
    const removedAt = date('removed');
    const tomb = tombs.includes(file);
    const aliases = Array.isArray(data.aliases) ? aliasList(data.aliases.filter((a): a is string => typeof a === 'string')) : undefined;
    candidates.push({
      key: id ?? file.slice(path.length + 1),
      label,
      body: content,
      scopes: [...new Set(rawScopes.map((s) => slugScope(s as string, 'imported')))],
      ...(oneOf('confidence', CONFIDENCES) ? { confidence: oneOf('confidence', CONFIDENCES)! } : {}),
      ...(oneOf('source', SOURCES) ? { source: oneOf('source', SOURCES)! } : {}),
      ...(oneOf('category', CATEGORIES) ? { category: oneOf('category', CATEGORIES)! } : {}),
      ...(aliases ? { aliases } : {}),
      created,
      updated: date('updated') ?? created,
      last_verified_at: date('last_verified_at') ?? null,
      expires: date('expires') ?? null,
      origin,
      ...(tomb || removedAt
        ? { removed: { ...(removedAt ? { at: removedAt } : {}), reason: typeof data.removed_reason === 'string' && data.removed_reason.trim() ? data.removed_reason : 'removed in bettermemory', session: typeof data.removed_session === 'string' ? data.removed_session : null } }
        : {}),
    });
  }
  return { format: 'bettermemory', path, candidates, skipped };
}
