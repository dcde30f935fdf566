// `cairn import FILE`: reads a cairn-export document and imports it idempotently by id, never
// overwriting a newer local `updated` (core/io/exportImport.ts). Long runs show progress on
// a terminal.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseExport, secretsIn } from '../../core/io/exportImport.ts';
import { CairnError, errorMessage } from '../../core/errors.ts';
import { type CliIO, type Command, JSON_OPTION, UsageError, openCairn, parse, printJson } from '../io.ts';
import { plural } from '../writeText.ts';
import { progress } from '../progress.ts';

// `--from FORMAT` (importers from other tools' stores) will join these options; without it the
// FILE is cairn's own export.
const options = { json: JSON_OPTION } as const;

function importProgress(io: CliIO): ((done: number, total: number) => void) | undefined {
  const report = progress(io);
  return report && ((done, total) => report('importing', done, total));
}

export const importCmd: Command = {
  name: 'import',
  summary: 'import a cairn export (idempotent by id; never overwrites a newer local edit)',
  usage: 'cairn import FILE [--json]',
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    if (positionals.length !== 1) throw new UsageError('give exactly one file made by cairn export');
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
