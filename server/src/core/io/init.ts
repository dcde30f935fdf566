// `cairn init`: register cairn's MCP server in a client's real config file.
// Invariants: every other key of the file survives, and so do its comments and layout (JSONC
// files are edited in place, jsonc.ts); a file that does not parse is never touched
// (the user gets the snippet to add by hand instead); the write is atomic and keeps the file's
// mode; a second run finds the entry unchanged and does not write at all, so the file stays
// byte-identical.
import { promises as fsp } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ConflictError, errorMessage } from '../errors.ts';
import { writeFileAtomic } from '../store/fsatomic.ts';
import { SERVER_NAME, type ClientSpec, type InitEnv, type ServerEntry } from './clients.ts';
import { yamlDump, yamlLoad } from './yaml.ts';
import { changedOnlyAt, parseJsonc, setJsonc, type JsonValue } from './jsonc.ts';
import { parse as parseToml } from 'smol-toml';
import { hasTomlTable, setTomlTable, tableHeader, tomlValue, type TomlValue } from './tomlEdit.ts';

export type MergeStatus = 'added' | 'updated' | 'unchanged';

export interface MergePlan {
  status: MergeStatus;
  /** The new file content; null when nothing changes. */
  text: string | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The entry there after cairn's: the keys cairn owns are set, the user's others kept; in an
 * object-valued key (env, environment) cairn's variables are set beside the user's own.
 */
function mergedEntry(cur: unknown, want: Obj): Obj {
  if (!isObj(cur)) return want;
  const next: Obj = { ...cur, ...want };
  for (const [k, v] of Object.entries(want)) if (isObj(v) && isObj(cur[k])) next[k] = { ...cur[k], ...v };
  return next;
}

/** The snippet to paste by hand: `{ "mcpServers": { "cairn": {...} } }`, or the TOML table. */
export function snippet(spec: Pick<ClientSpec, 'key' | 'entry'> & { format?: ClientSpec['format'] }, entry: ServerEntry): string {
  if (spec.format === 'toml') {
    return [tableHeader([spec.key, SERVER_NAME]), ...Object.entries(spec.entry(entry)).map(([k, v]) => `${k} = ${tomlValue(v as TomlValue)}`)].join('\n');
  }
  return JSON.stringify({ [spec.key]: { [SERVER_NAME]: spec.entry(entry) } }, null, 2);
}

async function readText(file: string): Promise<string | null> {
  try {
    return await fsp.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ConflictError(`cannot read ${file}: ${errorMessage(err)}`);
  }
}

function refuse(spec: ClientSpec, entry: ServerEntry, why: string): never {
  throw new ConflictError(`${spec.file} ${why}; cairn left it untouched. Fix it, or add this by hand:\n${snippet(spec, entry)}`);
}

/**
 * Sets the cairn entry in a JSON or JSONC file by editing only that entry's text (jsonc.ts):
 * comments, layout and every other key stay byte for byte. Keys the user added to the entry
 * (env, disabled, autoApprove...) stay; the keys cairn owns are set.
 */
function mergeJson(spec: ClientSpec, entry: ServerEntry, text: string | null): MergePlan {
  const want = spec.entry(entry);
  if (text === null || text.trim() === '') {
    return { status: 'added', text: JSON.stringify({ [spec.key]: { [SERVER_NAME]: want } }, null, 2) + '\n' };
  }
  let root: JsonValue;
  try {
    root = parseJsonc(text);
  } catch (err) {
    refuse(spec, entry, `is not valid JSON (nor JSON with comments): ${errorMessage(err)}`);
  }
  if (!isObj(root)) refuse(spec, entry, 'does not hold a JSON object at the top level');
  const doc = root as Obj;
  const servers = doc[spec.key] ?? {};
  if (!isObj(servers)) refuse(spec, entry, `has a "${spec.key}" that is not an object`);
  const cur = servers[SERVER_NAME];
  const next = mergedEntry(cur, want);
  if (cur !== undefined && isDeepStrictEqual(cur, next)) return { status: 'unchanged', text: null };

  let out = text;
  if (doc[spec.key] === undefined) out = setJsonc(out, [spec.key], { [SERVER_NAME]: next as JsonValue });
  else if (!isObj(cur)) out = setJsonc(out, [spec.key, SERVER_NAME], next as JsonValue);
  else {
    // An existing entry: only the values cairn owns are replaced, one at a time, so the user's
    // keys and comments inside the entry stay.
    for (const k of Object.keys(want)) {
      if (isDeepStrictEqual(cur[k], next[k])) continue;
      out = setJsonc(out, [spec.key, SERVER_NAME, k], next[k] as JsonValue);
    }
  }
  // The invariants that matter: the edited file means exactly the old document plus our entry,
  // and its text outside our entry is the old text byte for byte.
  const meant = { ...doc, [spec.key]: { ...servers, [SERVER_NAME]: next } };
  let got: unknown;
  try {
    got = parseJsonc(out);
  } catch {
    got = undefined;
  }
  const path = doc[spec.key] === undefined ? [spec.key] : [spec.key, SERVER_NAME];
  if (!isDeepStrictEqual(got, meant) || !changedOnlyAt(text, out, path)) refuse(spec, entry, 'has a layout cairn could not edit safely');
  return { status: cur === undefined ? 'added' : 'updated', text: out };
}

/**
 * Sets the [mcp_servers.cairn] table of a TOML file (Codex) by editing only the lines of the keys
 * cairn owns (tomlEdit.ts): comments, layout and every other table stay as they were. The
 * result is parsed again and must mean the old document plus our entry.
 */
/** smol-toml builds objects without a prototype: plain copies compare with isDeepStrictEqual. */
function plainToml(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plainToml);
  if (v !== null && typeof v === 'object' && !(v instanceof Date)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainToml(x)]));
  return v;
}
const readToml = (text: string) => plainToml(parseToml(text));

function mergeToml(spec: ClientSpec, entry: ServerEntry, text: string | null): MergePlan {
  const want = spec.entry(entry);
  let doc: Obj = {};
  if (text !== null && text.trim() !== '') {
    try {
      doc = readToml(text) as Obj;
    } catch (err) {
      refuse(spec, entry, `is not valid TOML (${errorMessage(err).split('\n')[0]})`);
    }
  }
  const servers = doc[spec.key] ?? {};
  if (!isObj(servers)) refuse(spec, entry, `has a "${spec.key}" that is not a table`);
  const cur = servers[SERVER_NAME];
  if (cur !== undefined && !isObj(cur)) refuse(spec, entry, `has a "${spec.key}.${SERVER_NAME}" that is not a table`);
  const next = mergedEntry(cur, want);
  if (cur !== undefined && isDeepStrictEqual(cur, next)) return { status: 'unchanged', text: null };
  let out: string;
  try {
    // The variables go where the user keeps them: a [mcp_servers.cairn.env] table of theirs gets
    // cairn's keys set in it; otherwise the entry's `env = { ... }` line holds them all.
    const envPath = [spec.key, SERVER_NAME, 'env'];
    const envTable = text !== null && hasTomlTable(text, envPath);
    const { env, ...rest } = want;
    out = setTomlTable(text ?? '', [spec.key, SERVER_NAME], (envTable || env === undefined ? rest : { ...rest, env: next.env }) as Record<string, TomlValue>);
    if (envTable && isObj(env)) out = setTomlTable(out, envPath, env as Record<string, TomlValue>);
  } catch (err) {
    refuse(spec, entry, `could not be edited safely (${errorMessage(err)})`);
  }
  const meant = { ...doc, [spec.key]: { ...servers, [SERVER_NAME]: next } };
  let got: unknown;
  try {
    got = readToml(out);
  } catch {
    got = undefined;
  }
  // A table defined some other way (inline, dotted keys) would now be defined twice: refused.
  if (!isDeepStrictEqual(got, meant)) refuse(spec, entry, 'defines the cairn server in a form cairn cannot edit safely');
  return { status: cur === undefined ? 'added' : 'updated', text: out };
}

function mergeYamlBlock(spec: ClientSpec, entry: ServerEntry, text: string | null): MergePlan {
  let doc: Obj = {};
  if (text !== null && text.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = yamlLoad(text);
    } catch (err) {
      refuse(spec, entry, `is not valid YAML (${errorMessage(err).split('\n')[0]})`);
    }
    if (!isObj(parsed)) refuse(spec, entry, 'does not hold a YAML mapping at the top level');
    doc = parsed;
  }
  const list = doc.mcpServers ?? [];
  if (!Array.isArray(list)) refuse(spec, entry, 'has an "mcpServers" that is not a list');
  const want = spec.entry(entry);
  const at = list.findIndex((s) => isObj(s) && s.name === SERVER_NAME);
  const cur = at >= 0 ? (list[at] as Obj) : undefined;
  const next = mergedEntry(cur, want);
  const header = { name: SERVER_NAME, version: '0.0.1', schema: 'v1' };
  const headerOk = Object.keys(header).every((k) => k in doc);
  if (cur && isDeepStrictEqual(cur, next) && headerOk) return { status: 'unchanged', text: null };
  const servers = [...list];
  if (at >= 0) servers[at] = next;
  else servers.push(next);
  // Header keys first for a new block; an existing block keeps its own values and order.
  const out: Obj = { ...header, ...doc, mcpServers: servers };
  return { status: cur ? 'updated' : 'added', text: yamlDump(out) };
}

/** What init would do to this client's file (nothing is written). */
export async function planInit(spec: ClientSpec, entry: ServerEntry): Promise<MergePlan> {
  const text = await readText(spec.file);
  return spec.format === 'json' ? mergeJson(spec, entry, text) : spec.format === 'toml' ? mergeToml(spec, entry, text) : mergeYamlBlock(spec, entry, text);
}

export interface InitResult {
  client: string;
  label: string;
  file: string;
  status: MergeStatus;
  written: boolean;
  entry: Record<string, unknown>;
}

export async function runInit(spec: ClientSpec, entry: ServerEntry, opts: { printOnly?: boolean } = {}): Promise<InitResult & { text: string | null }> {
  const plan = await planInit(spec, entry);
  const write = plan.text !== null && !opts.printOnly;
  if (write) await writeConfigAtomic(spec.file, plan.text!);
  return { client: spec.client, label: spec.label, file: spec.file, status: plan.status, written: write, entry: spec.entry(entry), text: plan.text };
}

/**
 * temp file + fsync + rename + fsync dir, like the store's writes, but keeping the file's
 * existing mode and writing through a symlink (dotfile managers link these files).
 */
export async function writeConfigAtomic(file: string, text: string): Promise<void> {
  const target = await fsp.realpath(file).catch(() => file);
  await fsp.mkdir(dirname(target), { recursive: true, mode: 0o700 });
  const mode = await fsp.stat(target).then((s) => s.mode & 0o777, () => 0o600);
  await writeFileAtomic(target, text, mode);
}

export interface Registration {
  file: string;
  present: boolean;
  /** The cairn entry found there, if any. */
  entry: Record<string, unknown> | null;
  /** Why the file could not be read as config (it is reported, never repaired). */
  error?: string;
}

/** What a client file says about cairn, without changing anything. */
export async function readRegistration(file: string, format: ClientSpec['format'], key: string): Promise<Registration> {
  let text: string | null;
  try {
    text = await readText(file);
  } catch (err) {
    return { file, present: true, entry: null, error: errorMessage(err) };
  }
  if (text === null) return { file, present: false, entry: null };
  if (text.trim() === '') return { file, present: true, entry: null };
  try {
    const doc = format === 'json' ? parseJsonc(text) : format === 'toml' ? readToml(text) : yamlLoad(text);
    if (!isObj(doc)) return { file, present: true, entry: null, error: `no ${format === 'json' ? 'JSON object' : 'YAML mapping'} at the top level` };
    const servers = doc[key];
    if (Array.isArray(servers)) {
      const found = servers.find((s) => isObj(s) && s.name === SERVER_NAME);
      return { file, present: true, entry: isObj(found) ? found : null };
    }
    const e = isObj(servers) ? servers[SERVER_NAME] : undefined;
    return { file, present: true, entry: isObj(e) ? e : null };
  } catch (err) {
    return { file, present: true, entry: null, error: `not valid ${format === 'json' ? 'JSON' : format === 'toml' ? 'TOML' : 'YAML'}: ${errorMessage(err).split('\n')[0]}` };
  }
}

/** Claude Code's config directory: $CLAUDE_CONFIG_DIR, else ~/.claude. */
export function claudeConfigDir(ie: InitEnv): string {
  const d = ie.env.CLAUDE_CONFIG_DIR;
  return d && d.trim() !== '' ? d : join(ie.home, '.claude');
}

/**
 * The cairn plugin ids Claude Code has installed (installed_plugins.json), like "cairn@cairn".
 * With one of them, Claude Code already starts the cairn server in every session.
 */
export async function installedCairnPlugins(ie: InitEnv): Promise<string[]> {
  let doc: unknown;
  try {
    doc = JSON.parse(await fsp.readFile(join(claudeConfigDir(ie), 'plugins', 'installed_plugins.json'), 'utf8'));
  } catch {
    return [];
  }
  const plugins = isObj(doc) && isObj(doc.plugins) ? doc.plugins : {};
  return Object.entries(plugins)
    .filter(([k, v]) => k.startsWith(`${SERVER_NAME}@`) && (!Array.isArray(v) || v.length > 0))
    .map(([k]) => k);
}
