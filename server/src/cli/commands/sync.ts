// `cairn sync init [--remote URL]`, `cairn sync`, `cairn sync --status` (README "Sync"), and
// `cairn merge-driver`, which git runs for a memory file both sides changed in a plain `git pull`.
import { resolve } from 'node:path';
import { Cairn } from '../../core/cairn.ts';
import { type CliIO, type Command, JSON_OPTION, UsageError, openCairn, parse, printJson } from '../io.ts';

const initOptions = {
  remote: { type: 'string', arg: 'URL', help: '(init) the remote to sync with (any git URL or path; credentials in it are never printed)' },
  json: JSON_OPTION,
} as const;
const syncOptions = {
  status: { type: 'boolean', help: 'say what is ahead/behind, when the last sync was and how many files changed since; syncs nothing' },
  json: JSON_OPTION,
} as const;

type Report = Awaited<ReturnType<Cairn['sync']>>;
type Status = Awaited<ReturnType<Cairn['syncStatus']>>;

/** The command git runs as the merge driver: this node and this bundle, by absolute path. */
export function driverCommand(): string[] {
  return [process.execPath, resolve(process.argv[1] ?? 'cairn')];
}

function printReport(io: CliIO, r: Report): void {
  const lines: string[] = [];
  const c = r.committed;
  if (c) {
    const parts = (['added', 'updated', 'removed', 'restored', 'purged'] as const).filter((k) => c[k].length).map((k) => `${c[k].length} ${k}`);
    if (c.files.length) parts.push(`${c.files.length} other file(s)`);
    lines.push(`committed: ${parts.join(', ')}`);
  } else lines.push('committed: nothing new');
  if (r.merge === 'fast-forward' || r.merge === 'merge') lines.push(`pulled: ${r.incoming} change(s) (${r.merge})`);
  else if (r.merge === 'up-to-date') lines.push('pulled: nothing new');
  for (const k of r.conflicts) lines.push(`conflict: ${k.id} (${k.kind === 'body' ? 'two different texts: the newer is kept' : 'removed on one side, edited on the other: stays removed, the tombstone keeps the edited text'}); both texts in ${k.file}`);
  for (const a of r.renames_applied ?? []) lines.push(`scope rename from another machine: ${a.old_scope} -> ${a.new_scope} applied to ${a.ids.length} memory(ies) written here`);
  for (const f of r.file_conflicts) lines.push(`conflict: ${f} changed on both sides; yours kept, theirs saved under .conflicts/files/`);
  if (r.pushed) lines.push(`pushed to ${r.remote} (${r.branch})`);
  if (r.ok) lines.push(r.ahead || r.behind ? `ahead ${r.ahead}, behind ${r.behind}` : 'in sync');
  else lines.push(`sync failed: ${r.error}`);
  io.out(`${lines.join('\n')}\n`);
}

function printStatus(io: CliIO, s: Status): void {
  if (!s.repo) {
    io.out(`the store ${s.store} is not set up for sync: run cairn sync init [--remote URL]\n`);
    return;
  }
  const lines = [
    `store:      ${s.store}`,
    `remote:     ${s.remote ?? '(none: cairn sync init --remote URL)'}${s.branch ? ` (${s.branch})` : ''}`,
    `ahead:      ${s.ahead} commit(s) not pushed (as of the last fetch)`,
    `behind:     ${s.behind} commit(s) not merged (as of the last fetch)`,
    `changed:    ${s.dirty} file(s) since the last sync`,
    `last sync:  ${s.last_sync ?? 'never'}`,
    ...(s.last_error ? [`last error: ${s.last_error} (${s.last_attempt})`] : []),
    `auto sync:  ${s.auto ? 'on' : 'off'} ([sync] auto in config.toml)`,
    `conflicts:  ${s.conflicts}${s.conflicts ? ' (cairn health lists them; delete a file in .conflicts/ once resolved)' : ''}`,
  ];
  io.out(`${lines.join('\n')}\n`);
}

export const sync: Command = {
  name: 'sync',
  summary: 'sync the store through git: commit, pull (merged by cairn), push; init sets it up',
  usage: 'cairn sync [--json]\n       cairn sync --status [--json]\n       cairn sync init [--remote URL] [--json]',
  options: { ...syncOptions, ...initOptions },
  async run(argv, io) {
    if (argv[0] === 'init') {
      const { values } = parse(argv.slice(1), initOptions, false);
      const c = await openCairn(io);
      try {
        const r = await c.syncInit({ ...(values.remote !== undefined ? { remote: values.remote } : {}), driver: driverCommand() });
        if (values.json) printJson(io, r);
        else {
          io.out(
            [
              `${r.created_repo ? 'made' : 'adopted'} ${r.store} as a git repository (branch ${r.branch})`,
              `remote: ${r.remote ?? '(none yet: cairn sync init --remote URL)'}`,
              `.gitignore ${r.gitignore_updated ? 'written' : 'already complete'}: caches, the event log and pending writes stay on this machine`,
              `merge driver registered (.gitattributes, .git/config): a plain git pull in the store merges memories the way cairn sync does`,
              'next: cairn sync',
              '',
            ].join('\n'),
          );
        }
        return 0;
      } finally {
        await c.close();
      }
    }
    const { values, positionals } = parse(argv, syncOptions, true);
    if (positionals.length) throw new UsageError(`unknown argument ${JSON.stringify(positionals[0])}: use cairn sync, cairn sync --status or cairn sync init`);
    const c = await openCairn(io);
    try {
      if (values.status) {
        const s = await c.syncStatus();
        if (values.json) printJson(io, s);
        else printStatus(io, s);
        return 0;
      }
      const r = await c.sync();
      if (values.json) printJson(io, r);
      else printReport(io, r);
      return r.ok ? 0 : 1;
    } finally {
      await c.close();
    }
  },
};

export const mergeDriver: Command = {
  name: 'merge-driver',
  summary: 'git merge driver for memory files (set up by cairn sync init; git runs it)',
  usage: 'cairn merge-driver BASE OURS THEIRS [PATH]',
  options: { json: JSON_OPTION },
  async run(argv, io) {
    const { values, positionals } = parse(argv, { json: JSON_OPTION }, true);
    argv = positionals;
    if (argv.length < 3 || argv.length > 4) throw new UsageError('give the three files git passes (%O %A %B) and optionally the path (%P)');
    const [base, ours, theirs, path] = argv as [string, string, string, string | undefined];
    const r = await Cairn.mergeDriver({ base, ours, theirs, ...(path !== undefined ? { path } : {}) }, io.cwd);
    if (values.json) printJson(io, { merged: r.code === 0, note: r.note || null });
    else if (r.note) io.err(`${r.note}\n`);
    return r.code;
  },
};
