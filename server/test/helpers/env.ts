// Real temp directories and real git repos for tests: never mocks of the filesystem or of git.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

/**
 * The bundle's code cache (docs/config.md, "Code cache") for the processes tests start. Their HOME
 * is often the store itself, which would put the cache inside the store: one folder outside
 * every store instead, shared by the run (and faster than a cold compile in every process).
 */
export const TEST_CODE_CACHE = process.env.CAIRN_CODE_CACHE || join(tmpdir(), `cairn-test-code-cache-${process.getuid?.() ?? 'user'}`);

export function tempDir(prefix = 'cairn-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The identity a test's own git commands (standing in for a user's commits and pulls) run with,
 * so the suite passes on a machine where git has no identity configured.
 */
export const GIT_TEST_IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } as const;

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_TEST_IDENTITY } });
}

/** A real git repo with one commit and an origin remote URL (never contacted). */
export function tempRepo(remote = 'git@github.com:acme/widgets.git'): string {
  const dir = tempDir('cairn-repo-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'remote', 'add', 'origin', remote);
  writeFileSync(join(dir, 'README.md'), '# widgets\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'init');
  return dir;
}

export function commit(repo: string, file: string, text: string, message = `edit ${file}`): void {
  writeFileSync(join(repo, file), text);
  git(repo, 'add', file);
  git(repo, 'commit', '-q', '-m', message);
}

/** Keeps this thread busy for `ms`: no timer, no child's exit is handled meanwhile (a loaded machine, for git's time limits). */
export function busy(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // spinning
  }
}
