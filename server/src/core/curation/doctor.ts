// `cairn doctor`: every way the setup can be wrong, checked without changing anything.
// Each check is ok, warn or fail; the exit code is 0 when all are ok, 1 with a warning, 2 with a
// failure. Nothing here writes: a broken file is reported, never repaired.
import { constants, lstatSync, promises as fsp, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { folderAccessProblem } from '../access.ts';
import { errorMessage } from '../errors.ts';
import { hasUrlSecrets } from '../origin.ts';
import type { PhaseProgress, StoredMemory } from '../types.ts';
import { Store } from '../store/store.ts';
import { findTeamStore, resolveStore, type StoreLocation } from '../store/location.ts';
import { repoInfo } from '../origin.ts';
import { GITIGNORE_LINES } from '../sync/repo.ts';
import { readCache, cachePath, type CacheContent } from '../index/cache.ts';
import { reviveStored } from '../index/revive.ts';
import { cacheReadProgress } from '../index/cacheProgress.ts';
import { isReadFailure, readAhead } from '../store/fileWorker.ts';
import { ACTIVE_LOG, listLogFiles, readEvents } from './archives.ts';
import { CLIENTS, clientSpec, type InitEnv } from '../io/clients.ts';
import { installedCairnPlugins, readRegistration } from '../io/init.ts';

export type CheckStatus = 'ok' | 'warn' | 'fail';
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  /** Specific files or entries behind a warning or failure. */
  items?: string[];
}
export interface DoctorReport {
  status: CheckStatus;
  exit_code: 0 | 1 | 2;
  store: { dir: string | null; via: string | null; why: string | null };
  checks: Check[];
}

/** `1 memory`, `2 memories`: counts read right. */
const n = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

export interface DoctorOptions extends InitEnv {
  cwd: string;
  /** Told how the long checks go (reading the index cache, loading and checking files): the CLI's progress line. */
  progress?: PhaseProgress;
}

const ITEMS_MAX = 50;
const mode = (m: number) => `0${(m & 0o777).toString(8)}`;
const check = (name: string, status: CheckStatus, detail: string, items?: string[]): Check =>
  items && items.length ? { name, status, detail, items: items.slice(0, ITEMS_MAX) } : { name, status, detail };

/**
 * The modes of the store, its .tombstones/ and their files. The files are lstat'ed one after
 * another on this thread (~5 us each: the listing the files check made just before has their
 * inodes at hand); a promise per file cost ~5 times that.
 */
async function permissions(dir: string, skip: boolean, progress?: PhaseProgress): Promise<Check> {
  if (skip) return check('permissions', 'ok', 'not checked on Windows (no POSIX modes)');
  const loose: string[] = [];
  const st = await fsp.stat(dir);
  // A folder cairn cannot write (its owner lacks a bit, or a read-only mount) is a failure, whoever runs doctor.
  const denied = await fsp.access(dir, constants.R_OK | constants.W_OK | constants.X_OK).then(() => null, (err: unknown) => folderAccessProblem(dir, 'write', err) ?? errorMessage(err));
  if (denied !== null) return check('permissions', 'fail', denied);
  if ((st.mode & 0o700) !== 0o700) return check('permissions', 'fail', `${dir} is ${mode(st.mode)}: its owner lacks ${['read', 'write', 'search (x)'].filter((_, i) => !(st.mode & (0o400 >> i))).join(' and ')} permission, so cairn cannot write there as that user: chmod 700 ${dir}`);
  if (st.mode & 0o077) loose.push(`${dir} is ${mode(st.mode)}, expected 0700`);
  for (const sub of [dir, join(dir, '.tombstones')]) {
    let names: string[];
    try {
      names = readdirSync(sub);
    } catch {
      continue;
    }
    for (let i = 0; i < names.length; i++) {
      if (progress && i % 1000 === 0) progress('checking file modes', i, names.length);
      const name = names[i]!;
      if (!(name.endsWith('.md') || name === 'config.toml' || name.startsWith('.events'))) continue;
      const f = join(sub, name);
      const s = lstatSync(f, { throwIfNoEntry: false });
      if (s?.isFile() && s.mode & 0o077) loose.push(`${f} is ${mode(s.mode)}, expected 0600`);
    }
    progress?.('checking file modes', names.length, names.length);
  }
  return loose.length
    ? check('permissions', 'warn', `${n(loose.length, 'path')} readable by other users (the store is private notes): chmod 700 the directory, 600 the files`, loose)
    : check('permissions', 'ok', `store directory ${mode(st.mode)}, files 0600`);
}

/**
 * The store's subfolders reserved for other uses: dot-folders (.tombstones, .cache...) and
 * `notes/` (the /memories notes area). Everything else under the store is the user's.
 */
const RESERVED_SUBFOLDERS = new Set(['notes']);
const WALK_DEPTH = 8;
const WALK_ENTRIES = 20_000;

/**
 * Markdown files in the store's subfolders. cairn reads memories only from the store's top
 * level (and .tombstones/), so these are not memories; doctor lists them so none is ignored
 * silently. Links are never followed; the walk is bounded.
 */
export async function subfolderMarkdown(dir: string): Promise<string[]> {
  const found: string[] = [];
  let seen = 0;
  const walk = async (d: string, depth: number): Promise<void> => {
    const entries = await fsp.readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (++seen > WALK_ENTRIES) return;
      if (e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (depth === 0 && RESERVED_SUBFOLDERS.has(e.name)) continue;
        if (depth + 1 < WALK_DEPTH) await walk(p, depth + 1);
      } else if (depth > 0 && e.isFile() && e.name.endsWith('.md')) found.push(p);
    }
  };
  await walk(dir, 0);
  return found.sort();
}

/** The index cache as doctor found it: its records (null when there is none it can use) and why not. */
interface CacheFound {
  cache: CacheContent<StoredMemory> | null;
  reason: string | null;
}

/**
 * Every file of the store, as cairn reads it: a file whose size and modification time are those
 * its record in the index cache was read with is taken from the cache (the check every command
 * makes before it answers), any other is read and parsed. The store's directory is listed by a
 * worker thread while the cache is decoded.
 */
async function files(dir: string, progress?: PhaseProgress): Promise<{ checks: Check[]; found: CacheFound }> {
  const store = new Store(dir, { warn: () => {}, readOnly: true }); // doctor changes nothing
  store.listAhead();
  let reason: string | null = null;
  const cache = readCache<StoredMemory>(dir, (r) => (reason = r), reviveStored, progress && cacheReadProgress(progress));
  await store.load(cache?.records, progress && ((done, total) => progress('loading files', done, total)));
  const bad = [...store.skipped(), ...store.shadowed()].map((s) => `${s.file}: ${s.reason}`);
  const nested = (await subfolderMarkdown(dir)).map(
    (f) => `${f}: in a subfolder, so not a memory (cairn reads only ${dir} itself): move it up to make it one`,
  );
  let notes = 0;
  for (const m of store.active()) if (m.note !== undefined) notes++;
  // Notes (the memory tool's files in notes/) are counted apart from memory files.
  const count = `${n(store.activeCount - notes, 'memory', 'memories')}, ${notes > 0 ? `${n(notes, 'note')}, ` : ''}${n([...store.tombstones()].length, 'tombstone')}`;
  const parts = [
    ...(bad.length ? [`${n(bad.length, 'file')} skipped (never rewritten or deleted: fix or move them)`] : []),
    ...(nested.length ? [`${n(nested.length, 'markdown file')} in subfolders not read`] : []),
  ];
  return {
    checks: [
      parts.length ? check('files', 'warn', `${count}; ${parts.join('; ')}`, [...bad, ...nested]) : check('files', 'ok', `${count}; every file parses`),
      await remoteCredentials([...store.active(), ...store.tombstones()], progress),
    ],
    found: { cache, reason },
  };
}

/** The team store of the repository doctor runs in (README "Team memory"): found, readable, its per-machine files ignored. */
async function teamStore(loc: StoreLocation, o: DoctorOptions): Promise<Check[]> {
  if (!loc.config.team.enabled) return [check('team store', 'ok', 'team stores are turned off ([team] enabled = false)')];
  const projectDir = o.env.CLAUDE_PROJECT_DIR && o.env.CLAUDE_PROJECT_DIR.trim() !== '' ? o.env.CLAUDE_PROJECT_DIR : o.cwd;
  const info = await repoInfo(projectDir);
  const dir = findTeamStore(info?.root ?? null);
  if (dir === null) return [check('team store', 'ok', info ? `none in ${info.root} (cairn team init creates one)` : 'not in a git repository: no team store')];
  if (dir === loc.dir) return [check('team store', 'warn', `${dir} is both the team store and the personal store: personal memories written here are shared through git`)];
  const store = new Store(dir, { warn: () => {}, readOnly: true });
  // Files unchanged since its index cache was written are taken from it, as for the personal store.
  await store.load(readCache<StoredMemory>(dir, undefined, reviveStored)?.records);
  const bad = [...store.skipped(), ...store.shadowed()].map((s) => `${s.file}: ${s.reason}`);
  const ignore = await fsp.readFile(join(dir, '.gitignore'), 'utf8').then((t) => t.split(/\r?\n/).map((l) => l.trim()), () => [] as string[]);
  const missing = GITIGNORE_LINES.filter((l) => !ignore.includes(l));
  const count = `${dir}: ${n(store.activeCount, 'memory', 'memories')}, ${n([...store.tombstones()].length, 'tombstone')}`;
  const problems = [...bad, ...(missing.length ? [`${join(dir, '.gitignore')} lacks ${missing.join(' ')}: caches or the event log could be committed (cairn team init adds them)`] : [])];
  return [problems.length ? check('team store', 'warn', `${count}; ${n(problems.length, 'problem')}`, problems) : check('team store', 'ok', count)];
}

/** The stored `origin.repo` value of a memory file, as written (the record holds it redacted). */
function rawRepo(text: string): string | null {
  const end = text.indexOf('\n---', 3);
  const m = /^\s+repo:[ \t]*(.*?)[ \t]*$/m.exec(end < 0 ? text : text.slice(0, end));
  if (!m || m[1] === '' || m[1] === 'null' || m[1] === '~') return null;
  const v = m[1]!;
  try {
    return v.startsWith('"') ? (JSON.parse(v) as string) : v.startsWith("'") ? v.slice(1, -1).replace(/''/g, "'") : v;
  } catch {
    return v;
  }
}

/**
 * Files whose origin.repo holds a credential or a query string (written before cairn redacted
 * remote URLs, or by hand). They are read as if redacted and rewritten clean on their next change;
 * this names them (id and file, never the URL) so the user can rotate the token.
 */
async function remoteCredentials(mems: StoredMemory[], progress?: PhaseProgress): Promise<Check> {
  const found: string[] = [];
  // Only a record with an origin repo can have stored one with a credential. The files are read
  // by a worker thread a batch ahead (the store's own bulk read), in order.
  const withRepo = mems.filter((m) => m.origin.repo !== null);
  let i = 0;
  for await (const text of readAhead(withRepo.map((m) => m.file))) {
    const m = withRepo[i++]!;
    if (progress && i % 1000 === 0) progress('reading stored remote URLs', i, withRepo.length);
    if (isReadFailure(text)) continue;
    if (text.includes('@') || text.includes('?')) {
      if (hasUrlSecrets(rawRepo(text))) found.push(`${m.id} ${m.file}`);
    }
  }
  progress?.('reading stored remote URLs', withRepo.length, withRepo.length);
  found.sort();
  return found.length
    ? check('remote credentials', 'warn', `${n(found.length, 'file stores', 'files store')} a remote URL with a credential or query in origin.repo: cairn reads them redacted and rewrites them clean on their next change (memory_update, memory_verify, cairn migrate-origin); rotate the token if it is still valid`, found)
    : check('remote credentials', 'ok', 'no stored remote URL holds a credential');
}

async function eventLog(loc: StoreLocation): Promise<Check> {
  if (!loc.config.telemetry.enabled) return check('event log', 'ok', 'disabled (telemetry.enabled = false): nothing is recorded, health has no usage data');
  const active = join(loc.dir, ACTIVE_LOG);
  try {
    const exists = await fsp.access(active).then(() => true, () => false);
    await fsp.access(exists ? active : loc.dir, constants.W_OK);
  } catch (err) {
    return check('event log', 'fail', `${active} is not writable: ${errorMessage(err)}`);
  }
  const { events, corruptLines, unreadableFiles } = readEvents(loc.dir);
  const archives = listLogFiles(loc.dir).filter((f) => !f.file.endsWith(ACTIVE_LOG)).length;
  const detail = `${n(events.length, 'event')} in ${ACTIVE_LOG} and ${n(archives, 'archive')}; writable`;
  if (corruptLines || unreadableFiles.length) {
    return check('event log', 'warn', `${detail}; ${n(corruptLines, 'corrupt line')} skipped, ${n(unreadableFiles.length, 'unreadable archive')}`, unreadableFiles);
  }
  return check('event log', 'ok', detail);
}

/** The index cache alone, when the files check failed before it decoded it. */
function cacheOnly(dir: string): CacheFound {
  let reason: string | null = null;
  const cache = readCache(dir, (r) => (reason = r));
  return { cache: cache as CacheContent<StoredMemory> | null, reason };
}

/** The index cache the files check decoded (read once for both). */
function indexCache(dir: string, { cache, reason }: CacheFound): Check {
  if (cache) return check('index cache', 'ok', `${cachePath(dir)} holds ${cache.records.length} records (validated per file on start)`);
  if (reason) return check('index cache', 'warn', `${cachePath(dir)} is unusable (${reason}); it is rebuilt on the next server start, nothing is lost`);
  return check('index cache', 'ok', 'no index cache yet: built on the next server start (derived data only)');
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fsp.readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

/** The Claude Code plugin: installed (installed_plugins.json) and enabled (settings.json). */
async function claudePlugin(o: DoctorOptions): Promise<string[]> {
  const dir = o.env.CLAUDE_CONFIG_DIR && o.env.CLAUDE_CONFIG_DIR.trim() !== '' ? o.env.CLAUDE_CONFIG_DIR : join(o.home, '.claude');
  const found: string[] = [];
  const installed = (await readJson(join(dir, 'plugins', 'installed_plugins.json'))) as { plugins?: Record<string, unknown> } | null;
  for (const k of Object.keys(installed?.plugins ?? {})) if (k.startsWith('cairn@')) found.push(`Claude Code plugin ${k} installed`);
  const settings = (await readJson(join(dir, 'settings.json'))) as { enabledPlugins?: Record<string, unknown> } | null;
  for (const [k, v] of Object.entries(settings?.enabledPlugins ?? {})) if (k.startsWith('cairn@')) found.push(`Claude Code plugin ${k} ${v ? 'enabled' : 'disabled'} in settings.json`);
  return found;
}

async function registrations(o: DoctorOptions): Promise<Check[]> {
  const found = await claudePlugin(o);
  const problems: string[] = [];
  let userScopeClaudeCode: string | null = null;
  const project = join(o.cwd, '.mcp.json');
  for (const [label, file, format, key] of [
    ...CLIENTS.flatMap((c) => {
      const s = clientSpec(c, o);
      return [[s.label, s.file, s.format, s.key] as const, ...s.alsoCheck.map((f) => [s.label, f, 'yaml-block', 'mcpServers'] as const)];
    }),
    ['project .mcp.json', project, 'json', 'mcpServers'] as const,
  ]) {
    const r = await readRegistration(file, format, key);
    if (r.error) problems.push(`${file}: ${r.error}`);
    if (!r.entry) continue;
    if (file === clientSpec('claude-code', o).file) userScopeClaudeCode = file;
    // The bundle is in args, or (OpenCode) in the command array.
    const argv = [...(Array.isArray(r.entry.command) ? r.entry.command : []), ...(Array.isArray(r.entry.args) ? r.entry.args : [])];
    const bundle = argv.filter((a): a is string => typeof a === 'string').find((a) => a.endsWith('.mjs') || a.endsWith('.js'));
    if (bundle && !bundle.includes('${') && !(await fsp.access(bundle).then(() => true, () => false))) {
      problems.push(`${label} (${file}) runs ${bundle}, which does not exist: run cairn init --client again`);
    }
    found.push(`${label}: ${file}`);
  }
  const checks: Check[] = [];
  // The plugin starts cairn in every Claude Code session; a user-scope entry starts a second one.
  const plugins = await installedCairnPlugins(o);
  if (plugins.length && userScopeClaudeCode) {
    checks.push(check('duplicate server', 'warn', `Claude Code starts cairn twice in every session: the plugin ${plugins.join(', ')} and the user-scope "cairn" entry in ${userScopeClaudeCode}. Keep the plugin and remove the entry: claude mcp remove cairn -s user`));
  }
  if (problems.length) checks.unshift(check('registrations', 'warn', `${n(found.length, 'registration')} found; ${n(problems.length, 'problem')}`, [...problems, ...found]));
  else if (found.length === 0) {
    checks.unshift(check('registrations', 'warn', 'cairn is not registered with any MCP client: install the Claude Code plugin, or run cairn init --client <name>'));
  } else checks.unshift(check('registrations', 'ok', `${n(found.length, 'registration')} found`, found));
  return checks;
}

export async function runDoctor(o: DoctorOptions): Promise<DoctorReport> {
  const checks: Check[] = [];
  let loc: StoreLocation | null = null;
  try {
    loc = resolveStore({ env: o.env, cwd: o.cwd, home: o.home });
    checks.push(check('config', 'ok', `${loc.configFile}: ${(await fsp.access(loc.configFile).then(() => true, () => false)) ? 'valid' : 'absent, all defaults'}`));
  } catch (err) {
    checks.push(check('config', 'fail', errorMessage(err)));
  }
  if (loc) {
    const st = await fsp.stat(loc.dir).catch((err: NodeJS.ErrnoException) => err);
    if (st instanceof Error) {
      const missing = st.code === 'ENOENT';
      // A fresh install has no store until the first write: that is fine, not a warning.
      checks.push(check('store', missing ? 'ok' : 'fail', missing ? `${loc.dir} (${loc.why}) does not exist yet: it is created on the first write` : `${loc.dir}: ${st.message}`));
    } else if (!st.isDirectory()) {
      checks.push(check('store', 'fail', `${loc.dir} (${loc.why}) is not a directory`));
    } else {
      checks.push(check('store', 'ok', `${loc.dir} (${loc.why})`));
      // The files first (their listing leaves the inodes the permissions check reads at hand),
      // reported in the usual order.
      const dir = loc.dir;
      const read = await files(dir, o.progress).catch((err) => ({ checks: [check('files', 'fail', `cannot read the store: ${errorMessage(err)}`)], found: null }));
      checks.push(await permissions(dir, o.platform === 'win32', o.progress));
      checks.push(...read.checks);
      checks.push(await eventLog(loc));
      checks.push(indexCache(dir, read.found ?? cacheOnly(dir)));
    }
  }
  if (loc) checks.push(...(await teamStore(loc, o)));
  checks.push(...(await registrations(o)));
  const status: CheckStatus = checks.some((c) => c.status === 'fail') ? 'fail' : checks.some((c) => c.status === 'warn') ? 'warn' : 'ok';
  return { status, exit_code: status === 'fail' ? 2 : status === 'warn' ? 1 : 0, store: { dir: loc?.dir ?? null, via: loc?.via ?? null, why: loc?.why ?? null }, checks };
}
