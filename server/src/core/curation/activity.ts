// Counts over time for the `cairn ui` overview: memories created and removed, retrievals by the
// model and lookups by the user, and use outcomes, per week. A pure function of the records and
// the event log (the same fields health reads, through usage.ts), so it is unit-testable.
import type { MemoryRecord } from '../types.ts';
import type { CairnEvent } from './events.ts';
import { actorOf, retrievalsOf, useOf, USE_OUTCOMES, type UseOutcome } from './usage.ts';

export interface ActivityBucket {
  /** First UTC day of the bucket (YYYY-MM-DD); the bucket holds `days` days. */
  start: string;
  end: string;
  created: number;
  removed: number;
  /** Memories the model retrieved (search hits at any relevance, and show), counted per hit. */
  retrievals: number;
  /** The user's own lookups (CLI, UI, /memory-search), counted per hit: shown, never mixed in. */
  user_lookups: number;
  uses: Record<UseOutcome, number>;
}

const DAY_MS = 86_400_000;

/** `buckets` buckets of `days` days each, the last one ending with today (UTC). */
export function activity(
  now: Date,
  records: readonly Pick<MemoryRecord, 'created' | 'removed'>[],
  events: readonly CairnEvent[],
  opts: { buckets: number; days: number },
): ActivityBucket[] {
  const end = Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS; // start of tomorrow, UTC
  const span = opts.days * DAY_MS;
  const first = end - opts.buckets * span;
  const out: ActivityBucket[] = [];
  for (let i = 0; i < opts.buckets; i++) {
    const s = first + i * span;
    out.push({
      start: new Date(s).toISOString().slice(0, 10),
      end: new Date(s + span - DAY_MS).toISOString().slice(0, 10),
      created: 0,
      removed: 0,
      retrievals: 0,
      user_lookups: 0,
      uses: Object.fromEntries(USE_OUTCOMES.map((o) => [o, 0])) as Record<UseOutcome, number>,
    });
  }
  const at = (ts: string | undefined): ActivityBucket | null => {
    if (ts === undefined) return null;
    const t = Date.parse(ts);
    if (!(t >= first && t < end)) return null; // NaN (an unreadable date) falls out here too
    return out[Math.floor((t - first) / span)]!;
  };
  for (const r of records) {
    const c = at(r.created);
    if (c) c.created++;
    const d = at(r.removed);
    if (d) d.removed++;
  }
  for (const e of events) {
    const b = at(e.ts);
    if (!b) continue;
    const hits = retrievalsOf(e).length;
    if (hits > 0) {
      if (actorOf(e) === 'user') b.user_lookups += hits;
      else b.retrievals += hits;
      continue;
    }
    const u = useOf(e);
    if (u) b.uses[u.outcome] += u.ids.length;
  }
  return out;
}
