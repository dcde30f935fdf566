// Curation operations: memory_record_use, memory_health,
// memory_rename_scope, memory_scope_disable / memory_scope_enable, and the curation counts of
// memory_scope_overview. The health report itself is a pure function in core/curation/health.ts.
import type { ReadContext, RoutedContext, ScopeSwitches, StoreContext } from './context.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { readEvents } from '../curation/events.ts';
import { listConflicts } from '../sync/conflicts.ts';
import { computeHealth, deadWeight, DEFAULT_HEALTH_PARAMS, healthSteps, type DeadWeightRule, type HealthData, type HealthReport } from '../curation/health.ts';
import { runSliced, SLICE_MS, stagedProgress, type StepProgress } from '../curation/steps.ts';
import { foldUsage, USE_OUTCOMES, type UseOutcome } from '../curation/usage.ts';
import { normalizeRepoUrl, originRepoKey, redactRemoteUrl, repoRemotes } from '../origin.ts';
import { scopeAllowed, validateScope } from '../scopes.ts';
import { defaultCommitDriftCache } from '../trust/signals/commitDrift.ts';
import type { StoredMemory } from '../types.ts';
import { checkId, checkLimit, checkNote, hitFields } from './common.ts';
import { stripStored } from '../memory.ts';
import { danglingLinks, linksReady } from './notes.ts';

import { recordRename } from '../sync/renames.ts';
import { newId } from '../ids.ts';
import { nextTurn } from '../store/slices.ts';

export interface RenameScopeInput {
  old_scope: string;
  new_scope: string;
  include_tombstones?: boolean;
}
export interface RecordUseInput {
  memory_ids: string[];
  outcome: UseOutcome;
  note?: string;
}
export interface HealthInput {
  window_days?: number;
  top_k?: number;
  min_applied?: number;
}

export interface MigrateOriginInput {
  from: string;
  to: string;
  /** false (default): a dry run that changes nothing. */
  apply?: boolean;
}

export const MAX_USE_IDS = LIMITS.useIds;

/** The counts of memory_scope_overview's curation_pending. */
export async function curationPending(c: ReadContext, inView: StoredMemory[], expired: StoredMemory[]) {
  const fields = await hitFields(c, inView);
  return {
    stale: fields.filter((f) => f.verification.status === 'stale').length,
    never_verified: fields.filter((f) => f.verification.status === 'never').length,
    drifted: fields.filter((f) => f.path_drift_missing > 0 || (f.commit_drift_count ?? 0) > 0).length,
    expired: expired.length,
    dead: deadCount(c, inView),
  };
}

/** config.toml [curation] as the health rule. */
function deadWeightRule(c: Pick<StoreContext, 'config'>): DeadWeightRule {
  return { min_age_days: c.config.curation.dead_weight_min_age_days, min_retrievals: c.config.curation.dead_weight_min_retrievals };
}

/** Dead weight among these memories, over the default health window: the same rule as memory_health. */
function deadCount(c: ReadContext, mems: StoredMemory[]): number {
  if (mems.length === 0 || !c.config.telemetry.enabled) return 0;
  const now = c.now().getTime();
  const days = DEFAULT_HEALTH_PARAMS.window_days;
  const windowStart = now - days * 86_400_000;
  // The whole log, as memory_health reads it: an `applied` before the window still counts.
  const fold = foldUsage(readEvents(c.events.dir).events, windowStart, new Set(mems.map((m) => m.id)));
  const rule = deadWeightRule(c);
  return mems.filter((m) => deadWeight(m, fold.byId.get(m.id), now, days, rule) !== null).length;
}

export async function recordUse(c: RoutedContext, input: RecordUseInput): Promise<{ recorded: number; outcome: UseOutcome; unknown_ids: string[] }> {
  const raw = input.memory_ids as unknown;
  if (!Array.isArray(raw) || raw.length === 0) throw new ValidationError('memory_ids must be a non-empty array of the memory ids you retrieved');
  if (raw.length > MAX_USE_IDS) throw new ValidationError(`memory_ids has ${raw.length} entries: at most ${MAX_USE_IDS} per call`);
  if (!USE_OUTCOMES.includes(input.outcome)) {
    throw new ValidationError(`outcome must be one of ${USE_OUTCOMES.join(', ')}, got ${JSON.stringify(input.outcome)}`);
  }
  const note = checkNote(input.note, 'note', false);
  const ids = [...new Set(raw.map((x, i) => checkId(x, `memory_ids[${i}]`)))];
  await c.store.ensureFresh();
  await c.stores.settle(ids); // a memory being moved by another process is not unknown
  // A tombstoned id is known: the memory existed when it was retrieved.
  // A team memory's id is known too: use outcomes about it live in this (personal) event log.
  const known = (id: string) => c.stores.holds(id);
  const unknown = ids.filter((id) => !known(id));
  // Every id goes into the event, unknown ones too: health counts them as orphan use events.
  const fields = { ids, outcome: input.outcome, ...(note ? { note } : {}), unknown_ids: unknown };
  // Appended directly rather than through c.log: the answer says whether it was recorded.
  const written = c.events.append('use', fields);
  return { recorded: written ? ids.length - unknown.length : 0, outcome: input.outcome, unknown_ids: unknown };
}

/** memory_health's progress over its stages of these weights (the facade's health: each store's report, the consolidation pairs). */
export const healthStages = stagedProgress;

/** `other`: the other store sharing the event log (personal and team): its ids are known, not orphans. */
export async function health(c: ReadContext, input: HealthInput, other: Pick<StoreContext, 'store'> | null = null, progress?: StepProgress): Promise<HealthReport & { dangling_links: ReturnType<typeof danglingLinks> }> {
  const params = {
    window_days: checkLimit(input.window_days, 'window_days', LIMITS.healthWindowDays, DEFAULT_HEALTH_PARAMS.window_days),
    top_k: checkLimit(input.top_k, 'top_k', LIMITS.healthTopK, DEFAULT_HEALTH_PARAMS.top_k),
    min_applied: checkLimit(input.min_applied, 'min_applied', LIMITS.healthMinApplied, DEFAULT_HEALTH_PARAMS.min_applied),
  };
  progress?.(0, 2);
  await c.store.ensureFresh();
  const active = [...c.store.active()];
  const tombstones = [...c.store.tombstones()];
  const data: HealthData = {
    now: c.now(),
    active,
    tombstones,
    events: readEvents(c.events.dir).events,
    ...(other !== null ? { alsoKnown: [...[...other.store.active()].map((m) => m.id), ...[...other.store.tombstones()].map((m) => m.id)] } : {}),
    staleAfterDays: c.config.behavior.verification_stale_days,
    commitDrift: await repoDrift(c, active),
    deadWeight: deadWeightRule(c),
    origins: await originCheck(c),
    syncConflicts: await syncConflicts(c),
  };
  // A server computes the report and the link graph in slices: other calls answer meanwhile.
  const report = c.watch ? await runSliced(healthSteps(data, params)) : computeHealth(data, params);
  progress?.(1, 2);
  if (c.watch) await linksReady(c, nextTurn, SLICE_MS);
  const dangling = danglingLinks(c, params.top_k);
  progress?.(2, 2);
  return { ...report, dangling_links: dangling };
}

/** The conflicts a git sync preserved in this store (core/sync/conflicts.ts). */
async function syncConflicts(c: Pick<StoreContext, 'dir'>) {
  const l = await listConflicts(c.dir);
  return { memories: l.memories, files: l.files.map((f) => f.file) };
}

/** The caller's repo root and every remote URL it has: what memory_health's orphaned_origins compares against. */
async function originCheck(c: Pick<ReadContext, 'caller'>): Promise<{ root: string; known_remotes: string[] } | null> {
  const root = c.caller.repoRoot;
  if (!root) return null;
  return { root, known_remotes: await repoRemotes(root) };
}

/**
 * `cairn migrate-origin`: re-homes the memories (and tombstones) whose origin.repo names the same
 * repo as `from` (same repo key: scheme, user, .git and, on case-insensitive hosts, case ignored)
 * onto `to`. A dry run unless `apply`. Each file is one locked atomic write-back with one event;
 * `updated` stays (a relabel is not a new version of the fact). A crash midway leaves each file
 * whole, some moved and some not; running it again finishes the job.
 */
export async function migrateOrigin(c: StoreContext, input: MigrateOriginInput) {
  const url = (v: unknown, name: string): { shown: string; key: string } => {
    if (typeof v !== 'string' || v.trim() === '') throw new ValidationError(`${name} must be a remote URL such as https://github.com/me/widgets.git or git@github.com:me/widgets.git`);
    if (v.length > LIMITS.queryChars) throw new ValidationError(`${name} is ${v.length} characters long: at most ${LIMITS.queryChars}`);
    const key = normalizeRepoUrl(v);
    if (key === null) throw new ValidationError(`${name} ${JSON.stringify(redactRemoteUrl(v))} is not a remote URL`);
    return { shown: redactRemoteUrl(v.trim())!, key };
  };
  const from = url(input.from, 'from');
  const to = url(input.to, 'to');
  if (input.apply !== undefined && typeof input.apply !== 'boolean') throw new ValidationError('apply must be true or false');
  const apply = input.apply ?? false;
  await c.store.ensureFresh();
  const hit = (m: StoredMemory) => m.origin.repo !== null && originRepoKey(m.origin) === from.key;
  const targets = [...c.store.active(), ...c.store.tombstones()].filter(hit).sort((a, b) => a.id.localeCompare(b.id));
  if (targets.length === 0) {
    throw new NotFoundError(`no memory or tombstone has origin ${from.shown} (compared as ${from.key}); cairn health lists the origins that match none of this repo's remotes`);
  }
  if (from.key === to.key && targets.every((m) => m.origin.repo === to.shown)) {
    throw new ValidationError(`from and to name the same repo (${from.key}): nothing to migrate`);
  }
  const result = { from: from.shown, to: to.shown, applied: apply, active: [] as string[], tombstoned: [] as string[] };
  for (const t of targets) {
    if (t.origin.repo === to.shown) continue;
    if (!apply) {
      (t.tombstoned ? result.tombstoned : result.active).push(t.id);
      continue;
    }
    let was: string | null = null;
    const m = await c.store.modify(t.id, (cur) => {
      // Re-checked under the lock: another process may have moved it meanwhile.
      if (!hit(cur) || cur.origin.repo === to.shown) return stripStored(cur);
      was = cur.origin.repo;
      return { ...stripStored(cur), origin: { ...cur.origin, repo: to.shown } };
    });
    if (was === null) continue;
    (m.tombstoned ? result.tombstoned : result.active).push(m.id);
    c.log('migrate_origin', { id: m.id, from: was, to: to.shown, tombstoned: m.tombstoned });
  }
  return result;
}

/** Commits on the caller's HEAD since each verified memory of the caller's repo was verified (one git call). */
async function repoDrift(c: Pick<ReadContext, 'caller'>, active: StoredMemory[]): Promise<{ repo: string; commitsSinceVerify: Map<string, number> } | null> {
  const { repoRoot, repoKey } = c.caller;
  if (!repoRoot || !repoKey) return null;
  const mine = active.filter((m) => m.last_verified_at !== null && originRepoKey(m.origin) === repoKey);
  const counts = new Map<string, number>();
  if (mine.length > 0) {
    const res = await defaultCommitDriftCache.driftFor(repoRoot, mine.map((m) => ({ at: m.last_verified_at!, head: m.verified_head ?? null })));
    mine.forEach((m, i) => {
      const n = res[i]?.commits_since_verify;
      if (typeof n === 'number') counts.set(m.id, n);
    });
  }
  return { repo: repoKey, commitsSinceVerify: counts };
}

/** `old` itself and every scope nested under it (`old:...`), renamed; duplicates collapse. */
function renamed(scopes: string[], from: string, to: string): string[] {
  const out: string[] = [];
  for (const s of scopes) {
    const next = s === from ? to : s.startsWith(`${from}:`) ? to + s.slice(from.length) : s;
    if (!out.includes(next)) out.push(next);
  }
  return out;
}

/**
 * `opts.record: false`: a rename a sync brought in (sync/renames.ts), applied here, not recorded
 * again; `opts.only` narrows it to the memories the other machine did not have.
 */
export async function renameScope(c: StoreContext, input: RenameScopeInput, opts: { record?: boolean; only?: (m: StoredMemory) => boolean } = {}): Promise<{ active: string[]; tombstoned: string[] }> {
  const from = validateScope(input.old_scope, 'old_scope');
  const to = validateScope(input.new_scope, 'new_scope');
  if (from === to) throw new ValidationError(`old_scope and new_scope are both "${from}": give a different new_scope`);
  if (to.startsWith(`${from}:`)) throw new ValidationError(`new_scope "${to}" is nested inside old_scope "${from}": rename to a scope outside it`);
  if (!scopeAllowed(to, c.config.scopes.allowed)) {
    throw new ValidationError(`new_scope "${to}" is not allowed by scopes.allowed in config.toml: use one of ${c.config.scopes.allowed.join(', ')}`);
  }
  const withTombs = input.include_tombstones ?? true;
  if (typeof withTombs !== 'boolean') throw new ValidationError('include_tombstones must be true or false');
  await c.store.ensureFresh();
  const hit = (m: StoredMemory) => m.scopes.some((s) => s === from || s.startsWith(`${from}:`)) && (opts.only === undefined || opts.only(m));
  const targets = [...c.store.active()].filter(hit);
  if (withTombs) targets.push(...[...c.store.tombstones()].filter(hit));
  if (targets.length === 0) {
    throw new NotFoundError(`no ${withTombs ? 'memory or tombstone' : 'active memory'} has scope "${from}" (or a scope nested under it)`);
  }
  const result = { active: [] as string[], tombstoned: [] as string[] };
  // One batch (store.modifyMany): slices of files per turn of the lock, not a turn per file, and
  // never the lock for the whole rename. Each file is written atomically: a crash midway leaves
  // some files renamed and the rest untouched, each whole; running the rename again finishes it.
  const before = new Map(targets.map((t) => [t.id, t.scopes.join('\u0000')]));
  const written = await c.store.modifyMany(
    targets.map((t) => t.id).sort(),
    // A relabel is not a new version of the fact: `updated` stays, so recency ranking and
    // contradiction tracking are not disturbed by it.
    (cur) => ({ ...stripStored(cur), scopes: renamed(cur.scopes, from, to) }),
  );
  for (const m of written) {
    if (m.scopes.join('\u0000') === before.get(m.id)) continue;
    (m.tombstoned ? result.tombstoned : result.active).push(m.id);
  }
  c.log('rename_scope', { old_scope: from, new_scope: to, include_tombstones: withTombs, ...result, ...(opts.record === false ? { from_sync: true } : {}) });
  // A synced store carries the rename to the other machines, for memories they wrote offline.
  if (opts.record !== false) await recordRename(c.dir, { id: newId(c.now().getTime()), old_scope: from, new_scope: to, include_tombstones: withTombs, at: c.now().toISOString() });
  return result;
}

export async function scopeDisable(c: ScopeSwitches, input: { scope: string }) {
  const scope = validateScope(input.scope, 'scope');
  c.disabledScopes.add(scope);
  const disabled_scopes = [...c.disabledScopes].sort();
  c.log('scope_disable', { scope, disabled_scopes });
  return { disabled_scopes };
}

export async function scopeEnable(c: ScopeSwitches, input: { scope: string }) {
  const scope = validateScope(input.scope, 'scope');
  c.disabledScopes.delete(scope);
  const disabled_scopes = [...c.disabledScopes].sort();
  c.log('scope_enable', { scope, disabled_scopes });
  return { disabled_scopes };
}
