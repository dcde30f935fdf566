import { ALL_HELP, type Command, JSON_OPTION, intOption, openCairn, parse, printJson } from '../io.ts';

const options = {
  scope: { type: 'string', multiple: true, arg: 'S', help: 'only memories with this scope (or a scope under it; globs like projects:* work)' },
  limit: { type: 'string', arg: 'N', help: 'at most N memories (1-200, default 50)' },
  all: { type: 'boolean', help: `${ALL_HELP} (ignores --limit)` },
  json: JSON_OPTION,
} as const;
import { listLine } from '../format.ts';

export const list: Command = {
  name: 'list',
  summary: 'list memories, newest first',
  usage: 'cairn list [--scope S]... [--limit N] [--all] [--json]',
  options,
  async run(argv, io) {
    const { values } = parse(argv, options, false);
    const limit = values.all ? 200 : (intOption(values.limit, '--limit', 1, 200) ?? 50);
    const c = await openCairn(io);
    try {
      const items = [];
      let cursor: string | undefined;
      do {
        const page = await c.list({ scopes: values.scope ?? [], limit, ...(cursor ? { cursor } : {}) });
        items.push(...page.items);
        cursor = values.all ? (page.next_cursor ?? undefined) : undefined;
        if (!values.all && page.next_cursor && !values.json) io.err(`cairn: more memories: use --all or --limit\n`);
      } while (cursor);
      if (values.json) printJson(io, { items });
      else if (items.length === 0) io.out('no memories\n');
      else io.out(items.map(listLine).join(''));
      return 0;
    } finally {
      await c.close();
    }
  },
};
