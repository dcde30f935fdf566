// `cairn overview`: scope counts of the memories in view from this project, never bodies.
// With --hook it is Claude Code's SessionStart hook (hooks/hooks.json): one line of at most
// HOOK_LINE_MAX_BYTES on stdout, or nothing. A SessionStart hook that fails or hangs spoils the
// start of every session, so hook mode swallows every error (reason on stderr only, which Claude
// Code shows in --debug), exits 0, and gives up after an internal time limit.
import { existsSync, statSync } from 'node:fs';
import { Cairn } from '../../core/cairn.ts';
import { errorMessage } from '../../core/errors.ts';
import { ALL_HELP, type CliIO, type Command, JSON_OPTION, openCairn, parse, printJson } from '../io.ts';
import { progress } from '../progress.ts';

const options = {
  all: { type: 'boolean', help: ALL_HELP },
  hook: { type: 'boolean', help: 'the one-line SessionStart summary (nothing for an empty store; always exit 0)' },
  json: JSON_OPTION,
} as const;

export const HOOK_LINE_MAX_BYTES = 300;
/** Below the 10 s timeout in hooks/hooks.json, so cairn gives up before Claude Code kills it. */
export const HOOK_TIME_LIMIT_MS = 5000;

interface Counts {
  /** Memories in view from this project: its repo's plus those bound to no repo. */
  here: number;
  /** Of `here`, those written in this project's repo (the rest are repo-less or global); absent: all of them. */
  project?: number;
  scopes: Record<string, number>;
  /** Visible memories bound to other repos. */
  elsewhere: number;
  /** The caller is not in a git repo: "here" is repo-less memories plus the global scopes. */
  outside?: boolean;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * The hook line, or '' when there is nothing to say. Scopes go largest first (ties by name) and
 * are elided from the end, as "+N more scopes", until the line fits the byte budget.
 */
export function formatHookLine(c: Counts): string {
  if (c.here === 0 && c.elsewhere === 0) return '';
  // Outside a repo (tools.md auto_scope): the same view memory_scope_overview and memory_search
  // use, named as such, and the way to reach the rest.
  const place = c.outside ? 'in view outside a git repo (repo-less and global scopes)' : 'for this project';
  // In a repo, memories bound to no repo are in view too, but they are not "for this project":
  // they are counted on their own.
  const project = c.outside ? c.here : (c.project ?? c.here);
  const shared = c.here - project;
  const sharedText = shared > 0 ? `${project === 0 ? ',' : ' and'} ${shared} not tied to any repo` : '';
  const head = c.here === 0 ? (c.outside ? 'cairn memory: none in view outside a git repo' : 'cairn memory: no memories for this project') : project === 0 && !c.outside ? `cairn memory: no memories for this project${sharedText}` : `cairn memory: ${plural(project, 'memory', 'memories')} ${place}${sharedText}`;
  const reach = c.outside ? ' (search them with auto_scope=false)' : '';
  const other = c.elsewhere === 0 ? '' : c.here === 0 ? `; ${c.elsewhere} in other repos${reach}` : `; ${c.elsewhere} more in other repos${reach}`;
  const tail = `${other}. Search them only when stored context could help.`;
  const entries = Object.entries(c.scopes).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const render = (k: number) => {
    const shown = entries.slice(0, k).map(([s, n]) => `${s} ${n}`);
    const rest = entries.length - k;
    if (rest > 0) shown.push(k === 0 ? `${plural(rest, 'scope', 'scopes')}` : `+${rest} more ${rest === 1 ? 'scope' : 'scopes'}`);
    return shown.length ? `${head} (${shown.join(', ')})${tail}` : `${head}${tail}`;
  };
  let best = render(0);
  for (let k = 1; k <= entries.length; k++) {
    const line = render(k);
    if (bytes(line) > HOOK_LINE_MAX_BYTES) break;
    best = line;
  }
  // Scope names are short ASCII by construction; this only guards the budget if they are not.
  return bytes(best) <= HOOK_LINE_MAX_BYTES ? best : Buffer.from(best).subarray(0, HOOK_LINE_MAX_BYTES).toString('utf8').replace(/\uFFFD+$/, '');
}

async function hookCounts(io: CliIO): Promise<Counts | null> {
  // Read the config before opening anything: a disabled hook must cost nothing, and a store that
  // does not exist yet must not be created by a session start.
  const loc = Cairn.locate({ env: io.env, cwd: io.cwd });
  if (!loc.config.hooks.session_start) return null;
  if (!existsSync(loc.dir) || !statSync(loc.dir).isDirectory()) return null;
  // The index cache's summary, when current: a 4 KB header and a small file instead of the
  // whole cache (the same counts; index/overviewCache.ts).
  const peek = await Cairn.peekOverview({ env: io.env, cwd: io.cwd });
  if (peek !== null) return { here: peek.total, project: peek.repoTotal, scopes: peek.scopes, elsewhere: peek.elsewhere, outside: peek.outside };
  // A peek at session start is not a use of memory: keep it out of the event log (log: false),
  // which health reads for retrieval and usage patterns.
  // oneShot 'cache': with an index cache, its records are the counts (the files are not checked:
  // a session start must stay fast, and a count off by a hand edit made since the last cairn
  // run is harmless); without one, the store loads as usual.
  const c = await Cairn.open({ env: io.env, cwd: io.cwd, watch: false, oneShot: 'cache', warn: () => {}, log: false });
  try {
    // The tool's own overview decides what is "here", so the hook and memory_scope_overview agree.
    const here = await c.sessionOverview();
    return { here: here.total, project: here.repo_total, scopes: here.scopes, elsewhere: here.elsewhere.total, outside: here.view === 'outside_repo' };
  } finally {
    await c.close();
  }
}

function hookTimeLimit(env: NodeJS.ProcessEnv): number {
  // Test seam: CAIRN_HOOK_TIME_LIMIT_MS shortens the limit; anything but a whole number is ignored.
  const v = env.CAIRN_HOOK_TIME_LIMIT_MS;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : HOOK_TIME_LIMIT_MS;
}

async function runHook(io: CliIO): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'timeout'>((res) => {
    timer = setTimeout(() => res('timeout'), hookTimeLimit(io.env));
  });
  try {
    const r = await Promise.race([hookCounts(io), limit]);
    if (r === 'timeout') {
      io.err(`cairn overview: gave up after ${hookTimeLimit(io.env)} ms\n`);
      // Whatever still runs (a slow disk, a hung git) must not hold the session start: end the
      // process shortly, with success. unref: if nothing hangs, the process ends on its own.
      setTimeout(() => process.exit(0), 100).unref();
      return 0;
    }
    const line = r ? formatHookLine(r) : '';
    if (line) io.out(`${line}\n`);
  } catch (err) {
    io.err(`cairn overview: ${errorMessage(err)}\n`);
  } finally {
    clearTimeout(timer);
  }
  return 0;
}

function overviewText(o: Awaited<ReturnType<Cairn['scopeOverview']>>, all: boolean): string {
  const where = all
    ? 'in the store'
    : o.current_repo
      ? `in view from ${o.current_repo}`
      : `in view here (not a git repo: memories from no repo, plus scopes ${o.global_scopes.join(', ') || '(none configured)'})`;
  const lines = [`${plural(o.total, 'memory', 'memories')} ${where}`];
  const names = Object.keys(o.scopes);
  const width = Math.max(0, ...names.map((s) => s.length));
  for (const s of names) lines.push(`  ${s.padEnd(width)}  ${o.scopes[s]}`);
  if (o.elsewhere.total > 0) {
    const named = o.elsewhere.repos.map((r) => `${r.repo} ${r.count}`);
    const rest = o.elsewhere.total - o.elsewhere.repos.reduce((n, r) => n + r.count, 0);
    if (rest > 0) named.push(`${rest} in further repos`);
    lines.push(`elsewhere: ${o.elsewhere.total} in other repos (${named.join(', ')}); cairn overview --all, cairn search --all-repos`);
  }
  if (o.team) {
    lines.push(`team store ${o.team.dir}: ${plural(o.team.total, 'memory', 'memories')} shared through the repository`);
    const tn = Object.keys(o.team.scopes);
    const tw = Math.max(0, ...tn.map((s) => s.length));
    for (const s of tn) lines.push(`  ${s.padEnd(tw)}  ${o.team.scopes[s]}`);
  }
  if (o.disabled_scopes.length) lines.push(`disabled: ${o.disabled_scopes.join(', ')}`);
  const p = o.curation_pending;
  const pending = [
    [p.stale, 'stale'],
    [p.never_verified, 'never verified'],
    [p.drifted, 'drifted'],
    [p.expired, 'expired'],
    [p.dead, 'dead weight'],
  ].filter(([n]) => (n as number) > 0);
  if (pending.length) lines.push(`curation pending: ${pending.map(([n, l]) => `${n} ${l}`).join(', ')} (cairn health)`);
  return `${lines.join('\n')}\n`;
}

export const overview: Command = {
  name: 'overview',
  summary: 'scope counts of the memories in view from this project (no bodies)',
  usage: 'cairn overview [--all] [--json] | cairn overview --hook',
  options,
  async run(argv, io) {
    // Hook mode first and before parsing: no argument mistake may fail a session start.
    if (argv.includes('--hook')) return runHook(io);
    const { values } = parse(argv, options, false);
    const all = values.all ?? false;
    const shown = progress(io);
    const c = await openCairn(io, shown);
    try {
      const o = await c.scopeOverview({ auto_scope: !all }, shown);
      if (values.json) printJson(io, o);
      else io.out(overviewText(o, all));
      return 0;
    } finally {
      await c.close();
    }
  },
};
