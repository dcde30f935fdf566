// Background work in a server (the check of a big store's files after a start from the cache, the
// vector load) yields to the event loop in short slices: a call that arrives, or whose disk wait
// ends, waits for at most one slice, not for a batch of a fixed size (256 lstats were ~1 ms, and a
// write makes several such waits: 8-12 ms per write in the first second after a start at 50k).
// Loops ask often (every few dozen items); between two real yields the answer is an already
// resolved promise, so asking costs a microtask.

/** The longest a background task runs between two yields, ms. */
export const SLICE_MS = 0.25;

/** Items a drain does between two looks at the clock. */
const DRAIN_STEP = 32;

let resumedAt = 0;
const RESOLVED: Promise<void> = Promise.resolve();

/** One turn of the event loop (setImmediate): what waits behind this task runs first. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((r) => setImmediate(r));
}

/** Yields to the event loop (setImmediate) once the current slice is used up. */
export function sliceYield(): Promise<void> {
  if (performance.now() - resumedAt < SLICE_MS) return RESOLVED;
  return new Promise<void>((r) =>
    setImmediate(() => {
      resumedAt = performance.now();
      r();
    }),
  );
}

/**
 * Work over items 0..n-1 that can wait: done a slice at a time in the background (drain), or
 * whatever is left at once when something needs it done (finish). A start from the cache leaves
 * the maps a search does not need (a store's paths, an index's ids) to one of these.
 */
export class Backlog {
  private next = 0;
  constructor(
    private readonly n: number,
    private readonly step: (i: number) => void,
  ) {}
  /** The first item not done yet. */
  get at(): number {
    return this.next;
  }
  get done(): boolean {
    return this.next >= this.n;
  }
  /** Does the items up to (not including) `upTo`, at most to the end. */
  private doUpTo(upTo: number): void {
    const end = Math.min(this.n, upTo);
    for (let i = this.next; i < end; i++) this.step(i);
    this.next = Math.max(this.next, end);
  }
  finish(): void {
    this.doUpTo(this.n);
  }
  /** Items still to do. */
  get left(): number {
    return Math.max(0, this.n - this.next);
  }
  /** Whether `test` holds for an item still to do (a scan: no item is done). */
  someLeft(test: (i: number) => boolean): boolean {
    for (let i = this.next; i < this.n; i++) if (test(i)) return true;
    return false;
  }
  /**
   * At most `slice` items and at most SLICE_MS of them, then `pause`, until none is left (finish()
   * may end it sooner). Bounded by time, not only by count: 2,048 store records or 4,096 index ids
   * a slice were 2-4 ms each at 200k memories, and a write, which waits for a slice at each of its
   * disk waits, took ~20 ms instead of ~6 while the background entered them.
   */
  async drain(pause: () => Promise<void>, slice: number): Promise<void> {
    while (!this.done) {
      const t0 = performance.now();
      const end = this.next + slice;
      do this.doUpTo(Math.min(end, this.next + DRAIN_STEP));
      while (!this.done && this.next < end && performance.now() - t0 < SLICE_MS);
      await pause();
    }
  }
}
