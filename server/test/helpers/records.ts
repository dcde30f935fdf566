// Memory records for tests that build stores by hand (old, expired or verified memories no tool
// call can make). One place holds the defaults; each test states only what it cares about.
import type { MemoryRecord } from '../../src/core/types.ts';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let seq = 0;

/** A valid ULID, increasing within a run. */
export function fakeId(): string {
  let n = ++seq;
  let tail = '';
  for (let i = 0; i < 6; i++) {
    tail = CROCKFORD[n % 32] + tail;
    n = Math.floor(n / 32);
  }
  return `01JQ3Z8V7M2K4T6Y9B1C${tail}`;
}

/** A complete record: an active fact in scope `notes`, never verified, from no repo. */
export function testRecord(over: Partial<MemoryRecord> = {}): MemoryRecord {
  const created = over.created ?? '2026-02-01T10:00:00.000Z';
  return {
    id: fakeId(),
    created,
    updated: created,
    scopes: ['notes'],
    confidence: 'medium',
    source: 'explicit-statement',
    category: 'fact',
    last_verified_at: null,
    expires: null,
    origin: { cwd: null, repo: null, branch: null, worktree_root: null },
    body: 'A test memory.',
    ...over,
  };
}
