// A full garbage collection between bulk phases (live.ts: store loaded, index built, cache saved;
// semantic.ts: a long embedding pass). Each phase leaves tens of MB of dead temporaries that V8
// would let pile up across phases before collecting, which is peak RSS at 100k+ memories.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let fullGc: (() => void) | null | undefined;
export function collectGarbage(): void {
  if (fullGc === undefined) {
    fullGc = null;
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === 'function') fullGc = exposed;
    else {
      try {
        // Node offers no collection call without --expose-gc; set at run time, the flag gives a
        // fresh context a gc() (the same function the flag would have put on the global object).
        setFlagsFromString('--expose-gc');
        const fn = runInNewContext('gc') as unknown;
        if (typeof fn === 'function') fullGc = fn as () => void;
      } catch {
        // no collection: only memory, never correctness, depends on it
      }
    }
  }
  fullGc?.();
}
