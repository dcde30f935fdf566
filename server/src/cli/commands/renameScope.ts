// `cairn rename-scope OLD NEW`: memory_rename_scope — OLD and every scope nested under it
// (OLD:x becomes NEW:x) across active memories, and tombstones only when asked.
import { type Command, JSON_OPTION, UsageError, asCli, openCairn, parse, printJson } from '../io.ts';
import { WRITE_WORDS, plural } from '../writeText.ts';

const options = {
  'include-tombstones': { type: 'boolean', help: 'rename the scope in removed memories too (default: active memories only)' },
  json: JSON_OPTION,
} as const;

export const renameScope: Command = {
  name: 'rename-scope',
  summary: 'rename a scope (and the scopes nested under it) in every memory that has it',
  usage: 'cairn rename-scope OLD NEW [--include-tombstones] [--json]',
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    if (positionals.length !== 2) throw new UsageError('give the old and the new scope: cairn rename-scope projects:old-name projects:new-name');
    const [from, to] = positionals as [string, string];
    if (from === to) throw new UsageError(`OLD and NEW are both "${from}": give a different new scope`);
    const c = await openCairn(io);
    try {
      const out = await asCli(WRITE_WORDS, () => c.renameScope({ old_scope: from, new_scope: to, include_tombstones: Boolean(values['include-tombstones']) }));
      if (values.json) printJson(io, out);
      else {
        const tombs = values['include-tombstones'] ? ` and ${plural(out.tombstoned.length, 'removed memory', 'removed memories')}` : '';
        io.out(`renamed ${from} to ${to} in ${plural(out.active.length, 'memory', 'memories')}${tombs}\n`);
      }
      return 0;
    } finally {
      await c.close();
    }
  },
};
