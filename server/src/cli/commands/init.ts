// `cairn init`: show how to register cairn with an MCP client, or do it for one client by
// merging the server entry into that client's real config file (core/io/init.ts).
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CairnError } from '../../core/errors.ts';
import { CLIENTS, clientSpec, isClientId, serverEntry, SERVER_NAME, type ClientId, type InitEnv } from '../../core/cairn.ts';
import { installedCairnPlugins, readRegistration, runInit, snippet, writeConfigAtomic } from '../../core/cairn.ts';
import { DEFAULT_POLICY_FILE, POLICY_FILES, policyBlock, projectRoot, readPolicyTarget, withPolicy } from '../../core/cairn.ts';
import { type CliIO, type Command, JSON_OPTION, UsageError, parse, printJson } from '../io.ts';

/** The running bundle: what the client must start. Symlinks (npm's bin shim) are resolved. */
function bundlePath(): string {
  const p = process.argv[1] ?? '';
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

const options = {
  client: { type: 'string', arg: 'NAME', help: `register cairn in this client's config: ${CLIENTS.join(', ')}` },
  'print-only': { type: 'boolean', help: 'print only the entry cairn would add or change (and where), write nothing' },
  force: { type: 'boolean', help: 'with --client claude-code: add the entry even though the cairn plugin is installed' },
  policy: { type: 'boolean', help: 'write the memory policy into the project\'s instructions file (AGENTS.md, or --client\'s own file)' },
  target: { type: 'string', arg: 'FILE', help: 'with --policy: the instructions file to write (created if absent)' },
  'with-addendum': { type: 'boolean', help: 'bettermemory\'s name: prints the memory policy, as --policy --print-only does' },
  json: JSON_OPTION,
} as const;

/** `cairn init --policy`: the policy block in the client's instructions file, updated in place. */
async function initPolicy(values: { client?: string; target?: string; 'print-only'?: boolean; json?: boolean }, io: CliIO): Promise<number> {
  let file: string;
  if (values.target !== undefined) {
    if (values.target.trim() === '') throw new UsageError('--target needs a file name, like --target AGENTS.md');
    file = resolve(io.cwd, values.target);
  } else {
    const rel = values.client === undefined ? DEFAULT_POLICY_FILE : POLICY_FILES[values.client as ClientId];
    if (rel === null) throw new UsageError(`${values.client} has no instructions file cairn can write: it reads cairn's MCP instructions as they are, or paste the policy into its project instructions (cairn init --policy --target FILE writes any file)`);
    file = join(projectRoot(io.cwd), rel);
  }
  const plan = withPolicy(file, await readPolicyTarget(file));
  const write = plan.text !== null && !values['print-only'];
  if (write) await writeConfigAtomic(file, plan.text!);
  if (values.json) printJson(io, { file, status: plan.status, written: write, ...(values['print-only'] ? { print_only: true, block: policyBlock() } : {}) });
  else if (values['print-only']) io.out(`${plan.status === 'unchanged' ? `${file} already holds this block; nothing to change` : `${file}: cairn would ${plan.status === 'added' ? 'add' : 'replace'} this block`}:\n${policyBlock()}\n`);
  else io.out(plan.status === 'unchanged' ? `${file}: the memory policy is already there, nothing changed\n` : `${file}: ${plan.status} the memory policy (between cairn's markers; a re-run updates it in place)\n`);
  return 0;
}

export const init: Command = {
  name: 'init',
  summary: 'register cairn with an MCP client, or write the memory policy where a client reads instructions',
  usage: `cairn init [--client ${CLIENTS.join('|')}] [--print-only] [--force] [--json]\n       cairn init --policy [--client NAME | --target FILE] [--print-only] [--json]`,
  options,
  async run(argv, io) {
    const { values } = parse(argv, options, false);
    if (values['with-addendum']) {
      // bettermemory's `init --with-addendum` printed the long-form policy; cairn's policy is that text.
      io.err('cairn init: --with-addendum is the old (bettermemory) name: it prints the memory policy, as cairn init --policy --print-only does (cairn init --policy writes it into AGENTS.md)\n');
      if (values.policy === undefined) values.policy = true;
      if (values['print-only'] === undefined) values['print-only'] = true;
    }
    if (values.client !== undefined && !isClientId(values.client)) throw new UsageError(`unknown client ${JSON.stringify(values.client)}: use one of ${CLIENTS.join(', ')}`);
    if (values.target !== undefined && !values.policy) throw new UsageError('--target FILE goes with --policy: cairn init --policy --target AGENTS.md');
    if (values.policy) {
      if (values.force) throw new UsageError('--force goes with --client claude-code, not with --policy');
      if (values.client !== undefined && values.target !== undefined) throw new UsageError('give --client NAME or --target FILE with --policy, not both');
      return initPolicy(values, io);
    }
    const ie: InitEnv = { home: io.env.HOME || homedir(), platform: process.platform, env: io.env };
    const entry = serverEntry(bundlePath(), process.execPath);
    if (values.client === undefined) {
      if (values.force) throw new UsageError('--force goes with --client claude-code');
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
        io.out(`Add this to your MCP client's config (VS Code uses "servers" and "type": "stdio"; OpenCode, Zed and Codex have their own shapes: cairn init --client NAME --print-only shows them):\n\n${JSON.stringify(snip, null, 2)}\n\nKnown config locations:\n`);
        for (const c of clients) {
          const state = c.error ? `present, unreadable (${c.error})` : c.registered ? 'present, cairn registered' : c.present ? 'present' : 'absent';
          io.out(`  ${c.client.padEnd(15)} ${state.padEnd(26)} ${c.file}\n`);
        }
        io.out(`\ncairn init --client NAME merges the entry into that file (other keys are kept).\n`);
      }
      return 0;
    }
    const spec = clientSpec(values.client as ClientId, ie);
    if (spec.client === 'claude-code' && !values.force) {
      const plugins = await installedCairnPlugins(ie);
      if (plugins.length) {
        throw new CairnError(
          `the cairn plugin is installed in Claude Code (${plugins.join(', ')}), and it already starts the cairn server in every session; ` +
            `a user-scope entry in ${spec.file} would start a second one. Nothing was written. Use the plugin (claude mcp list shows plugin:cairn:cairn), ` +
            'or uninstall it first (claude plugin uninstall cairn@cairn); --force adds the entry anyway',
        );
      }
    }
    const r = await runInit(spec, entry, { printOnly: values['print-only'] });
    const { text, ...result } = r;
    const snip = snippet(spec, entry);
    if (values.json) printJson(io, values['print-only'] ? { ...result, print_only: true, snippet: snip } : result);
    else if (values['print-only']) {
      io.out(text === null ? `${spec.file} already has this entry; nothing to change:\n${snip}\n` : `${spec.file}: cairn would ${r.status === 'added' ? 'add' : 'set'} this entry (the rest of the file stays as it is):\n${snip}\n`);
    } else {
      const said = r.status === 'unchanged' ? 'already registered, nothing changed' : `${r.status} the cairn server`;
      io.out(`${spec.label}: ${said} in ${spec.file}\n`);
      if (r.status !== 'unchanged') io.out(`Restart ${spec.label} (or reload its MCP servers) to pick it up.\n`);
      if (spec.client !== 'claude-code' && spec.client !== 'claude-desktop') io.out(`To give its model cairn's memory policy too: cairn init --policy --client ${spec.client}\n`);
    }
    return 0;
  },
};
