// Notes tools: `memory` (Anthropic's memory tool, memory_20250818: the same name, commands and
// parameter names, plain-text results) and memory_related (the link graph around a memory).
import { z } from 'zod';
import { LIMITS } from '../../core/limits.ts';
import type { MemoryCommand } from '../../core/cairn.ts';
import { READ_ONLY, WRITES, defineTool } from '../tool.ts';

const PATH_CHARS = 1000;
const path = z.string().max(PATH_CHARS);
const text = z.string().max(LIMITS.contentChars);

const memory = defineTool({
  name: 'memory',
  title: 'Memory directory (/memories)',
  description:
    'Your memory directory, /memories: the client-side memory tool you know (commands view, create, str_replace, insert, delete, rename), kept in the cairn store. ' +
    'Start by viewing /memories. Organize by folder: user/ (preferences, communication style), projects/<name>/ (state and decisions), sessions/ (working notes), patterns/ (lessons); a folder is the note\'s scope. ' +
    'Notes are searchable with memory_search beside other memories. Write observations as `- [category] fact #tag` and relations as `- relation_type [[Other Note]]` so memory_related can follow them (prompt memory_guide has examples). ' +
    'delete is recoverable (memory_list_tombstones, memory_restore); never write secrets.',
  input: z.strictObject({
    command: z.enum(['view', 'create', 'str_replace', 'insert', 'delete', 'rename']).describe('The operation'),
    path: path.optional().describe('A path under /memories (every command but rename)'),
    view_range: z.array(z.number().int()).optional().describe('view of a file: [start, end] lines, 1-based; end -1 = to the end'),
    file_text: text.optional().describe('create: the whole text of the new file'),
    old_str: text.optional().describe('str_replace: the exact text to replace; must occur exactly once'),
    new_str: text.optional().describe('str_replace: the replacement (omitted: the text is deleted)'),
    insert_line: z.number().int().optional().describe('insert: the line after which to insert (0 = before the first line)'),
    insert_text: text.optional().describe('insert: the text to insert'),
    old_path: path.optional().describe('rename: the current path'),
    new_path: path.optional().describe('rename: the new path (must not exist)'),
  }),
  annotations: WRITES,
  // Errors read as Anthropic's SDK tool runner gives them to the model: "Error: <message>".
  errorPrefix: 'Error: ',
  run: (c, a) => c.memoryTool(commandOf(a)),
});

type MemoryArgs = { command: MemoryCommand['command'] } & Partial<Record<'path' | 'file_text' | 'old_str' | 'new_str' | 'insert_text' | 'old_path' | 'new_path', string>> & { view_range?: number[]; insert_line?: number };

/** The command with the parameters it needs; a missing one is named (nothing is run). */
function commandOf(a: MemoryArgs): MemoryCommand {
  const need = <K extends keyof MemoryArgs>(k: K): NonNullable<MemoryArgs[K]> => {
    const v = a[k];
    if (v === undefined || v === null) throw new Error(`Parameter \`${String(k)}\` is required for command: ${a.command}`);
    return v as NonNullable<MemoryArgs[K]>;
  };
  switch (a.command) {
    case 'view':
      return { command: 'view', path: need('path'), ...(a.view_range !== undefined ? { view_range: a.view_range } : {}) };
    case 'create':
      return { command: 'create', path: need('path'), file_text: need('file_text') };
    case 'str_replace':
      return { command: 'str_replace', path: need('path'), old_str: need('old_str'), ...(a.new_str !== undefined ? { new_str: a.new_str } : {}) };
    case 'insert':
      return { command: 'insert', path: need('path'), insert_line: need('insert_line'), insert_text: need('insert_text') };
    case 'delete':
      return { command: 'delete', path: need('path') };
    case 'rename':
      return { command: 'rename', old_path: need('old_path'), new_path: need('new_path') };
  }
}

const ref = { id: z.string(), title: z.string(), kind: z.enum(['memory', 'note']), path: z.string().optional() };

const related = defineTool({
  name: 'memory_related',
  title: 'Related memories and notes',
  description:
    'The link graph around one memory or note: its outgoing relations (`- relation_type [[Target]]` and [[wikilinks]]), its backlinks, and unresolved links (targets that do not exist yet), up to depth 3. ' +
    'Compact rows (id, title, path for notes, summary); with_bodies adds the texts. Pass id, or path (a /memories path or a title).',
  input: z.strictObject({
    id: z.string().max(LIMITS.tokenChars).optional().describe('Memory or note id'),
    path: path.optional().describe('A /memories path, a path inside it, or a title'),
    depth: z.number().int().min(1).max(3).optional().describe('Hops to follow, 1-3 (default 1)'),
    relation_types: z.array(z.string().max(100)).max(20).optional().describe('Only these relations (e.g. ["depends_on", "links_to"])'),
    with_bodies: z.boolean().optional().describe('Include each node\'s full text'),
  }),
  output: z.object({
    root: z.object({ ...ref, depth: z.number(), summary: z.string(), body: z.string().optional() }),
    outgoing: z.array(z.object({ relation: z.string(), target: z.string(), id: z.string().optional() })),
    backlinks: z.array(z.object({ relation: z.string(), id: z.string() })),
    nodes: z.array(z.object({ ...ref, depth: z.number(), summary: z.string(), body: z.string().optional() })),
    edges: z.array(z.object({ from: z.string(), to: z.string(), relation: z.string() })),
    unresolved: z.array(z.object({ from: z.string(), relation: z.string(), target: z.string() })),
  }),
  annotations: READ_ONLY,
  run: (c, a) => c.related(a),
});

export default [memory, related];
