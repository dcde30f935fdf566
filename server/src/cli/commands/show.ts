import { type Command, JSON_OPTION, UsageError, openCairn, parse, printJson } from '../io.ts';

const options = { json: JSON_OPTION } as const;
import { recordText } from '../format.ts';

export const show: Command = {
  name: 'show',
  summary: 'print one memory (or several) in full',
  usage: 'cairn show ID [ID...] [--json]',
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    if (positionals.length === 0) throw new UsageError('give at least one memory id: cairn show ID');
    const c = await openCairn(io);
    try {
      const res = positionals.length === 1 ? await c.show({ id: positionals[0]! }) : await c.show({ ids: positionals });
      if (values.json) printJson(io, positionals.length === 1 ? res.memories[0] : res);
      else {
        io.out(res.memories.map((m) => recordText(m as never)).join('\n---\n\n'));
        for (const m of res.missing) io.err(`cairn: ${m.reason}\n`);
      }
      return res.missing.length ? 1 : 0;
    } finally {
      await c.close();
    }
  },
};
