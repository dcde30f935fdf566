// `cairn remove ID --reason R`: memory_remove — a tombstone with a reason, restorable with
// `cairn restore`, that also stops the same fact from being written again unnoticed.
import { type Command, JSON_OPTION, UsageError, asCli, openCairn, parse, printJson } from '../io.ts';
import { WRITE_WORDS } from '../writeText.ts';

const options = {
  reason: { type: 'string', arg: 'R', help: 'why it is wrong or no longer wanted (required; shown when the fact comes back)' },
  json: JSON_OPTION,
} as const;

export const remove: Command = {
  name: 'remove',
  summary: 'remove a memory, with a reason (a tombstone: cairn restore brings it back)',
  usage: 'cairn remove ID --reason R [--json]',
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    if (positionals.length !== 1) throw new UsageError('give exactly one memory id: cairn remove ID --reason "we moved to pnpm"');
    if (values.reason === undefined || values.reason.trim() === '') throw new UsageError('--reason R is required: say why, e.g. --reason "we moved to pnpm"');
    const c = await openCairn(io);
    try {
      const out = await asCli(WRITE_WORDS, () => c.remove({ id: positionals[0]!, reason: values.reason! }));
      if (values.json) printJson(io, out);
      else io.out(`removed ${out.removed} (cairn restore ${out.removed} brings it back)\n`);
      return 0;
    } finally {
      await c.close();
    }
  },
};
