// Per-memory usage folded out of the event log: what health needs to know about each id.
// This is the one place that knows which event fields carry ids (the field names are the
// contract with the ops that log them; see fields below), so a renamed field breaks here only.
import type { CairnEvent } from './events.ts';

export const USE_OUTCOMES = ['applied', 'ignored', 'contradicted', 'corrected'] as const;
export type UseOutcome = (typeof USE_OUTCOMES)[number];

export interface TimelineEntry {
  ts: string;
  event: 'created' | 'contradicted' | 'corrected' | 'updated' | 'verified';
  note?: string;
  session?: string;
}

export interface MemoryUsage {
  /** Retrievals by the model (search hits at any relevance, and show) inside the window. */
  retrievedInWindow: number;
  /** Of those, the strong ones: search hits at medium or high relevance, and show. */
  strongInWindow: number;
  /** The model's last retrieval; lookups by the user do not count. */
  lastRetrieved: string | null;
  /** Lookups by the user (CLI, /memory-search) inside the window: reported, never counted as retrievals. */
  userLookupsInWindow: number;
  uses: Record<UseOutcome, number>;
  appliedInWindow: number;
  lastApplied: string | null;
  /** Contradictions, corrections, updates and verifications, oldest first. */
  timeline: TimelineEntry[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * Who asked for a retrieval (events.md): `actor: "user"` marks a person's own lookup (the CLI,
 * the /memory-search command); anything else, including events logged before the field existed,
 * is the model's.
 */
export type Actor = 'model' | 'user';
export const actorOf = (e: CairnEvent): Actor => (e.actor === 'user' ? 'user' : 'model');

/**
 * What a retrieval event returned: search `hits`/`results` [{id, relevance}], show `ids`.
 * `strong`: a search hit at medium or high relevance, or a memory read in full with show. A hit
 * with no recorded relevance is not strong (it cannot make a memory dead weight).
 */
export function retrievalsOf(e: CairnEvent): { id: string; strong: boolean }[] {
  if (e.kind === 'show') return strings(e.ids).map((id) => ({ id, strong: true }));
  if (e.kind !== 'search') return [];
  const rows = Array.isArray(e.hits) ? e.hits : Array.isArray(e.results) ? e.results : [];
  const out: { id: string; strong: boolean }[] = [];
  for (const r of rows) {
    const id = typeof r === 'string' ? r : (r as { id?: unknown })?.id;
    if (typeof id !== 'string') continue;
    const rel = typeof r === 'object' && r !== null ? (r as { relevance?: unknown }).relevance : undefined;
    out.push({ id, strong: rel === 'medium' || rel === 'high' });
  }
  return out;
}

/** Ids a retrieval event returned (by anyone). */
export function retrievedIds(e: CairnEvent): string[] {
  return retrievalsOf(e).map((r) => r.id);
}

/** A `use` event: the ids it names and its outcome (null when the line is not a valid use). */
export function useOf(e: CairnEvent): { ids: string[]; outcome: UseOutcome; note?: string } | null {
  if (e.kind !== 'use') return null;
  const outcome = e.outcome as UseOutcome;
  if (!USE_OUTCOMES.includes(outcome)) return null;
  const ids = strings(e.ids ?? e.memory_ids);
  return { ids, outcome, ...(typeof e.note === 'string' ? { note: e.note } : {}) };
}

function emptyUsage(): MemoryUsage {
  return {
    retrievedInWindow: 0,
    strongInWindow: 0,
    lastRetrieved: null,
    userLookupsInWindow: 0,
    uses: { applied: 0, ignored: 0, contradicted: 0, corrected: 0 },
    appliedInWindow: 0,
    lastApplied: null,
    timeline: [],
  };
}

export interface UsageFold {
  byId: Map<string, MemoryUsage>;
  eventsInWindow: number;
  /** Retrievals by the model inside the window. */
  retrievalsInWindow: number;
  /** Lookups by the user inside the window (not retrievals). */
  userLookupsInWindow: number;
  usesInWindow: Record<UseOutcome, number>;
  /** use events naming at least one id that is neither active nor tombstoned. */
  orphanEvents: number;
  orphanIds: string[];
}

/** Folds events (ts order) into per-id usage. `known` holds every active and tombstoned id. */
export function foldUsage(events: readonly CairnEvent[], windowStart: number, known: ReadonlySet<string>): UsageFold {
  const byId = new Map<string, MemoryUsage>();
  const get = (id: string) => {
    let u = byId.get(id);
    if (!u) byId.set(id, (u = emptyUsage()));
    return u;
  };
  const fold: UsageFold = {
    byId,
    eventsInWindow: 0,
    retrievalsInWindow: 0,
    userLookupsInWindow: 0,
    usesInWindow: { applied: 0, ignored: 0, contradicted: 0, corrected: 0 },
    orphanEvents: 0,
    orphanIds: [],
  };
  const orphanIds = new Set<string>();
  for (const e of events) {
    const t = Date.parse(e.ts);
    const inWindow = t >= windowStart;
    if (inWindow) fold.eventsInWindow++;
    const session = typeof e.session === 'string' ? e.session : undefined;
    const byUser = actorOf(e) === 'user';
    for (const { id, strong } of retrievalsOf(e)) {
      const u = get(id);
      if (byUser) {
        // A person looking something up is not the model finding it useful or useless.
        if (inWindow) {
          u.userLookupsInWindow++;
          fold.userLookupsInWindow++;
        }
        continue;
      }
      u.lastRetrieved = e.ts;
      if (inWindow) {
        u.retrievedInWindow++;
        if (strong) u.strongInWindow++;
        fold.retrievalsInWindow++;
      }
    }
    const use = useOf(e);
    if (use) {
      let orphan = false;
      let knownIds = 0;
      for (const id of use.ids) {
        if (!known.has(id)) {
          orphan = true;
          orphanIds.add(id);
          continue;
        }
        knownIds++;
        const u = get(id);
        u.uses[use.outcome]++;
        if (use.outcome === 'applied') {
          u.lastApplied = e.ts;
          if (inWindow) u.appliedInWindow++;
        }
        if (use.outcome === 'contradicted' || use.outcome === 'corrected') {
          u.timeline.push({ ts: e.ts, event: use.outcome, ...(use.note ? { note: use.note } : {}), ...(session ? { session } : {}) });
        }
      }
      // Ids that never existed are orphans (orphan_use_events), not uses.
      if (inWindow) fold.usesInWindow[use.outcome] += knownIds;
      if (orphan) fold.orphanEvents++;
    }
    if ((e.kind === 'update' || e.kind === 'verify') && typeof e.id === 'string') {
      const note = typeof e.note === 'string' ? e.note : undefined;
      get(e.id).timeline.push({
        ts: e.ts,
        event: e.kind === 'update' ? 'updated' : 'verified',
        ...(note ? { note } : {}),
        ...(session ? { session } : {}),
      });
    }
  }
  fold.orphanIds = [...orphanIds].sort();
  return fold;
}

export interface MarkerStat {
  marker: string;
  fires: number;
  overrides: number;
  /** overrides / fires; null when the marker never fired. */
  override_rate: number | null;
}

function markerLabels(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v
    .map((m) => (typeof m === 'string' ? m : (m as { marker?: unknown })?.marker))
    .filter((m): m is string => typeof m === 'string');
}

/**
 * Per durability marker: how often it fired and how often the writer overrode it.
 * Write and update events carry `markers` (labels detected) and `acknowledge_transient`. A fire
 * is one occasion the marker stood in the way: a write's `transient_warning` or a refused update
 * (`update_refused`), or an acknowledged write or update that no earlier warning of the same kind
 * (write or update) in the same session accounts for (acknowledged up front). An override is an
 * acknowledged write (committed or pending; one stopped later as a duplicate is retried and
 * counted then) or update carrying the marker. The usual warn-then-acknowledge pair is therefore
 * one fire and one override (rate 1), not two fires. A confirmed pending write's markers were
 * counted at its write event; write_confirm does not count them again.
 */
export function markerStats(events: readonly CairnEvent[]): MarkerStat[] {
  const stats = new Map<string, { fires: number; overrides: number }>();
  const pending = new Map<string, number>(); // `${write|update}\u0000${session}\u0000${marker}` -> unanswered warnings
  const stat = (m: string) => {
    let s = stats.get(m);
    if (!s) stats.set(m, (s = { fires: 0, overrides: 0 }));
    return s;
  };
  for (const e of events) {
    const family = e.kind === 'write' ? 'write' : e.kind === 'update' || e.kind === 'update_refused' ? 'update' : null;
    if (family === null) continue;
    const markers = markerLabels(e.markers ?? e.transient_markers);
    if (markers.length === 0) continue;
    const key = (m: string) => `${family}\u0000${String(e.session)}\u0000${m}`;
    const warning = e.kind === 'update_refused' || (e.kind === 'write' && e.status === 'transient_warning');
    const override = e.acknowledge_transient === true && (e.kind === 'update' || e.status === 'committed' || e.status === 'pending');
    if (warning) {
      for (const m of markers) {
        stat(m).fires++;
        pending.set(key(m), (pending.get(key(m)) ?? 0) + 1);
      }
    } else if (override) {
      for (const m of markers) {
        const s = stat(m);
        s.overrides++;
        const open = pending.get(key(m)) ?? 0;
        if (open > 0) pending.set(key(m), open - 1);
        else s.fires++;
      }
    }
  }
  return [...stats]
    .map(([marker, s]) => ({ marker, ...s, override_rate: s.fires ? Math.round((s.overrides / s.fires) * 1000) / 1000 : null }))
    .sort((a, b) => b.fires - a.fires || a.marker.localeCompare(b.marker));
}
