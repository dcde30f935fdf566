// The `cairn` command line: no arguments or `serve` runs the stdio MCP server; otherwise a
// subcommand. Exit codes: 0 ok, 1 the command failed, 2 usage error.
import { CairnError, errorMessage } from '../core/errors.ts';
import { Cairn } from '../core/cairn.ts';
import { serveStdio, VERSION } from '../mcp/server.ts';
import { commands } from './commands/index.ts';
import { type CliIO, UsageError, processIO } from './io.ts';

function help(io: CliIO): void {
  const width = Math.max(...commands.map((c) => c.name.length), 5);
  io.out(
    [
      `cairn ${VERSION}: persistent memory for Claude Code and any MCP client`,
      '',
      'usage: cairn [serve]          run the MCP server on stdio (what MCP clients start)',
      '       cairn <command> [options]',
      '',
      'commands:',
      ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
      '',
      'cairn <command> --help shows a command\'s options. The store is $CAIRN_DIR, else',
      'storage.directory in config.toml, else the nearest .cairn/ from here up to the repo root,',
      'else ~/.cairn (cairn doctor says which and why).',
      '',
    ].join('\n'),
  );
}

export async function runCli(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === 'serve') {
    if (rest.length) {
      io.err(`cairn: serve takes no arguments, got ${rest.join(' ')}\n`);
      return 2;
    }
    const cairn = await Cairn.open({ env: io.env, cwd: io.cwd });
    await serveStdio(cairn);
    return -1; // keeps running
  }
  if (first === '--version' || first === '-v' || first === 'version') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    help(io);
    return 0;
  }
  const cmd = commands.find((c) => c.name === first);
  if (!cmd) {
    io.err(`cairn: unknown command ${JSON.stringify(first)}; commands: ${commands.map((c) => c.name).join(', ')} (cairn --help)\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`usage: ${cmd.usage}\n\n${cmd.summary}\n`);
    return 0;
  }
  try {
    return await cmd.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`cairn ${cmd.name}: ${err.message}\nusage: ${cmd.usage}\n`);
      return 2;
    }
    io.err(`cairn ${cmd.name}: ${errorMessage(err)}\n`);
    if (!(err instanceof CairnError)) io.err(`${(err as Error).stack ?? ''}\n`);
    return 1;
  }
}
