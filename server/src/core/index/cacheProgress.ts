// The index cache's read as a phase of the progress line (readCache reports bytes; a person reads MB).
import type { PhaseProgress } from '../types.ts';

const MB = 2 ** 20;

/** A readCache progress callback that tells `report` the read in whole MB, its end as the end. */
export function cacheReadProgress(report: PhaseProgress): (done: number, total: number) => void {
  return (done, total) => {
    const all = Math.max(1, Math.ceil(total / MB));
    report('reading the index cache', done >= total ? all : Math.floor(done / MB), all, 'MB');
  };
}
