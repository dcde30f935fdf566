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

/**
 * Short scope words that name different things and are never typos of each other, however close
 * their spelling (`api`/`app`, `ci`/`cd`, `ops`/`qa`, `test`/`tests`).
 */
export const COMMON_SHORT_SCOPES: ReadonlySet<string> = new Set([
  'api', 'app', 'apps', 'cli', 'web', 'ui', 'ux', 'db', 'dbs', 'ops', 'infra', 'docs', 'doc', 'test', 'tests', 'ci', 'cd',
  'dev', 'prod', 'qa', 'ml', 'ai', 'ios', 'mac', 'os', 'sdk', 'cdn', 'dns', 'ssh', 'tls', 'ssl', 'vpn', 'aws', 'gcp', 'k8s',
  'git', 'go', 'js', 'ts', 'py', 'rb', 'css', 'sql', 'data', 'auth', 'logs', 'log', 'bugs', 'bug', 'perf', 'sec', 'mobile',
  'lint', 'deps', 'env', 'envs', 'sre', 'hr', 'pm', 'design', 'build', 'code', 'ide', 'vim', 'repo',
  'team', 'org', 'work', 'home', 'mail', 'chat', 'blog', 'site', 'www', 'etl', 'llm', 'gpu', 'cpu', 'ram', 'io',
]);

/** One adjacent transposition (`aip`/`api`)? Same length, two neighbouring letters swapped. */
function isTransposition(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff.push(i);
  return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
}

/**
 * Short words (both 4 characters or fewer) are judged strictly: one substitution turns a short
 * word into another real word far more often than into a misspelling (`api`/`app`, `web`/`wed`,
 * `ops`/`ups`), so only an adjacent transposition (`aip`/`api`) or a trailing plural `s`
 * (`doc`/`docs`) counts, and never between two COMMON_SHORT_SCOPES words. Nested scopes that
 * differ in exactly one segment (`projects:x:api` / `projects:x:app`) are judged on that segment.
 * Longer scopes keep the edit-distance budget of typoBudget.
 */
export function isTypoPair(a: string, b: string): boolean {
  if (a === b || (COMMON_SHORT_SCOPES.has(a) && COMMON_SHORT_SCOPES.has(b))) return false;
  const sa = a.split(/[:-]/);
  const sb = b.split(/[:-]/);
  if (sa.length > 1 && sa.length === sb.length) {
    const differing = sa.map((x, i) => [x, sb[i]!] as const).filter(([x, y]) => x !== y);
    if (differing.length === 1) {
      const [x, y] = differing[0]!;
      if (x.length <= 4 && y.length <= 4) return isShortTypoPair(x, y);
    }
  }
  if (a.length <= 4 && b.length <= 4) return isShortTypoPair(a, b);
  const budget = Math.min(2, typoBudget(a, b));
  return budget > 0 && editDistance(a, b, budget) <= budget;
}

function isShortTypoPair(a: string, b: string): boolean {
  if (COMMON_SHORT_SCOPES.has(a) && COMMON_SHORT_SCOPES.has(b)) return false;
  return isTransposition(a, b) || a === `${b}s` || b === `${a}s`;
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
      if (!isTypoPair(scope, other)) continue;
      similar.push({ scope: other, count: counts.get(other)!, distance: editDistance(scope, other) });
    }
    if (similar.length === 0) continue;
    similar.sort((a, b) => b.count - a.count || a.distance - b.distance || a.scope.localeCompare(b.scope));
    rows.push({ scope, id: owner.get(scope)!, similar_to: similar });
  }
  // Singletons next to a well-used scope are the likeliest typos: list them first.
  return rows.sort((a, b) => b.similar_to[0]!.count - a.similar_to[0]!.count || a.scope.localeCompare(b.scope));
}
