// store/slices.ts: background work yields once its slice is used up, and only then.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SLICE_MS, sliceYield } from '../../src/core/store/slices.ts';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

test('a used-up slice yields to the event loop: a call waiting there runs before the task goes on', async () => {
  await sliceYield();
  busy(SLICE_MS * 4);
  let ran = false;
  setImmediate(() => (ran = true));
  await sliceYield();
  assert.equal(ran, true);
});

test('inside a slice the yield is a resolved promise (no event-loop turn), so loops may ask often', async () => {
  // Several tries: a garbage collection between two asks could use a slice up on its own.
  let inside = 0;
  for (let i = 0; i < 20; i++) {
    await sliceYield();
    let ran = false;
    setImmediate(() => (ran = true));
    await sliceYield();
    if (!ran) inside++;
    await new Promise((r) => setImmediate(r));
  }
  assert.ok(inside >= 10, `only ${inside} of 20 asks right after a yield stayed inside the slice`);
});
