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

test('a backlog drains in slices bounded by time, not only by count: a call waits for one short slice', async () => {
  const { Backlog } = await import('../../src/core/store/slices.ts');
  // Each item takes ~0.1 ms: a slice of 10,000 items by count alone would hold the event loop ~1 s.
  const perSlice: number[] = [];
  let done = 0;
  const b = new Backlog(400, () => {
    busy(0.1);
    done++;
  });
  let last = 0;
  await b.drain(async () => {
    perSlice.push(done - last);
    last = done;
    await new Promise((r) => setImmediate(r));
  }, 10_000);
  assert.equal(done, 400);
  assert.ok(perSlice.length >= 400 / 32, `only ${perSlice.length} slices`);
  // The clock is read every 32 items: 32 items of ~0.1 ms each are past the slice's time.
  assert.ok(Math.max(...perSlice) <= 32, `a slice did ${Math.max(...perSlice)} items`);
});

test('a backlog slice still stops at its count when its items are quick', async () => {
  const { Backlog } = await import('../../src/core/store/slices.ts');
  const perSlice: number[] = [];
  let done = 0;
  const b = new Backlog(1000, () => void done++);
  let last = 0;
  await b.drain(async () => {
    perSlice.push(done - last);
    last = done;
  }, 100);
  assert.equal(done, 1000);
  assert.ok(Math.max(...perSlice) <= 100, `a slice did ${Math.max(...perSlice)} items`);
});

test('the filter of records still to enter answers "maybe" for every name it holds, and rarely for others', async () => {
  const { TailFilter } = await import('../../src/core/store/tailFilter.ts');
  const held = Array.from({ length: 20_000 }, (_, i) => `/home/u/store/2026-11-${(i % 28) + 1}-some-slug-${i.toString(36)}-${(i * 7919).toString(36).slice(-6)}.md`);
  const f = new TailFilter(held.length);
  for (const s of held) f.add(s);
  for (const s of held) assert.equal(f.mayHold(s), true, s);
  let maybe = 0;
  for (let i = 0; i < 20_000; i++) if (f.mayHold(`/home/u/store/2026-10-other-${i.toString(36)}-x.md`)) maybe++;
  assert.ok(maybe <= 5, `${maybe} of 20,000 other names were maybes`);
  // Names that share their last characters share a hash: "maybe", which the caller then checks.
  const tail = 'x'.repeat(30);
  const g = new TailFilter(1);
  g.add(`a${tail}`);
  assert.equal(g.mayHold(`b${tail}`), true);
  assert.equal(g.mayHold(`${tail}b`), false);
});
