// The library entry for API users (built to server/dist/memory-tool.mjs): the six handlers of
// Anthropic's memory tool in the shape the Anthropic TypeScript SDK's helper takes
// (`betaMemoryTool(handlers)` from '@anthropic-ai/sdk/helpers/beta/memory'), backed by a cairn
// store: the same notes area, index, gates and tombstones as the MCP `memory` tool.
//
//   import { betaMemoryTool } from '@anthropic-ai/sdk/helpers/beta/memory';
//   import { cairnMemoryTool } from 'cairn/server/dist/memory-tool.mjs';
//   const handlers = await cairnMemoryTool({ dir: './memory-store' });
//   const memory = betaMemoryTool(handlers);   // tools: [memory] in client.beta.messages.toolRunner
//   ... await handlers.close();
//
// A handler returns the result text or throws an Error whose message is the error text; the SDK's
// tool runner sends it to the model as "Error: <message>" with is_error: true.
import { Cairn } from '../core/cairn.ts';
import type { MemoryCommand } from '../core/cairn.ts';

type Of<K extends MemoryCommand['command']> = Extract<MemoryCommand, { command: K }>;

export interface CairnMemoryHandlers {
  view(command: Of<'view'>): Promise<string>;
  create(command: Of<'create'>): Promise<string>;
  str_replace(command: Of<'str_replace'>): Promise<string>;
  insert(command: Of<'insert'>): Promise<string>;
  delete(command: Of<'delete'>): Promise<string>;
  rename(command: Of<'rename'>): Promise<string>;
  /** Memories and notes matching `query` (memory_search), for a program that wants to look itself. */
  search(query: string, opts?: { max_results?: number; tags?: string[]; category?: string }): Promise<{ id: string; path?: string; snippet: string; relevance: string }[]>;
  /** Stops the store's watcher and saves the index; call it when done. */
  close(): Promise<void>;
}

export interface CairnMemoryToolOptions {
  /** The store directory; default as for the CLI: $CAIRN_DIR, a project .cairn/, else ~/.cairn. */
  dir?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Where cairn's warnings go (default: stderr). */
  warn?: (msg: string) => void;
}

export async function cairnMemoryTool(opts: CairnMemoryToolOptions = {}): Promise<CairnMemoryHandlers> {
  const cairn = await Cairn.open({
    ...(opts.dir !== undefined ? { dir: opts.dir } : {}),
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    ...(opts.env !== undefined ? { env: opts.env } : {}),
    ...(opts.warn !== undefined ? { warn: opts.warn } : {}),
  });
  // Each handler is a plain function of its command (the SDK calls it bound to this object).
  const run = (cmd: MemoryCommand) => cairn.memoryTool(cmd);
  return {
    view: (c) => run({ command: 'view', path: c.path, ...(c.view_range !== undefined ? { view_range: c.view_range } : {}) }),
    create: (c) => run({ command: 'create', path: c.path, file_text: c.file_text }),
    str_replace: (c) => run({ command: 'str_replace', path: c.path, old_str: c.old_str, ...(c.new_str !== undefined ? { new_str: c.new_str } : {}) }),
    insert: (c) => run({ command: 'insert', path: c.path, insert_line: c.insert_line, insert_text: c.insert_text }),
    delete: (c) => run({ command: 'delete', path: c.path }),
    rename: (c) => run({ command: 'rename', old_path: c.old_path, new_path: c.new_path }),
    search: async (query, o = {}) => {
      const { hits } = await cairn.search({ query, auto_scope: false, ...o });
      return hits.map((h) => ({ id: h.id, ...((h as { path?: string }).path !== undefined ? { path: (h as { path?: string }).path } : {}), snippet: h.snippet, relevance: h.relevance }));
    },
    close: () => cairn.close(),
  };
}
