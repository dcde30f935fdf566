// Hand-made memory files for search tests: what a user (or another tool) drops into the store.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileNameFor, serializeMemory } from '../../src/core/store/memfile.ts';
import { newId } from '../../src/core/ids.ts';
import type { MemoryRecord } from '../../src/core/types.ts';
import { testRecord } from '../helpers/records.ts';

export function record(body: string, over: Partial<MemoryRecord> = {}): MemoryRecord {
  return testRecord({ id: newId(), body, ...over });
}

/** Writes a memory file into `dir` (created if needed) and returns its path. */
export function handWrite(dir: string, body: string, over: Partial<MemoryRecord> = {}, name?: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const rec = record(body, over);
  const file = join(dir, name ?? fileNameFor(rec));
  writeFileSync(file, serializeMemory(rec), { mode: 0o600 });
  return file;
}
