// Entry point of the bundle: server/dist/cairn.mjs is both the MCP server and the `cairn` CLI.
import { runCli } from './cli/main.ts';

runCli(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`cairn: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
