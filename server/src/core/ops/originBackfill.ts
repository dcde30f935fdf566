// `cairn migrate origin`: fill in the origin of memories written before origins existed (no
// `origin:` block, or one with every field null), so auto_scope can place them. A dry run unless
// `apply`; each file is rewritten atomically under the store lock with one `migrate_origin` event.
//
// Where the origin comes from, first match wins:
//   1. `scope_repos` (SCOPE=URL, in the order given): a memory carrying SCOPE (or a scope nested
//      under it) gets URL;
//   2. `repo`: every remaining one gets URL;
//   3. a store that is the `.cairn/` folder at the top of a git work tree (a project or team store)
//      belongs to that repository: its remote.origin.url (or, without a remote, its top folder).
// A store elsewhere (~/.cairn) holds memories of many projects: without 1 or 2 nothing is guessed
// and they are listed as left alone. Tombstones are skipped: they are out of every view anyway.
import { basename, dirname } from 'node:path';
import type { StoreContext } from './context.ts';
import { ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { normalizeRepoUrl, redactRemoteUrl } from '../origin.ts';
import { scopeFilterMatcher, validateScopeFilter } from '../scopes.ts';
import { stripStored } from '../memory.ts';
import type { Origin, StoredMemory } from '../types.ts';
import { remoteUrl, repoTop } from '../sync/repo.ts';

export interface BackfillOriginInput {
  /** The repository every memory without an origin belongs to. */
  repo?: string;
  /** SCOPE=URL routes: a memory with that scope belongs to URL. */
  scope_repos?: string[];
  /** false (default): a dry run that changes nothing. */
  apply?: boolean;
}

export interface BackfillOriginRow {
  id: string;
  repo: string | null;
  worktree_root: string | null;
  /** how it was placed: the scope route that matched, `--repo`, or the store's own repository */
  via: string;
}

const noOrigin = (m: StoredMemory): boolean => m.origin.repo === null && m.origin.cwd === null && m.origin.worktree_root === null && m.origin.branch === null;

function checkUrl(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.trim() === '') throw new ValidationError(`${what} must be a remote URL such as git@github.com:me/widgets.git`);
  if (v.length > LIMITS.queryChars) throw new ValidationError(`${what} is ${v.length} characters long: at most ${LIMITS.queryChars}`);
  if (normalizeRepoUrl(v) === null) throw new ValidationError(`${what} ${JSON.stringify(redactRemoteUrl(v))} is not a remote URL`);
  return redactRemoteUrl(v.trim())!;
}

/** The repository a `.cairn/` store at the top of a git work tree belongs to, else null. */
async function ownRepo(dir: string): Promise<{ repo: string | null; root: string } | null> {
  if (basename(dir) !== '.cairn') return null;
  const top = await repoTop(dirname(dir));
  if (top === null || top !== dirname(dir)) return null;
  const url = await remoteUrl(top);
  return { repo: url === null ? null : redactRemoteUrl(url), root: top };
}

export async function backfillOrigin(c: StoreContext, input: BackfillOriginInput) {
  if (input.apply !== undefined && typeof input.apply !== 'boolean') throw new ValidationError('apply must be true or false');
  const repo = input.repo === undefined ? null : checkUrl(input.repo, 'repo');
  const routes = (input.scope_repos ?? []).map((r) => {
    const eq = typeof r === 'string' ? r.indexOf('=') : -1;
    if (eq <= 0) throw new ValidationError(`scope route ${JSON.stringify(r)} must be SCOPE=URL, e.g. projects:widgets=git@github.com:me/widgets.git`);
    const scope = validateScopeFilter(r.slice(0, eq), 'scope route');
    return { scope, url: checkUrl(r.slice(eq + 1), `the URL of scope route ${scope}`), match: scopeFilterMatcher([scope]) };
  });
  const own = routes.length === 0 && repo === null ? await ownRepo(c.dir) : null;
  await c.store.ensureFresh();
  const place = (m: StoredMemory): BackfillOriginRow | null => {
    const route = routes.find((r) => r.match(m.scopes));
    if (route) return { id: m.id, repo: route.url, worktree_root: null, via: `scope ${route.scope}` };
    if (repo !== null) return { id: m.id, repo, worktree_root: null, via: '--repo' };
    if (own !== null) return { id: m.id, repo: own.repo, worktree_root: own.root, via: 'the store\'s repository' };
    return null;
  };
  const targets = [...c.store.active()].filter(noOrigin).sort((a, b) => a.id.localeCompare(b.id));
  const apply = input.apply ?? false;
  const result = { applied: apply, store_repo: own?.repo ?? own?.root ?? null, placed: [] as BackfillOriginRow[], left: [] as string[] };
  for (const t of targets) {
    const row = place(t);
    if (row === null) {
      result.left.push(t.id);
      continue;
    }
    if (!apply) {
      result.placed.push(row);
      continue;
    }
    let changed = false;
    await c.store.modify(t.id, (cur) => {
      // Re-checked under the lock: another process may have given it an origin meanwhile.
      if (!noOrigin(cur)) return stripStored(cur);
      changed = true;
      // cwd stays null: where each memory was written is not known after the fact.
      const origin: Origin = { cwd: null, repo: row.repo, branch: null, worktree_root: row.worktree_root };
      return { ...stripStored(cur), origin };
    });
    if (!changed) continue;
    result.placed.push(row);
    c.log('migrate_origin', { id: t.id, from: null, to: row.repo ?? row.worktree_root, tombstoned: false });
  }
  return result;
}
