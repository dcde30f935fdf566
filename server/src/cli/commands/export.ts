// `cairn export`: cairn's own export format (core/io/exportImport.ts), to stdout or to a
// file written atomically with mode 0600 (an export holds the user's private notes).
import { secretsIn, writeExportFile } from '../../core/cairn.ts';
import { validateScopeFilter } from '../../core/scopes.ts';
import { type Command, JSON_OPTION, openCairn, parse } from '../io.ts';
import { plural } from '../writeText.ts';

const options = {
  output: { type: 'string', short: 'o', arg: 'FILE', help: 'write to FILE (atomically, mode 0600) instead of stdout' },
  'no-tombstones': { type: 'boolean', help: 'leave removed memories out' },
  scope: { type: 'string', multiple: true, arg: 'S', help: 'only memories with this scope (or a scope under it; globs work)' },
  json: { ...JSON_OPTION, help: 'accepted for symmetry: the export is JSON either way' },
} as const;

export const exportCmd: Command = {
  name: 'export',
  summary: 'write memories (and tombstones) as one cairn-export JSON document',
  usage: 'cairn export [-o FILE] [--no-tombstones] [--scope S]... [--json]',
  options,
  async run(argv, io) {
    const { values } = parse(argv, options, false);
    const scopes = (values.scope ?? []).map((s) => validateScopeFilter(s, '--scope'));
    const c = await openCairn(io);
    try {
      const doc = await c.exportStore({ scopes, include_tombstones: !values['no-tombstones'] });
      const text = `${JSON.stringify(doc, null, 2)}\n`;
      if (values.output) {
        await writeExportFile(values.output, text);
        io.err(`cairn: exported ${plural(doc.memories.length, 'memory', 'memories')} and ${plural(doc.tombstones.length, 'tombstone')} to ${values.output}\n`);
      } else io.out(text);
      // The export is a new plaintext copy: say so when it carries something that looks like a credential.
      const leaks = secretsIn([...doc.memories, ...doc.tombstones]);
      if (leaks.length) {
        io.err(`cairn: warning: ${plural(leaks.length, 'exported memory looks like it holds a secret', 'exported memories look like they hold secrets')}; the export is plaintext:\n`);
        for (const l of leaks.slice(0, 20)) io.err(`  ${l.id}: ${l.kinds.join(', ')}\n`);
      }
      return 0;
    } finally {
      await c.close();
    }
  },
};
