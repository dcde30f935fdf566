// `cairn tombstones list` and `cairn tombstones prune`: prune is cairn's only hard delete, so it
// takes an explicit age and offers a dry run; everything else in cairn is a reversible tombstone.
import type { Cairn } from '../../core/cairn.ts';
import { type CliIO, type Command, JSON_OPTION, UsageError, intOption, openCairn, parse, printJson } from '../io.ts';
import { plural } from '../writeText.ts';

const listOptions = {
  scope: { type: 'string', multiple: true, arg: 'S', help: '(list) only removed memories with this scope (or a scope under it)' },
  json: JSON_OPTION,
} as const;
const pruneOptions = {
  'older-than': { type: 'string', arg: 'DAYS', help: '(prune) delete tombstones removed more than DAYS days ago (default: behavior.tombstone_retention_days, when set)' },
  'dry-run': { type: 'boolean', help: '(prune) show what would be deleted, delete nothing' },
  json: JSON_OPTION,
} as const;

async function allTombstones(c: Cairn, scopes: string[]) {
  const items = [];
  let cursor: string | undefined;
  do {
    const page = await c.listTombstones({ scopes, limit: 200, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return items;
}

async function list(argv: string[], io: CliIO): Promise<number> {
  const { values } = parse(argv, listOptions, false);
  const c = await openCairn(io);
  try {
    const items = await allTombstones(c, values.scope ?? []);
    if (values.json) printJson(io, { items });
    else if (items.length === 0) io.out('no tombstones\n');
    else {
      io.out(items.map((t) => `${t.id}  removed ${t.removed.slice(0, 10)}  [${t.scopes.join(', ')}]  reason: ${t.removed_reason}\n    ${t.summary}\n`).join(''));
    }
    return 0;
  } finally {
    await c.close();
  }
}

async function prune(argv: string[], io: CliIO): Promise<number> {
  const { values } = parse(argv, pruneOptions, false);
  const given = intOption(values['older-than'], '--older-than', 0, 36500);
  const c = await openCairn(io);
  try {
    // behavior.tombstone_retention_days (bettermemory's key, same meaning) gives the default; 0 means none.
    const retention = c.config.behavior.tombstone_retention_days;
    if (given === undefined && retention === 0) throw new UsageError('--older-than DAYS is required (or set behavior.tombstone_retention_days in config.toml): tombstones removed more than DAYS days ago are deleted for good');
    const days = given ?? retention;
    const out = await c.pruneTombstones({ older_than_days: days, dry_run: Boolean(values['dry-run']) });
    const rows = out.candidates;
    const pruned = out.pruned;
    if (values.json) printJson(io, out);
    else {
      const verb = values['dry-run'] ? 'would delete' : 'deleted';
      io.out(rows.map((r) => `${r.id}  removed ${r.removed.slice(0, 10)}  ${r.summary}\n`).join(''));
      io.out(`${verb} ${plural(values['dry-run'] ? rows.length : pruned.length, 'tombstone')} removed more than ${days} days ago${values['dry-run'] ? ' (dry run: nothing deleted)' : ''}\n`);
    }
    return 0;
  } finally {
    await c.close();
  }
}

export const tombstones: Command = {
  name: 'tombstones',
  summary: 'list removed memories, or prune old ones for good (the only hard delete)',
  usage: 'cairn tombstones list [--json] [--scope S]...\n       cairn tombstones prune [--older-than DAYS] [--dry-run] [--json]',
  options: { ...listOptions, ...pruneOptions },
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'list') return list(rest, io);
    if (sub === 'prune') return prune(rest, io);
    throw new UsageError(sub === undefined ? 'give a subcommand: list or prune' : `unknown subcommand ${JSON.stringify(sub)}: use list or prune`);
  },
};
