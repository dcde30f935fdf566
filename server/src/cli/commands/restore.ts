// `cairn restore ID`: memory_restore — bring a removed memory back as it was.
import { type Command, JSON_OPTION, UsageError, asCli, openCairn, parse, printJson } from '../io.ts';
import { WRITE_WORDS, committedLine } from '../writeText.ts';

const options = { json: JSON_OPTION } as const;

export const restore: Command = {
  name: 'restore',
  summary: 'bring a removed memory back (cairn tombstones list shows them)',
  usage: 'cairn restore ID [--json]',
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    if (positionals.length !== 1) throw new UsageError('give exactly one removed memory id: cairn restore ID (cairn tombstones list shows them)');
    const c = await openCairn(io);
    try {
      const out = await asCli(WRITE_WORDS, () => c.restore({ id: positionals[0]! }));
      if (values.json) printJson(io, out);
      else io.out(committedLine('restored', out));
      return 0;
    } finally {
      await c.close();
    }
  },
};
