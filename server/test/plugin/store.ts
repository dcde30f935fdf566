// Builds real temp stores and git repos for the hook tests: memory files are written by hand in
// the on-disk format (format.md), so the test pins that contract rather than the writer's code.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fakeId } from '../helpers/records.ts';

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `cairn-${prefix}-`));
}

/** A real git repository with an origin remote, as Claude Code's project dir would be. */
export function gitRepo(remote: string): string {
  const dir = tempDir('repo');
  for (const args of [['init', '-q'], ['remote', 'add', 'origin', remote]]) {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  }
  return dir;
}


export interface MemSpec {
  scopes: string[];
  body: string;
  repo?: string | null;
  worktree?: string | null;
}

export function writeMemory(store: string, m: MemSpec): string {
  mkdirSync(store, { recursive: true, mode: 0o700 });
  const id = fakeId();
  const text = [
    '---',
    'schema_version: 1',
    `id: ${id}`,
    'created: 2026-03-14T10:23:00.000Z',
    'updated: 2026-03-14T10:23:00.000Z',
    `scopes: [${m.scopes.join(', ')}]`,
    'confidence: high',
    'source: explicit-statement',
    'category: fact',
    'last_verified_at: null',
    'expires: null',
    'origin:',
    `  cwd: ${m.worktree ?? '/tmp'}`,
    `  repo: ${m.repo ?? 'null'}`,
    '  branch: main',
    `  worktree_root: ${m.worktree ?? 'null'}`,
    '---',
    m.body,
    '',
  ].join('\n');
  const file = join(store, `2026-03-14-memory-${id.slice(-6).toLowerCase()}.md`);
  writeFileSync(file, text, { mode: 0o600 });
  return id;
}
