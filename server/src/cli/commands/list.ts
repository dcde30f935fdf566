import { ALL_HELP, type Command, JSON_OPTION, intOption, openCairn, parse, printJson } from '../io.ts';
import { listLine } from '../format.ts';
import { progress } from '../progress.ts';

const options = {
  scope: { type: 'string', multiple: true, arg: 'S', help: 'only memories with this scope (or a scope under it; globs like projects:* work)' },
  limit: { type: 'string', arg: 'N', help: 'at most N memories (1-200, default 50)' },
  all: { type: 'boolean', help: `${ALL_HELP} (ignores --limit)` },
  json: JSON_OPTION,
} as const;

export const list: Command = {
  name: 'list',
  summary: 'list memories, newest first',
  usage: 'cairn list [--scope S]... [--limit N] [--all] [--json]',
  options,
  async run(argv, io) {
    const { values } = parse(argv, options, false);
    const limit = values.all ? 200 : (intOption(values.limit, '--limit', 1, 200) ?? 50);
    const shown = progress(io);
    const c = await openCairn(io, shown);
    try {
      const scopes = values.scope ?? [];
      if (values.all) {
        // Streamed page by page: one freshness check and one event for the whole store. Written
        // to a terminal, the lines are their own progress; written elsewhere, a count on stderr.
        const listing = io.isTTY ? undefined : shown;
        let n = 0;
        if (values.json) io.out('{\n  "items": [');
        await c.listEach({ scopes, limit: 200 }, (items, done, total) => {
          listing?.('listing', done, total);
          if (values.json) io.out(items.map((it) => `${n++ === 0 ? '' : ','}\n${JSON.stringify(it, null, 2).replace(/^/gm, '    ')}`).join(''));
          else {
            n += items.length;
            io.out(items.map(listLine).join(''));
          }
        });
        if (values.json) io.out(n === 0 ? ']\n}\n' : '\n  ]\n}\n');
        else if (n === 0) io.out('no memories\n');
        return 0;
      }
      const page = await c.list({ scopes, limit });
      if (page.next_cursor && !values.json) io.err(`cairn: more memories: use --all or --limit\n`);
      if (values.json) printJson(io, { items: page.items });
      else if (page.items.length === 0) io.out('no memories\n');
      else io.out(page.items.map(listLine).join(''));
      return 0;
    } finally {
      await c.close();
    }
  },
};
