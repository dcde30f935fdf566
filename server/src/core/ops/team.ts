// The team store (README "Team memory"): `.cairn/` at the git root of the caller's repository,
// committed with the code and marked by team.toml. `cairn team init` creates it; the facade opens
// it beside the personal store when it exists (config [team] enabled, default true).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadContext, RoutedContext } from './context.ts';
import { ValidationError } from '../errors.ts';
import { TEAM_MARKER, findTeamStore } from '../store/location.ts';
import { teamStoreOf } from './stores.ts';
import { ensureDir, writeFileAtomic } from '../store/fsatomic.ts';
import { ensureLines, GITATTRIBUTES_LINES, GITIGNORE_LINES, registerMergeDriver } from '../sync/repo.ts';

/** team.toml's text: the marker, and the README line a teammate reads first. */
export const TEAM_MARKER_TEXT = [
  '# cairn team store: memories shared with everyone who clones this repository.',
  '# Each *.md file here is one memory (docs/format.md); commit them with the code.',
  '# Written with `memory_write store: "team"` or `cairn remember --team`; never secrets or claims about a person.',
  '# Caches, the event log and pending writes stay on each machine (.gitignore).',
  '',
].join('\n');

const README_TEXT = [
  'This directory is a cairn team store: project memories shared through git.',
  'Each .md file is one memory (id, scopes, body); .tombstones/ holds removed ones with the reason.',
  'cairn searches it beside each developer\'s personal memories when run in this repository (README "Team memory").',
  '',
].join('\n');

export interface TeamInitResult {
  dir: string;
  repo_root: string;
  created: boolean;
  files: string[];
  /** the merge driver registered in this clone's .git/config (null when the caller gave no command) */
  merge_driver: string | null;
}

export interface TeamInitInput {
  /** The command that runs cairn (node and the bundle): registered as this clone's merge driver. */
  driver?: readonly string[];
}

/** Creates (or completes) the team store of the caller's repository; changes nothing else. */
export async function teamInit(c: Pick<ReadContext, 'caller' | 'dir' | 'env'>, input: TeamInitInput = {}): Promise<TeamInitResult> {
  const root = c.caller.repoRoot;
  if (root === null) throw new ValidationError(`${c.caller.cwd} is not inside a git repository: run cairn team init in the repository whose team store it is`);
  const dir = join(root, '.cairn');
  if (dir === c.dir) {
    throw new ValidationError(
      `${dir} is the store in use (${c.env.CAIRN_DIR ? '$CAIRN_DIR points at it' : 'a project store: .cairn/ without team.toml'}): a team store is shared through git with everyone who has the repository, so cairn will not turn a personal store into one; review its memories, then create ${join(dir, TEAM_MARKER)} by hand to share them as they are, or move the personal store elsewhere first. Nothing was changed`,
    );
  }
  const existed = findTeamStore(root) !== null;
  const files: string[] = [];
  await ensureDir(dir);
  const marker = join(dir, TEAM_MARKER);
  if (!existsSync(marker)) {
    await writeFileAtomic(marker, TEAM_MARKER_TEXT, 0o644);
    files.push(marker);
  }
  const readme = join(dir, 'README.txt');
  if (!existsSync(readme)) {
    await writeFileAtomic(readme, README_TEXT, 0o644);
    files.push(readme);
  }
  if (await ensureLines(join(dir, '.gitignore'), GITIGNORE_LINES, '# cairn: per-machine files (caches, event log, pending writes, locks) are never shared')) files.push(join(dir, '.gitignore'));
  // Two teammates editing one memory: git's merge of .cairn/*.md goes through cairn's driver
  // (field by field; a body conflict kept in .cairn/.conflicts/). The attributes are committed; the
  // driver is per clone (.git/config), so each teammate runs cairn team init once; a clone without
  // it gets git's line merge, never worse.
  if (await ensureLines(join(dir, '.gitattributes'), GITATTRIBUTES_LINES, '# cairn: memory files merge field by field (cairn merge-driver)')) files.push(join(dir, '.gitattributes'));
  const merge_driver = input.driver ? await registerMergeDriver(root, input.driver) : null;
  return { dir, repo_root: root, created: !existed, files, merge_driver };
}

export interface TeamStatus {
  enabled: boolean;
  repo_root: string | null;
  dir: string | null;
  open: boolean;
  active: number;
  tombstoned: number;
}

export function teamStatus(c: RoutedContext): TeamStatus {
  const t = c.stores.team;
  return {
    enabled: c.config.team.enabled,
    repo_root: c.caller.repoRoot,
    dir: t?.dir ?? teamStoreOf(c.config, c.caller),
    open: t !== null,
    active: t ? t.store.activeCount : 0,
    tombstoned: t ? [...t.store.tombstones()].length : 0,
  };
}

/** Ids both stores hold (active or removed): the personal memory answers for them (README "Team memory"). */
export function idClashes(c: RoutedContext): string[] {
  const t = c.stores.team;
  if (t === null) return [];
  const out: string[] = [];
  for (const src of [t.store.active(), t.store.tombstones()]) for (const m of src) if (c.store.holds(m.id)) out.push(m.id);
  return out.sort();
}

/**
 * What memory_health adds for the team store beyond its own report: files it could not read (a
 * teammate's hand edit, a merge left with markers), ids it shares with the personal store, and
 * .gitignore lines missing (then caches or the event log could be committed).
 */
export function teamProblems(c: RoutedContext) {
  const t = c.stores.team;
  if (t === null) return null;
  let ignore: string[] = [];
  try {
    ignore = readFileSync(join(t.dir, '.gitignore'), 'utf8').split(/\r?\n/).map((l) => l.trim());
  } catch {
    ignore = [];
  }
  return {
    unreadable_files: [...t.store.skipped(), ...t.store.shadowed()].map((f) => ({ file: f.file, reason: f.reason })),
    id_clashes: idClashes(c),
    gitignore_missing: GITIGNORE_LINES.filter((l) => !ignore.includes(l)),
  };
}
