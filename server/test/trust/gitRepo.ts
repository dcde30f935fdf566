// A real git repository in a temp dir, with commits at chosen committer times, for commit-drift
// tests. Times are set through GIT_COMMITTER_DATE so counts do not depend on the wall clock.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempRepo {
  root: string;
  git(...args: string[]): string;
  /** Adds a commit touching `file`, committed at `at`. Returns its sha. */
  commit(at: Date, file?: string): string;
}

export function makeRepo(prefix = 'cairn-trust-repo-', remote?: string): TempRepo {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  let n = 0;
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' },
    }).trim();
  git('init', '-q', '-b', 'main');
  if (remote) git('remote', 'add', 'origin', remote);
  return {
    root,
    git,
    commit(at: Date, file = `f${n}.txt`) {
      writeFileSync(join(root, file), `change ${n++}\n`);
      git('add', file);
      execFileSync('git', ['commit', '-q', '-m', `c${n}`], {
        cwd: root,
        env: {
          ...process.env,
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@example.com',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@example.com',
          GIT_AUTHOR_DATE: at.toISOString(),
          GIT_COMMITTER_DATE: at.toISOString(),
        },
      });
      return git('rev-parse', 'HEAD');
    },
  };
}

export const day = (n: number, base = Date.parse('2026-01-01T00:00:00.000Z')) => new Date(base + n * 86_400_000);
