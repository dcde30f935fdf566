// `cairn search`: memory_search for people at a terminal (same core call, same hits).
import { ALL_HELP, type Command, JSON_OPTION, UsageError, intOption, openCairn, parse, printJson } from '../io.ts';
import { verdictWords } from '../format.ts';

const options = {
  scope: { type: 'string', multiple: true, arg: 'S', help: 'only memories with this scope (or a scope under it; globs like projects:* work)' },
  alt: { type: 'string', multiple: true, arg: 'TEXT', help: 'a rephrasing of the query, searched too' },
  limit: { type: 'string', arg: 'N', help: 'at most N hits (1-50)' },
  all: { type: 'boolean', help: ALL_HELP },
  'all-repos': { type: 'boolean', help: 'the same as --all (older name)' },
  json: JSON_OPTION,
} as const;

export const search: Command = {
  name: 'search',
  summary: 'search memories (the same ranking as memory_search)',
  usage: 'cairn search QUERY... [--alt TEXT]... [--scope S]... [--limit N] [--all] [--json]',
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    const query = positionals.join(' ').trim();
    if (query === '') throw new UsageError('give a query: cairn search "how do we deploy"');
    const max = intOption(values.limit, '--limit', 1, 50);
    const c = await openCairn(io);
    try {
      const res = await c.search({ query, ...(values.alt?.length ? { alternates: values.alt } : {}), scopes: values.scope ?? [], auto_scope: !(values.all || values['all-repos']), ...(max ? { max_results: max } : {}) });
      if (values.json) printJson(io, res);
      else if (res.hits.length === 0) io.out('no matching memories\n');
      else {
        io.out(res.hits.map((h) => {
          const verdict = h.staleness_verdict === 'fresh' ? '' : `  ${h.verification?.warning ? 'verified in the future: ' : ''}${verdictWords(h.staleness_verdict)}`;
          return `${h.id}  ${h.relevance.padEnd(6)}  [${h.scopes.join(', ')}]${h.store === 'team' ? '  (team)' : ''}${verdict}\n    ${h.snippet.replace(/\s+/g, ' ')}\n`;
        }).join(''));
      }
      return 0;
    } finally {
      await c.close();
    }
  },
};
