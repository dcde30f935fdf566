// What a CLI command gets: writers for stdout/stderr, whether stdout is a terminal, env and cwd.
// Commands return an exit code; only main.ts calls process.exit.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Cairn } from '../core/cairn.ts';
import { type Progress, progress } from './progress.ts';
import { ValidationError } from '../core/errors.ts';

export interface CliIO {
  out: (s: string) => void;
  err: (s: string) => void;
  isTTY: boolean;
  /** Whether stderr is a terminal (progress lines go there); absent: no. */
  errIsTTY?: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Asks the person at the terminal one question and returns the line they typed (null at end
   * of input). Absent when stdin or stdout is not a terminal: nobody is there to answer.
   */
  ask?: (question: string) => Promise<string | null>;
  /** All of stdin as text (for a TEXT argument of "-"). */
  readStdin?: () => Promise<string>;
}

/** One option of a command: how node:util parseArgs reads it, and its line in --help. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** The placeholder shown after a string option (--scope S). */
  arg?: string;
  /** One line: what the option does. */
  help: string;
}
export type Options = Record<string, OptionSpec>;

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Every option the command accepts (--help lists them, one line each; -h/--help is implied). */
  options: Options;
  run: (argv: string[], io: CliIO) => Promise<number>;
}

/** `--json` means the same on every command. */
export const JSON_OPTION = { type: 'boolean', help: 'print the result as JSON (the same object the MCP tool returns, where there is one)' } as const satisfies OptionSpec;
/** `--all` means the same on every command that takes it: the whole store, no narrowing, no paging. */
export const ALL_HELP = 'the whole store: every repo and every page, not only what is in view from this project';

/** The --help text of a command: usage, summary, then its options one per line. */
export function commandHelp(cmd: Command): string {
  const rows: Array<[string, string]> = Object.entries(cmd.options).map(([name, o]) => [
    `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.arg ?? 'VALUE'}` : ''}${o.multiple ? ' (repeatable)' : ''}`,
    o.help,
  ]);
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([l]) => l.length));
  return `usage: ${cmd.usage}\n\n${cmd.summary}\n\noptions:\n${rows.map(([l, h]) => `  ${l.padEnd(width)}  ${h}`).join('\n')}\n`;
}

export class UsageError extends Error {
  override name = 'UsageError' as const;
}

function askTerminal(question: string): Promise<string | null> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    let answered = false;
    rl.question(question, (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.on('close', () => {
      if (!answered) resolve(null);
    });
  });
}

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function processIO(): CliIO {
  const tty = Boolean(process.stdout.isTTY);
  return {
    out: (s) => void process.stdout.write(s),
    err: (s) => void process.stderr.write(s),
    isTTY: tty,
    errIsTTY: Boolean(process.stderr.isTTY),
    env: process.env,
    cwd: process.cwd(),
    ...(tty && process.stdin.isTTY ? { ask: askTerminal } : {}),
    readStdin: readAllStdin,
  };
}

type ParseOptions = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;

/**
 * node:util parseArgs with errors turned into UsageError (exit 2, one clear line). The option
 * table is the command's own (cmd.options), so --help and the parser can never disagree.
 */
export function parse<T extends ParseOptions>(argv: string[], options: T, allowPositionals = true) {
  const plain = Object.fromEntries(
    Object.entries(options).map(([k, o]) => [k, { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) }]),
  ) as { [K in keyof T]: { type: T[K]['type']; multiple: T[K]['multiple'] extends true ? true : false; short?: string } };
  try {
    return parseArgs({ args: argv, options: plain, allowPositionals, strict: true });
  } catch (err) {
    const msg = (err as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    const known = Object.keys(options).map((k) => `--${k}`);
    throw new UsageError(/^Unknown option/.test(msg) ? `${msg}; this command takes ${known.length ? known.join(', ') : 'no options'}` : msg);
  }
}

/**
 * Runs a core call whose argument errors name MCP arguments (content, scopes[0], ...), and says
 * them in this command's words (TEXT, --scope, ...): a bad argument is a usage error (exit 2).
 */
export async function asCli<T>(words: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const names = Object.keys(words).sort((a, b) => b.length - a.length).map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const re = new RegExp(`(^|; )(${names.join('|')})(\\[\\d+\\])?(?=[\\s"]|$)`, 'g');
    if (names.length === 0) throw new UsageError(err.message);
    // "pass acknowledge_transient=true" names a flag: the option that sets it.
    const flag = new RegExp(`\\b(${names.join('|')})=true\\b`, 'g');
    throw new UsageError(err.message.replace(re, (_m, pre: string, name: string) => `${pre}${words[name]}`).replace(flag, (_m, name: string) => words[name]!));
  }
}

/**
 * Opens the store the way the server would, without the index watcher (one-shot commands). A
 * person runs the CLI: its lookups are logged as the user's, never as the model's retrievals.
 */
export function openCairn(io: CliIO, report: Progress | undefined = progress(io)): Promise<Cairn> {
  // oneShot 'once': the load is the command's one check of the files (a command is short; a
  // re-listing of the store before each read made `list --all` stat every file once per page).
  // `report`: the command's progress line, when it has more phases of its own to show on it.
  return Cairn.open({ env: io.env, cwd: io.cwd, watch: false, oneShot: 'once', actor: 'user', warn: (m) => io.err(`cairn: ${m}\n`), ...(report ? { progress: report } : {}) });
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
