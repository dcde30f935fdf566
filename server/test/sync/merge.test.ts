// The merge rules as a pure function (core/sync/merge.ts): what a memory changed on two machines
// becomes, field by field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeMemory, mergeSet, type MemFile } from '../../src/core/sync/merge.ts';
import type { MemoryRecord } from '../../src/core/types.ts';

const base: MemoryRecord = {
  id: '01JAAAAAAAAAAAAAAAAAAAAAAA',
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  scopes: ['proj:a', 'lang:ts'],
  confidence: 'medium',
  source: 'explicit-statement',
  category: 'fact',
  last_verified_at: null,
  expires: null,
  origin: { cwd: null, repo: null, branch: null, worktree_root: null },
  body: 'The build uses esbuild.',
};
const f = (r: Partial<MemoryRecord>, extra: string[] = []): MemFile => ({ record: { ...base, ...r }, extra });

test('fields changed on one side each: both changes kept, no conflict', () => {
  const ours = f({ updated: '2026-01-02T00:00:00.000Z', confidence: 'high' });
  const theirs = f({ updated: '2026-01-03T00:00:00.000Z', body: 'The build uses esbuild 0.28.' });
  const { merged, conflict } = mergeMemory(f({}), ours, theirs);
  assert.equal(merged.record.confidence, 'high');
  assert.equal(merged.record.body, 'The build uses esbuild 0.28.');
  assert.equal(merged.record.updated, '2026-01-03T00:00:00.000Z');
  assert.equal(conflict, null);
});

test('scopes merge as sets: additions kept, a rename (removal) stays applied; no base: union', () => {
  assert.deepEqual(mergeSet(['a', 'b'], ['a', 'b', 'c'], ['x', 'b']), ['b', 'c', 'x']);
  assert.deepEqual(mergeSet(undefined, ['a'], ['b']), ['a', 'b']);
  const { merged } = mergeMemory(f({}), f({ scopes: ['proj:renamed', 'lang:ts'] }), f({ scopes: ['proj:a', 'lang:ts', 'tools'], updated: '2026-02-01T00:00:00.000Z' }));
  assert.deepEqual([...merged.record.scopes].sort(), ['lang:ts', 'proj:renamed', 'tools']);
});

test('two different bodies: the newer is kept, the other preserved as a conflict (same choice from both sides)', () => {
  const ours = f({ updated: '2026-01-05T00:00:00.000Z', body: 'Ours: vite.' });
  const theirs = f({ updated: '2026-01-04T00:00:00.000Z', body: 'Theirs: rollup.' });
  const a = mergeMemory(f({}), ours, theirs);
  const b = mergeMemory(f({}), theirs, ours);
  assert.equal(a.merged.record.body, 'Ours: vite.');
  assert.deepEqual(a.merged, b.merged);
  assert.equal(a.conflict?.kind, 'body');
  assert.equal(a.conflict?.kept.body, 'Ours: vite.');
  assert.equal(a.conflict?.other.body, 'Theirs: rollup.');
  // a tie on `updated` is still decided the same way from both sides
  const t1 = mergeMemory(f({}), f({ body: 'one' }), f({ body: 'two' }));
  const t2 = mergeMemory(f({}), f({ body: 'two' }), f({ body: 'one' }));
  assert.equal(t1.merged.record.body, t2.merged.record.body);
});

test('verification keeps the latest, with its head', () => {
  const ours = f({ last_verified_at: '2026-03-01T00:00:00.000Z', verified_head: 'a'.repeat(40) });
  const theirs = f({ last_verified_at: '2026-02-01T00:00:00.000Z', verified_head: 'b'.repeat(40), updated: '2026-04-01T00:00:00.000Z' });
  const { merged } = mergeMemory(f({}), ours, theirs);
  assert.equal(merged.record.last_verified_at, '2026-03-01T00:00:00.000Z');
  assert.equal(merged.record.verified_head, 'a'.repeat(40));
});

test('removed on one side, edited on the other: stays removed, carries the edit, listed', () => {
  const removed = f({ removed: '2026-01-02T00:00:00.000Z', removed_reason: 'obsolete', removed_session: null });
  const edited = f({ updated: '2026-01-03T00:00:00.000Z', body: 'Edited meanwhile.' });
  for (const [o, t] of [[removed, edited], [edited, removed]] as const) {
    const { merged, conflict } = mergeMemory(f({}), o, t);
    assert.equal(merged.record.removed, '2026-01-02T00:00:00.000Z');
    assert.equal(merged.record.body, 'Edited meanwhile.');
    assert.equal(conflict?.kind, 'removed-edited');
    // "kept" is what the store holds: the tombstone, with the edited text; "other" the text the removal was made on
    assert.deepEqual(conflict?.kept, { updated: '2026-01-03T00:00:00.000Z', body: 'Edited meanwhile.', removed: '2026-01-02T00:00:00.000Z' });
    assert.deepEqual(conflict?.other, { updated: removed.record.updated, body: removed.record.body, removed: null });
    assert.notEqual(conflict?.other.body, 'Edited meanwhile.');
  }
  // The removing side had rewritten the body first and its removal is the newer: the tombstone
  // holds its text, and the other side's edit is the conflict's `other` (neither text is lost).
  const rewrittenThenRemoved = f({ updated: '2026-01-04T00:00:00.000Z', body: 'Rewritten, then removed.', removed: '2026-01-05T00:00:00.000Z', removed_reason: 'obsolete', removed_session: null });
  for (const [o, t] of [[rewrittenThenRemoved, edited], [edited, rewrittenThenRemoved]] as const) {
    const { merged, conflict } = mergeMemory(f({}), o, t);
    assert.equal(merged.record.removed, '2026-01-05T00:00:00.000Z');
    assert.equal(merged.record.body, 'Rewritten, then removed.');
    assert.equal(conflict?.kind, 'removed-edited');
    assert.equal(conflict?.kept.body, 'Rewritten, then removed.');
    assert.deepEqual(conflict?.other, { updated: '2026-01-03T00:00:00.000Z', body: 'Edited meanwhile.', removed: null });
  }
  // removed on one side, untouched on the other: just removed (no conflict)
  assert.equal(mergeMemory(f({}), removed, f({ scopes: ['proj:a', 'lang:ts'] })).conflict, null);
});

test('a restore propagates against an untouched (or relabelled) tombstone', () => {
  const tomb = { removed: '2026-01-02T00:00:00.000Z', removed_reason: 'x', removed_session: null };
  const b = f(tomb);
  const restored = f({});
  const relabelled = f({ ...tomb, scopes: ['proj:b', 'lang:ts'] });
  const { merged, conflict } = mergeMemory(b, restored, relabelled);
  assert.equal(merged.record.removed, undefined);
  assert.deepEqual([...merged.record.scopes].sort(), ['lang:ts', 'proj:b']);
  assert.deepEqual(mergeMemory(b, relabelled, restored).merged, merged);
  assert.equal(conflict, null);
});

test('unknown frontmatter blocks merge by key', () => {
  const { merged } = mergeMemory(f({}, ['team: core']), f({}, ['team: core', 'note: ours']), f({ updated: '2026-05-01T00:00:00.000Z' }, ['team: platform']));
  assert.deepEqual(merged.extra, ['team: platform', 'note: ours']);
});

test('merged_from (memory_merge provenance) survives a field-by-field merge: kept from either side, as a set', () => {
  const a = 'A'.padEnd(26, 'A');
  const b2 = 'B'.padEnd(26, 'B');
  const ours = f({ updated: '2026-01-02T00:00:00.000Z', merged_from: [a, b2] });
  const theirs = f({ updated: '2026-01-03T00:00:00.000Z', merged_from: [a, b2], confidence: 'high' });
  assert.deepEqual(mergeMemory(f({ merged_from: [a, b2] }), ours, theirs).merged.record.merged_from, [a, b2]);
  // Only one side has it (the other edited an older copy): it stays.
  assert.deepEqual(mergeMemory(f({}), f({ updated: '2026-01-02T00:00:00.000Z', merged_from: [a] }), f({ updated: '2026-01-03T00:00:00.000Z', body: 'The build uses esbuild 0.28.' })).merged.record.merged_from, [a]);
  assert.equal(mergeMemory(f({}), f({ confidence: 'low' }), f({ confidence: 'high', updated: '2026-01-03T00:00:00.000Z' })).merged.record.merged_from, undefined);
});
