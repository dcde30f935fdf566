// completion/complete: values for every prompt argument and resource-template variable that names
// a scope, a memory id or a note path, from what the store holds, ranked by use (core/ops/resources.ts).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Cairn, CompletionKind } from '../core/cairn.ts';
import { PROMPTS } from './prompts.ts';
import { MEMORY_TEMPLATE, NOTE_TEMPLATE, SCOPE_TEMPLATE } from './resources.ts';

/** Each template variable that names something in the store, by template and variable name. */
const TEMPLATE_VARIABLES: Record<string, Record<string, CompletionKind>> = {
  [MEMORY_TEMPLATE]: { id: 'id' },
  [NOTE_TEMPLATE]: { path: 'note' },
  [SCOPE_TEMPLATE]: { scope: 'scope' },
};

/** Longest typed value looked at: a completion is for what a person types, not a document. */
const TYPED_CHARS = 200;

/** What an argument names, or null when cairn has nothing to offer for it. */
export function completionKind(ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }, argument: string): CompletionKind | null {
  if (ref.type === 'ref/prompt') {
    const p = PROMPTS.find((x) => x.name === ref.name);
    if (!p) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(ref.name.slice(0, 80))}: cairn's prompts are ${PROMPTS.map((x) => x.name).join(', ')}`);
    return p.arguments?.find((a) => a.name === argument)?.complete ?? null;
  }
  // A template's own spelling, or its variable written without the reserved-expansion `+`.
  const vars = TEMPLATE_VARIABLES[ref.uri] ?? TEMPLATE_VARIABLES[ref.uri.replace('{path}', '{+path}')];
  // The variable's name, however the client spells it ("path" or, with its operator, "+path").
  return vars?.[argument.replace(/^[+#./;?&]/, '')] ?? null;
}

export function registerCompletions(server: Server, ready: () => Promise<Cairn>): void {
  server.setRequestHandler(CompleteRequestSchema, async (req) => {
    const kind = completionKind(req.params.ref, req.params.argument.name);
    if (kind === null) return { completion: { values: [], total: 0, hasMore: false } };
    const c = await ready();
    const typed = req.params.argument.value.slice(0, TYPED_CHARS);
    const { values, total } = await c.during(() => c.complete(kind, typed));
    return { completion: { values, total, hasMore: total > values.length } };
  });
}
