// `cairn import FILE`: reads a cairn-export document and imports it idempotently by id, never
// overwriting a newer local `updated` (core/io/exportImport.ts). Long runs show progress on
// a terminal.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseExport, secretsIn } from '../../core/cairn.ts';
import { IMPORT_FORMATS, checkFormat } from '../../core/cairn.ts';
import type { Cairn } from '../../core/cairn.ts';
import { CairnError, errorMessage } from '../../core/errors.ts';
import { type CliIO, type Command, JSON_OPTION, UsageError, asCli, openCairn, parse, printJson } from '../io.ts';
import { plural } from '../writeText.ts';
import { progress } from '../progress.ts';

const options = {
  from: { type: 'string', arg: 'FORMAT', help: `import another tool's memories: ${IMPORT_FORMATS.join(', ')} (without it, FILE is a cairn export)` },
  apply: { type: 'boolean', help: 'with --from: write the memories (without it, a dry run that only reports)' },
  scope: { type: 'string', multiple: true, arg: 'S', help: 'with --from: put every imported memory in these scopes instead of the ones derived from the source' },
  force: { type: 'boolean', help: 'with --from: import near-duplicates and items like removed memories too (never past the secret check)' },
  'include-claude-md': { type: 'boolean', help: 'with --from claude-code: also import CLAUDE.md files (as instructions, scope "instructions")' },
  json: JSON_OPTION,
} as const;

function importProgress(io: CliIO): ((done: number, total: number) => void) | undefined {
  const report = progress(io);
  return report && ((done, total) => report('importing', done, total));
}

export const importCmd: Command = {
  name: 'import',
  summary: 'import a cairn export, or (--from) another tool\'s memories: a dry run report, then --apply',
  usage: `cairn import FILE [--json]\n       cairn import --from FORMAT PATH [--apply] [--scope S]... [--force] [--include-claude-md] [--json]   (FORMAT: ${IMPORT_FORMATS.join(', ')})`,
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    if (values.from !== undefined) return importFrom(io, values, positionals);
    for (const k of ['apply', 'scope', 'force', 'include-claude-md'] as const) {
      if (values[k] !== undefined) throw new UsageError(`--${k} goes with --from FORMAT (importing another tool's memories); a cairn export is imported as it is`);
    }
    if (positionals.length !== 1) throw new UsageError('give exactly one file made by cairn export (or --from FORMAT PATH for another tool\'s memories)');
    const file = resolve(io.cwd, positionals[0]!);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      // A file that is not there (or not readable) is a failed import (exit 1), not a usage error:
      // the command line was well formed.
      throw new CairnError(`cannot read ${file}: ${errorMessage(err)}`);
    }
    const doc = parseExport(text, file);
    const c = await openCairn(io);
    try {
      const report = await c.importStore(doc, importProgress(io));
      if (values.json) printJson(io, report);
      else {
        io.out(`imported ${file}: ${report.added} added, ${report.updated} updated, ${report.unchanged} unchanged, ` +
          `${report.kept_newer} kept (newer here)\n`);
      }
      const leaks = secretsIn([...doc.memories, ...doc.tombstones]);
      if (leaks.length) io.err(`cairn: warning: ${plural(leaks.length, 'imported memory looks like it holds a secret', 'imported memories look like they hold secrets')}: ${leaks.slice(0, 10).map((l) => l.id).join(', ')}\n`);
      return 0;
    } finally {
      await c.close();
    }
  },
};

type Report = Awaited<ReturnType<Cairn['importFrom']>>;
type Item = Report['items'][number];

const HEADINGS: Record<Item['status'], [string, string]> = {
  added: ['would add', 'added'],
  added_tombstone: ['would add as removed (removed in the source)', 'added as removed (removed in the source)'],
  already_imported: ['already imported (unchanged)', 'already imported (unchanged)'],
  changed_at_source: ['already imported, changed in the source since (kept as imported)', 'already imported, changed in the source since (kept as imported)'],
  removed_here: ['imported before and removed here since (not added back)', 'imported before and removed here since (not added back)'],
  duplicate: ['skipped, a near-duplicate', 'skipped, a near-duplicate'],
  previously_removed: ['skipped, like a memory removed before', 'skipped, like a memory removed before'],
  secret: ['refused, holds a secret (never stored)', 'refused, holds a secret (never stored)'],
  expired: ['skipped, expired in the source', 'skipped, expired in the source'],
  invalid: ['refused, not a valid memory', 'refused, not a valid memory'],
};

function itemDetail(it: Item): string {
  switch (it.status) {
    case 'added':
    case 'added_tombstone':
      return `${it.id ? `${it.id} ` : ''}[${(it.scopes ?? []).join(', ')}]`;
    case 'already_imported':
    case 'changed_at_source':
      return `as ${it.id}`;
    case 'removed_here':
      return `${it.id} (removed: ${JSON.stringify(it.reason ?? '')}; cairn restore ${it.id} brings it back)`;
    case 'duplicate':
      return it.duplicate_of_item ? `repeats ${it.duplicate_of_item}` : `like ${(it.matches ?? []).map((m) => `${m.id} (${m.similarity})`).join(', ')}`;
    case 'previously_removed':
      return `like ${(it.matches ?? []).map((m) => `${m.id} (removed: ${JSON.stringify(m.removed_reason ?? '')})`).join(', ')}`;
    case 'secret':
      return (it.kinds ?? []).join(', ');
    default:
      return it.reason ?? '';
  }
}

/** The report a person reads: counts, then every item by source item under its outcome. */
export function sourceReportText(r: Report): string {
  const lines: string[] = [];
  const verb = r.applied ? 'imported' : 'dry run of';
  lines.push(`${verb} ${r.format} ${r.path}: ${plural(r.total, 'item')}${r.skipped.length ? ` (and ${plural(r.skipped.length, 'piece')} that ${r.skipped.length === 1 ? 'is' : 'are'} not a memory)` : ''}`);
  for (const status of Object.keys(HEADINGS) as Item['status'][]) {
    const its = r.items.filter((i) => i.status === status);
    if (its.length === 0) continue;
    lines.push('', `${HEADINGS[status][r.applied ? 1 : 0]}: ${its.length}`);
    const shown = status === 'already_imported' ? its.slice(0, 5) : its;
    for (const it of shown) lines.push(`  ${it.label}: ${itemDetail(it)}`);
    if (shown.length < its.length) lines.push(`  ... and ${its.length - shown.length} more (--json lists them all)`);
  }
  if (r.skipped.length) {
    lines.push('', `not memories: ${r.skipped.length}`);
    for (const s of r.skipped.slice(0, 20)) lines.push(`  ${s.label}: ${s.reason}`);
    if (r.skipped.length > 20) lines.push(`  ... and ${r.skipped.length - 20} more (--json lists them all)`);
  }
  const adds = r.counts.added + r.counts.added_tombstone;
  lines.push('');
  if (!r.applied) lines.push(adds ? `Nothing was written. Run again with --apply to add ${plural(adds, 'memory', 'memories')}.` : 'Nothing was written, and --apply would add nothing.');
  else lines.push(`${plural(adds, 'memory', 'memories')} written.`);
  return `${lines.join('\n')}\n`;
}

async function importFrom(io: CliIO, values: { from?: string; apply?: boolean; scope?: string[]; force?: boolean; 'include-claude-md'?: boolean; json?: string | boolean }, positionals: string[]): Promise<number> {
  let format;
  try {
    format = checkFormat(values.from!);
  } catch (err) {
    throw new UsageError(errorMessage(err));
  }
  if (positionals.length !== 1) throw new UsageError(`give exactly one PATH to import from (the ${format} store, folder or file)`);
  if (values['include-claude-md'] && format !== 'claude-code') throw new UsageError('--include-claude-md goes with --from claude-code');
  const path = resolve(io.cwd, positionals[0]!);
  const progress = importProgress(io);
  const c = await openCairn(io);
  try {
    const report = await asCli({ scopes: '--scope' }, () =>
      c.importFrom(format, path, {
        apply: values.apply === true,
        force: values.force === true,
        scopes: values.scope ?? [],
        ...(values['include-claude-md'] ? { includeClaudeMd: true } : {}),
        ...(progress ? { progress } : {}),
      }),
    );
    if (values.json) printJson(io, report);
    else io.out(sourceReportText(report));
    return 0;
  } finally {
    await c.close();
  }
}
