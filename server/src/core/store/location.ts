// Where the store is (format.md): $CAIRN_DIR, then storage.directory in the config file,
// then ./.cairn/ in the working directory if it exists, then ~/.cairn/.
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { configPath, loadConfigFile, type Config } from '../config.ts';

export interface StoreLocation {
  dir: string;
  /** Which rule picked it: env, config, project, home. */
  via: 'env' | 'config' | 'project' | 'home';
  /** The config file that was read (inside the default location) and its content. */
  config: Config;
  configFile: string;
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
 * cairn reads the config of the default location (./.cairn or ~/.cairn); when it points
 * elsewhere, that store's own config.toml (if any) is the one used.
 */
export function resolveStore(opts: ResolveOptions = {}): StoreLocation {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const home = opts.home ?? env.HOME ?? homedir();
  const fromEnv = env.CAIRN_DIR;
  if (fromEnv && fromEnv.trim() !== '') {
    const dir = resolve(cwd, expandHome(fromEnv, home));
    return { dir, via: 'env', config: loadConfigFile(configPath(dir)), configFile: configPath(dir) };
  }
  const project = join(cwd, '.cairn');
  const projectExists = existsSync(project) && statSync(project).isDirectory();
  const fallback = projectExists ? project : join(home, '.cairn');
  const baseConfigFile = configPath(fallback);
  const base = loadConfigFile(baseConfigFile);
  const configured = base.storage.directory;
  if (configured) {
    const expanded = expandHome(configured, home);
    const dir = isAbsolute(expanded) ? expanded : resolve(fallback, expanded);
    if (dir !== fallback) {
      const ownFile = configPath(dir);
      const own = existsSync(ownFile) ? loadConfigFile(ownFile) : base;
      return { dir, via: 'config', config: own, configFile: existsSync(ownFile) ? ownFile : baseConfigFile };
    }
  }
  return { dir: fallback, via: projectExists ? 'project' : 'home', config: base, configFile: baseConfigFile };
}
