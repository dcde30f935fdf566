// FeedbackFold.prime(): the first full read with the store directory listed off the main thread
// (a server's big store). It must fold exactly what a plain refresh folds, and until it is done the
// fold tracks nothing (the plain ranking).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  } finally {
    removeDir(dir);
  }
});

test('a log that never rotated is saved too once it is long enough (its active bytes count)', () => {
  const dir = tempDir();
  try {
    const settings = { halfLifeDays: 30, maxFraction: 0.15 };
    const log = new EventLog({ dir, session: 'S1', warn: () => {} });
    for (let i = 0; i < 40; i++) log.append('use', { ids: ['01AAAAAAAAAAAAAAAAAAAAAAAA'], outcome: 'applied' });
    log.close();
    assert.ok(!readdirSync(dir).some((n) => n.startsWith('.events-')), 'the log must not have rotated');
    const size = statSync(join(dir, '.events.jsonl')).size;
    new FeedbackFold(dir, settings, Date.now(), size + 1).refresh();
    assert.ok(!existsSync(join(dir, '.cache', 'feedback.json')), 'saved below the threshold');
    new FeedbackFold(dir, settings, Date.now(), size).refresh();
    const saved = JSON.parse(readFileSync(join(dir, '.cache', 'feedback.json'), 'utf8'));
    assert.equal(saved.offset, size);
    assert.deepEqual(saved.archives, []);
  } finally {
    removeDir(dir);
  }
});

test('a long-lived fold saves what it folded since its first read when it is persisted (a server closing)', () => {
  const dir = tempDir();
  try {
    const settings = { halfLifeDays: 30, maxFraction: 0.15 };
    const log = new EventLog({ dir, session: 'S1', warn: () => {} });
    log.append('use', { ids: ['01AAAAAAAAAAAAAAAAAAAAAAAA'], outcome: 'applied' });
    const first = statSync(join(dir, '.events.jsonl')).size;
    const fold = new FeedbackFold(dir, settings, Date.now(), first * 5);
    fold.refresh();
    assert.ok(!existsSync(join(dir, '.cache', 'feedback.json')), 'one line is below the threshold');
    for (let i = 0; i < 10; i++) log.append('use', { ids: ['01BBBBBBBBBBBBBBBBBBBBBBBB'], outcome: 'applied' });
    log.close();
    fold.refresh(); // reads the new lines
    fold.persist();
    const saved = JSON.parse(readFileSync(join(dir, '.cache', 'feedback.json'), 'utf8'));
    assert.equal(saved.offset, statSync(join(dir, '.events.jsonl')).size);
    // the next process starts from it and folds the same
    const next = new FeedbackFold(dir, settings, Date.now(), first * 5);
    next.refresh();
    assert.ok(next.parts('01BBBBBBBBBBBBBBBBBBBBBBBB', Date.now()).applied > 0);
  } finally {
    removeDir(dir);
  }
});

test('the fold is saved to .cache/feedback.json and the next process continues from it; a rotation or a missing archive folds from the log again', () => {
  const dir = tempDir();
  const A = '01AAAAAAAAAAAAAAAAAAAAAAAA';
  const B = '01BBBBBBBBBBBBBBBBBBBBBBBB';
  const C = '01CCCCCCCCCCCCCCCCCCCCCCCC';
  try {
    const settings = { halfLifeDays: 30, maxFraction: 0.15 };
    const now = Date.now();
    const log = new EventLog({ dir, session: 'S1', warn: () => {}, maxBytes: 300 });
    for (let i = 0; i < 5; i++) log.append('use', { ids: [A], outcome: 'applied' });
    log.close();
    const log1 = new EventLog({ dir, session: 'S1b', warn: () => {} });
    log1.append('use', { ids: [B], outcome: 'contradicted' });
    log1.close();
    const first = new FeedbackFold(dir, settings, now, 0);
    first.refresh();
    const file = join(dir, '.cache', 'feedback.json');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.ok(saved.archives.length >= 1, 'the archives it read are named');
    // Proof that the next fold starts from the file, not the log: a value only the file holds.
    saved.acc = saved.acc.map((r: [string, number, number, number]) => (r[0] === A ? [A, 1000, 0, 0] : r));
    writeFileSync(file, JSON.stringify(saved));
    const second = new FeedbackFold(dir, settings, now, 0);
    second.refresh();
    assert.equal(second.parts(A, now).applied, 1000);
    assert.deepEqual(second.parts(B, now), first.parts(B, now));
    // Events appended since the save are read on top of it.
    const log2 = new EventLog({ dir, session: 'S2', warn: () => {} });
    log2.append('use', { ids: [C], outcome: 'applied' });
    log2.close();
    const third = new FeedbackFold(dir, settings, now, 0);
    third.refresh();
    assert.equal(third.parts(A, now).applied, 1000);
    assert.ok(third.parts(C, now).multiplier > 1);

    // A missing archive: the saved fold is not used.
    writeFileSync(file, JSON.stringify({ ...saved, archives: [...saved.archives, '.events-20000101T000000000Z.jsonl'] }));
    const fresh = new FeedbackFold(dir, settings, now, 0);
    fresh.refresh();
    assert.notEqual(fresh.parts(A, now).applied, 1000);
    assert.deepEqual(fresh.parts(C, now), third.parts(C, now));

    // A rotation (the active log replaced): folded from the log again.
    writeFileSync(file, JSON.stringify(saved));
    const log3 = new EventLog({ dir, session: 'S3', warn: () => {}, maxBytes: 300 });
    for (let i = 0; i < 4; i++) log3.append('use', { ids: [B], outcome: 'applied' });
    log3.close();
    const rotated = new FeedbackFold(dir, settings, now, 0);
    rotated.refresh();
    assert.notEqual(rotated.parts(A, now).applied, 1000);
    rmSync(file);
    const scratch = new FeedbackFold(dir, settings, now, 0);
    scratch.refresh();
    for (const id of [A, B, C]) assert.deepEqual(rotated.parts(id, now), scratch.parts(id, now));
  } finally {
    removeDir(dir);
  }
});
