// `memento`: Memento's store (Kotrotsos/memento-core): `$MEMENTO_HOME/memories/` (default
// ~/.memento) holding one append-only JSONL file per namespace (`global.jsonl`,
// `projects/my-app.jsonl`). Each line is one version of an entry:
//   {"id","namespace","content","tags":[...],"created","updated","source","relations":[ids],"ttl"}
// An update appends a new line with the same id (the last line wins); a delete appends the entry
// with "deleted": true. PATH may be the Memento home, its memories/ folder, or one .jsonl file.
// Each live entry becomes a memory (namespace -> scope, tags -> aliases, ttl -> expires, dates
// kept); a deleted one becomes a tombstone so cairn keeps refusing to add it back.
import { existsSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { aliasList, isObj, isoDate, jsonLines, readSource, slugScope, sourceError, statPath, walkFiles, type ImportCandidate, type ParsedImport } from './common.ts';

interface Entry {
  id: string;
  namespace: string;
  content: string;
  tags: string[];
  created?: string;
  updated?: string;
  ttl?: string;
  deleted: boolean;
  label: string;
}

export function parseMemento(path: string): ParsedImport {
  const st = statPath(path);
  let root = path;
  let files: string[];
  if (st.isDirectory()) {
    if (existsSync(join(path, 'memories'))) root = join(path, 'memories');
    files = walkFiles(root, (n) => n.endsWith('.jsonl'));
    if (files.length === 0) throw sourceError(root, null, 'holds no .jsonl files: give the Memento home (~/.memento), its memories/ folder or one .jsonl file');
  } else files = [path];
  const latest = new Map<string, Entry>();
  for (const file of files) {
    const nsFromPath = st.isDirectory() ? relative(root, file).replace(/\.jsonl$/, '').split('\\').join('/') : 'global';
    const { text } = readSource(file);
    for (const { line, value } of jsonLines(text, file)) {
      const bad = (msg: string) => sourceError(file, line, msg);
      if (!isObj(value)) throw bad('not a JSON object');
      if (typeof value.id !== 'string' || value.id.trim() === '') throw bad('entry without an "id" string');
      const prev = latest.get(value.id);
      const deleted = value.deleted === true;
      if (value.content !== undefined && typeof value.content !== 'string') throw bad(`entry ${value.id} has "content" that is not a string`);
      const content = (value.content as string | undefined) ?? prev?.content;
      if (content === undefined) {
        if (deleted) continue; // a delete marker for an entry this file never held
        throw bad(`entry ${value.id} has no "content"`);
      }
      if (value.tags !== undefined && (!Array.isArray(value.tags) || !value.tags.every((t) => typeof t === 'string'))) throw bad(`entry ${value.id} has "tags" that is not a list of strings`);
      if (value.namespace !== undefined && typeof value.namespace !== 'string') throw bad(`entry ${value.id} has a "namespace" that is not a string`);
      const date = (k: string) => isoDate(value[k], (w) => bad(`entry ${value.id} has "${k}" ${w}`));
      latest.set(value.id, {
        id: value.id,
        namespace: (value.namespace as string | undefined) ?? prev?.namespace ?? nsFromPath,
        content,
        tags: (value.tags as string[] | undefined) ?? prev?.tags ?? [],
        created: date('created') ?? prev?.created,
        updated: date('updated') ?? date('created') ?? prev?.updated,
        ttl: date('ttl'),
        deleted,
        label: `entry ${value.id} (${(st.isDirectory() ? relative(root, file) : basename(file)).split('\\').join('/')}:${line})`,
      });
    }
  }
  const candidates: ImportCandidate[] = [];
  const skipped: ParsedImport['skipped'] = [];
  for (const e of latest.values()) {
    if (e.content.trim() === '') {
      skipped.push({ label: e.label, reason: 'empty content' });
      continue;
    }
    candidates.push({
      key: e.id,
      label: e.label,
      body: e.content,
      scopes: [slugScope(e.namespace, 'global')],
      aliases: aliasList(e.tags),
      ...(e.created ? { created: e.created } : {}),
      ...(e.updated ? { updated: e.updated } : {}),
      ...(e.ttl ? { expires: e.ttl } : {}),
      ...(e.deleted ? { removed: { ...(e.updated ? { at: e.updated } : {}), reason: 'deleted in Memento' } } : {}),
    });
  }
  return { format: 'memento', path, candidates, skipped };
}
