// `cairn confirm PENDING_ID` / `cairn cancel PENDING_ID`: memory_write_confirm and
// memory_write_cancel for a write left pending (cairn remember without a terminal, or a claim
// about you that the model proposed).
import { type Command, JSON_OPTION, UsageError, asCli, openCairn, parse, printJson } from '../io.ts';
import { WRITE_WORDS, committedLine } from '../writeText.ts';

const options = { json: JSON_OPTION } as const;

export const confirm: Command = {
  name: 'confirm',
  summary: 'store a pending write (you agree with it)',
  usage: 'cairn confirm PENDING_ID [--json]',
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    if (positionals.length !== 1) throw new UsageError('give exactly one pending id, as printed by cairn remember: cairn confirm PENDING_ID');
    const c = await openCairn(io);
    try {
      const out = await asCli(WRITE_WORDS, () => c.writeConfirm({ pending_id: positionals[0]! }));
      if (values.json) printJson(io, out);
      else io.out(committedLine('remembered', out));
      return 0;
    } finally {
      await c.close();
    }
  },
};

export const cancel: Command = {
  name: 'cancel',
  summary: 'discard a pending write (you do not agree with it)',
  usage: 'cairn cancel PENDING_ID [--json]',
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    if (positionals.length !== 1) throw new UsageError('give exactly one pending id, as printed by cairn remember: cairn cancel PENDING_ID');
    const c = await openCairn(io);
    try {
      const out = await asCli(WRITE_WORDS, () => c.writeCancel({ pending_id: positionals[0]! }));
      if (values.json) printJson(io, out);
      else io.out(out.existed ? `cancelled ${positionals[0]!}: nothing was stored\n` : `no pending write ${positionals[0]!} (already confirmed, cancelled or expired): nothing to cancel\n`);
      return 0;
    } finally {
      await c.close();
    }
  },
};
