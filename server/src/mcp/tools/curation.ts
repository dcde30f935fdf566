// Curation tools: memory_record_use, memory_health, memory_rename_scope,
// memory_scope_disable, memory_scope_enable.
import { ValidationError } from '../../core/errors.ts';
import { z } from 'zod';
import { LIMITS } from '../../core/limits.ts';
import { DESTRUCTIVE, IDEMPOTENT_WRITE, READ_ONLY, WRITES, defineTool } from '../tool.ts';
import { aliasesArg, cursor, id, noteArg, scopeFilters, scopeList, scopesArg } from '../schemas.ts';

const scope = z.string().min(1).max(LIMITS.scopeChars);
const row = { id, scopes: scopeList, summary: z.string() };
const section = <T extends z.ZodRawShape>(shape: T) => z.object({ count: z.number(), rows: z.array(z.object({ ...row, ...shape })) });

const recordUse = defineTool({
  name: 'memory_record_use',
  title: 'Record how memories were used',
  description:
    'After an answer that retrieved memories, record what happened to them, once per answer for all the ids you looked at: ' +
    '`applied` (it shaped what you did), `ignored` (retrieved but not used), `contradicted` (the code or the user showed it wrong; then update or remove it), ' +
    '`corrected` (the user corrected it and you updated it). This feeds memory_health (dead weight, contradictions). Unknown ids come back in `unknown_ids`.',
  input: z.strictObject({
    memory_ids: z.array(z.string()).min(1).max(LIMITS.useIds).describe('The ids of the memories this outcome is about'),
    outcome: z.enum(['applied', 'ignored', 'contradicted', 'corrected']).describe('applied | ignored | contradicted | corrected'),
    note: z.string().max(LIMITS.noteChars).optional().describe('Optional: what contradicted it, or what was corrected'),
  }),
  output: z.object({
    recorded: z.number().describe('How many ids were recorded (0 when telemetry is disabled in config)'),
    outcome: z.string(),
    unknown_ids: z.array(z.string()),
  }),
  annotations: WRITES,
  run: (c, a) => c.recordUse(a),
});

const timeline = z.array(
  z.object({ ts: z.string(), event: z.enum(['created', 'contradicted', 'corrected', 'updated', 'verified']), note: z.string().optional(), session: z.string().optional() }),
);
const uses = z.object({ applied: z.number(), ignored: z.number(), contradicted: z.number(), corrected: z.number() });

const conflictSide = z.object({ updated: z.string(), body: z.string(), removed: z.string().nullable() });

const health = defineTool({
  name: 'memory_health',
  title: 'Memory health report',
  description:
    'Curation report over the whole store and the usage log. Walk it most actionable first: `contradicted` (shown wrong, not fixed since; see resolution_timeline), ' +
    '`dead_weight` (at least `rule.min_age_days` old, found by you at medium/high relevance at least `rule.min_retrievals` times in the window, never applied; each row says `why`; the user\'s own lookups never count), `rare_scopes` (singleton scopes that look like typos of another), `verification_debt` and `commit_drift_debt`, ' +
    '`expired` and `cold` (not retrieved in the window), `orphaned_origins` (memories written in this worktree whose origin.repo matches none of its remotes: re-home them with the row\'s `fix`). Rows are capped at top_k; counts are not. Ask the user before changing anything.',
  input: z.strictObject({
    window_days: z.number().int().min(1).max(LIMITS.healthWindowDays).optional().describe('Usage window in days, default 30'),
    top_k: z.number().int().min(1).max(LIMITS.healthTopK).optional().describe('Rows per section, default 10'),
    min_applied: z.number().int().min(1).max(LIMITS.healthMinApplied).optional().describe('Applied uses in the window to count as heavily used, default 3'),
    heavily_used_top_k: z.number().int().min(1).max(LIMITS.healthTopK).optional().describe('Old (bettermemory) name of top_k, accepted as its alias'),
  }),
  output: z.object({
    notice: z.string().optional().describe('Present when an old parameter name was used: its current name'),
    generated_at: z.string(),
    window_days: z.number(),
    top_k: z.number(),
    min_applied: z.number(),
    totals: z.object({
      active: z.number(),
      expired: z.number(),
      tombstoned: z.number(),
      scopes: z.number(),
      events: z.number(),
      events_in_window: z.number(),
      retrievals_in_window: z.number(),
      user_lookups_in_window: z.number(),
      uses_in_window: uses,
    }),
    contradicted: section({
      contradictions: z.number(),
      last_contradicted: z.string(),
      last_resolved: z.string().nullable(),
      resolution_timeline: timeline,
    }),
    dead_weight: section({
      retrieved: z.number(),
      last_retrieved: z.string().nullable(),
      age_days: z.number(),
      user_lookups: z.number(),
      why: z.string(),
    }).extend({
      rule: z.object({
        min_age_days: z.number(),
        min_retrievals: z.number(),
        relevance: z.tuple([z.literal('medium'), z.literal('high')]),
        actor: z.literal('model'),
      }),
    }),
    rare_scopes: z.object({
      count: z.number(),
      rows: z.array(z.object({ scope: z.string(), id, similar_to: z.array(z.object({ scope: z.string(), count: z.number(), distance: z.number() })) })),
    }),
    verification_debt: z.object({
      never: z.number(),
      stale: z.number(),
      fresh: z.number(),
      rows: z.array(z.object({ ...row, status: z.enum(['never', 'stale', 'fresh']), age_days: z.number().nullable(), last_verified_at: z.string().nullable(), warning: z.string().optional() })),
    }),
    commit_drift_debt: z.object({
      applies: z.boolean(),
      repo: z.string().nullable(),
      count: z.number(),
      rows: z.array(z.object({ ...row, commits_since_verify: z.number(), last_verified_at: z.string() })),
    }),
    expired: section({ expires: z.string() }),
    cold: section({ created: z.string(), age_days: z.number(), last_retrieved: z.string().nullable() }),
    heavily_used: section({ applied: z.number(), last_applied: z.string().nullable() }),
    scope_health: z.array(
      z.object({ scope: z.string(), active: z.number(), dead: z.number(), cold: z.number(), contradicted: z.number(), applied: z.number() }),
    ),
    marker_stats: z.array(z.object({ marker: z.string(), fires: z.number(), overrides: z.number(), override_rate: z.number().nullable() })),
    orphan_use_events: z.object({ count: z.number(), ids: z.array(z.string()) }),
    sync_conflicts: z.object({
      count: z.number(),
      rows: z.array(z.object({
        id: z.string(),
        kind: z.enum(['body', 'removed-edited']),
        file: z.string(),
        summary: z.string(),
        kept: conflictSide,
        other: conflictSide,
      })),
      files: z.array(z.string()),
    }),
    orphaned_origins: z.object({
      applies: z.boolean(),
      known_remotes: z.array(z.string()),
      count: z.number(),
      rows: z.array(z.object({ repo: z.string(), count: z.number(), ids: z.array(z.string()), fix: z.string() })),
    }),
    dangling_links: z
      .object({ count: z.number(), items: z.array(z.object({ from: z.string(), path: z.string().optional(), relation: z.string(), target: z.string() })) })
      .describe('Relations and [[wikilinks]] whose target exists nowhere: create the target or fix the link'),
    consolidation: z
      .object({
        groups: z.number(), contradictions: z.number(), superseded: z.number(), duplicates: z.number(), next_step: z.string(),
        rewording_pending: z.number().optional().describe('Memories whose rewording check waits for the embedding model to load: counted by a later call'),
      })
      .describe('Consolidation candidates (memory_consolidate): review them with /memory-consolidate'),
    semantic_index: z
      .object({ embedder: z.string().nullable(), answering: z.string().nullable(), embedded: z.number(), pending: z.number() })
      .nullable()
      .describe('The semantic search index as it is: the embedder, whose vectors answer searches now (the built-in table while the model catches up), memories embedded and still waiting; null when semantic search is off (or, in a command, was not opened)'),
  }),
  annotations: READ_ONLY,
  run: async (c, a) => {
    // heavily_used_top_k: bettermemory's name, read as top_k (rows per section), and said so in the answer.
    const { heavily_used_top_k: old, ...rest } = a;
    if (old === undefined) return c.health(rest);
    if (rest.top_k !== undefined && rest.top_k !== old) throw new ValidationError(`heavily_used_top_k (${old}) is the old name of top_k (${rest.top_k}): give only top_k`);
    const h = await c.health({ ...rest, top_k: old });
    return { notice: 'heavily_used_top_k is the old (bettermemory) name of top_k, read as top_k: the rows shown per section, heavily_used among them; use top_k', ...h };
  },
});

const renameScope = defineTool({
  name: 'memory_rename_scope',
  title: 'Rename a scope',
  description:
    'Rename a scope on every memory that has it (scopes nested under it follow: a:b becomes new:b), and by default on tombstones too. ' +
    'Use it to fix a typo found by memory_health rare_scopes, after asking the user which spelling wins. Keeps each memory\'s updated time.',
  input: z.strictObject({
    old_scope: scope.describe('The scope to rename'),
    new_scope: scope.describe('The new name (lowercase letters and digits, parts joined by "-" or ":")'),
    include_tombstones: z.boolean().optional().describe('Also rename it on removed memories (default true)'),
  }),
  output: z.object({ active: z.array(z.string()), tombstoned: z.array(z.string()) }),
  annotations: IDEMPOTENT_WRITE,
  run: (c, a) => c.renameScope(a),
});

const disabledOut = z.object({ disabled_scopes: z.array(z.string()) });

const scopeDisable = defineTool({
  name: 'memory_scope_disable',
  title: 'Hide a scope for this session',
  description:
    'Hide every memory in a scope (and scopes nested under it) from search and list for the rest of this server process, e.g. when the user says to ignore old notes. Changes nothing on disk; a restart clears it.',
  input: z.strictObject({ scope: scope.describe('The scope to hide') }),
  output: disabledOut,
  annotations: IDEMPOTENT_WRITE,
  run: (c, a) => c.scopeDisable(a),
});

const scopeEnable = defineTool({
  name: 'memory_scope_enable',
  title: 'Show a hidden scope again',
  description: 'Undo memory_scope_disable for a scope in this server process.',
  input: z.strictObject({ scope: scope.describe('The scope to show again') }),
  output: disabledOut,
  annotations: IDEMPOTENT_WRITE,
  run: (c, a) => c.scopeEnable(a),
});

const consolidate = defineTool({
  name: 'memory_consolidate',
  title: 'Consolidation candidates',
  description:
    'Read-only: groups of memories to consolidate, for you to act on with the user. `contradiction`: same subject, different values ("TTL is 5 minutes" vs "TTL is ten minutes"); `superseded`: a newer memory restates and extends an older one; `duplicates`: near-duplicate clusters. Each group has its ids (oldest first), a one-line reason and a suggested action. Paged (next_cursor).',
  input: z.strictObject({
    scopes: scopeFilters,
    limit: z.number().int().min(1).max(LIMITS.consolidateGroups).optional().describe(`Groups per page, default ${LIMITS.defaultConsolidateGroups}`),
    cursor,
  }),
  output: z.object({
    total_groups: z.number(),
    scanned: z.number().describe('Memories compared (every visible one the scope filters admit)'),
    groups: z.array(
      z.object({
        kind: z.enum(['duplicates', 'contradiction', 'superseded']),
        ids: z.array(id),
        reason: z.string(),
        suggested_action: z.string(),
      }),
    ),
    next_cursor: z.string().nullable(),
  }),
  annotations: READ_ONLY,
  run: (c, a) => c.consolidate(a),
});

const merge = defineTool({
  name: 'memory_merge',
  title: 'Merge memories into one',
  description:
    `Replace 2 to ${LIMITS.mergeIds} memories (e.g. a memory_consolidate group) with ONE new memory holding \`content\`, after the user agreed. ` +
    'The new memory goes through the write gates (secrets, time-bound wording; the duplicate checks ignore the ids being merged) and records `merged_from`; ' +
    'the others become tombstones with reason "merged into <new id>" (memory_restore brings one back). All in one step: a crash leaves the old memories or the merged one, never both. ' +
    'Scopes default to the union of theirs. Returns a status like memory_write (committed, secret_detected, transient_warning, duplicate of another memory, previously_removed).',
  input: z.strictObject({
    ids: z.array(z.string().max(LIMITS.tokenChars)).min(2).max(LIMITS.mergeIds).describe(`The memories to merge, 2 to ${LIMITS.mergeIds} ids`),
    content: z.string().max(LIMITS.contentChars).describe('The merged fact: everything still true from them, in one self-contained text'),
    scopes: scopesArg.optional().describe('Scopes of the merged memory; default: the union of theirs'),
    reason: noteArg.describe('Why they are merged, in a few words (logged)'),
    aliases: aliasesArg.optional(),
    acknowledge_transient: z.boolean().optional().describe('Store despite time-bound wording'),
  }),
  output: z
    .object({
      status: z.enum(['committed', 'secret_detected', 'transient_warning', 'duplicate', 'previously_removed']),
      id: id.optional(),
      merged_from: z.array(id).optional(),
      tombstoned: z.array(id).optional(),
    })
    .loose(),
  annotations: DESTRUCTIVE,
  run: (c, a) => c.merge(a),
});

export default [recordUse, health, consolidate, merge, renameScope, scopeDisable, scopeEnable];
