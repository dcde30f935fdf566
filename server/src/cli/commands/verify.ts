// `cairn verify ID`: memory_verify — you checked the memory against reality and it still holds.
import { type Command, JSON_OPTION, UsageError, asCli, openCairn, parse, printJson } from '../io.ts';
import { WRITE_WORDS } from '../writeText.ts';

const options = {
  note: { type: 'string', arg: 'TEXT', help: 'what you checked (kept in the event log)' },
  json: JSON_OPTION,
} as const;

export const verify: Command = {
  name: 'verify',
  summary: 'mark a memory as checked and still true (resets its staleness; does not change updated)',
  usage: 'cairn verify ID [--note TEXT] [--json]',
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    if (positionals.length !== 1) throw new UsageError('give exactly one memory id: cairn verify ID [--note "checked the path exists"]');
    const c = await openCairn(io);
    try {
      const out = await asCli(WRITE_WORDS, () => c.verify({ id: positionals[0]!, ...(values.note !== undefined ? { note: values.note } : {}) }));
      if (values.json) printJson(io, out);
      else io.out(`verified ${out.verified} at ${out.last_verified_at}\n`);
      return 0;
    } finally {
      await c.close();
    }
  },
};
