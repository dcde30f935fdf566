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

test('the names of records still to enter: exact while the filter is made in slices, while records are entered, and after', async () => {
  const { Backlog } = await import('../../src/core/store/slices.ts');
  const { NamesToEnter } = await import('../../src/core/store/tailFilter.ts');
  const recs = Array.from({ length: 3000 }, (_, i) => ({ file: `/s/2026-11-27-note-${i}-${(i * 7919).toString(36)}.md`, id: `01JH${String(i).padStart(22, '0')}` })) as never as import('../../src/core/types.ts').StoredMemory[];
  // a backlog part way: its first slice (at most 1,000 records) entered, then its pause fails
  const fresh = new Backlog(recs.length, () => undefined);
  await fresh.drain(async () => {
    throw new Error('stop');
  }, 1000).catch(() => undefined);
  const k = fresh.at;
  assert.ok(k > 0 && k <= 1000, `entered ${k}`);
  const names = new NamesToEnter(recs, fresh);
  // the filter made one slice, then the background stops (its pause never resolves here)
  let pauses = 0;
  void names.make(() => (pauses++ === 0 ? new Promise<void>(() => undefined) : Promise.resolve()), () => true);
  await new Promise((r) => setImmediate(r));
  assert.equal(pauses, 1);
  // a question completes the filter: every record still to enter is found, by path or by id
  for (const i of [k, 1500, 2999]) {
    assert.equal(names.holds(recs[i]!.file, null), true, `path ${i}`);
    assert.equal(names.holds('/s/new.md', recs[i]!.id), true, `id ${i}`);
  }
  // entered ones and new names are not (the store's maps know the entered ones)
  assert.equal(names.holds(recs[0]!.file, recs[0]!.id), false);
  assert.equal(names.holds('/s/2026-11-27-new-note-abc123.md', '01JHZZZZZZZZZZZZZZZZZZZZZZ'), false);
  // a name the filter may hold but no record still to enter has (an entered one's): the scan says no
  await fresh.drain(async () => undefined, 5000);
  assert.equal(names.holds(recs[2000]!.file, null), false);
});
