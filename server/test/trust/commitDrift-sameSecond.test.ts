// Commit drift with the HEAD recorded at verify time (verified_head): a commit made in the same
// second as the verify counts, one made before it in that second does not, side branches merged
// after the verify count; the verify op records the head; the key round-trips through the file.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Cairn } from '../../src/core/cairn.ts';
import { parseCanonical } from '../../src/core/store/canonical.ts';
import { parseGeneral, parseMemoryText, serializeMemory } from '../../src/core/store/memfile.ts';
import { CommitDriftCache } from '../../src/core/trust/signals/commitDrift.ts';
import type { MemoryRecord } from '../../src/core/types.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { makeRepo } from './gitRepo.ts';

const cleanup: string[] = [];
after(() => cleanup.forEach((d) => rmSync(d, { recursive: true, force: true })));

const T = new Date('2026-02-01T12:00:00.000Z');
const verifyAt = new Date(T.getTime() + 400).toISOString(); // 12:00:00.400, same second as T

describe('commit drift within one second', () => {
  it('counts a commit in the verify second made after the verified head, not the head itself', async () => {
    const r = makeRepo();
    cleanup.push(r.root);
    r.commit(new Date(T.getTime() - 86_400_000));
    const head = r.commit(T); // the HEAD at verify time, same second as the verify
    const after1 = r.commit(T); // made after the verify, same second
    const cache = new CommitDriftCache();
    const [exact, legacy] = await cache.driftFor(r.root, [{ at: verifyAt, head }, verifyAt]);
    assert.deepEqual(exact, { commits_since_verify: 1, status: 'behind' });
    // Without a recorded head only strictly newer seconds count (the old, lossy rule).
    assert.deepEqual(legacy, { commits_since_verify: 0, status: 'up_to_date' });
    assert.equal(cache.gitCalls, 1);
    const [atTip] = await cache.driftFor(r.root, [{ at: verifyAt, head: after1 }]);
    assert.deepEqual(atTip, { commits_since_verify: 0, status: 'up_to_date' });
  });

  it('counts a side branch merged after the verify even when its commits are older', async () => {
    const r = makeRepo();
    cleanup.push(r.root);
    r.commit(new Date(T.getTime() - 3600_000));
    r.git('checkout', '-q', '-b', 'side');
    r.commit(new Date(T.getTime() - 1800_000), 'side.txt');
    r.git('checkout', '-q', 'main');
    const head = r.commit(T, 'main.txt');
    r.git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'merge', '-q', '--no-ff', '--no-edit', 'side');
    const [d] = await new CommitDriftCache().driftFor(r.root, [{ at: verifyAt, head }]);
    assert.deepEqual(d, { commits_since_verify: 2, status: 'behind' }); // the side commit and the merge
  });

  it('a head not in the log (older than its cut) counts the verify second as after', async () => {
    const r = makeRepo();
    cleanup.push(r.root);
    const old = r.commit(new Date(T.getTime() - 30 * 86_400_000));
    r.commit(T);
    const [d] = await new CommitDriftCache().driftFor(r.root, [{ at: verifyAt, head: old }]);
    assert.deepEqual(d, { commits_since_verify: 1, status: 'behind' });
  });
});

describe('verified_head in the file and the verify op', () => {
  const rec: MemoryRecord = {
    id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H',
    created: '2026-03-14T10:23:00.000Z',
    updated: '2026-03-14T10:23:00.000Z',
    scopes: ['tools'],
    confidence: 'high',
    source: 'explicit-statement',
    category: 'fact',
    last_verified_at: '2026-03-15T10:23:00.000Z',
    verified_head: 'a'.repeat(40),
    expires: null,
    origin: { cwd: '/w', repo: 'git@github.com:acme/x.git', branch: 'main', worktree_root: '/w' },
    body: 'A fact.',
  };

  it('round-trips through both readers, with unknown keys kept byte for byte', () => {
    const text = serializeMemory(rec, ['future_key: {a: 1}  # kept']);
    assert.match(text, /\nverified_head: a{40}\nfuture_key: \{a: 1\}  # kept\n---\n/);
    const parsed = parseMemoryText(text);
    assert.equal(parsed.record.verified_head, 'a'.repeat(40));
    assert.deepEqual(parsed.extra, ['future_key: {a: 1}  # kept']);
    const plain = serializeMemory(rec);
    assert.deepEqual(parseCanonical(plain)!.record, parseGeneral(plain).record);
    const tomb = serializeMemory({ ...rec, removed: '2026-03-16T00:00:00.000Z', removed_reason: 'x', removed_session: null });
    assert.deepEqual(parseCanonical(tomb)!.record, parseGeneral(tomb).record);
    assert.equal(parseCanonical(tomb)!.record.verified_head, 'a'.repeat(40));
    const both = serializeMemory({ ...rec, aliases: ['signing key'], removed: '2026-03-16T00:00:00.000Z', removed_reason: 'x', removed_session: null });
    assert.deepEqual(parseCanonical(both)!.record, parseGeneral(both).record);
    assert.equal(parseCanonical(both)!.record.verified_head, 'a'.repeat(40));
    const { verified_head, ...without } = rec;
    void verified_head;
    assert.ok(!serializeMemory(without).includes('verified_head'));
  });

  it('memory_verify stores the caller HEAD for a memory of the caller repo; a content update drops it', async () => {
    const r = makeRepo('cairn-vh-', 'git@github.com:acme/vh.git');
    cleanup.push(r.root);
    const head = r.commit(T);
    const root = tempDir();
    const c = await Cairn.open({ dir: join(root, 'store'), cwd: r.root, env: { HOME: root } });
    try {
      const m = (await c.write({ content: 'Releases are cut from main by the release workflow only.', scopes: ['release'] })) as Record<string, any>;
      await c.verify({ id: m.id });
      assert.match(readFileSync(m.file, 'utf8'), new RegExp(`\\nverified_head: ${head}\\n`));
      const u = (await c.update({ id: m.id, content: 'Releases are cut from main by the release workflow, never by hand.' })) as Record<string, any>;
      assert.ok(!readFileSync(u.file, 'utf8').includes('verified_head'));
    } finally {
      await c.close();
      removeDir(root);
    }
  });
});
