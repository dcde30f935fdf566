// memory_consolidate: candidate groups for the host model to act on: near-duplicate
// clusters, contradiction pairs, superseded chains (curation/consolidate.ts). Read-only.
import type { Context } from './context.ts';
import { ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { isVisible, stripStored } from '../memory.ts';
import { consolidate as consolidateGroups } from '../curation/consolidate.ts';
import { scopeFilterMatcher } from '../scopes.ts';
import { checkId, checkLimit, checkNote, requireActive, settleUnknownIds } from './common.ts';
import { MAX_SCOPES } from '../scopes.ts';
import type { Confidence, MemoryRecord, ValidWrite } from '../types.ts';
import { runWriteGates } from '../trust/gates/writeGates.ts';
import { checkAliases, checkBool, checkContent, checkScopes, committedShape, newRecord } from './writing.ts';
import { candidateRecordsFor, candidatesFor, checkScopeFilters } from './retrieval.ts';

export interface ConsolidateInput {
  scopes?: string[];
  limit?: number;
  cursor?: string;
}

/** Memories memory_consolidate compares at most (newest first); `scanned` says how many it did. */
export const CONSOLIDATE_SCAN_MAX = 5000;
/** Candidates per memory from the index (rare shared terms). */
const CONSOLIDATE_CANDIDATES = 12;

/**
 * memory_consolidate: near-duplicate clusters, contradiction pairs and superseded chains among
 * the visible memories (curation/consolidate.ts), paged by group. Read-only.
 */
export async function consolidate(c: Context, input: ConsolidateInput, opts: { log: boolean } = { log: true }) {
  const filters = checkScopeFilters(input.scopes);
  const limit = checkLimit(input.limit, 'limit', LIMITS.consolidateGroups, LIMITS.defaultConsolidateGroups);
  let start = 0;
  if (input.cursor !== undefined && input.cursor !== null) {
    const m = typeof input.cursor === 'string' ? /^c1:(\d{1,6})$/.exec(Buffer.from(input.cursor, 'base64url').toString('utf8')) : null;
    if (!m) throw new ValidationError('cursor must be the next_cursor string from a previous memory_consolidate page');
    start = Number(m[1]);
  }
  await c.store.ensureFresh({ read: true });
  const match = scopeFilterMatcher(filters);
  const now = c.now();
  const visible = [...c.store.active()].filter((m) => !m.note && isVisible(c.disabledScopes, m, now) && match(m.scopes));
  visible.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const mems = visible.slice(0, CONSOLIDATE_SCAN_MAX);
  const inSet = new Set(mems.map((m) => m.id));
  const groups = consolidateGroups(mems, (m) => candidatesFor(c, m.body, CONSOLIDATE_CANDIDATES).filter((id) => inSet.has(id)));
  const page = groups.slice(start, start + limit);
  const next = start + limit < groups.length ? Buffer.from(`c1:${start + limit}`).toString('base64url') : null;
  const out = { total_groups: groups.length, scanned: mems.length, groups: page, next_cursor: next };
  if (opts.log) c.log('consolidate', { scopes: filters, groups: groups.length, returned: page.length });
  return out;
}


/** memory_health's `consolidation` section: counts per kind and where to act on them. */
export async function consolidationSummary(c: Context) {
  const all = await consolidate(c, { limit: LIMITS.consolidateGroups }, { log: false });
  let groups = all.groups;
  let cursor = all.next_cursor;
  while (cursor !== null) {
    const more = await consolidate(c, { limit: LIMITS.consolidateGroups, cursor }, { log: false });
    groups = groups.concat(more.groups);
    cursor = more.next_cursor;
  }
  const count = (k: string) => groups.filter((g) => g.kind === k).length;
  return {
    groups: all.total_groups,
    contradictions: count('contradiction'),
    superseded: count('superseded'),
    duplicates: count('duplicates'),
    next_step: all.total_groups > 0 ? 'run /memory-consolidate (or call memory_consolidate) to review and merge them' : 'nothing to consolidate',
  };
}

export interface MergeInput {
  ids: string[];
  content: string;
  scopes?: string[];
  reason: string;
  aliases?: string[];
  acknowledge_transient?: boolean;
}

const CONFIDENCE_RANK = { low: 0, medium: 1, high: 2 } as const;

/**
 * memory_merge: one new memory (through the write gates; the duplicate and previously-removed
 * gates ignore the ids being merged, and the pending gate is skipped: the sources were already
 * stored) and the sources tombstoned with `merged into <new id>`, in one locked step whose every
 * crash point resolves to the old set or the merged result (store.ts, "merging").
 */
export async function merge(c: Context, input: MergeInput) {
  const rawIds: unknown = input.ids;
  if (!Array.isArray(rawIds)) throw new ValidationError(`ids must be an array of 2 to ${LIMITS.mergeIds} memory ids to merge`);
  if (rawIds.length < 2) throw new ValidationError(`ids has ${rawIds.length} ${rawIds.length === 1 ? 'entry' : 'entries'}: a merge needs at least 2 memory ids`);
  if (rawIds.length > LIMITS.mergeIds) throw new ValidationError(`ids has ${rawIds.length} entries: at most ${LIMITS.mergeIds} memories per merge`);
  const ids = rawIds.map((r, i) => checkId(r, `ids[${i}]`));
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new ValidationError(`ids lists ${dup} twice: name each memory to merge once`);
  const content = checkContent(c, input.content);
  const reason = checkNote(input.reason, 'reason', true)!;
  const extraAliases = checkAliases(input.aliases);
  const ack = checkBool(input.acknowledge_transient, 'acknowledge_transient');
  const given = input.scopes === undefined || input.scopes === null ? null : checkScopes(c, input.scopes);
  await c.store.ensureFresh();
  await settleUnknownIds(c, ids);
  const sources = ids.map((id, i) => {
    const m = requireActive(c, id, `ids[${i}]`);
    if (m.note !== undefined) throw new ValidationError(`ids[${i}] ${id} is the note ${m.note}: notes are not memories and cannot be merged (use the memory tool)`);
    return m;
  });
  let scopes = given;
  if (scopes === null) {
    const union: string[] = [];
    for (const m of sources) for (const s of m.scopes) if (!union.includes(s)) union.push(s);
    if (union.length > MAX_SCOPES) throw new ValidationError(`the memories to merge have ${union.length} scopes between them, over the ${MAX_SCOPES} a memory may have: pass scopes`);
    scopes = union;
  }
  const aliases: string[] = [...extraAliases];
  for (const m of sources) for (const a of m.aliases ?? []) if (!aliases.includes(a)) aliases.push(a);
  const w: ValidWrite = {
    content,
    scopes,
    // The strongest the sources held; a claim about the user stays one only if every source was.
    confidence: sources.reduce<Confidence>((best, m) => (CONFIDENCE_RANK[m.confidence] > CONFIDENCE_RANK[best] ? m.confidence : best), 'low'),
    source: sources.every((m) => m.source === sources[0]!.source) ? sources[0]!.source : 'explicit-statement',
    category: sources.every((m) => m.category === 'user-inference') ? 'user-inference' : 'fact',
    expires: null,
  };
  if (aliases.length > 0) w.aliases = aliases.slice(0, LIMITS.aliases);
  const exclude = new Set(ids);
  const gate = await runWriteGates(c, w, { force: false, acknowledge_transient: ack, candidates: (text, limit) => candidateRecordsFor(c, text, limit), exclude, confirmed: true });
  if (gate.outcome) return gate.outcome;
  const rec: MemoryRecord = { ...(await newRecord(c, w)), merged_from: ids };
  const removed = c.now().toISOString();
  const m = await c.store.merge(
    rec,
    ids,
    (cur) => {
      if (cur.tombstoned || cur.note !== undefined) requireActive(c, cur.id);
    },
    (cur) => ({ ...stripStored(cur), removed, removed_reason: `merged into ${rec.id}`, removed_session: c.session }),
  );
  c.log('merge', { id: m.id, merged_from: ids, reason, scopes: m.scopes, ...gate.logFields });
  return { ...committedShape(m, gate.related), merged_from: ids, tombstoned: ids };
}
