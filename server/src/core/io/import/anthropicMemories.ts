// `anthropic-memories`: the folder behind Anthropic's memory tool (`/memories`, the
// memory_20250818 tool: view, create, str_replace, insert, delete, rename on plain files the model
// writes). There is no schema: files are whatever the model wrote, usually markdown or plain
// text notes, sometimes XML or JSON. A markdown or text file is split into its standalone pieces
// (each top-level list item, each paragraph; the heading above becomes an alias); any other text
// file is one memory. Scope: the file's top folder under the memory root, else the file's name.
// Dates: the file's modification time. Binary files are skipped.
import { relative, sep } from 'node:path';
import { aliasList, hashOf, markdownItems, mtimeIso, readSource, slugScope, sourceError, statPath, stem, walkFiles, type ImportCandidate, type ParsedImport } from './common.ts';

const TEXT_SPLIT = /\.(md|markdown|txt)$/i;

export function parseAnthropicMemories(path: string): ParsedImport {
  const st = statPath(path);
  if (!st.isDirectory()) throw sourceError(path, null, 'is not a directory: give the folder the memory tool writes (its /memories)');
  const files = walkFiles(path, () => true);
  const candidates: ImportCandidate[] = [];
  const skipped: ParsedImport['skipped'] = [];
  for (const file of files) {
    const rel = relative(path, file).split(sep).join('/');
    let src: ReturnType<typeof readSource>;
    try {
      src = readSource(file);
    } catch (err) {
      if (/binary file/.test((err as Error).message)) {
        skipped.push({ label: rel, reason: 'a binary file' });
        continue;
      }
      throw err;
    }
    const date = mtimeIso(src.stat);
    const top = rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : stem(file);
    const scopes = [slugScope(top, 'memories')];
    const pieces = TEXT_SPLIT.test(file) ? markdownItems(src.text) : src.text.trim() ? [{ text: src.text.trim(), line: 1, heading: null, listItem: false }] : [];
    if (pieces.length === 0) skipped.push({ label: rel, reason: 'an empty file' });
    for (const p of pieces) {
      candidates.push({
        key: `${rel}#${hashOf(p.text)}`,
        label: `${rel}:${p.line}`,
        body: p.text,
        scopes,
        source: 'inferred',
        aliases: aliasList([p.heading]),
        created: date,
        updated: date,
      });
    }
  }
  if (files.length === 0) throw sourceError(path, null, 'holds no files: is it the memory tool\'s /memories folder?');
  return { format: 'anthropic-memories', path, candidates, skipped };
}
