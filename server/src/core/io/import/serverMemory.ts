// `server-memory`: the official MCP memory server's knowledge graph (modelcontextprotocol/servers,
// src/memory), one JSON object per line in its memory file (memory.jsonl by default):
//   {"type":"entity","name":"...","entityType":"...","observations":["...", ...]}
//   {"type":"relation","from":"...","to":"...","relationType":"..."}
// One memory per entity: its name and type, its observations as a list, and its outgoing
// relations as `relationType [[Target]]` lines (a relation whose `from` names no entity still
// gets a memory of its own). The source has no dates or origin.
import { isObj, jsonLines, readSource, slugScope, sourceError, statPath, type ImportCandidate, type ParsedImport } from './common.ts';
import { basename, join } from 'node:path';

interface Entity {
  name: string;
  entityType: string;
  observations: string[];
  line: number;
}

export function parseServerMemory(path: string): ParsedImport {
  const file = statPath(path).isDirectory() ? join(path, 'memory.jsonl') : path;
  const { text } = readSource(file);
  const entities = new Map<string, Entity>();
  const relations = new Map<string, { to: string; type: string; line: number }[]>();
  const order: string[] = [];
  for (const { line, value } of jsonLines(text, file)) {
    const bad = (msg: string) => sourceError(file, line, msg);
    if (!isObj(value)) throw bad('not a JSON object');
    if (value.type === 'entity') {
      if (typeof value.name !== 'string' || value.name.trim() === '') throw bad('entity without a "name" string');
      if (value.entityType !== undefined && typeof value.entityType !== 'string') throw bad(`entity "${value.name}" has an "entityType" that is not a string`);
      const obs = value.observations ?? [];
      if (!Array.isArray(obs) || !obs.every((o) => typeof o === 'string')) throw bad(`entity "${value.name}" has "observations" that is not a list of strings`);
      const prev = entities.get(value.name);
      if (prev) {
        // The server never writes two entities with one name; a hand-merged file might: join them.
        for (const o of obs as string[]) if (!prev.observations.includes(o)) prev.observations.push(o);
      } else {
        entities.set(value.name, { name: value.name, entityType: (value.entityType as string | undefined) ?? '', observations: [...(obs as string[])], line });
        order.push(value.name);
      }
    } else if (value.type === 'relation') {
      for (const k of ['from', 'to', 'relationType'] as const) if (typeof value[k] !== 'string' || (value[k] as string).trim() === '') throw bad(`relation without a "${k}" string`);
      const from = value.from as string;
      if (!relations.has(from)) relations.set(from, []);
      const list = relations.get(from)!;
      if (!list.some((r) => r.to === value.to && r.type === value.relationType)) list.push({ to: value.to as string, type: value.relationType as string, line });
      if (!entities.has(from) && !order.includes(from)) order.push(from);
    } else {
      throw bad(`"type" is ${JSON.stringify(value.type)}: a memory-server line is "entity" or "relation"`);
    }
  }
  const candidates: ImportCandidate[] = [];
  const skipped: ParsedImport['skipped'] = [];
  for (const name of order) {
    const e = entities.get(name);
    const rels = relations.get(name) ?? [];
    const line = e?.line ?? rels[0]!.line;
    const label = `entity "${name}" (${basename(file)}:${line})`;
    const lines = [e && e.entityType ? `${name} (${e.entityType})` : name];
    for (const o of e?.observations ?? []) if (o.trim() !== '') lines.push(`- ${o.trim()}`);
    for (const r of rels) lines.push(`- ${r.type} [[${r.to}]]`);
    if (lines.length === 1) {
      skipped.push({ label, reason: 'an entity with no observations and no relations' });
      continue;
    }
    const body = lines.join('\n');
    candidates.push({
      key: `entity:${name}`,
      label,
      body,
      scopes: [slugScope(e?.entityType ?? '', 'knowledge-graph')],
      aliases: name.length <= 100 && /[_-]/.test(name) ? [name.replace(/[_-]+/g, ' ')] : undefined,
    });
  }
  return { format: 'server-memory', path: file, candidates, skipped };
}
