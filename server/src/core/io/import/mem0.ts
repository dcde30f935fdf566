// `mem0`: memories exported from OpenMemory or mem0. Three shapes are read:
//  - OpenMemory's backup export (`memories.json` inside the zip POST /api/v1/backup/export
//    returns): {"user":{...}, "apps":[{id,name}], "categories":[{id,name}],
//    "memories":[{id, content, metadata, state, created_at, updated_at, app_id, category_ids}], ...};
//  - its companion `memories.jsonl` (one {id, content, metadata, created_at, updated_at, state,
//    app, categories} per line; gunzip memories.jsonl.gz first);
//  - mem0's own `get_all` output: {"results":[{id, memory, categories?, created_at, updated_at,
//    metadata, user_id}]} or a bare list of those.
// mem0 extracts memories about the user from conversations, so each one is a claim about the user
// (category user-inference, source inferred); running `--apply` is the user's confirmation.
// categories -> scopes; active and paused memories are imported, archived and deleted ones become
// tombstones (cairn then refuses to add them back).
import { isObj, isoDate, jsonLines, parseJson, readSource, slugScope, sourceError, type ImportCandidate, type ParsedImport } from './common.ts';

export function parseMem0(path: string): ParsedImport {
  const { text } = readSource(path);
  const trimmed = text.trimStart();
  let records: { value: unknown; where: string; line: number | null }[];
  const cats = new Map<string, string>();
  if (path.endsWith('.jsonl') || (trimmed.startsWith('{') && /^\{[^\n]*\}\s*\n\s*\{/.test(trimmed))) {
    records = jsonLines(text, path).map(({ line, value }) => ({ value, where: `line ${line}`, line }));
  } else {
    const doc = parseJson(text, path);
    let list: unknown;
    let key = '';
    if (Array.isArray(doc)) list = doc;
    else if (isObj(doc) && Array.isArray(doc.memories)) {
      list = doc.memories;
      key = 'memories';
      const rows = doc.categories;
      if (rows !== undefined) {
        if (!Array.isArray(rows)) throw sourceError(path, null, '"categories" must be a list');
        rows.forEach((r, i) => {
          if (!isObj(r) || typeof r.id !== 'string' || typeof r.name !== 'string') throw sourceError(path, null, `categories[${i}] needs an "id" and a "name"`);
          cats.set(r.id, r.name);
        });
      }
    } else if (isObj(doc) && Array.isArray(doc.results)) {
      list = doc.results;
      key = 'results';
    } else throw sourceError(path, 1, 'not a mem0 or OpenMemory export: expected a "memories" or "results" list (or a list of memories)');
    records = (list as unknown[]).map((value, i) => ({ value, where: key ? `${key}[${i}]` : `item ${i}`, line: null }));
  }
  const candidates: ImportCandidate[] = [];
  const skipped: ParsedImport['skipped'] = [];
  for (const { value, where, line } of records) {
    const bad = (msg: string) => (line !== null ? sourceError(path, line, msg) : sourceError(path, null, `${where} ${msg}`));
    if (!isObj(value)) throw bad('is not a JSON object');
    const text = value.content ?? value.memory ?? value.text;
    if (typeof text !== 'string') throw bad('has no "content" (OpenMemory) or "memory" (mem0) text');
    const id = typeof value.id === 'string' || typeof value.id === 'number' ? String(value.id) : null;
    if (id === null) throw bad('has no "id"');
    const label = `memory ${id} (${where})`;
    if (text.trim() === '') {
      skipped.push({ label, reason: 'empty text' });
      continue;
    }
    const state = value.state ?? 'active';
    if (typeof state !== 'string' || !['active', 'paused', 'archived', 'deleted'].includes(state)) throw bad(`has "state" ${JSON.stringify(state)}: expected active, paused, archived or deleted`);
    let categories: string[] = [];
    if (Array.isArray(value.categories)) categories = value.categories.filter((c): c is string => typeof c === 'string');
    else if (Array.isArray(value.category_ids)) categories = value.category_ids.map((c) => cats.get(String(c))).filter((c): c is string => c !== undefined);
    const date = (k: string) => isoDate(value[k], (w) => bad(`has "${k}" ${w}`));
    const created = date('created_at');
    const updated = date('updated_at') ?? created;
    const scopes = [...new Set(categories.map((c) => slugScope(c, '')).filter((s) => s !== ''))].slice(0, 4);
    candidates.push({
      key: id,
      label,
      body: text,
      scopes: scopes.length ? scopes : ['mem0'],
      category: 'user-inference',
      source: 'inferred',
      ...(created ? { created } : {}),
      ...(updated ? { updated } : {}),
      ...(state === 'archived' || state === 'deleted'
        ? { removed: { ...((date('deleted_at') ?? date('archived_at') ?? updated) ? { at: (date('deleted_at') ?? date('archived_at') ?? updated)! } : {}), reason: `${state} in OpenMemory` } }
        : {}),
    });
  }
  return { format: 'mem0', path, candidates, skipped };
}
