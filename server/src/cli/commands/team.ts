// `cairn team init` and `cairn team status` (README "Team memory"): the team store of the
// repository the command runs in, `.cairn/` at its git root, committed with the code.
import { type Command, JSON_OPTION, UsageError, openCairn, parse, printJson } from '../io.ts';
import { driverCommand } from './sync.ts';

const options = { json: JSON_OPTION } as const;

export const team: Command = {
  name: 'team',
  summary: 'the team store of this repository (.cairn/, shared through git): init creates it, status says what is in it',
  usage: 'cairn team init [--json]\n       cairn team status [--json]',
  options,
  async run(argv, io) {
    const sub = argv[0];
    if (sub !== 'init' && sub !== 'status') throw new UsageError(`give a subcommand: cairn team init (create .cairn/ in this repository) or cairn team status${sub === undefined ? '' : `, got ${JSON.stringify(sub)}`}`);
    const { values } = parse(argv.slice(1), options, false);
    const c = await openCairn(io);
    try {
      if (sub === 'init') {
        const r = await c.teamInit({ driver: driverCommand() });
        if (values.json) printJson(io, r);
        else {
          io.out(
            [
              `${r.created ? 'created' : 'completed'} the team store ${r.dir} for the repository ${r.repo_root}`,
              ...(r.files.length ? r.files.map((f) => `  wrote ${f}`) : ['  nothing to add: it was complete']),
              'team.toml marks it; .gitignore keeps caches, the event log and pending writes on each machine.',
              `merge driver registered in this clone (.cairn/.gitattributes, .git/config): two teammates' edits of one memory merge field by field; each teammate runs cairn team init once`,
              'write to it with: cairn remember --team TEXT --scope S   (or memory_write with store: "team")',
              'then commit .cairn/ with the code: git add .cairn && git commit -m "cairn team store"',
              '',
            ].join('\n'),
          );
        }
        return 0;
      }
      const s = c.teamStatus();
      if (values.json) printJson(io, s);
      else if (!s.enabled) io.out('team stores are turned off ([team] enabled = false in config.toml)\n');
      else if (s.repo_root === null) io.out('not inside a git repository: no team store\n');
      else if (!s.open) io.out(`the repository ${s.repo_root} has no team store: cairn team init creates .cairn/\n`);
      else io.out(`team store: ${s.dir}\nactive:     ${s.active}\nremoved:    ${s.tombstoned}\n`);
      return 0;
    } finally {
      await c.close();
    }
  },
};
