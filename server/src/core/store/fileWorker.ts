// Bulk file work off the main thread: a worker thread reads many memory files (synchronously,
// the fastest way for small files) a batch ahead of the caller, which meanwhile parses the batch
// before, and stats a big directory's names while the caller stats others. A first start at 200k
// memories spends ~2.5 s in open/read/close and ~0.5 s in lstat alone; with a second core that
// time overlaps the parsing instead of adding to it, and a server checking its files in the
// background keeps its own thread for calls.
//
//   for await (const got of readAhead(paths)) ...                              // text or ReadFailure
//   const { stats, kinds } = await statNames(dirPrefix, names);               // lstat of each
//
// Answers come back in the order asked. Without a worker (one cannot start, or it fails) the
// work is done here, synchronously, as before: same answers, only slower.
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { isTempName } from './fsatomic.ts';
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

/** What a listing stats: a memory file's name (`*.md`, not hidden; a temp file is hidden). */
export function isListedName(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.');
}

// The worker is a CommonJS script evaluated from this string (the bundle is one file: there is
// no second file to point a worker at). A read: each batch of paths it is sent comes back as
// texts, a failure as {code, message}. A stat: size and mtime of each name (kinds: 0 gone, 1 a
// file, 2 a symbolic link, 3 anything else), never following a link. A list: a directory's names
// split as listing.ts splits them (memory files: *.md, not hidden; temp files: isTempName), the
// memory files stat'ed as above (null if it cannot be read). The two name tests are this
// module's own, their source copied in (each uses nothing but its argument).
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { lstatSync, readFileSync, readdirSync } = require('node:fs');
const isListedName = ${isListedName};
const isTempName = ${isTempName};
parentPort.on('message', (m) => {
  if (m === null) return parentPort.close();
  if (m.op === 'list') {
    let names;
    try {
      names = readdirSync(m.dir);
    } catch {
      return parentPort.postMessage(null);
    }
    m = { op: 'stat', prefix: m.prefix, names: names.filter(isListedName), temps: names.filter(isTempName) };
  }
  if (m.op === 'stat') {
    const n = m.names.length;
    const stats = new Float64Array(2 * n);
    const kinds = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const st = lstatSync(m.prefix + m.names[i], { throwIfNoEntry: false });
      if (st === undefined) continue;
      kinds[i] = st.isFile() ? 1 : st.isSymbolicLink() ? 2 : 3;
      stats[2 * i] = st.size;
      stats[2 * i + 1] = st.mtimeMs;
    }
    return parentPort.postMessage(m.temps ? { md: m.names, temps: m.temps, stats, kinds } : { stats, kinds }, [stats.buffer, kinds.buffer]);
  }
  const paths = m.paths;
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

function startWorker(): Worker | null {
  try {
    // A small young generation: the worker's garbage (stat results, texts already posted) is
    // collected often instead of growing its heap (+28 MB of peak RSS at 50k memories without).
    const w = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    w.unref();
    return w;
  } catch {
    return null;
  }
}

/** lstat of each name: [size, mtimeMs] pairs and kinds (0 gone, 1 a file, 2 a symbolic link, 3 other). */
export interface NameStats {
  stats: Float64Array;
  kinds: Uint8Array;
}

/** A NameStats for `n` names, all gone until filled. */
export function nameStats(n: number): NameStats {
  return { stats: new Float64Array(2 * n), kinds: new Uint8Array(n) };
}

/** Fills entries [from, to) of `out` with the lstat of `prefix + names[i]`, here. */
export function statInto(prefix: string, names: readonly string[], from: number, to: number, out: NameStats): void {
  for (let i = from; i < to; i++) {
    let st;
    try {
      st = lstatSync(prefix + names[i]!);
    } catch {
      continue; // removed meanwhile
    }
    out.kinds[i] = st.isFile() ? 1 : st.isSymbolicLink() ? 2 : 3;
    out.stats[2 * i] = st.size;
    out.stats[2 * i + 1] = st.mtimeMs;
  }
}

/** The lstat of `prefix + name` for each name, done by a worker thread (here, if none can start). */
export function statNames(prefix: string, names: readonly string[], opts: WorkerChoice = {}): Promise<NameStats> {
  return askOnce({ op: 'stat', prefix, names }, opts, () => {
    const s = nameStats(names.length);
    statInto(prefix, names, 0, names.length, s);
    return s;
  });
}

/** worker: false answers here; 'only' (tests) rejects where the worker cannot answer instead of answering here. */
export interface WorkerChoice {
  worker?: boolean | 'only';
}

/** One question to a worker of its own and its one answer; `here` answers instead when no worker can start or it fails. */
async function askOnce<T>(message: object, opts: WorkerChoice, here: () => T): Promise<T> {
  const w = opts.worker === false ? null : startWorker();
  if (w === null) {
    if (opts.worker === 'only') throw new Error('no worker thread could start');
    return here();
  }
  try {
    return await new Promise<T>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
      w.once('exit', () => reject(new Error('the worker exited')));
      w.postMessage(message);
    });
  } catch (err) {
    if (opts.worker === 'only') throw err;
    return here();
  } finally {
    w.removeAllListeners();
    w.on('error', () => undefined); // a late error of a worker being stopped
    void w.terminate();
  }
}

/** A directory's memory file names (`*.md`, not hidden) with their lstat, and its temp files' names (isTempName). */
export interface DirListing extends NameStats {
  md: string[];
  temps: string[];
}

/** `dir` (named `prefix` + name for each entry) listed and stat'ed by a worker thread (here, if none can start); null if it cannot be read. */
export function listDir(dir: string, prefix: string, opts: WorkerChoice = {}): Promise<DirListing | null> {
  return askOnce<DirListing | null>({ op: 'list', dir, prefix }, opts, () => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return null;
    }
    const md = names.filter(isListedName);
    const s = nameStats(md.length);
    statInto(prefix, md, 0, md.length, s);
    return { md, temps: names.filter(isTempName), ...s };
  });
}

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

/** Each file's text (or why it could not be read), in order; read by a worker thread a batch or two ahead. */
export async function* readAhead(paths: readonly string[], opts: { batch?: number; worker?: boolean } = {}): AsyncGenerator<string | ReadFailure, void, undefined> {
  const batch = opts.batch ?? BATCH;
  const worker = opts.worker === false ? null : startWorker();
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
      w.postMessage({ op: 'read', paths: paths.slice(asked, to) });
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
        for (const t of texts) {
          done++;
          yield t;
        }
      }
    } finally {
      w.removeAllListeners('exit');
      w.postMessage(null);
      void w.terminate();
    }
  }
  // No worker, or it failed part way: the rest is read here.
  for (; done < paths.length; done++) yield readOne(paths[done]!);
}
