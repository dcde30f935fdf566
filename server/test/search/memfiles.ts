// Hand-made memory files for search tests: what a user (or another tool) drops into the store.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileNameFor, serializeMemory } from '../../src/core/memfile.ts';
import { newId } from '../../src/core/ids.ts';
import type { MemoryRecord } from '../../src/core/types.ts';

export function record(body: string, over: Partial<MemoryRecord> = {}): MemoryRecord {
  const t = over.created ?? '2026-02-01T10:00:00.000Z';
  return {
    id: newId(),
    created: t,
    updated: t,
    scopes: ['notes'],
    confidence: 'medium',
    source: 'explicit-statement',
    category: 'fact',
    last_verified_at: null,
    expires: null,
    origin: { cwd: null, repo: null, branch: null, worktree_root: null },
    body,
    ...over,
  };
}

/** Writes a memory file into `dir` (created if needed) and returns its path. */
export function handWrite(dir: string, body: string, over: Partial<MemoryRecord> = {}, name?: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const rec = record(body, over);
  const file = join(dir, name ?? fileNameFor(rec));
  writeFileSync(file, serializeMemory(rec), { mode: 0o600 });
  return file;
}
