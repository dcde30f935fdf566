// Output shapes shared by several tools (tools.md "Common hit fields").
import { z } from 'zod';
import { LIMITS } from '../core/limits.ts';

export const id = z.string().describe('Memory id (26-character ULID)');
export const scopeList = z.array(z.string());

const verificationWarning = z.string().optional().describe('Present when last_verified_at lies in the future (a wrong clock or a hand edit): the verification vouches for nothing; check and verify again');
export const verification = z.object({
  status: z.enum(['never', 'stale', 'fresh']),
  age_days: z.number().nullable(),
  stale_after_days: z.number(),
  warning: verificationWarning,
});

export const pathDrift = z.object({ checked: z.number(), missing: z.array(z.string()) });
export const commitDrift = z.object({ commits_since_verify: z.number().nullable(), status: z.string() });

export const storeField = z.enum(['personal', 'team']).describe('Which store holds it: your personal store, or the team store committed in this repository (.cairn/)');

export const hitFields = {
  id,
  store: storeField,
  scopes: scopeList,
  confidence: z.string(),
  category: z.string(),
  created: z.string(),
  updated: z.string(),
  last_verified_at: z.string().nullable(),
  verification,
  path_drift_checked: z.number(),
  path_drift_missing: z.number(),
  commit_drift_count: z.number().optional(),
  staleness_verdict: z.enum(['fresh', 'spot_check_recommended', 'spot_check_required']),
  kind: z.literal('note').optional().describe('Present on notes (files of the memory tool), with their path'),
  path: z.string().optional().describe('A note\'s /memories path'),
};

/**
 * A search hit without redundancy (tools.md "Lean hits"): `confidence` (default medium),
 * `category` (default fact), `created` (default: same as updated), `last_verified_at` and
 * `verification` (absent: never verified), drift counts (absent: 0) appear only when they say
 * something; the answer's `stale_after_days` replaces the per-hit one.
 */
export const leanHitFields = {
  id,
  store: storeField,
  scopes: scopeList,
  confidence: z.enum(['low', 'medium', 'high']).optional(),
  category: z.string().optional(),
  created: z.string().optional(),
  updated: z.string(),
  last_verified_at: z.string().optional(),
  verification: z.object({ status: z.enum(['stale', 'fresh']), age_days: z.number().nullable(), warning: verificationWarning }).optional(),
  path_drift_checked: z.number().optional(),
  path_drift_missing: z.number().optional(),
  commit_drift_count: z.number().optional(),
  staleness_verdict: z.enum(['fresh', 'spot_check_recommended', 'spot_check_required']),
};

export const maxChars = z
  .number()
  .int()
  .min(LIMITS.minResponseChars)
  .max(LIMITS.responseChars)
  .optional()
  .describe(`Budget in characters of the JSON answer (${LIMITS.minResponseChars}..${LIMITS.responseChars}, default ${LIMITS.responseChars}): texts are shortened at word boundaries, then whole entries dropped; \`truncated\` says what was left out`);

export const origin = z.object({
  cwd: z.string().nullable(),
  repo: z.string().nullable(),
  branch: z.string().nullable(),
  worktree_root: z.string().nullable(),
});

export const fullRecord = z.object({
  ...hitFields,
  body: z.string(),
  aliases: z.array(z.string()).describe('Other words a later search may use'),
  source: z.string(),
  origin,
  expires: z.string().nullable(),
  merged_from: z.array(z.string()).optional().describe('The ids this memory was merged from (memory_merge); they are tombstones now'),
  path_drift: pathDrift.optional(),
  commit_drift: commitDrift.optional(),
  backlinks: z
    .array(z.object({ id: z.string(), title: z.string(), kind: z.enum(['memory', 'note']), path: z.string().optional(), relation: z.string() }))
    .optional()
    .describe('Memories and notes that link here ([[wikilinks]] and relations)'),
});

export const committed = z.object({
  status: z.literal('committed'),
  id,
  scopes: scopeList,
  confidence: z.string(),
  source: z.string(),
  category: z.string(),
  created: z.string(),
  updated: z.string(),
  last_verified_at: z.string().nullable(),
  expires: z.string().nullable(),
  aliases: z.array(z.string()).optional(),
  file: z.string(),
  store: storeField.optional(),
  related: z.array(z.object({ id, similarity: z.number(), snippet: z.string() }).loose()).optional(),
});

// Input pieces with model-facing wording.
export const scopeFilters = z
  .array(z.string().max(LIMITS.scopeFilterChars))
  .max(LIMITS.scopeFilters)
  .optional()
  .describe('Scope filters: "projects:foo" also matches "projects:foo:api"; globs like "projects:*" work');
export const cursor = z.string().max(LIMITS.tokenChars).optional().describe('next_cursor from the previous page');

// The limits the core enforces, advertised so a client learns them from tools/list.
export const scopesArg = z.array(z.string().max(LIMITS.scopeChars)).max(LIMITS.scopes);
export const noteArg = z.string().max(LIMITS.noteChars);
export const aliasesArg = z
  .array(z.string().max(LIMITS.aliasChars))
  .max(LIMITS.aliases)
  .describe(`Up to ${LIMITS.aliases} other words or short phrases a later search may use for this fact (synonyms, the user's own words, names it is known by); indexed below the body`);
