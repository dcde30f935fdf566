// The tombstone candidate index: kept current by store changes, and the rare-term walk finds
// every tombstone at or above the threshold.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TombstoneIndex } from '../../src/core/trust/gates/tombstoneIndex.ts';
import { dedupTokens, similarity } from '../../src/core/trust/gates/dedup.ts';
import type { StoredMemory } from '../../src/core/types.ts';

function tomb(id: string, body: string, tombstoned = true): StoredMemory {
  return {
    id, body, tombstoned, created: '', updated: '', scopes: ['t'], confidence: 'medium', source: 'inferred', category: 'fact',
    last_verified_at: null, expires: null, origin: { cwd: null, repo: null, branch: null, worktree_root: null },
    file: `/x/${id}.md`, size: 0, mtimeMs: 0, extra: [],
  };
}

describe('TombstoneIndex', () => {
  it('follows upserts, restores and deletes from the store change feed', () => {
    const ix = new TombstoneIndex();
    const a = tomb('A', 'postgres backups run nightly via pgbackrest');
    ix.apply({ kind: 'upsert', mem: a });
    assert.equal(ix.size, 1);
    assert.deepEqual(ix.similar(dedupTokens(a.body), 0.75).map((r) => r.id), ['A']);
    ix.apply({ kind: 'upsert', mem: { ...a, tombstoned: false }, prev: a }); // restored
    assert.equal(ix.size, 0);
    ix.apply({ kind: 'upsert', mem: a });
    ix.apply({ kind: 'delete', prev: a }); // purged
    assert.equal(ix.size, 0);
    assert.deepEqual(ix.similar(dedupTokens(a.body), 0.75), []);
  });

  it('finds every tombstone at or above the threshold, even when the shared terms are common', () => {
    const ix = new TombstoneIndex();
    // 40 tombstones all sharing the common words; one of them is the near-duplicate.
    const common = 'service deploy config build release';
    for (let i = 0; i < 40; i++) ix.add(tomb(`T${String(i).padStart(2, '0')}`, `${common} unique${i} other${i}`));
    const text = `${common} unique7 other7 extra`;
    const found = ix.similar(dedupTokens(text), 0.75);
    const expected = Array.from({ length: 40 }, (_, i) => `T${String(i).padStart(2, '0')}`).filter(
      (id, i) => similarity(text, `${common} unique${i} other${i}`) >= 0.75 && id,
    );
    assert.deepEqual(found.map((f) => f.id), expected);
    assert.deepEqual(expected, ['T07']);
  });
});
