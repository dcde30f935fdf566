// `cairn migrate-origin --from URL --to URL [--apply] [--json]`: re-home memories when a repo's
// remote changed (renamed, moved to another host, forked). A dry run unless --apply; each file is
// rewritten atomically under the store lock with one `migrate_origin` event (core/ops/curation.ts).
import { type Command, JSON_OPTION, UsageError, openCairn, parse, printJson } from '../io.ts';
import { plural } from '../writeText.ts';

const options = {
  from: { type: 'string', arg: 'URL', help: '(required) the remote URL the memories were written under' },
  to: { type: 'string', arg: 'URL', help: '(required) the remote URL they belong to now' },
  apply: { type: 'boolean', help: 'rewrite the files (default: a dry run that lists them)' },
  json: JSON_OPTION,
} as const;

export const migrateOrigin: Command = {
  name: 'migrate-origin',
  summary: 'move memories from an old remote URL to a new one (dry run unless --apply)',
  usage: 'cairn migrate-origin --from URL --to URL [--apply] [--json]',
  options,
  async run(argv, io) {
    const { values } = parse(argv, options, false);
    if (values.from === undefined) throw new UsageError('--from URL is required: the remote URL the memories were written under (cairn health lists origins that match no remote)');
    if (values.to === undefined) throw new UsageError('--to URL is required: the remote URL they belong to now');
    const c = await openCairn(io);
    try {
      const r = await c.migrateOrigin({ from: values.from, to: values.to, apply: Boolean(values.apply) });
      if (values.json) {
        printJson(io, r);
        return 0;
      }
      const n = r.active.length + r.tombstoned.length;
      const what = `${plural(n, 'file')} (${plural(r.active.length, 'memory', 'memories')}, ${plural(r.tombstoned.length, 'tombstone')})`;
      if (n === 0) io.out(`every memory of ${r.from} already has origin ${r.to}: nothing to do\n`);
      else if (r.applied) io.out(`moved ${what} from ${r.from} to ${r.to}\n`);
      else io.out(`would move ${what} from ${r.from} to ${r.to} (dry run: nothing changed; add --apply)\n`);
      for (const id of [...r.active, ...r.tombstoned.map((t) => `${t} (tombstone)`)]) io.out(`  ${id}\n`);
      return 0;
    } finally {
      await c.close();
    }
  },
};
