// Lifecycle tools: memory_remove, memory_restore, memory_list_tombstones.
import { z } from 'zod';
import { LIMITS } from '../../core/limits.ts';
import { DESTRUCTIVE, READ_ONLY, WRITES, defineTool } from '../tool.ts';
import { committed, cursor, id, noteArg, scopeFilters } from '../schemas.ts';

const remove = defineTool({
  name: 'memory_remove',
  title: 'Remove a memory',
  description: 'Tombstone a wrong or obsolete memory with a reason. Restorable with memory_restore; the tombstone also stops the same fact from being written again unnoticed. For a changed fact, prefer memory_update; for a memory merely irrelevant to this task, record `ignored` with memory_record_use instead. Ask before removing something the user stated.',
  input: z.strictObject({ id, reason: noteArg.describe('Why it is wrong or obsolete (required)') }),
  output: z.object({ removed: z.string(), tombstone: z.string(), store: z.enum(['personal', 'team']).optional() }),
  annotations: DESTRUCTIVE,
  run: (c, a) => c.remove(a),
});

const restore = defineTool({
  name: 'memory_restore',
  title: 'Restore a removed memory',
  description: 'Bring a tombstoned memory back when the user says a removal was a mistake (see memory_list_tombstones). Keeps created, updated and last_verified_at.',
  input: z.strictObject({ id }),
  output: committed,
  annotations: WRITES,
  run: (c, a) => c.restore(a),
});

const listTombstones = defineTool({
  name: 'memory_list_tombstones',
  title: 'List removed memories',
  description: 'Removed memories, most recently removed first, with when and why they were removed.',
  input: z.strictObject({
    scopes: scopeFilters,
    limit: z.number().int().min(1).max(LIMITS.pageSize).optional().describe(`Page size, default ${LIMITS.defaultPageSize}`),
    cursor,
  }),
  output: z.object({
    items: z.array(
      z.object({
        id: z.string(),
        scopes: z.array(z.string()),
        confidence: z.string(),
        category: z.string(),
        created: z.string(),
        updated: z.string(),
        last_verified_at: z.string().nullable(),
        removed: z.string(),
        removed_reason: z.string(),
        summary: z.string(),
        file: z.string(),
      }),
    ),
    next_cursor: z.string().nullable(),
  }),
  annotations: READ_ONLY,
  run: (c, a) => c.listTombstones(a),
});

export default [remove, restore, listTombstones];
