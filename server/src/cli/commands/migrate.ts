// `cairn migrate origin [--repo URL] [--scope-repo SCOPE=URL]... [--apply] [--json]`: fill in the
// origin of memories written before origins existed (core/ops/originBackfill.ts). A dry run that
// lists what it would set unless --apply. (Moving memories from one remote URL to another after a
// rename is `cairn migrate-origin --from --to`.)
import { type Command, JSON_OPTION, UsageError, openCairn, parse, printJson } from '../io.ts';
import { plural } from '../writeText.ts';

const options = {
  repo: { type: 'string', arg: 'URL', help: 'the repository every memory without an origin belongs to' },
  'scope-repo': { type: 'string', multiple: true, arg: 'SCOPE=URL', help: 'a memory with SCOPE (or a scope under it) belongs to URL; repeatable, the first match wins, before --repo' },
  apply: { type: 'boolean', help: 'rewrite the files (default: a dry run that lists them)' },
  json: JSON_OPTION,
} as const;

export const migrate: Command = {
  name: 'migrate',
  summary: 'migrate origin: fill in the origin of memories written before origins existed (dry run unless --apply)',
  usage: 'cairn migrate origin [--repo URL] [--scope-repo SCOPE=URL]... [--apply] [--json]',
  options,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'origin') throw new UsageError(sub === undefined ? 'give a subcommand: origin' : `unknown subcommand ${JSON.stringify(sub)}: use origin (to move memories between remote URLs: cairn migrate-origin --from URL --to URL)`);
    const { values } = parse(rest, options, false);
    const c = await openCairn(io);
    try {
      const r = await c.backfillOrigin({
        ...(values.repo !== undefined ? { repo: values.repo } : {}),
        ...(values['scope-repo'] !== undefined ? { scope_repos: values['scope-repo'] } : {}),
        apply: Boolean(values.apply),
      });
      if (values.json) {
        printJson(io, r);
        return 0;
      }
      const n = r.placed.length;
      if (n === 0 && r.left.length === 0) io.out('every memory has an origin: nothing to do\n');
      else if (n > 0) io.out(`${r.applied ? 'set' : 'would set'} the origin of ${plural(n, 'memory', 'memories')}${r.applied ? '' : ' (dry run: nothing changed; add --apply)'}\n`);
      for (const p of r.placed) io.out(`  ${p.id}  ${p.repo ?? p.worktree_root}  (${p.via})\n`);
      if (r.left.length > 0) {
        io.out(`${plural(r.left.length, 'memory', 'memories')} without an origin left alone: this store is not a repository's .cairn/, so give --repo URL or --scope-repo SCOPE=URL\n`);
        for (const id of r.left) io.out(`  ${id}\n`);
      }
      return 0;
    } finally {
      await c.close();
    }
  },
};
