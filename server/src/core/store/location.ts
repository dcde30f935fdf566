// Where the store is (format.md): $CAIRN_DIR, then storage.directory in the config file,
// then a project store: the nearest .cairn/ from the working directory up to its repository root
// (only the working directory itself outside a repo), then ~/.cairn/.
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { configPath, loadConfigFile, type Config } from '../config.ts';

export interface StoreLocation {
  dir: string;
  /** Which rule picked it: env, config, project, home. */
  via: 'env' | 'config' | 'project' | 'home';
  /** The config file that was read (inside the default location) and its content. */
  config: Config;
  configFile: string;
  /** Why this store, in a sentence (cairn doctor shows it). */
  why: string;
}

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The nearest `.cairn/` directory from `cwd` up to the repository root holding `cwd` (a `.git`
 * directory or file marks the root), or in `cwd` alone outside a repository. Never above the
 * root: a `.cairn/` in a parent of several repos belongs to none of them. Returns the searched
 * range for the explanation too.
 */
export function findProjectStore(cwd: string): { dir: string | null; searched: string[]; root: string | null } {
  const chain: string[] = [];
  let root: string | null = null;
  for (let d = resolve(cwd); ; d = dirname(d)) {
    chain.push(d);
    if (existsSync(join(d, '.git'))) {
      root = d;
      break;
    }
    if (dirname(d) === d) break;
  }
  const searched = root === null ? [resolve(cwd)] : chain;
  // A team store (team.toml) is shared through the repository: never anyone's personal store.
  for (const d of searched) if (isDir(join(d, '.cairn')) && !isTeamStore(join(d, '.cairn'))) return { dir: join(d, '.cairn'), searched, root };
  return { dir: null, searched, root };
}

/** The file that marks a `.cairn/` directory as a team store (README "Team memory"). */
export const TEAM_MARKER = 'team.toml';

export function isTeamStore(dir: string): boolean {
  return existsSync(join(dir, TEAM_MARKER));
}

/**
 * The team store of a repository: `<repoRoot>/.cairn/` when it holds team.toml, else null. One
 * stat outside a team repo (nothing is created or read), so a repo without one costs nothing.
 */
export function findTeamStore(repoRoot: string | null): string | null {
  if (repoRoot === null) return null;
  const dir = join(repoRoot, '.cairn');
  return isTeamStore(dir) ? dir : null;
}

export function expandHome(p: string, home = homedir()): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return join(home, p.slice(2));
  return p;
}

export interface ResolveOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  home?: string;
}

/**
 * The config file lives in the store it configures. For `storage.directory` to be found at all,
 * cairn reads the config of the default location (the project .cairn or ~/.cairn); when it points
 * elsewhere, that store's own config.toml (if any) is the one used.
 */
export function resolveStore(opts: ResolveOptions = {}): StoreLocation {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const home = opts.home ?? env.HOME ?? homedir();
  const fromEnv = env.CAIRN_DIR;
  if (fromEnv && fromEnv.trim() !== '') {
    const dir = resolve(cwd, expandHome(fromEnv, home));
    return { dir, via: 'env', config: loadConfigFile(configPath(dir)), configFile: configPath(dir), why: `$CAIRN_DIR is set to ${fromEnv}` };
  }
  const found = findProjectStore(cwd);
  const projectExists = found.dir !== null;
  const fallback = found.dir ?? join(home, '.cairn');
  const range = found.root === null ? `in ${found.searched[0]} (not in a git repo, so no parent is searched)` : `from ${found.searched[0]} up to the repo root ${found.root}`;
  const projectWhy = projectExists ? `project store: .cairn/ found at ${dirname(found.dir!)}, searching ${range}` : `home default: no .cairn/ ${range}`;
  const baseConfigFile = configPath(fallback);
  const base = loadConfigFile(baseConfigFile);
  const configured = base.storage.directory;
  if (configured) {
    const expanded = expandHome(configured, home);
    const dir = isAbsolute(expanded) ? expanded : resolve(fallback, expanded);
    if (dir !== fallback) {
      const ownFile = configPath(dir);
      const own = existsSync(ownFile) ? loadConfigFile(ownFile) : base;
      return { dir, via: 'config', config: own, configFile: existsSync(ownFile) ? ownFile : baseConfigFile, why: `storage.directory = ${JSON.stringify(configured)} in ${baseConfigFile} (${projectWhy})` };
    }
  }
  return { dir: fallback, via: projectExists ? 'project' : 'home', config: base, configFile: baseConfigFile, why: projectWhy };
}
