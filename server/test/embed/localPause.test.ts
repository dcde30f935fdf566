// The local model's worker (embed/localWorker.ts, the built server/dist/cairn-embed-worker.mjs
// with the real model) holds the store's background batches while a call is in flight in the
// process (core/foreground.ts), and answers the embeddings someone waits for meanwhile: a
// call's own embedding is never queued behind the background pass. Once the call ends, the
// held batch is finished.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localEmbedder } from '../../src/core/embed/local.ts';
import { foreground } from '../../src/core/foreground.ts';

const texts = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i}: the deploy of project ${i} runs the migrations with pnpm before the build, and redis caches the API responses for five minutes`);

test('a background batch waits while a call is in flight; an embedding asked for meanwhile is answered first; the batch ends after the call', async () => {
  const e = localEmbedder();
  try {
    assert.equal(await e.whenReady(), true, 'the model loads');
    const leave = foreground.enter();
    let batchDone = false;
    const batch = e.embed(texts(64, 'background'), { background: true }).then((v) => {
      batchDone = true;
      return v;
    });
    // Sent after the batch, neither urgent nor background (a call's own check, e.g. the
    // rewording check without the built-in table): without the gate it would wait for the
    // whole batch in the worker's queue.
    const own = await e.embed(texts(2, 'own'));
    assert.equal(own.length, 2);
    assert.equal(batchDone, false, 'the background batch is held while the call is in flight');
    const query = await e.embed(['who signs off a production deploy'], { urgent: true });
    assert.equal(query.length, 1);
    assert.equal(batchDone, false);
    leave();
    const v = await batch;
    assert.equal(v.length, 64);
    assert.ok(v.every((x) => x.length === e.dim));
  } finally {
    await e.close();
  }
});

test('with no call in flight a background batch runs in order, ahead of work queued after it', async () => {
  const e = localEmbedder();
  try {
    assert.equal(await e.whenReady(), true);
    let batchDone = false;
    const batch = e.embed(texts(16, 'background'), { background: true }).then(() => (batchDone = true));
    await e.embed(texts(1, 'after'));
    assert.equal(batchDone, true, 'first in, first out when nothing is in flight');
    await batch;
  } finally {
    await e.close();
  }
});
