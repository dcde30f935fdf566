// Plain-text rendering of records for people at a terminal.
type Row = {
  id: string;
  scopes: string[];
  updated: string;
  staleness_verdict?: string;
  verification?: { status: string; warning?: string };
  summary?: string;
  store?: string;
};

/** A staleness verdict in words, the same in every command: `spot check required`, not the JSON value. */
export function verdictWords(verdict: string | undefined): string {
  return (verdict ?? '').replace(/_/g, ' ');
}

export function listLine(r: Row): string {
  const v = r.staleness_verdict === 'fresh' ? 'fresh' : r.verification?.status === 'never' ? 'unverified' : r.verification?.warning ? 'verified in the future: spot check required' : verdictWords(r.staleness_verdict);
  return `${r.id}  ${r.updated.slice(0, 10)}  [${r.scopes.join(', ')}]  ${v}${r.store === 'team' ? '  (team)' : ''}\n    ${r.summary ?? ''}\n`;
}

export function recordText(r: Record<string, unknown> & Row & { body: string; origin?: Record<string, unknown> }): string {
  const lines = [
    `id:         ${r.id}`,
    ...(r.store === 'team' ? ['store:      team (this repository\'s .cairn/, shared through git)'] : []),
    `scopes:     ${r.scopes.join(', ')}`,
    `confidence: ${String(r.confidence)}   category: ${String(r.category)}   source: ${String(r.source)}`,
    `created:    ${String(r.created)}`,
    `updated:    ${r.updated}`,
    `verified:   ${r.last_verified_at ?? 'never'} (${verdictWords(r.staleness_verdict)})`,
  ];
  if (r.verification?.warning) lines.push(`warning:    ${r.verification.warning}`);
  if (r.expires) lines.push(`expires:    ${String(r.expires)}`);
  const o = r.origin;
  if (o && (o.repo || o.worktree_root)) lines.push(`origin:     ${String(o.repo ?? o.worktree_root)}${o.branch ? ` (${String(o.branch)})` : ''}`);
  const pd = r.path_drift as { missing?: string[] } | undefined;
  if (pd?.missing?.length) lines.push(`missing:    ${pd.missing.join(', ')}`);
  return `${lines.join('\n')}\n\n${r.body}\n`;
}
