// Reading many memory files without holding up the main thread: a worker thread reads them
// (synchronously, the fastest way for small files) a batch ahead of the caller, which meanwhile
// parses the batch before. A first start at 200k memories spends ~2.5 s in open/read/close
// alone; with a second core that time overlaps the parsing instead of adding to it.
//
//   for await (const batch of readAhead(paths)) for (const got of batch) ...  // text or ReadFailure
//
// Texts come back in the order of `paths`. Without a worker (one cannot start, or it fails) the
// rest is read here, synchronously, as before: same answers, only slower.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** A file that could not be read: its errno code (ENOENT, EACCES, ...) and message. */
export interface ReadFailure {
  code: string | undefined;
  message: string;
}

/** Files per message each way. */
const BATCH = 512;
/** Batches asked for ahead of the one being parsed. */
const AHEAD = 2;

// The worker is a CommonJS script evaluated from this string (the bundle is one file: there is
// no second file to point a worker at). It reads each batch of paths it is sent and posts the
// texts back, a failure as {code, message}.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
parentPort.on('message', (paths) => {
  if (paths === null) return parentPort.close();
  const out = new Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    try {
      out[i] = readFileSync(paths[i], 'utf8');
    } catch (err) {
      out[i] = { code: err && err.code, message: String(err && err.message) };
    }
  }
  parentPort.postMessage(out);
});
`;

/** Reads one file here, a failure as a ReadFailure. */
export function readOne(p: string): string | ReadFailure {
  try {
    return readFileSync(p, 'utf8');
  } catch (err) {
    return { code: (err as NodeJS.ErrnoException).code, message: (err as Error).message };
  }
}

export function isReadFailure(x: string | ReadFailure): x is ReadFailure {
  return typeof x !== 'string';
}

/** The files' texts, a batch at a time, in order; read by a worker thread a batch or two ahead. */
export async function* readAhead(paths: readonly string[], opts: { batch?: number; worker?: boolean } = {}): AsyncGenerator<Array<string | ReadFailure>> {
  const batch = opts.batch ?? BATCH;
  let worker: Worker | null = null;
  if (opts.worker !== false) {
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.unref();
    } catch {
      worker = null;
    }
  }
  let done = 0; // paths whose texts were yielded
  if (worker !== null) {
    const w = worker;
    const arrived: Array<Array<string | ReadFailure>> = [];
    let failed: Error | null = null;
    let wake: (() => void) | null = null;
    const signal = () => {
      const f = wake;
      wake = null;
      f?.();
    };
    w.on('message', (texts: Array<string | ReadFailure>) => {
      arrived.push(texts);
      signal();
    });
    w.on('error', (err) => {
      failed = err;
      signal();
    });
    w.on('exit', () => {
      failed ??= new Error('reader exited');
      signal();
    });
    let asked = 0; // paths sent to the worker
    const ask = () => {
      if (asked >= paths.length) return;
      const to = Math.min(paths.length, asked + batch);
      w.postMessage(paths.slice(asked, to));
      asked = to;
    };
    try {
      for (let i = 0; i < AHEAD; i++) ask();
      while (done < paths.length && failed === null) {
        if (arrived.length === 0) {
          await new Promise<void>((r) => (wake = r));
          continue;
        }
        const texts = arrived.shift()!;
        ask(); // the next batch is read while this one is parsed
        done += texts.length;
        yield texts;
      }
    } finally {
      w.removeAllListeners('exit');
      w.postMessage(null);
      void w.terminate();
    }
  }
  // No worker, or it failed part way: the rest is read here.
  while (done < paths.length) {
    const to = Math.min(paths.length, done + batch);
    const texts: Array<string | ReadFailure> = [];
    for (let i = done; i < to; i++) texts.push(readOne(paths[i]!));
    done = to;
    yield texts;
  }
}
