// The foreground gate of a server: while a call is in flight (Cairn.during marks it), the work a
// server does in the background (the embedding of the store, the built-in table's interim pass,
// the consolidation pairs judged ahead of a call, the saves of their caches) waits between two of
// its steps, so the call has the machine's cores to itself instead of sharing them with work
// nobody is waiting for. The count lives in a SharedArrayBuffer: the embedding model's worker
// thread (embed/localWorker.ts) reads it between two slices of inference.
//
// One gate per process: a call into one store pauses the background work of every store the
// process holds (they share the cores, and the model's worker).

/** How often a background loop waiting on the gate looks again at a stop condition (its store closing), ms. */
const RECHECK_MS = 50;

export class Foreground {
  /** [0]: calls in flight; shared with worker threads (Atomics). */
  readonly shared = new Int32Array(new SharedArrayBuffer(4));
  private waiters = new Set<() => void>();

  /** Calls in flight. */
  get calls(): number {
    return Atomics.load(this.shared, 0);
  }

  /** A call is in flight: background work waits. */
  get busy(): boolean {
    return this.calls > 0;
  }

  /** Marks a call in flight; the returned function ends it (once). */
  enter(): () => void {
    Atomics.add(this.shared, 0, 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (Atomics.sub(this.shared, 0, 1) === 1) this.wakeAll();
    };
  }

  /** Runs `run` as a call in flight. */
  async during<T>(run: () => T | Promise<T>): Promise<T> {
    const leave = this.enter();
    try {
      return await run();
    } finally {
      leave();
    }
  }

  /**
   * Resolves at once when no call is in flight, else once none is (or once `stop` turns true: a
   * store closing does not wait for calls to end).
   */
  idle(stop?: () => boolean): Promise<void> {
    if (!this.busy || stop?.()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      const done = () => {
        this.waiters.delete(done);
        if (timer) clearTimeout(timer);
        resolve();
      };
      const recheck = () => {
        timer = null;
        if (!this.busy || stop?.()) return done();
        timer = setTimeout(recheck, RECHECK_MS);
      };
      this.waiters.add(done);
      if (stop) recheck();
    });
  }

  private wakeAll(): void {
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
    Atomics.notify(this.shared, 0);
  }
}

/** The process's gate. */
export const foreground = new Foreground();

/**
 * The pause a background loop takes between two steps: a turn of the event loop, then the wait
 * for the calls in flight to end. With `gate` false (a one-shot command: nothing else runs) just
 * the turn.
 */
export function backgroundPause(gate: boolean, stop?: () => boolean): () => Promise<void> {
  const turn = () => new Promise<void>((r) => setImmediate(r));
  if (!gate) return turn;
  return async () => {
    await turn();
    await foreground.idle(stop);
  };
}
