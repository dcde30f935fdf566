// The `cairn` command line: no arguments or `serve` runs the stdio MCP server; otherwise a
// subcommand. Exit codes: 0 ok, 1 the command failed, 2 usage error.
import { CairnError, errorMessage } from '../core/errors.ts';
import { VERSION } from './version.ts';
import { commands } from './commands/index.ts';
import { type CliIO, UsageError, commandHelp, processIO } from './io.ts';

function help(io: CliIO): void {
  const width = Math.max(...commands.map((c) => c.name.length), 5);
  io.out(
    [
      `cairn ${VERSION}: persistent memory for Claude Code and any MCP client`,
      '',
      'usage: cairn                  run the MCP server on stdio (what MCP clients start)',
      '       cairn <command> [options]',
      '',
      'commands:',
      ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
      '',
      'cairn <command> --help shows a command\'s options; --json prints any result as JSON.',
      'Exit codes: 0 done, 1 the command failed (nothing stored, not found, ...), 2 usage error.',
      'The store is $CAIRN_DIR, else storage.directory in config.toml, else the nearest .cairn/',
      'from here up to the repo root, else ~/.cairn (cairn doctor says which and why).',
      '',
    ].join('\n'),
  );
}

export async function runCli(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [first = 'serve', ...rest] = argv;
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
    io.out(commandHelp(cmd));
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
