// Where a memory was written from (format.md `origin`), and which repo the caller is in.
// git runs via child_process with a short time limit; outside a repo every field is null.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Origin } from './types.ts';

const GIT_TIMEOUT_MS = 2_000;
const CACHE_MS = 30_000;

export function git(cwd: string, args: string[], timeout = GIT_TIMEOUT_MS): Promise<string | null> {
  return new Promise((res) => {
    execFile('git', args, { cwd, timeout, windowsHide: true, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }, (err, stdout) => {
      res(err ? null : stdout);
    });
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
  const out = await git(cwd, ['rev-parse', '--show-toplevel', '--git-dir']);
  let info: RepoInfo | null = null;
  if (out) {
    const [root, gitDir] = out.trim().split('\n');
    if (root && gitDir) {
      const url = (await git(cwd, ['config', '--get', 'remote.origin.url']))?.trim() || null;
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

/**
 * A comparable key for a remote URL: `host/owner/name`, lowercase host, no `.git`, no user,
 * no port. git@h:o/r.git, https://h/o/r, ssh://git@h:22/o/r.git all give `h/o/r`.
 */
export function normalizeRepoUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  let u = url.trim();
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
  path = path.replace(/\/+$/, '').replace(/\.git$/, '').replace(/^\/+/, '');
  return `${host.toLowerCase()}/${path}`;
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
