// What a CLI command gets: writers for stdout/stderr, whether stdout is a terminal, env and cwd.
// Commands return an exit code; only main.ts calls process.exit.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { Cairn } from '../core/cairn.ts';

export interface CliIO {
  out: (s: string) => void;
  err: (s: string) => void;
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run: (argv: string[], io: CliIO) => Promise<number>;
}

export class UsageError extends Error {
  override name = 'UsageError' as const;
}

export function processIO(): CliIO {
  return {
    out: (s) => void process.stdout.write(s),
    err: (s) => void process.stderr.write(s),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
    cwd: process.cwd(),
  };
}

/** node:util parseArgs with errors turned into UsageError (exit 2, one clear line). */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/**
 * Opens the store the way the server would, without the index watcher (one-shot commands). A
 * person runs the CLI: its lookups are logged as the user's, never as the model's retrievals.
 */
export function openCairn(io: CliIO): Promise<Cairn> {
  return Cairn.open({ env: io.env, cwd: io.cwd, watch: false, actor: 'user', warn: (m) => io.err(`cairn: ${m}\n`) });
}

export function printJson(io: CliIO, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

export function intOption(v: string | undefined, name: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return n;
}
