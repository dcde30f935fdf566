// Long computations over a whole store (the health report, the consolidation groups) written as
// generators that yield between items: run at once where nothing else waits (a one-shot command,
// tests), or in slices between which a server's event loop answers other calls.

import { nextTurn } from '../store/slices.ts';

/** A computation that yields (nothing) every few items and returns T. */
export type Steps<T> = Generator<void, T, void>;

/** The longest run between two yields to the event loop, ms. */
export const SLICE_MS = 8;


/** Runs the steps to their end without a break. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs the steps, yielding to the event loop (`pause`) once a slice of SLICE_MS is used up. */
export async function runSliced<T>(steps: Steps<T>, pause: () => Promise<void> = nextTurn): Promise<T> {
  let t0 = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - t0 >= SLICE_MS) {
      await pause();
      t0 = performance.now();
    }
  }
}

/** Reports how far a piece of work is: `done` of `total`. */
export type StepProgress = (done: number, total: number) => void;

/**
 * One progress report over work done in stages of known weights, in order: stage(i) reports its
 * own done/total, the whole is reported as a share of `SCALE` (a percentage).
 */
export function stagedProgress(report: StepProgress | undefined, weights: readonly number[]): (i: number) => StepProgress | undefined {
  if (!report) return () => undefined;
  const sum = weights.reduce((a, b) => a + b, 0);
  return (i) => {
    const before = weights.slice(0, i).reduce((a, b) => a + b, 0);
    return (done, total) => report(Math.min(SCALE, Math.floor((SCALE * (before + weights[i]! * (total > 0 ? Math.min(1, done / total) : 1))) / sum)), SCALE);
  };
}
export const SCALE = 100;
