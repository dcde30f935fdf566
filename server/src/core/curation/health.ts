// memory_health (tools.md): a pure function of the store's records, the event log and, in a
// repo, the commit drift of memories from that repo. No I/O here, so every section is
// unit-testable on hand-built data; core/ops/curation.ts gathers the inputs.
import { normalizeRepoUrl } from '../origin.ts';
import type { MemoryRecord } from '../types.ts';
import { verificationOf, type VerificationStatus } from '../trust/signals/verification.ts';
import { repoKeyOf, summarize } from '../memory.ts';
import type { CairnEvent } from './events.ts';
import { foldUsage, markerStats, type MarkerStat, type MemoryUsage, type TimelineEntry, type UseOutcome } from './usage.ts';
import { rareScopes, type RareScopeRow } from './rareScopes.ts';
import { runSteps, type Steps } from './steps.ts';
import { TopK } from './topK.ts';

export interface HealthParams {
  window_days: number;
  top_k: number;
  min_applied: number;
}
export const DEFAULT_HEALTH_PARAMS: HealthParams = { window_days: 30, top_k: 10, min_applied: 3 };

/** When a memory is dead weight (config.toml [curation]); see deadWeight(). */
export interface DeadWeightRule {
  min_age_days: number;
  min_retrievals: number;
}
export const DEFAULT_DEAD_WEIGHT: DeadWeightRule = { min_age_days: 14, min_retrievals: 3 };

export interface HealthData {
  now: Date;
  active: readonly MemoryRecord[];
  tombstones: readonly MemoryRecord[];
  events: readonly CairnEvent[];
  staleAfterDays: number;
  /** In a repo: commits on HEAD since last_verified_at for the memories of that repo; null outside a repo. */
  commitDrift: { repo: string; commitsSinceVerify: ReadonlyMap<string, number> } | null;
  /** In a repo: its root and every remote URL it has (fetch and push, all remotes); null outside a repo. */
  origins?: { root: string; known_remotes: readonly string[] } | null;
  /** config.toml [curation]; DEFAULT_DEAD_WEIGHT when absent. */
  deadWeight?: DeadWeightRule;
  /** Disagreements a git sync preserved (.conflicts/ in the store). */
  syncConflicts?: { memories: readonly SyncConflictRow[]; files: readonly string[] };
  /** Ids the other store holds (personal and team share one event log): known, never orphans. */
  alsoKnown?: Iterable<string>;
}

/** One preserved sync disagreement: the text kept and the one that was not. */
export interface SyncConflictRow {
  id: string;
  kind: 'body' | 'removed-edited';
  file: string;
  kept: { updated: string; body: string; removed: string | null };
  other: { updated: string; body: string; removed: string | null };
}

interface Row {
  id: string;
  scopes: string[];
  summary: string;
}
interface Section<R> {
  count: number;
  rows: R[];
}

export interface HealthReport {
  generated_at: string;
  window_days: number;
  top_k: number;
  min_applied: number;
  totals: {
    active: number;
    expired: number;
    tombstoned: number;
    scopes: number;
    events: number;
    events_in_window: number;
    retrievals_in_window: number;
    user_lookups_in_window: number;
    uses_in_window: Record<UseOutcome, number>;
  };
  contradicted: Section<Row & { contradictions: number; last_contradicted: string; last_resolved: string | null; resolution_timeline: TimelineEntry[] }>;
  dead_weight: Section<DeadWeightRow> & { rule: DeadWeightRule & { relevance: ['medium', 'high']; actor: 'model' } };
  rare_scopes: Section<RareScopeRow>;
  verification_debt: {
    never: number;
    stale: number;
    fresh: number;
    /** `warning`: last_verified_at lies in the future (trust/signals/verification.ts), so it vouches for nothing */
    rows: (Row & { status: VerificationStatus; age_days: number | null; last_verified_at: string | null; warning?: string })[];
  };
  commit_drift_debt: { applies: boolean; repo: string | null; count: number; rows: (Row & { commits_since_verify: number; last_verified_at: string })[] };
  expired: Section<Row & { expires: string }>;
  cold: Section<Row & { created: string; age_days: number; last_retrieved: string | null }>;
  heavily_used: Section<Row & { applied: number; last_applied: string | null }>;
  scope_health: { scope: string; active: number; dead: number; cold: number; contradicted: number; applied: number }[];
  marker_stats: MarkerStat[];
  orphan_use_events: { count: number; ids: string[] };
  /** What a git sync could not merge silently: both texts of each, until the file is deleted. */
  sync_conflicts: { count: number; rows: (SyncConflictRow & { summary: string })[]; files: string[] };
  orphaned_origins: {
    applies: boolean;
    known_remotes: string[];
    count: number;
    rows: { repo: string; count: number; ids: string[]; fix: string }[];
  };
}

export interface DeadWeightRow extends Row {
  /** Strong retrievals by the model in the window (search hits at medium/high relevance, shows). */
  retrieved: number;
  last_retrieved: string | null;
  age_days: number;
  /** The user's own lookups in the window: shown, never counted. */
  user_lookups: number;
  /** Why it qualified, in words. */
  why: string;
}

const DAY_MS = 86_400_000;
/**
 * Code-unit order for ids (ULIDs) and ISO timestamps: the same order localeCompare gives these
 * ASCII strings of one shape, without its cost (sorting 20,000 rows by localeCompare was ~0.3 s).
 */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const TIMELINE_MAX = 20;
/** A record's updated / last_verified_at matches an update / verify event this close to it. */
const LOGGED_MATCH_MS = 60_000;
const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : Date.parse(a) >= Date.parse(b) ? a : b);

/** The resolution state of one memory: unresolved when the last contradiction is newer than the last update/verify. */
function contradiction(m: MemoryRecord, u: MemoryUsage | undefined) {
  const tl = u?.timeline ?? [];
  const lastContra = [...tl].reverse().find((t) => t.event === 'contradicted');
  if (!lastContra) return null;
  let resolved: string | null = later(m.updated === m.created ? null : m.updated, m.last_verified_at);
  for (const t of tl) if (t.event === 'updated' || t.event === 'verified') resolved = later(resolved, t.ts);
  if (resolved !== null && Date.parse(resolved) >= Date.parse(lastContra.ts)) return null;
  // The story so far: creation, then every contradiction, correction, update and verification.
  const timeline: TimelineEntry[] = [{ ts: m.created, event: 'created' }, ...tl];
  // The record's stamp and its event's ts are two clock readings (the event is logged after the
  // write, lock and git HEAD lookup included): an event of that kind within LOGGED_MATCH_MS is it.
  const logged = (ev: string, ts: string | null) => ts === null || tl.some((t) => t.event === ev && Math.abs(Date.parse(t.ts) - Date.parse(ts)) <= LOGGED_MATCH_MS);
  if (m.updated !== m.created && !logged('updated', m.updated)) timeline.push({ ts: m.updated, event: 'updated' });
  if (!logged('verified', m.last_verified_at)) timeline.push({ ts: m.last_verified_at!, event: 'verified' });
  timeline.sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
  const since = resolved === null ? -Infinity : Date.parse(resolved);
  return {
    contradictions: tl.filter((t) => t.event === 'contradicted' && Date.parse(t.ts) > since).length,
    last_contradicted: lastContra.ts,
    last_resolved: resolved,
    resolution_timeline: timeline.slice(-TIMELINE_MAX),
  };
}

/**
 * Dead weight is a memory the model keeps finding and never uses: all of
 * - at least `min_age_days` old (a memory written this week has not had its chance yet);
 * - at least `min_retrievals` strong retrievals BY THE MODEL in the window: search hits at
 *   medium or high relevance, or memory_show (a low-relevance hit is noise of the query, and a
 *   person's own lookup says nothing about the model's use);
 * - never `applied` in the event log.
 * Returns the row fields, with the reason in words, or null when the memory does not qualify.
 */
export function deadWeight(m: MemoryRecord, u: MemoryUsage | undefined, now: number, windowDays: number, rule: DeadWeightRule) {
  const ageDays = Math.floor((now - Date.parse(m.created)) / DAY_MS);
  if (!(ageDays >= rule.min_age_days)) return null; // an unreadable date is not evidence of age
  const strong = u?.strongInWindow ?? 0;
  if (strong < rule.min_retrievals || (u?.uses.applied ?? 0) > 0) return null;
  const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
  const looked = u?.userLookupsInWindow ? `; your own ${u.userLookupsInWindow} lookup(s) not counted` : '';
  return {
    retrieved: strong,
    last_retrieved: u?.lastRetrieved ?? null,
    age_days: ageDays,
    user_lookups: u?.userLookupsInWindow ?? 0,
    why:
      `${ageDays} days old (at least ${rule.min_age_days}); found by the model ${times(strong)} at medium or high relevance ` +
      `in the last ${windowDays} days (at least ${rule.min_retrievals}); never applied${looked}`,
  };
}

export function computeHealth(data: HealthData, params: HealthParams = DEFAULT_HEALTH_PARAMS): HealthReport {
  return runSteps(healthSteps(data, params));
}

/** Memories looked at between two yields of healthSteps. */
const STEP = 128;

/** computeHealth, yielding every STEP memories (steps.ts): a server runs it in slices. */
export function* healthSteps(data: HealthData, params: HealthParams = DEFAULT_HEALTH_PARAMS): Steps<HealthReport> {
  let n = 0;
  const { window_days, top_k, min_applied } = params;
  const rule = data.deadWeight ?? DEFAULT_DEAD_WEIGHT;
  const now = data.now.getTime();
  const windowStart = now - window_days * DAY_MS;
  const known = new Set([...data.active.map((m) => m.id), ...data.tombstones.map((m) => m.id), ...(data.alsoKnown ?? [])]);
  const fold = foldUsage(data.events, windowStart, known);
  const usage = (id: string) => fold.byId.get(id);
  const isExpired = (m: MemoryRecord) => m.expires !== null && Date.parse(m.expires) <= now;
  // Each section keeps its count and its first top_k rows (topK.ts); only those get a row and a
  // summary (a row and a sort for every memory were most of the report at 20,000 memories).
  const row = (m: MemoryRecord): Row => ({ id: m.id, scopes: m.scopes, summary: summarize(m.body) });
  const byId = <T extends { m: MemoryRecord }>(a: T, b: T) => cmp(a.m.id, b.m.id);

  type Contra = { m: MemoryRecord; c: NonNullable<ReturnType<typeof contradiction>> };
  const contradicted = new TopK<Contra>(top_k, (a, b) => b.c.contradictions - a.c.contradictions || cmp(b.c.last_contradicted, a.c.last_contradicted) || byId(a, b));
  type Dead = { m: MemoryRecord; d: NonNullable<ReturnType<typeof deadWeight>> };
  const dead = new TopK<Dead>(top_k, (a, b) => b.d.retrieved - a.d.retrieved || byId(a, b));
  const cold = new TopK<{ m: MemoryRecord }>(top_k, (a, b) => cmp(a.m.created, b.m.created) || byId(a, b));
  type Heavy = { m: MemoryRecord; applied: number };
  const heavy = new TopK<Heavy>(top_k, (a, b) => b.applied - a.applied || byId(a, b));
  // Never-verified first, then stale: a verification dated in the future first (it vouches for
  // nothing), then the longest unverified.
  type Debt = { m: MemoryRecord; v: ReturnType<typeof verificationOf> };
  const rank = (v: Debt['v']) => (v.status === 'never' ? 0 : v.warning ? 1 : 2);
  const debtRows = new TopK<Debt>(top_k, (a, b) => rank(a.v) - rank(b.v) || (b.v.age_days ?? 0) - (a.v.age_days ?? 0) || byId(a, b));
  const debt = { never: 0, stale: 0, fresh: 0 };
  const expired = new TopK<{ m: MemoryRecord }>(top_k, (a, b) => cmp(a.m.expires!, b.m.expires!) || byId(a, b));
  // Scopes: counts, singleton owners, per-scope health.
  const counts = new Map<string, number>();
  const owner = new Map<string, string>();
  const perScope = new Map<string, HealthReport['scope_health'][number]>();

  yield;
  for (const m of data.active) {
    if (++n % STEP === 0) yield;
    const u = usage(m.id);
    const c = contradiction(m, u);
    if (c) contradicted.add({ m, c });
    const applied = u?.appliedInWindow ?? 0;
    let isDead = false;
    let isCold = false;
    if (isExpired(m)) expired.add({ m });
    else {
      // expired memories have their own section and leave search anyway
      const d = deadWeight(m, u, now, window_days, rule);
      if (d) {
        isDead = true;
        dead.add({ m, d });
      }
      if ((u?.retrievedInWindow ?? 0) === 0 && Date.parse(m.created) < windowStart) {
        isCold = true;
        cold.add({ m });
      }
      if (applied >= min_applied) heavy.add({ m, applied });
    }
    for (const s of m.scopes) {
      counts.set(s, (counts.get(s) ?? 0) + 1);
      owner.set(s, m.id);
      let h = perScope.get(s);
      if (!h) perScope.set(s, (h = { scope: s, active: 0, dead: 0, cold: 0, contradicted: 0, applied: 0 }));
      h.active++;
      if (isDead) h.dead++;
      if (isCold) h.cold++;
      if (c) h.contradicted++;
      h.applied += applied;
    }
    // Verification: every active memory falls in exactly one bucket, so the counts sum to the total.
    const v = verificationOf(m.last_verified_at, data.now, data.staleAfterDays);
    debt[v.status]++;
    if (v.status !== 'fresh') debtRows.add({ m, v });
  }
  yield;
  const rare = rareScopes(counts, owner);

  const drift = new TopK<{ m: MemoryRecord; k: number }>(top_k, (a, b) => b.k - a.k || byId(a, b));
  if (data.commitDrift) {
    for (const m of data.active) {
      if (++n % STEP === 0) yield;
      const k = data.commitDrift.commitsSinceVerify.get(m.id);
      if (k !== undefined && k > 0 && m.last_verified_at) drift.add({ m, k });
    }
  }
  yield;

  // Origins that no longer match a remote: memories written from the caller's worktree whose
  // origin.repo is none of the repo's current remotes (it was renamed, moved or re-pointed).
  const orphaned = new Map<string, { repo: string; ids: string[] }>();
  const oc = data.origins ?? null;
  if (oc) {
    const known = new Set(oc.known_remotes.map((u) => normalizeRepoUrl(u)));
    for (const m of [...data.active, ...data.tombstones]) {
      if (++n % STEP === 0) yield;
      if (m.origin.repo === null || m.origin.worktree_root !== oc.root) continue;
      // originRepoKey, remembered per origin object: the normalized URL, or `root:` when it has none
      const key = repoKeyOf(m);
      if (key === null || key.startsWith('root:') || known.has(key)) continue;
      let g = orphaned.get(key);
      if (!g) orphaned.set(key, (g = { repo: m.origin.repo, ids: [] }));
      g.ids.push(m.id);
    }
  }
  const target = oc?.known_remotes[0] ?? '<new remote URL>';
  const orphanRows = [...orphaned.values()]
    .sort((a, b) => b.ids.length - a.ids.length || a.repo.localeCompare(b.repo))
    .map((g) => ({ repo: g.repo, count: g.ids.length, ids: g.ids.sort().slice(0, top_k), fix: `cairn migrate-origin --from ${g.repo} --to ${target} --apply` }));

  return {
    generated_at: data.now.toISOString(),
    window_days,
    top_k,
    min_applied,
    totals: {
      active: data.active.length,
      expired: expired.count,
      tombstoned: data.tombstones.length,
      scopes: counts.size,
      events: data.events.length,
      events_in_window: fold.eventsInWindow,
      retrievals_in_window: fold.retrievalsInWindow,
      user_lookups_in_window: fold.userLookupsInWindow,
      uses_in_window: fold.usesInWindow,
    },
    contradicted: { count: contradicted.count, rows: contradicted.rows().map(({ m, c }) => ({ ...row(m), ...c })) },
    dead_weight: { count: dead.count, rows: dead.rows().map(({ m, d }) => ({ ...row(m), ...d })), rule: { ...rule, relevance: ['medium', 'high'], actor: 'model' } },
    rare_scopes: { count: rare.length, rows: rare.slice(0, top_k) },
    verification_debt: {
      ...debt,
      rows: debtRows.rows().map(({ m, v }) => ({ ...row(m), status: v.status, age_days: v.age_days, last_verified_at: m.last_verified_at, ...(v.warning ? { warning: v.warning } : {}) })),
    },
    commit_drift_debt: {
      applies: data.commitDrift !== null,
      repo: data.commitDrift?.repo ?? null,
      count: drift.count,
      rows: drift.rows().map(({ m, k }) => ({ ...row(m), commits_since_verify: k, last_verified_at: m.last_verified_at! })),
    },
    expired: { count: expired.count, rows: expired.rows().map(({ m }) => ({ ...row(m), expires: m.expires! })) },
    cold: {
      count: cold.count,
      rows: cold.rows().map(({ m }) => ({ ...row(m), created: m.created, age_days: Math.floor((now - Date.parse(m.created)) / DAY_MS), last_retrieved: usage(m.id)?.lastRetrieved ?? null })),
    },
    heavily_used: { count: heavy.count, rows: heavy.rows().map(({ m, applied }) => ({ ...row(m), applied, last_applied: usage(m.id)?.lastApplied ?? null })) },
    scope_health: [...perScope.values()].sort((a, b) => a.scope.localeCompare(b.scope)),
    marker_stats: markerStats(data.events),
    orphan_use_events: { count: fold.orphanEvents, ids: fold.orphanIds.slice(0, top_k) },
    sync_conflicts: {
      count: (data.syncConflicts?.memories.length ?? 0) + (data.syncConflicts?.files.length ?? 0),
      rows: (data.syncConflicts?.memories ?? []).slice(0, top_k).map((r) => ({ ...r, summary: summarize(r.kept.body) })),
      files: [...(data.syncConflicts?.files ?? [])],
    },
    orphaned_origins: { applies: oc !== null, known_remotes: oc ? [...oc.known_remotes] : [], count: orphanRows.length, rows: orphanRows.slice(0, top_k) },
  };
}
