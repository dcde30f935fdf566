// Where a memory was written from (format.md `origin`), and which repo the caller is in.
// git runs via child_process with a short time limit; outside a repo every field is null.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Origin } from './types.ts';

const GIT_TIMEOUT_MS = 2_000;
const CACHE_MS = 30_000;

/**
 * git's output, or null when it fails or still runs after `timeout` ms (it is then stopped). The
 * limit is a timer of this module's: execFile's own stops the process and throws its output away
 * as soon as it fires, so a git that had answered while this thread was busy (a command decoding
 * its index cache on a loaded machine) read as failed when the timer came first. This one first
 * lets the events waiting behind it be handled, and stops only a git that has not ended.
 */
export function git(cwd: string, args: string[], timeout = GIT_TIMEOUT_MS, env?: Record<string, string>): Promise<string | null> {
  return new Promise((res) => {
    const child = execFile('git', args, { cwd, windowsHide: true, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', ...env } }, (err, stdout) => {
      clearTimeout(limit);
      res(err ? null : stdout);
    });
    const limit = setTimeout(() => {
      setImmediate(() => {
        if (child.exitCode !== null || child.signalCode !== null) return; // ended: its output is on its way
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.kill();
      });
    }, timeout);
  });
}

interface RepoInfo {
  root: string;
  gitDir: string;
  url: string | null;
}
const repoCache = new Map<string, { at: number; info: RepoInfo | null }>();

export async function repoInfo(cwd: string): Promise<RepoInfo | null> {
  const hit = repoCache.get(cwd);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.info;
  // Both at once (two processes side by side, not one after the other: a spawn is 15-25 ms); the
  // remote is used only when rev-parse says this is a repository.
  const [out, remote] = await Promise.all([git(cwd, ['rev-parse', '--show-toplevel', '--git-dir']), git(cwd, ['config', '--get', 'remote.origin.url'])]);
  let info: RepoInfo | null = null;
  if (out) {
    const [root, gitDir] = out.trim().split('\n');
    if (root && gitDir) {
      // Never keep a credential: the URL is stored in memories, shown to the model and exported.
      const url = redactRemoteUrl(remote?.trim() || null);
      info = { root, gitDir: isAbsolute(gitDir) ? gitDir : resolve(cwd, gitDir), url };
    }
  }
  repoCache.set(cwd, { at: Date.now(), info });
  return info;
}

/** The branch from HEAD, read directly (cheap, always current); null when detached. */
function currentBranch(gitDir: string): string | null {
  try {
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const m = /^ref: refs\/heads\/(.+)$/.exec(head);
    return m ? m[1]! : null;
  } catch {
    return null;
  }
}

export async function captureOrigin(cwd: string): Promise<Origin> {
  const info = await repoInfo(cwd);
  if (!info) return { cwd, repo: null, branch: null, worktree_root: null };
  return { cwd, repo: info.url, branch: currentBranch(info.gitDir), worktree_root: info.root };
}

/** ssh's conventional user: not a credential, and part of how people write ssh remotes. */
const KEPT_USER = 'git';

/**
 * A remote URL with nothing secret in it: userinfo (`https://user:token@host/...`, a token used as
 * the user name) and the query string and fragment are removed; ssh's `git@` user is kept. Local
 * paths are returned as they are. Applied to every remote URL before it is stored, compared, shown
 * or exported, and to every origin read from a file (a file holding one is rewritten clean on its
 * next change).
 */
export function redactRemoteUrl(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  const u = url.trim();
  const clean = redactTrimmed(u);
  // Unchanged values come back byte for byte (surrounding spaces included): a file's value is
  // only ever rewritten when something was actually removed.
  return clean === u ? url : clean;
}

function redactTrimmed(u: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(u);
  if (scheme) {
    let authority = scheme[2]!;
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      const user = authority.slice(0, at);
      authority = (user === KEPT_USER ? `${user}@` : '') + authority.slice(at + 1);
    }
    const rest = scheme[3]!.replace(/[?#].*$/s, '');
    return `${scheme[1]}${authority}${rest}`;
  }
  // scp form: [user@]host:path (a colon before any slash, not a Windows drive letter).
  const scp = /^(?:([^/]*)@)?([^@:/\\]+):(?!\/\/)(.*)$/s.exec(u);
  if (scp && !/^[a-z]:[\\/]/i.test(u)) {
    const user = scp[1];
    return `${user === KEPT_USER ? `${user}@` : ''}${scp[2]}:${scp[3]!.replace(/[?#].*$/s, '')}`;
  }
  return u;
}

/** Does this URL carry something redactRemoteUrl would remove (a credential, a query)? */
export function hasUrlSecrets(url: string | null | undefined): boolean {
  return url !== null && url !== undefined && redactRemoteUrl(url) !== url;
}

/**
 * Hosts whose owner and repository names are case-insensitive: `github.com/Me/Widgets` and
 * `github.com/me/widgets` are one repo there. Elsewhere (self-hosted servers, local paths) the
 * path is compared exactly, since a server may well treat case as significant.
 */
export const CASE_INSENSITIVE_HOSTS: ReadonlySet<string> = new Set(['github.com', 'gitlab.com', 'bitbucket.org']);
/** Other names of those hosts (web and ssh-over-443 endpoints): the same repos. */
const HOST_ALIASES: Readonly<Record<string, string>> = {
  'www.github.com': 'github.com',
  'ssh.github.com': 'github.com',
  'www.gitlab.com': 'gitlab.com',
  'altssh.gitlab.com': 'gitlab.com',
  'www.bitbucket.org': 'bitbucket.org',
  'altssh.bitbucket.org': 'bitbucket.org',
};

/**
 * A comparable key for a remote URL: `host/owner/name`, lowercase host, no `.git`, no user,
 * no port, no query. git@h:o/r.git, https://h/o/r, ssh://git@h:22/o/r.git all give `h/o/r`; on
 * a case-insensitive host (CASE_INSENSITIVE_HOSTS) the path is lowercased too.
 */
export function normalizeRepoUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  let u = redactRemoteUrl(url)!;
  if (u === '') return null;
  let host = '';
  let path = '';
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(u);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+)$/i.exec(u);
  if (withScheme) {
    host = withScheme[1]!;
    path = withScheme[2]!;
  } else if (scp && !/^[a-z]:\\/i.test(u)) {
    host = scp[1]!;
    path = scp[2]!;
  } else {
    // A local path remote: compare by the resolved path.
    u = u.replace(/^file:\/\//, '');
    return `local${resolve(u).replace(/\.git\/?$/, '').replace(/\/+$/, '')}`;
  }
  path = path.replace(/\/+$/, '').replace(/\.git$/i, '').replace(/^\/+/, '');
  host = host.toLowerCase();
  host = HOST_ALIASES[host] ?? host;
  return `${host}/${CASE_INSENSITIVE_HOSTS.has(host) ? path.toLowerCase() : path}`;
}

/**
 * Every remote URL of the repo at `root` (fetch and push URLs of every remote), redacted, in the
 * order git lists them; [] when git fails. What memory_health calls the caller's known remotes.
 */
export async function repoRemotes(root: string): Promise<string[]> {
  const out = await git(root, ['config', '--get-regexp', '^remote\\..*\\.(url|pushurl)$']);
  if (!out) return [];
  const urls: string[] = [];
  for (const line of out.split('\n')) {
    const sp = line.indexOf(' ');
    const url = sp < 0 ? '' : redactRemoteUrl(line.slice(sp + 1).trim())!;
    if (url !== '' && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

export interface Caller {
  cwd: string;
  repoRoot: string | null;
  repoUrl: string | null;
  /** Normalized key of the caller's repo; falls back to the worktree root when there is no remote. */
  repoKey: string | null;
}

/** Key that decides "same repo" for a memory's origin and the caller. */
export function originRepoKey(o: { repo: string | null; worktree_root: string | null }): string | null {
  return normalizeRepoUrl(o.repo) ?? (o.worktree_root ? `root:${o.worktree_root}` : null);
}

export async function resolveCaller(env: NodeJS.ProcessEnv, cwd: string): Promise<Caller> {
  const dir = env.CLAUDE_PROJECT_DIR && env.CLAUDE_PROJECT_DIR.trim() !== '' ? resolve(cwd, env.CLAUDE_PROJECT_DIR) : cwd;
  const info = await repoInfo(dir);
  if (!info) return { cwd: dir, repoRoot: null, repoUrl: null, repoKey: null };
  return {
    cwd: dir,
    repoRoot: info.root,
    repoUrl: info.url,
    repoKey: originRepoKey({ repo: info.url, worktree_root: info.root }),
  };
}
