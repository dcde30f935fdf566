// A real HTTP server on 127.0.0.1 that answers like Ollama (/api/embed) and like the OpenAI
// embeddings API (/v1/embeddings and /embeddings), with switchable faults: HTTP errors, slow
// answers, wrong shapes. Vectors are a deterministic function of the text.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'none' | 'http500' | 'http401' | 'slow' | 'badShape' | 'wrongCount' | 'notJson' | 'shuffled';

export interface FakeRequest {
  path: string;
  authorization: string | undefined;
  body: { model?: string; input?: string[] | string };
}

export interface FakeEmbedServer {
  url: string;
  requests: FakeRequest[];
  fault: Fault;
  /** delay of a 'slow' answer */
  slowMs: number;
  dim: number;
  close(): Promise<void>;
}

/** The vector the fake gives `text` (not normalised: providers must normalise). */
export function fakeVector(text: string, dim: number): number[] {
  const v: number[] = [];
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  for (let k = 0; k < dim; k++) {
    h = Math.imul(h ^ (k + 1), 16777619) >>> 0;
    v.push(((h % 1000) - 500) / 50);
  }
  return v;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeEmbedServer(opts: { dim?: number } = {}): Promise<FakeEmbedServer> {
  const state = { fault: 'none' as Fault, slowMs: 2000, dim: opts.dim ?? 8 };
  const requests: FakeRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  // A request whose body cannot be read (the client went away) drops the socket rather than
  // leaving a rejected promise nobody handles.
  const server = createServer((req: IncomingMessage, res: ServerResponse) => void (async () => {
    const raw = await readBody(req);
    let body: FakeRequest['body'] = {};
    try {
      body = JSON.parse(raw) as FakeRequest['body'];
    } catch {
      body = {};
    }
    const path = req.url ?? '/';
    requests.push({ path, authorization: req.headers.authorization, body });
    const send = (status: number, payload: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    };
    const inputs = Array.isArray(body.input) ? body.input : typeof body.input === 'string' ? [body.input] : [];
    const answer = () => {
      if (state.fault === 'http500') return send(500, { error: 'model crashed' });
      if (state.fault === 'http401') return send(401, { error: { message: 'Incorrect API key provided' } });
      if (state.fault === 'notJson') return send(200, '<html>proxy error</html>');
      const vecs = inputs.map((t) => fakeVector(t, state.dim));
      if (state.fault === 'wrongCount') vecs.pop();
      if (path === '/api/embed') {
        if (state.fault === 'badShape') return send(200, { embedding: vecs[0] });
        return send(200, { model: body.model, embeddings: vecs });
      }
      if (path === '/v1/embeddings' || path === '/embeddings') {
        if (state.fault === 'badShape') return send(200, { data: vecs.map((v) => ({ vector: v })) });
        const data = vecs.map((embedding, index) => ({ object: 'embedding', embedding, index }));
        if (state.fault === 'shuffled') data.reverse();
        return send(200, { object: 'list', model: body.model, data });
      }
      return send(404, { error: `no route ${path}` });
    };
    if (state.fault === 'slow') {
      const t = setTimeout(() => {
        timers.delete(t);
        answer();
      }, state.slowMs);
      timers.add(t);
      return;
    }
    answer();
  })().catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const fake: FakeEmbedServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    get fault() {
      return state.fault;
    },
    set fault(f: Fault) {
      state.fault = f;
    },
    get slowMs() {
      return state.slowMs;
    },
    set slowMs(ms: number) {
      state.slowMs = ms;
    },
    get dim() {
      return state.dim;
    },
    set dim(d: number) {
      state.dim = d;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
