// The MCP server: a generic loop over the tool registry. Input is parsed once here with each
// tool's zod schema; any throw becomes an isError result with the error's message, so one bad
// call never takes the server down. stdout belongs to the protocol: logs go to stderr.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, McpError, type CallToolResult, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Cairn } from '../core/cairn.ts';
import { errorMessage } from '../core/errors.ts';
import { INSTRUCTIONS } from './instructions.ts';
import { allTools } from './registry.ts';
import { PROMPTS } from './prompts.ts';
import { checkAnswer, describeIssues, jsonSchema, type ToolDef } from './tool.ts';
import { readResource, registerResources } from './resources.ts';
import { registerCompletions } from './completions.ts';
import { askAboutPending } from './elicit.ts';

declare const __CAIRN_VERSION__: string;
export const VERSION = typeof __CAIRN_VERSION__ === 'string' ? __CAIRN_VERSION__ : '0.0.0-dev';

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * A store still opening: the server answers `initialize` and lists its tools at once, and each
 * tool call waits for `ready` (a first start on a big store without a cache parses every file,
 * which can take longer than a client waits for `initialize`).
 */
export interface Opening {
  ready: Promise<Cairn>;
  /** [memory_tool] enabled, read from config.toml before the store opens */
  memoryTool: boolean;
  /**
   * Begins the opening that `ready` waits for (idempotent), when the opening waits to be told:
   * serveStdio tells it once the client's handshake is through, or at the first tool call. A start
   * from the cache decodes it on the main thread (0.4 s at 50k memories, seconds at 200k), which
   * must not hold up the answers to `initialize` and `tools/list`.
   */
  start?: () => void;
}

/** `track` hears of every tool call while it runs (serveStdio lets them finish before closing). */
export function createServer(cairn: Cairn | Opening, all: ToolDef[] = allTools, track?: (call: Promise<unknown>) => void): Server {
  const opening: Opening = 'ready' in cairn ? cairn : { ready: Promise.resolve(cairn), memoryTool: cairn.config.memory_tool.enabled };
  // [memory_tool] enabled = false in config.toml: the `memory` tool is not offered.
  const tools = opening.memoryTool ? all : all.filter((t) => t.name !== 'memory');
  const server = new Server(
    { name: 'cairn', title: 'cairn memory', version: VERSION },
    {
      capabilities: {
        tools: { listChanged: false },
        prompts: { listChanged: false },
        resources: { subscribe: true, listChanged: true },
        completions: {},
      },
      instructions: INSTRUCTIONS,
    },
  );
  /** The open store, begun on demand (as a tool call begins it). */
  const ready = (): Promise<Cairn> => {
    opening.start?.();
    return opening.ready;
  };
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: PROMPTS.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      ...(p.arguments ? { arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })) } : {}),
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const p = PROMPTS.find((x) => x.name === req.params.name);
    if (!p) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(String(req.params.name).slice(0, 80))}: cairn's prompts are ${PROMPTS.map((x) => x.name).join(', ')}`);
    const lead = { role: 'user' as const, content: { type: 'text' as const, text: p.text } };
    if (!p.embeds) return { description: p.description, messages: [lead] };
    const args = req.params.arguments ?? {};
    for (const a of p.arguments ?? []) {
      if (a.required && (args[a.name] ?? '').trim() === '') throw new McpError(ErrorCode.InvalidParams, `prompt ${p.name} needs the argument ${a.name}: ${a.description}`);
    }
    const uri = p.embeds(args);
    const c = await ready();
    const r = await c.during(() => readResource(c, uri));
    return {
      description: p.description,
      messages: [lead, { role: 'user' as const, content: { type: 'resource' as const, resource: { uri, mimeType: r.mimeType, text: r.text } } }],
    };
  });
  registerResources(server, ready);
  registerCompletions(server, ready);
  const byName = new Map(tools.map((t) => [t.name, t]));
  // Made at the first tools/list, not before connecting: the JSON Schemas of every tool take
  // ~18 ms to derive, which held up the answer to `initialize` at every start.
  let listing: Tool[] | null = null;
  const listed = (): Tool[] =>
    (listing ??= tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: jsonSchema(t.input, 'input') as { type: 'object' },
      ...(t.output ? { outputSchema: jsonSchema(t.output, 'output') as { type: 'object' } } : {}),
      annotations: { title: t.title, ...t.annotations },
    })));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed() }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const tool = byName.get(req.params.name);
    if (!tool) {
      const name = String(req.params.name).slice(0, 80);
      return errorResult(`unknown tool ${JSON.stringify(name)}: cairn's tools are ${[...byName.keys()].join(', ')}`);
    }
    const parsed = tool.input.safeParse(req.params.arguments ?? {});
    if (!parsed.success) return errorResult(`${tool.errorPrefix ?? ''}${describeIssues(tool, parsed.error.issues, req.params.arguments)}`);
    try {
      opening.start?.();
      // A write that went pending may be put to the user as a form (elicit.ts), after the call
      // itself: the wait for the user is no call in flight for the index's background work.
      const running = opening.ready.then(async (c) => {
        const out = await c.during(() => tool.run(c, parsed.data));
        return tool.name === 'memory_write' ? askAboutPending(server, c, out, extra) : out;
      });
      track?.(running);
      const out = (await running) as Record<string, unknown> | string;
      if (typeof out === 'string') return { content: [{ type: 'text', text: out }] };
      const mismatch = checkAnswer(tool, out);
      if (mismatch) return errorResult(mismatch);
      return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
    } catch (err) {
      return errorResult(`${tool.errorPrefix ?? ''}${errorMessage(err)}`);
    }
  });
  return server;
}

/** How long a shutdown waits for the calls still running (a hung provider must not hold it). */
const SHUTDOWN_WAIT_MS = 10_000;

/**
 * The opening begins this long after `notifications/initialized`: the `tools/list` (and
 * `prompts/list`) a client sends right after it are answered before a start from the cache
 * decodes it on the main thread. A tool call begins it at once.
 */
const AFTER_HANDSHAKE_MS = 20;
/** A client that never sends `notifications/initialized` still gets its store opened after this. */
const START_FALLBACK_MS = 250;

/** Runs the stdio server until the client goes away; `cairn` may still be opening. */
export async function serveStdio(given: Cairn | Opening): Promise<void> {
  const { cairn, started } = startingAfterHandshake(given);
  // Calls still running when the client goes away (a write sent just before stdin closed) finish
  // before the store closes, instead of failing half-way on a closed index.
  const running = new Set<Promise<unknown>>();
  const server = createServer(cairn, allTools, (call) => {
    running.add(call);
    void call.catch(() => {}).finally(() => running.delete(call));
  });
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = async (code: number) => {
    if (closing) return;
    closing = true;
    if (running.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>((r) => (timer = setTimeout(r, SHUTDOWN_WAIT_MS)));
      await Promise.race([Promise.allSettled([...running]), limit]);
      clearTimeout(timer);
    }
    // A store never begun is not opened just to be closed.
    const opened = 'ready' in cairn ? (started() ? await cairn.ready.catch(() => null) : null) : cairn;
    await opened?.close().catch((err) => process.stderr.write(`cairn: close: ${errorMessage(err)}\n`));
    process.exit(code);
  };
  transport.onclose = () => void shutdown(0);
  process.stdin.on('end', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  beginAfterHandshake(server, cairn);
  await server.connect(transport);
}

/**
 * An opening that waits to be told (Opening.start), made idempotent, and whether it was told:
 * serveStdio closes a store only if its opening began.
 */
export function startingAfterHandshake(given: Cairn | Opening): { cairn: Cairn | Opening; started: () => boolean } {
  if (!('ready' in given) || given.start === undefined) return { cairn: given, started: () => true };
  let begun = false;
  const start = (): void => {
    if (begun) return;
    begun = true;
    given.start!();
  };
  return { cairn: { ...given, start }, started: () => begun };
}

/**
 * Begins the opening once the handshake is through: AFTER_HANDSHAKE_MS after
 * `notifications/initialized`, or START_FALLBACK_MS after this call, whichever comes first (a
 * tool call begins it at once: createServer). Call before connecting the transport.
 */
export function beginAfterHandshake(server: Server, cairn: Cairn | Opening): void {
  if (!('ready' in cairn) || cairn.start === undefined) return;
  const start = cairn.start;
  server.oninitialized = () => void setTimeout(start, AFTER_HANDSHAKE_MS);
  setTimeout(start, START_FALLBACK_MS).unref();
}
