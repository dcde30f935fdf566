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
  // Weights in a reusable array indexed by slot (a Map of up to MAX_POSTINGS entries and a sort
  // of all of them cost ~1 ms per write at 50k); the best `limit` picked in one pass.
  if (scratch.length < p.alive.length) scratch = new Float64Array(Math.max(p.alive.length, scratch.length * 2));
  const weight = scratch;
  const touched: number[] = [];
  let walked = 0;
  for (const t of ids.slice(0, MAX_TERMS)) {
    if (walked >= MAX_POSTINGS) break;
    const idf = Math.log(1 + (p.live - p.df[t]! + 0.5) / (p.df[t]! + 0.5));
    const list = p.lists[t]!;
    const len = p.listLen[t]!;
    for (let i = 0; i < len && walked < MAX_POSTINGS; i++, walked++) {
      const slot = list[i]! & SLOT_MASK;
      if (p.alive[slot] === 0) continue;
      if (weight[slot] === 0) touched.push(slot);
      weight[slot] = weight[slot]! + idf;
    }
  }
  // Best first: higher weight, then lower slot.
  const best: number[] = [];
  for (const slot of touched) {
    const w = weight[slot]!;
    if (best.length === limit) {
      const last = best[limit - 1]!;
      const lw = weight[last]!;
      if (w < lw || (w === lw && slot > last)) continue;
      best.pop();
    }
    let i = best.length;
    while (i > 0) {
      const o = best[i - 1]!;
      const ow = weight[o]!;
      if (ow > w || (ow === w && o < slot)) break;
      i--;
    }
    best.splice(i, 0, slot);
  }
  for (const slot of touched) weight[slot] = 0;
  return best;
}

let scratch = new Float64Array(0);
