// What memory_consolidate and memory_health report of the consolidation index's judged pairs,
// among the memories a caller admits (visible, matching its scope filters): the groups
// (consolidate.ts groupsOf) or only how many of each kind. Written as steps (steps.ts) that a
// server runs in slices.
//
// The copies of a text (same tokens, same place) make one duplicate cluster; a pair judged
// between two texts is reported on the memories that stand for them, or, when one is not
// admitted, on its first admitted copy (judged again on that one's ids).
import { groupCountSteps, groupsOfSteps, type ConsolidateGroup, type GroupKind } from './consolidate.ts';
import type { Steps } from './steps.ts';

/** What the report reads of the index. */
export interface JudgedPairs {
  /** The ids of each text's copies, the one standing for them first. */
  copies(): Iterable<string[]>;
  /** The ids of the copies of this memory's text (itself included), the one standing for them first. */
  copiesOf(id: string): readonly string[];
  /** Judged relations, under both ids. */
  edges: ReadonlyMap<string, ReadonlyMap<string, ConsolidateGroup>>;
  /** The pair `g` judged again on copies `a` and `b` of its two texts, or null when it does not hold there. */
  again(g: ConsolidateGroup, a: string, b: string): ConsolidateGroup | null;
}

type Include = (id: string) => boolean;

/** Every pair among the memories `include` admits, into `pairs`. */
function* pairSteps(p: JudgedPairs, include: Include, pairs: ConsolidateGroup[]): Steps<void> {
  const standIn = (id: string): string | null => {
    if (include(id)) return id;
    for (const c of p.copiesOf(id)) if (include(c)) return c;
    return null;
  };
  let n = 0;
  for (const copies of p.copies()) {
    if (++n % 256 === 0) yield;
    if (copies.length < 2) continue;
    const ids = copies.filter(include).sort();
    for (let i = 1; i < ids.length; i++) {
      pairs.push({ kind: 'duplicates', ids: [ids[0]!, ids[i]!], reason: 'the same words', suggested_action: 'memory_merge them into one memory' });
    }
  }
  for (const [a, m] of p.edges) {
    if (++n % 256 === 0) yield;
    const sa = standIn(a);
    if (sa === null) continue;
    for (const [b, g] of m) {
      if (a > b) continue;
      const sb = standIn(b);
      if (sb === null) continue;
      if (sa === a && sb === b) pairs.push(g);
      else {
        const again = p.again(g, sa, sb);
        if (again) pairs.push(again);
      }
    }
  }
}

/** The groups among the memories `include` admits, in consolidate.ts's order. */
export function* groupSteps(p: JudgedPairs, include: Include): Steps<ConsolidateGroup[]> {
  const pairs: ConsolidateGroup[] = [];
  yield* pairSteps(p, include, pairs);
  return yield* groupsOfSteps(pairs);
}

/** How many groups of each kind groupSteps gives, without making them (memory_health's summary). */
export function* countSteps(p: JudgedPairs, include: Include): Steps<Record<GroupKind, number>> {
  const pairs: ConsolidateGroup[] = [];
  yield* pairSteps(p, include, pairs);
  return yield* groupCountSteps(pairs);
}
