// FeedbackFold.prime(): the first full read with the store directory listed off the main thread
// (a server's big store). It must fold exactly what a plain refresh folds, and until it is done the
// fold tracks nothing (the plain ranking).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { EventLog } from '../../src/core/curation/events.ts';
import { FeedbackFold } from '../../src/core/curation/feedback.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

test('prime() folds the same events as a refresh; the fold is empty until it is done', async () => {
  const dir = tempDir();
  try {
    // A tiny max_bytes: the log rotates, so the fold must find archives in the directory listing.
    const log = new EventLog({ dir, session: 'S1', warn: () => {}, maxBytes: 300 });
    for (let i = 0; i < 5; i++) log.append('use', { ids: ['01AAAAAAAAAAAAAAAAAAAAAAAA'], outcome: 'applied' });
    log.append('use', { ids: ['01BBBBBBBBBBBBBBBBBBBBBBBB'], outcome: 'contradicted' });
    log.close();
    const settings = { halfLifeDays: 30, maxFraction: 0.15 };
    const now = Date.now();
    const plain = new FeedbackFold(dir, settings, now);
    plain.refresh();
    assert.equal(plain.tracked, 2);
    assert.ok(readdirSync(dir).some((n) => n.startsWith('.events-')), 'no archive was made');
    const primed = new FeedbackFold(dir, settings, now);
    const p = primed.prime();
    primed.refresh(); // while the listing runs: nothing read yet
    assert.equal(primed.tracked, 0);
    await p;
    assert.equal(primed.tracked, 2);
    for (const id of ['01AAAAAAAAAAAAAAAAAAAAAAAA', '01BBBBBBBBBBBBBBBBBBBBBBBB']) assert.deepEqual(primed.parts(id, now), plain.parts(id, now));
    assert.ok(primed.parts('01AAAAAAAAAAAAAAAAAAAAAAAA', now).multiplier > 1);
    // Later appends are read by refresh as before.
    const log2 = new EventLog({ dir, session: 'S2', warn: () => {} });
    log2.append('use', { ids: ['01CCCCCCCCCCCCCCCCCCCCCCCC'], outcome: 'applied' });
    log2.close();
    primed.refresh();
    assert.equal(primed.tracked, 3);
    void join;
  } finally {
    removeDir(dir);
  }
});
