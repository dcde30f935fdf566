// `cairn remember TEXT`: memory_write for a person at a terminal, through the same gates (secret,
// durability, duplicate, previously removed, pending). A pending write (a claim about the user,
// or every write with behavior.require_write_confirmation) is asked about on a terminal (y/N);
// without one, its pending id is printed with the commands that confirm or cancel it.
import type { Cairn } from '../../core/cairn.ts';
import { type CliIO, type Command, JSON_OPTION, UsageError, asCli, openCairn, parse, printJson } from '../io.ts';
import { WRITE_WORDS, committedLine, pendingText, readText, refusalText } from '../writeText.ts';

type Outcome = Awaited<ReturnType<Cairn['write']>> & Record<string, unknown>;

const options = {
  scope: { type: 'string', multiple: true, arg: 'S', help: 'a scope for the memory, like tools or projects:widgets (at least one)' },
  'user-claim': { type: 'boolean', help: 'a claim about you (category user-inference): it stays pending until you confirm it' },
  confidence: { type: 'string', arg: 'low|medium|high', help: 'how sure the fact is (default medium)' },
  expires: { type: 'string', arg: 'DATE', help: 'an ISO date (2027-01-31) after which the memory leaves search and list' },
  alias: { type: 'string', multiple: true, arg: 'A', help: 'another word a later search may use for it' },
  force: { type: 'boolean', help: 'store even when a near-duplicate exists or a similar memory was removed (never past the secret check)' },
  'acknowledge-transient': { type: 'boolean', help: 'store time-bound wording ("currently", "today") as written' },
  team: { type: 'boolean', help: 'store it in this repository\'s team store (.cairn/, shared through git; stricter secret check; no --user-claim)' },
  json: JSON_OPTION,
} as const;

/** Asks y/N on the terminal, then confirms or cancels the pending write. */
async function settleOnTerminal(c: Cairn, io: CliIO, out: Outcome): Promise<number> {
  io.err(pendingText(out, false));
  const answer = (await io.ask!('Store this memory? [y/N] '))?.trim().toLowerCase() ?? null;
  const id = String(out.pending_id);
  if (answer === 'y' || answer === 'yes') {
    const done = await c.writeConfirm({ pending_id: id });
    io.out(committedLine('remembered', done));
    return 0;
  }
  await c.writeCancel({ pending_id: id });
  io.out(`not stored: ${answer === null ? 'no answer' : 'you said no'}; pending write ${id} cancelled\n`);
  return 1;
}

export const remember: Command = {
  name: 'remember',
  summary: 'store a memory, through the same checks as memory_write (secrets, duplicates, time-bound wording, pending claims)',
  usage: 'cairn remember TEXT... --scope S [--scope S]... [--user-claim] [--confidence C] [--expires DATE] [--alias A]... [--force] [--acknowledge-transient] [--team] [--json]   (TEXT "-" reads stdin)',
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    const text = await readText(positionals, io, 'cairn remember "Deploys run from the release branch" --scope deployment');
    if (!values.scope?.length) throw new UsageError('give at least one --scope, like --scope tools or --scope projects:widgets (cairn overview --all lists the scopes in use)');
    const c = await openCairn(io);
    try {
      const out = (await asCli(WRITE_WORDS, () =>
        c.write({
          content: text,
          scopes: values.scope!,
          source: 'explicit-statement',
          ...(values['user-claim'] ? { category: 'user-inference' as const } : {}),
          ...(values.confidence !== undefined ? { confidence: values.confidence as 'medium' } : {}),
          ...(values.expires !== undefined ? { expires: values.expires } : {}),
          ...(values.alias?.length ? { aliases: values.alias } : {}),
          ...(values.force ? { force: true } : {}),
          ...(values['acknowledge-transient'] ? { acknowledge_transient: true } : {}),
          ...(values.team ? { store: 'team' as const } : {}),
        }),
      )) as Outcome;
      if (out.status === 'pending' && !values.json && io.ask) return await settleOnTerminal(c, io, out);
      if (values.json) printJson(io, out);
      else if (out.status === 'committed') io.out(committedLine('remembered', out));
      else if (out.status === 'pending') io.out(pendingText(out, true));
      else io.err(refusalText(out));
      return out.status === 'committed' || out.status === 'pending' ? 0 : 1;
    } finally {
      await c.close();
    }
  },
};
