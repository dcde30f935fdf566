// Writing tools: memory_write, memory_write_confirm, memory_write_cancel, memory_update, memory_verify.
import { z } from 'zod';
import { LIMITS } from '../../core/limits.ts';
import { IDEMPOTENT_WRITE, WRITES, defineTool } from '../tool.ts';
import { aliasesArg, committed, id, noteArg, scopesArg } from '../schemas.ts';

const statusShape = z
  .object({
    // discarded: the user discarded a pending write in the client's confirmation form (mcp/elicit.ts).
    status: z.enum(['committed', 'secret_detected', 'transient_warning', 'duplicate', 'previously_removed', 'pending', 'discarded']),
  })
  .loose();

const write = defineTool({
  name: 'memory_write',
  title: 'Remember a fact',
  description:
    'Store ONE durable fact (a decision, convention, preference or environment fact that will still hold next month). Not task progress, not what the repo already says, never secrets. ' +
    'Returns a status: committed; secret_detected (never stored); transient_warning (reword without time-bound phrases, or pass acknowledge_transient); duplicate (update the existing memory instead, or force); ' +
    'previously_removed (the user removed this before: ask first); pending (claims about the user, category=user-inference, wait for the user, then memory_write_confirm). ' +
    'Reuse existing scopes (memory_scope_overview); projects:<repo> for repo facts; one call per fact. Pass aliases: other words a later question may use for it. ' +
    'Goes to the personal store unless store="team": the repository\'s team store (.cairn/, committed and shared with every teammate), only for project facts the whole team should know and only when the user wants it shared; it refuses secrets more strictly and never takes claims about the user. Duplicates and removed memories of both stores are checked.',
  input: z.strictObject({
    content: z.string().max(LIMITS.contentChars).describe('The fact, in one or a few sentences, self-contained'),
    scopes: scopesArg.describe('At least one lowercase scope, e.g. ["projects:foo", "tools"]; ":" nests'),
    confidence: z.enum(['low', 'medium', 'high']).optional().describe('default medium'),
    source: z.enum(['explicit-statement', 'inferred', 'user-correction']).optional().describe('default explicit-statement'),
    category: z.enum(['fact', 'user-inference']).optional().describe('user-inference for claims about the user (always goes pending); default fact'),
    expires: z.string().max(LIMITS.dateChars).optional().describe('ISO date or date-time after which the memory leaves search and list'),
    aliases: aliasesArg.optional(),
    force: z.boolean().optional().describe('Skip the duplicate and previously-removed checks (not the secret check)'),
    acknowledge_transient: z.boolean().optional().describe('Store despite time-bound wording'),
    store: z.enum(['personal', 'team']).optional().describe('personal (default): your own store; team: the repository\'s shared team store (.cairn/, committed with the code; stricter secret check; no user-inference)'),
  }),
  output: statusShape,
  annotations: WRITES,
  run: (c, a) => c.write(a),
});

const confirm = defineTool({
  name: 'memory_write_confirm',
  title: 'Confirm a pending memory',
  description: 'Commit a pending write only after the user explicitly agreed to it in this conversation, never on your own initiative. Pending writes expire (pending_ttl_minutes).',
  input: z.strictObject({ pending_id: z.string().max(LIMITS.tokenChars).describe('pending_id from memory_write') }),
  output: committed,
  annotations: WRITES,
  run: (c, a) => c.writeConfirm(a),
});

const cancel = defineTool({
  name: 'memory_write_cancel',
  title: 'Drop a pending memory',
  description: 'Discard a pending write (the user did not agree).',
  input: z.strictObject({ pending_id: z.string().max(LIMITS.tokenChars).describe('pending_id from memory_write') }),
  output: z.object({ cancelled: z.literal(true), existed: z.boolean() }),
  annotations: IDEMPOTENT_WRITE,
  run: (c, a) => c.writeCancel(a),
});

const update = defineTool({
  name: 'memory_update',
  title: 'Correct a memory',
  description: 'Change an existing memory in place (keeps id, created, source; bumps updated). A content change resets verification and, like memory_write, is refused when it adds time-bound wording ("currently", "just", a commit SHA) unless acknowledge_transient=true. Use it when a spot check or the user shows the fact changed (then memory_record_use outcome=corrected); prefer it over remove + write.',
  input: z.strictObject({
    id,
    content: z.string().max(LIMITS.contentChars).optional(),
    scopes: scopesArg.optional().describe('Replaces the scopes'),
    confidence: z.enum(['low', 'medium', 'high']).optional(),
    expires: z.string().max(LIMITS.dateChars).nullable().optional().describe('ISO date; null clears it'),
    aliases: aliasesArg.optional().describe('Replaces the aliases ([] clears them): other words a later search may use'),
    acknowledge_transient: z.boolean().optional().describe('Store changed content despite time-bound wording (as memory_write)'),
  }),
  output: committed,
  annotations: WRITES,
  run: (c, a) => c.update(a),
});

const verify = defineTool({
  name: 'memory_verify',
  title: 'Mark a memory verified',
  description: 'Record that you checked a memory against reality and it still holds: the path exists, the command works, the user confirmed. Being used is not verification. Resets staleness; does not bump updated.',
  input: z.strictObject({ id, note: noteArg.optional().describe('What you checked') }),
  output: z.object({ verified: z.string(), last_verified_at: z.string(), updated: z.string(), store: z.enum(['personal', 'team']).optional() }),
  annotations: IDEMPOTENT_WRITE,
  run: (c, a) => c.verify(a),
});

export default [write, confirm, cancel, update, verify];
