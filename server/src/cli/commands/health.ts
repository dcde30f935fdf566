// `cairn health`: the memory_health report. --json prints the tool's object as is; the text form
// puts the most actionable sections first (what is wrong, then what is unused, then what is old).
import type { HealthReport } from '../../core/cairn.ts';
import { type Command, JSON_OPTION, intOption, openCairn, parse, printJson } from '../io.ts';
import { progress } from '../progress.ts';

const options = {
  days: { type: 'string', arg: 'N', help: 'the window of the event log to read, in days (1-3650, default from config)' },
  'top-k': { type: 'string', arg: 'N', help: 'rows shown per section (1-100)' },
  'min-applied': { type: 'string', arg: 'N', help: 'applied uses that make a memory "heavily used" (1-10000)' },
  json: { ...JSON_OPTION, help: 'print memory_health\'s object as is' },
} as const;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const day = (ts: string | null) => (ts ? ts.slice(0, 10) : 'never');
const more = (count: number, shown: number) => (count > shown ? [`  … and ${count - shown} more (--top-k to see them)`] : []);

function line(r: { id: string; scopes: string[]; summary: string }, what: string): string {
  return `  ${r.id}  ${what}  [${r.scopes.join(', ')}]\n      ${r.summary}`;
}

/** The report as text for a person: actionable sections first, empty ones left out. */
export function healthText(h: HealthReport): string {
  const t = h.totals;
  const out: string[] = [
    `cairn health: ${plural(t.active, 'active memory', 'active memories')}${t.expired ? ` (${t.expired} expired)` : ''}, ` +
      `${plural(t.tombstoned, 'tombstone')}, ${plural(t.scopes, 'scope')}`,
    `last ${h.window_days} days: ${plural(t.events_in_window, 'event')}, ${plural(t.retrievals_in_window, 'retrieval')} by the model` +
      `${t.user_lookups_in_window ? ` (+ ${plural(t.user_lookups_in_window, 'lookup')} of yours, not counted)` : ''}, ` +
      `uses: ${t.uses_in_window.applied} applied, ${t.uses_in_window.ignored} ignored, ${t.uses_in_window.contradicted} contradicted, ${t.uses_in_window.corrected} corrected`,
  ];
  const sec = (title: string, lines: string[]) => {
    if (lines.length) out.push('', title, ...lines);
  };
  const c = h.contradicted;
  sec(`Contradicted and not fixed since (${c.count}): update or remove each`, [
    ...c.rows.map((r) => {
      const note = [...r.resolution_timeline].reverse().find((e) => e.event === 'contradicted' && e.note)?.note;
      return `${line(r, `${r.contradictions}x, last ${day(r.last_contradicted)}`)}${note ? `\n      why: ${note}` : ''}`;
    }),
    ...more(c.count, c.rows.length),
  ]);
  const d = h.dead_weight;
  sec(`Dead weight: ${d.rule.min_age_days}+ days old, found by the model ${d.rule.min_retrievals}+ times at medium/high relevance in the last ${h.window_days} days, never applied (${d.count})`, [
    ...d.rows.map((r) => `${line(r, `retrieved ${r.retrieved}x`)}\n      why: ${r.why}`),
    ...more(d.count, d.rows.length),
  ]);
  const rs = h.rare_scopes;
  sec(`Likely scope typos (${rs.count}): pick the spelling, then memory_rename_scope`, [
    ...rs.rows.map((r) => `  ${r.scope}  (only ${r.id})  looks like ${r.similar_to.map((s) => `${s.scope} (${s.count})`).join(', ')}`),
    ...more(rs.count, rs.rows.length),
  ]);
  const v = h.verification_debt;
  if (v.never + v.stale > 0) {
    sec(`Verification debt: ${v.never} never verified, ${v.stale} stale, ${v.fresh} fresh`, [
      ...v.rows.map((r) => (r.warning ? `${line(r, `verified in the future (${day(r.last_verified_at)})`)}\n      why: ${r.warning}` : line(r, r.status === 'never' ? 'never verified' : `verified ${r.age_days} days ago`))),
      ...more(v.never + v.stale, v.rows.length),
    ]);
  }
  const cd = h.commit_drift_debt;
  sec(cd.applies ? `Commit drift in ${cd.repo}: verified behind HEAD (${cd.count})` : '', [
    ...cd.rows.map((r) => line(r, `${plural(r.commits_since_verify, 'commit')} since verified`)),
    ...more(cd.count, cd.rows.length),
  ]);
  sec(`Expired (${h.expired.count}): remove, or extend expires`, [
    ...h.expired.rows.map((r) => line(r, `expired ${day(r.expires)}`)),
    ...more(h.expired.count, h.expired.rows.length),
  ]);
  sec(`Cold: not retrieved in the last ${h.window_days} days (${h.cold.count})`, [
    ...h.cold.rows.map((r) => line(r, `${r.age_days} days old, last retrieved ${day(r.last_retrieved)}`)),
    ...more(h.cold.count, h.cold.rows.length),
  ]);
  sec(`Heavily used: applied ${h.min_applied}+ times (${h.heavily_used.count})`, [
    ...h.heavily_used.rows.map((r) => line(r, `applied ${r.applied}x`)),
    ...more(h.heavily_used.count, h.heavily_used.rows.length),
  ]);
  sec('Durability markers (fired / overridden)', h.marker_stats.map((m) =>
    `  ${m.marker.padEnd(22)} ${m.fires} / ${m.overrides}${m.override_rate === null ? '' : `  (${Math.round(m.override_rate * 100)}% overridden)`}`));
  const sc = h.sync_conflicts;
  sec(sc.count ? `Sync conflicts (${sc.count}): "kept" is what the store holds, the other text is preserved; delete the file once resolved` : '', [
    ...sc.rows.flatMap((r) => [
      `  ${r.id}  ${r.kind === 'body' ? 'edited differently on two machines' : 'removed on one machine, edited on another: stays removed, the tombstone keeps the edited text'}  (${r.file})`,
      `    kept${r.kept.removed ? ' in the tombstone' : ''} (${r.kept.updated}${r.kept.removed ? `, removed ${r.kept.removed}` : ''}): ${r.kept.body.replace(/\s+/g, ' ').slice(0, 200)}`,
      `    ${r.kind === 'body' ? 'other' : 'text when removed, replaced by the edit'} (${r.other.updated}): ${r.other.body.replace(/\s+/g, ' ').slice(0, 200)}`,
    ]),
    ...more(sc.count - sc.files.length, sc.rows.length),
    ...sc.files.map((f) => `  ${f}: a file changed on two machines; the other machine's copy`),
  ]);
  const oo = h.orphaned_origins;
  sec(oo.count ? `Origins matching none of this repo's remotes (${oo.count}): the repo was renamed, moved or re-pointed` : '', oo.rows.flatMap((r) => [
    `  ${r.repo}: ${plural(r.count, 'memory', 'memories')} (${r.ids.join(', ')}${r.count > r.ids.length ? ', ...' : ''})`,
    `    ${r.fix}`,
  ]));
  if (h.orphan_use_events.count) {
    sec(`Use events naming unknown ids: ${h.orphan_use_events.count}`, [`  ${h.orphan_use_events.ids.join(', ')}`]);
  }
  const width = Math.max(5, ...h.scope_health.map((s) => s.scope.length));
  if (h.scope_health.length) sec('Scopes', [
    `  ${'scope'.padEnd(width)}  active  dead  cold  contradicted  applied`,
    ...h.scope_health.map((s) =>
      `  ${s.scope.padEnd(width)}  ${String(s.active).padStart(6)}  ${String(s.dead).padStart(4)}  ${String(s.cold).padStart(4)}  ${String(s.contradicted).padStart(12)}  ${String(s.applied).padStart(7)}`),
  ]);
  const cons = (h as { consolidation?: { groups: number; contradictions: number; superseded: number; duplicates: number; next_step: string } }).consolidation;
  if (cons && cons.groups > 0) {
    sec(`To consolidate (${cons.groups}): ${plural(cons.contradictions, 'contradiction')}, ${plural(cons.superseded, 'superseded memory', 'superseded memories')}, ${plural(cons.duplicates, 'duplicate cluster')}`, [`  ${cons.next_step}`]);
  }
  const actionable = c.count + d.count + rs.count + cd.count + h.expired.count;
  if (actionable === 0) out.splice(2, 0, '', 'Nothing needs fixing: no contradictions, dead weight, scope typos, drift or expired memories.');
  return `${out.join('\n')}\n`;
}

export const health: Command = {
  name: 'health',
  summary: 'curation report: contradictions, dead weight, scope typos, verification debt, ...',
  usage: 'cairn health [--json] [--days N] [--top-k N] [--min-applied N]',
  options,
  async run(argv, io) {
    const { values } = parse(argv, options, false);
    const input = {
      window_days: intOption(values.days, '--days', 1, 3650),
      top_k: intOption(values['top-k'], '--top-k', 1, 100),
      min_applied: intOption(values['min-applied'], '--min-applied', 1, 10_000),
    };
    const c = await openCairn(io);
    try {
      const shown = progress(io);
      // One line for the whole report (each store's sections, then duplicates and contradictions).
      const report = await c.health(input, shown ? (done, total) => shown('checking health', done, total, 'percent') : undefined);
      if (values.json) printJson(io, report);
      else {
        io.out(healthText(report));
        // The team store's report, labelled: its problems are fixed in the repository and committed.
        const t = report.team;
        if (t) {
          io.out(`\n== team store ${t.dir} ==\n${healthText(t)}`);
          if (t.id_clashes.length) io.out(`ids in both stores (the personal memory answers): ${t.id_clashes.join(', ')}\n`);
          for (const f of t.unreadable_files) io.out(`unreadable team file: ${f.file}: ${f.reason}\n`);
          if (t.gitignore_missing.length) io.out(`${t.dir}/.gitignore lacks ${t.gitignore_missing.join(' ')}: per-machine files could be committed (cairn team init adds them)\n`);
        }
      }
      return 0;
    } finally {
      await c.close();
    }
  },
};
