// `cairn serve` (or `cairn` alone): the stdio MCP server, what MCP clients start.
import { Cairn } from '../../core/cairn.ts';
import { type Command, UsageError, parse } from '../io.ts';

const options = {} as const;

export const serve: Command = {
  name: 'serve',
  summary: 'run the MCP server on stdio (what MCP clients start; the same as cairn with no arguments)',
  usage: 'cairn serve',
  options,
  async run(argv, io) {
    const { positionals } = parse(argv, options);
    if (positionals.length) throw new UsageError(`serve takes no arguments, got ${positionals.join(' ')}`);
    // The config is read first (a bad config.toml fails here, before any client is answered);
    // the store then opens while the server already answers initialize and tools/list.
    const { config } = Cairn.locate({ env: io.env, cwd: io.cwd });
    // It begins once the client's handshake is through (serveStdio calls start).
    let start!: () => void;
    const ready = new Promise<void>((r) => (start = r)).then(() => Cairn.open({ env: io.env, cwd: io.cwd, autoSync: true }));
    ready.catch((err) => io.err(`cairn: cannot open the store: ${(err as Error).message}\n`));
    // The MCP server (its SDK and every tool's schema) is loaded only by the command that serves.
    const { serveStdio } = await import('../../mcp/server.ts');
    await serveStdio({ ready, memoryTool: config.memory_tool.enabled, start });
    return -1; // keeps running
  },
};
