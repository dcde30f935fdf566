import { type Command, intOption, openCairn, parse, printJson } from '../io.ts';
import { listLine } from '../format.ts';

export const list: Command = {
  name: 'list',
  summary: 'list memories, newest first',
  usage: 'cairn list [--scope S]... [--limit N] [--all] [--json]',
  async run(argv, io) {
    const { values } = parse(argv, {
      scope: { type: 'string', multiple: true },
      limit: { type: 'string' },
      all: { type: 'boolean' },
      json: { type: 'boolean' },
    }, false);
    const limit = intOption(values.limit, '--limit', 1, 200) ?? 50;
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
