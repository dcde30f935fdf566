// `cairn init`: show how to register cairn with an MCP client, or do it for one client by
// merging the server entry into that client's real config file (core/io/init.ts).
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { CLIENTS, clientSpec, isClientId, serverEntry, SERVER_NAME, type InitEnv } from '../../core/io/clients.ts';
import { readRegistration, runInit, snippet } from '../../core/io/init.ts';
import { type Command, JSON_OPTION, UsageError, parse, printJson } from '../io.ts';

const options = {
  client: { type: 'string', arg: 'NAME', help: `register cairn in this client's config: ${CLIENTS.join(', ')}` },
  'print-only': { type: 'boolean', help: 'print the entry cairn would add or change, write nothing' },
  json: JSON_OPTION,
} as const;

/** The running bundle: what the client must start. Symlinks (npm's bin shim) are resolved. */
function bundlePath(): string {
  const p = process.argv[1] ?? '';
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

export const init: Command = {
  name: 'init',
  summary: 'register cairn with an MCP client (or print the snippet and where each client keeps it)',
  usage: `cairn init [--client ${CLIENTS.join('|')}] [--print-only] [--json]`,
  options,
  async run(argv, io) {
    const { values } = parse(argv, options, false);
    const ie: InitEnv = { home: io.env.HOME || homedir(), platform: process.platform, env: io.env };
    const entry = serverEntry(bundlePath(), process.execPath);
    if (values.client === undefined) {
      const clients = await Promise.all(
        CLIENTS.map(async (c) => {
          const spec = clientSpec(c, ie);
          const reg = await readRegistration(spec.file, spec.format, spec.key);
          return { client: c, label: spec.label, file: spec.file, present: reg.present, registered: reg.entry !== null, ...(reg.error ? { error: reg.error } : {}) };
        }),
      );
      const snip = { mcpServers: { [SERVER_NAME]: entry } };
      if (values.json) printJson(io, { server: entry, snippet: snip, clients });
      else {
        io.out(`Add this to your MCP client's config (VS Code uses "servers" and "type": "stdio"):\n\n${JSON.stringify(snip, null, 2)}\n\nKnown config locations:\n`);
        for (const c of clients) {
          const state = c.error ? `present, unreadable (${c.error})` : c.registered ? 'present, cairn registered' : c.present ? 'present' : 'absent';
          io.out(`  ${c.client.padEnd(15)} ${state.padEnd(26)} ${c.file}\n`);
        }
        io.out(`\ncairn init --client NAME merges the entry into that file (other keys are kept).\n`);
      }
      return 0;
    }
    if (!isClientId(values.client)) throw new UsageError(`unknown client ${JSON.stringify(values.client)}: use one of ${CLIENTS.join(', ')}`);
    const spec = clientSpec(values.client, ie);
    const r = await runInit(spec, entry, { printOnly: values['print-only'] });
    const { text, ...result } = r;
    if (values.json) printJson(io, values['print-only'] ? { ...result, print_only: true, content: text } : result);
    else if (values['print-only']) {
      io.out(text === null ? `${spec.file} already has this entry; nothing to change:\n${snippet(spec, entry)}\n` : `${spec.file} would become:\n${text}`);
    } else {
      const said = r.status === 'unchanged' ? 'already registered, nothing changed' : `${r.status} the cairn server`;
      io.out(`${spec.label}: ${said} in ${spec.file}\n`);
      if (r.status !== 'unchanged') io.out(`Restart ${spec.label} (or reload its MCP servers) to pick it up.\n`);
      if (spec.client === 'claude-code') io.out('If you installed the cairn plugin, Claude Code already starts this server; this entry is only needed without it.\n');
    }
    return 0;
  },
};
