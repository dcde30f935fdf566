// Near-duplicate candidates: the documents sharing the rarest terms of a text, weighted by idf.
// A near-duplicate (Jaccard >= 0.4 over content terms) shares a large part of its terms with the
// text, so it necessarily shares some of the rarest ones; walking only those few short lists keeps
// the cost bounded whatever the store size.
import { SLOT_MASK, type Postings } from './postings.ts';

/** Distinct rare terms looked at. */
const MAX_TERMS = 12;
/** Upper bound on list entries walked (a text made only of very common words stops here). */
const MAX_POSTINGS = 20_000;

export function candidates(p: Postings, terms: Iterable<string>, limit: number): number[] {
  if (limit <= 0 || p.live === 0) return [];
  const ids: number[] = [];
  for (const t of terms) {
    const id = p.termIds.get(t);
    if (id !== undefined && p.df[id]! > 0) ids.push(id);
  }
  ids.sort((a, b) => p.df[a]! - p.df[b]! || a - b);
  const weight = new Map<number, number>();
  let walked = 0;
  for (const t of ids.slice(0, MAX_TERMS)) {
    if (walked >= MAX_POSTINGS) break;
    const idf = Math.log(1 + (p.live - p.df[t]! + 0.5) / (p.df[t]! + 0.5));
    const list = p.lists[t]!;
    const len = p.listLen[t]!;
    for (let i = 0; i < len && walked < MAX_POSTINGS; i++, walked++) {
      const slot = list[i]! & SLOT_MASK;
      if (p.alive[slot] === 0) continue;
      weight.set(slot, (weight.get(slot) ?? 0) + idf);
    }
  }
  return [...weight.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([slot]) => slot);
}
