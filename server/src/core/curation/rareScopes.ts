// Rare scopes: a scope used by exactly one memory that is spelled almost like another scope is
// most likely a typo (`deployment` vs `deploymnet`, `tool` vs `tools`), and a typo'd scope hides
// its memory from every filter on the real one.

/** Levenshtein distance, giving up early once it must exceed `max` (returns max + 1). */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The largest distance that still reads as a misspelling: 2, but 1 for scopes of 3-5
 * characters and 0 below that, so distinct short words (`api`/`cli`, `ci`/`cd`, `ui`/`db`)
 * are never reported as typos of each other.
 */
export function typoBudget(a: string, b: string): number {
  const len = Math.min(a.length, b.length);
  return len >= 6 ? 2 : len >= 3 ? 1 : 0;
}

export interface RareScopeRow {
  scope: string;
  /** The one memory carrying it. */
  id: string;
  /** The scopes it is probably a misspelling of, most used first. */
  similar_to: { scope: string; count: number; distance: number }[];
}

/** `counts`: active memories per scope; `owner`: for singleton scopes, the memory that has it. */
export function rareScopes(counts: ReadonlyMap<string, number>, owner: ReadonlyMap<string, string>): RareScopeRow[] {
  const all = [...counts.keys()];
  const rows: RareScopeRow[] = [];
  for (const [scope, n] of counts) {
    if (n !== 1) continue;
    const similar: RareScopeRow['similar_to'] = [];
    for (const other of all) {
      if (other === scope) continue;
      const budget = Math.min(2, typoBudget(scope, other));
      if (budget === 0) continue;
      const d = editDistance(scope, other, budget);
      if (d <= budget) similar.push({ scope: other, count: counts.get(other)!, distance: d });
    }
    if (similar.length === 0) continue;
    similar.sort((a, b) => b.count - a.count || a.distance - b.distance || a.scope.localeCompare(b.scope));
    rows.push({ scope, id: owner.get(scope)!, similar_to: similar });
  }
  // Singletons next to a well-used scope are the likeliest typos: list them first.
  return rows.sort((a, b) => b.similar_to[0]!.count - a.similar_to[0]!.count || a.scope.localeCompare(b.scope));
}
