// The local transformer embedder: a retrieval-trained sentence encoder (all-MiniLM-L6-v2,
// int8-quantised ONNX, server/dist/cairn-model.bin) run in-process on ONNX Runtime's WebAssembly
// build, in a worker thread (localWorker.ts, bundled as server/dist/cairn-embed-worker.mjs) so
// the event loop never waits on inference. No native module, no network: every file ships beside
// the bundle. The worker starts on the first embed() and is unref'd while idle, so it never keeps
// a command alive.
//
// The id (`local:<name>-<digest>`, part of the vector cache key) and the dim come from the model
// file's header, read at once (a few hundred bytes); the whole file is checked (SHA-256) by the
// worker before its first answer. A missing or damaged file, or a worker that cannot start, is an
// EmbedError from embed() naming the file: the caller falls back to the built-in table.
import { closeSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { EmbedError, type Embedder } from './embedder.ts';
import { readModelHeader } from './modelFile.ts';
import { foreground } from '../foreground.ts';

export interface LocalOptions {
  modelFile?: string;
  wasmFile?: string;
  workerFile?: string;
}

export interface LocalEmbedder extends Embedder {
  readonly modelFile: string;
  /**
   * `urgent`: a search's query, answered before any queued background batch. `background`: a
   * batch of the store's pass, which the worker pauses (between two slices) while a call is in
   * flight in this process (core/foreground.ts), as it does the loading of the model.
   */
  embed(texts: readonly string[], opts?: { urgent?: boolean; background?: boolean }): Promise<Float32Array[]>;
  /** Stops the worker (pending calls reject). */
  close(): Promise<void>;
  /** Starts the worker now (it loads the model in ~0.5-2 s) instead of at the first embed(). */
  warm(): void;
  /** The worker has loaded the model: a query is answered in milliseconds, not after the load. */
  readonly ready: boolean;
  /** Starts the worker and settles once it has loaded the model (true) or failed (false). */
  whenReady(): Promise<boolean>;
}

/** Where the data files are: next to the bundle, else (running from source) server/dist/. $CAIRN_MODEL_FILE overrides the model. */
export function defaultLocalFiles(): Required<LocalOptions> {
  const here = import.meta.url;
  const dist = here.endsWith('.ts') ? '../../../dist/' : './';
  const at = (name: string) => fileURLToPath(new URL(dist + name, here));
  return {
    modelFile: process.env.CAIRN_MODEL_FILE ?? at('cairn-model.bin'),
    wasmFile: at('cairn-ort.wasm.br'),
    workerFile: at('cairn-embed-worker.mjs'),
  };
}

/** The header's bytes only: the id and dim without reading the whole model. */
function headerOf(file: string) {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw new EmbedError(`the embedding model ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return readModelHeader(file, buf.subarray(0, n)).header;
  } finally {
    closeSync(fd);
  }
}

/**
 * The local embedder. Throws EmbedError at once when the model file's header cannot be read
 * (missing file, not a model): a caller then uses the built-in table.
 */
export function localEmbedder(opts: LocalOptions = {}): LocalEmbedder {
  const files = { ...defaultLocalFiles(), ...opts };
  const header = headerOf(files.modelFile);
  const id = `local:${header.name}-${header.onnxSha256.slice(0, 12)}`;
  let worker: Worker | null = null;
  let failed: EmbedError | null = null;
  let ready = false;
  let readyWaiters: Array<(ok: boolean) => void> = [];
  const settleReady = (ok: boolean) => {
    const ws = readyWaiters;
    readyWaiters = [];
    for (const r of ws) r(ok);
  };
  let next = 1;
  const waiting = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();

  const failAll = (err: EmbedError) => {
    failed = err;
    settleReady(false);
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    const w = worker;
    worker = null;
    void w?.terminate();
  };
  const start = (): Worker => {
    const w = new Worker(files.workerFile, { workerData: { modelFile: files.modelFile, wasmFile: files.wasmFile, calls: foreground.shared }, stdout: false, stderr: false });
    w.on('message', (m: { id?: number; vectors?: Float32Array[]; error?: string; fatal?: string; ready?: unknown }) => {
      if (m.fatal !== undefined) return failAll(new EmbedError(m.fatal));
      if (m.ready !== undefined) {
        ready = true;
        if (waiting.size === 0) w.unref();
        settleReady(true);
        return;
      }
      if (m.id === undefined) return;
      const p = waiting.get(m.id);
      if (!p) return;
      waiting.delete(m.id);
      if (waiting.size === 0) w.unref();
      if (m.error !== undefined) p.reject(new EmbedError(`the local embedder failed: ${m.error}`));
      else p.resolve(m.vectors!);
    });
    w.on('error', (err) => failAll(new EmbedError(`the local embedder stopped: ${err.message}`)));
    w.on('exit', (code) => {
      if (worker === w) failAll(new EmbedError(`the local embedder stopped (exit code ${code})`));
    });
    w.unref();
    return w;
  };

  const ensure = (): Worker | null => {
    if (failed) return null;
    try {
      return (worker ??= start());
    } catch (err) {
      failAll(new EmbedError(`the local embedder cannot start (${files.workerFile}): ${(err as Error).message}`));
      return null;
    }
  };
  return {
    id,
    dim: header.dim,
    modelFile: files.modelFile,
    get ready() {
      return ready && !failed;
    },
    whenReady() {
      if (ready || failed) return Promise.resolve(ready && !failed);
      const w = ensure();
      if (!w) return Promise.resolve(false);
      w.ref();
      return new Promise<boolean>((r) => readyWaiters.push(r));
    },
    warm() {
      // unref'd: a server's stdin keeps it alive; a command that needs the model calls whenReady()
      ensure();
    },
    embed(texts, o = {}) {
      if (texts.length === 0) return Promise.resolve([]);
      const w = ensure();
      if (!w) return Promise.reject(failed!);
      const msgId = next++;
      return new Promise<Float32Array[]>((resolve, reject) => {
        waiting.set(msgId, { resolve, reject });
        w.ref();
        w.postMessage({ id: msgId, texts: [...texts], urgent: o.urgent === true, background: o.background === true && o.urgent !== true });
      });
    },
    async close() {
      const w = worker;
      worker = null;
      for (const p of waiting.values()) p.reject(new EmbedError('the local embedder was closed'));
      waiting.clear();
      if (w) await w.terminate();
    },
  };
}

/**
 * One model worker per process for each model file: a personal and a team store (or any number
 * of open stores) share it, since each worker holds its own copy of the model (~100 MB). Each
 * holder calls close() once; the worker stops when the last one has.
 */
const shared = new Map<string, { e: LocalEmbedder; holders: number }>();
export function sharedLocalEmbedder(opts: LocalOptions = {}): LocalEmbedder {
  const files = { ...defaultLocalFiles(), ...opts };
  const key = `${files.modelFile}\n${files.wasmFile}\n${files.workerFile}`;
  let s = shared.get(key);
  if (!s) shared.set(key, (s = { e: localEmbedder(files), holders: 0 }));
  s.holders++;
  const entry = s;
  let closed = false;
  return Object.assign(Object.create(entry.e) as LocalEmbedder, {
    async close() {
      if (closed) return;
      closed = true;
      if (--entry.holders === 0) {
        shared.delete(key);
        await entry.e.close();
      }
    },
  });
}
