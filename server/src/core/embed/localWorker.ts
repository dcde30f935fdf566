// The embedding worker of the local transformer embedder (local.ts), bundled on its own by
// scripts/build.mjs into server/dist/cairn-embed-worker.mjs (an ES module: ONNX Runtime's
// WebAssembly build is one) and run in a worker_thread, so inference never blocks the server's
// event loop. It reads the model file (modelFile.ts, checked whole) and ONNX Runtime's wasm
// (brotli-compressed beside it), tokenizes (wordpiece.ts), runs the model on the single-threaded
// WebAssembly backend and answers mean-pooled, unit-length vectors.
//
// Messages in:  { id, texts, urgent, background }     out: { id, vectors } | { id, error }
// First message out: { ready: { name, dim, digest } } or { fatal: message }.
//
// Work is done a slice at a time (SLICE_TOKENS padded tokens), urgent jobs (a search's query)
// first, with a turn of the event loop between slices: a query waits for at most one slice of a
// background batch. While a call is in flight in the process (the count core/foreground.ts
// shares as workerData.calls), background batches (the store's pass) wait between two slices
// and the model's loading waits between its stages, unless a job that is not background is
// queued: the call has the cores.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { brotliDecompressSync } from 'node:zlib';
import * as ort from 'onnxruntime-web/wasm';
import { readModelFile } from './modelFile.ts';
import { WordPiece } from './wordpiece.ts';

/** Padded tokens per inference call: ~40-100 ms of work on one core. */
const SLICE_TOKENS = 384;
const MAX_SLICE_TEXTS = 16;

interface Job {
  id: number;
  texts: string[];
  /** a batch of the store's pass: waits while a call is in flight */
  background: boolean;
  ids: number[][] | null;
  /** text positions in length order, and how many are done */
  order: number[];
  done: number;
  out: Float32Array[];
}

/** ONNX Runtime's Emscripten glue (the build defines it: scripts/build.mjs). */
declare const __CAIRN_ORT_GLUE__: string;

const port = parentPort!;
const { modelFile, wasmFile, calls } = workerData as { modelFile: string; wasmFile: string; calls?: Int32Array };

/** How often a paused worker looks at the calls in flight again, ms (a new job wakes it at once). */
const PAUSE_POLL_MS = 20;
const inCall = () => calls !== undefined && Atomics.load(calls, 0) > 0;
let wake: (() => void) | null = null;
/** Waits PAUSE_POLL_MS, or until a job comes in. */
function pause(): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      wake = null;
      resolve();
    };
    const timer = setTimeout(done, PAUSE_POLL_MS);
    wake = done;
  });
}
/** Background work may run: no call is in flight, or a job someone waits for is queued. */
const mayWork = () => !inCall() || jobs.some((j) => !j.background);
/** Waits until background work may run (between two stages of the model's loading). */
async function quiet(): Promise<void> {
  while (!mayWork()) await pause();
}

async function start(): Promise<{ session: ort.InferenceSession; wp: WordPiece; maxTokens: number; dim: number }> {
  await quiet();
  const model = readModelFile(modelFile);
  await quiet();
  let wasm: Buffer;
  try {
    wasm = brotliDecompressSync(readFileSync(wasmFile));
  } catch (err) {
    throw new Error(`the ONNX Runtime file ${wasmFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmBinary = wasm;
  // The glue asks for its own location (createRequire(import.meta.url)): as a data: URL it has
  // none, so it is given this file's.
  const glue = __CAIRN_ORT_GLUE__.replaceAll('import.meta.url', JSON.stringify(import.meta.url));
  ort.env.wasm.wasmPaths = { mjs: `data:text/javascript;base64,${Buffer.from(glue, 'utf8').toString('base64')}` } as never;
  ort.env.logLevel = 'error';
  let session: ort.InferenceSession;
  await quiet();
  try {
    session = await ort.InferenceSession.create(model.onnx, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  } catch (err) {
    throw new Error(`the embedding model ${modelFile} cannot be run: ${(err as Error).message}`);
  }
  // the runtime holds its own copies now: the file's bytes may go (~35 MB)
  ort.env.wasm.wasmBinary = undefined as never;
  port.postMessage({ ready: { name: model.header.name, dim: model.header.dim, digest: model.digest } });
  return { session, wp: new WordPiece(model.vocab), maxTokens: model.header.maxTokens, dim: model.header.dim };
}

const jobs: Job[] = [];
let engine: Awaited<ReturnType<typeof start>> | null = null;
let running = false;

port.on('message', (m: { id: number; texts: string[]; urgent?: boolean; background?: boolean }) => {
  const job: Job = { id: m.id, texts: m.texts, background: m.background === true && m.urgent !== true, ids: null, order: [], done: 0, out: new Array(m.texts.length) };
  if (m.urgent) {
    // after other urgent jobs, before every background one
    let at = 0;
    while (at < jobs.length && urgent.has(jobs[at]!.id)) at++;
    jobs.splice(at, 0, job);
    urgent.add(m.id);
  } else jobs.push(job);
  wake?.();
  if (engine && !running) void loop();
});
const urgent = new Set<number>();

async function loop(): Promise<void> {
  running = true;
  try {
    while (jobs.length > 0) {
      // the first job, unless it is background work and a call is in flight: then the first
      // job someone waits for, or a pause
      const job = inCall() ? jobs.find((j) => !j.background) : jobs[0];
      if (job === undefined) {
        await pause();
        continue;
      }
      try {
        await slice(job);
      } catch (err) {
        jobs.splice(jobs.indexOf(job), 1);
        urgent.delete(job.id);
        port.postMessage({ id: job.id, error: (err as Error).message });
        continue;
      }
      if (job.done === job.texts.length) {
        jobs.splice(jobs.indexOf(job), 1);
        urgent.delete(job.id);
        port.postMessage({ id: job.id, vectors: job.out }, job.out.map((v) => v.buffer as ArrayBuffer));
      }
      // let new messages in (an urgent query goes ahead of the rest of this job)
      await new Promise<void>((r) => setImmediate(r));
    }
  } finally {
    running = false;
  }
}

async function slice(job: Job): Promise<void> {
  const { session, wp, maxTokens, dim } = engine!;
  if (job.ids === null) {
    job.ids = job.texts.map((t) => wp.encode(t, maxTokens));
    job.order = job.ids.map((_, i) => i).sort((a, b) => job.ids![a]!.length - job.ids![b]!.length);
  }
  // the next texts in length order, as many as fit SLICE_TOKENS padded to the longest
  const take: number[] = [];
  let longest = 0;
  while (job.done + take.length < job.order.length && take.length < MAX_SLICE_TEXTS) {
    const i = job.order[job.done + take.length]!;
    const len = job.ids[i]!.length;
    if (take.length > 0 && Math.max(longest, len) * (take.length + 1) > SLICE_TOKENS) break;
    take.push(i);
    longest = Math.max(longest, len);
  }
  const n = take.length;
  const inputIds = new BigInt64Array(n * longest);
  const mask = new BigInt64Array(n * longest);
  take.forEach((i, r) => {
    const ids = job.ids![i]!;
    for (let k = 0; k < ids.length; k++) {
      inputIds[r * longest + k] = BigInt(ids[k]!);
      mask[r * longest + k] = 1n;
    }
  });
  const feeds: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', inputIds, [n, longest]),
    attention_mask: new ort.Tensor('int64', mask, [n, longest]),
  };
  if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(n * longest), [n, longest]);
  const result = await session.run(feeds);
  const hidden = result[session.outputNames[0]!]!;
  const h = hidden.data as Float32Array;
  take.forEach((i, r) => {
    const len = job.ids![i]!.length;
    const v = new Float32Array(dim);
    for (let k = 0; k < len; k++) {
      const base = (r * longest + k) * dim;
      for (let d = 0; d < dim; d++) v[d] = v[d]! + h[base + d]!;
    }
    let s = 0;
    for (let d = 0; d < dim; d++) s += v[d]! * v[d]!;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let d = 0; d < dim; d++) v[d] = v[d]! * inv;
    job.out[i] = v;
  });
  hidden.dispose?.();
  job.done += n;
}

start().then(
  (e) => {
    engine = e;
    if (jobs.length > 0) void loop();
  },
  (err: Error) => port.postMessage({ fatal: err.message }),
);
