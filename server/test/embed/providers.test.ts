// The HTTP providers against a real server on 127.0.0.1 (Ollama and OpenAI shapes), their
// errors and timeouts, and the fallback that warns once and says which embedder answered.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ollamaEmbedder, openaiEmbedder, openaiEndpoint, withFallback } from '../../src/core/embed/providers.ts';
import { EmbedError, type Embedder, type SyncEmbedder } from '../../src/core/embed/embedder.ts';
import { startFakeEmbedServer, fakeVector, type FakeEmbedServer } from '../helpers/fakeEmbedServer.ts';

let fake: FakeEmbedServer;
before(async () => {
  fake = await startFakeEmbedServer({ dim: 8 });
});
after(async () => {
  await fake.close();
});

function reset(): void {
  fake.fault = 'none';
  fake.requests.length = 0;
  fake.dim = 8;
}

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

function unitOf(text: string, dim: number): number[] {
  const v = fakeVector(text, dim);
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
}

function assertClose(a: Float32Array, b: number[]): void {
  assert.equal(a.length, b.length);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) < 1e-5, `component ${i}: ${a[i]} vs ${b[i]}`);
}

/** A stand-in for the built-in: a fixed unit vector per call. */
function fakeFallback(): SyncEmbedder & { calls: number } {
  const e = {
    id: 'builtin:test-v1',
    dim: 4,
    calls: 0,
    embedSync: (_t: string) => Float32Array.from([1, 0, 0, 0]),
    async embed(texts: readonly string[]) {
      e.calls++;
      return texts.map(() => Float32Array.from([1, 0, 0, 0]));
    },
  };
  return e;
}

test('ollama: POSTs {model, input} to /api/embed, normalises, keeps order, batches', async () => {
  reset();
  const e = ollamaEmbedder({ url: `${fake.url}/`, model: 'nomic-embed-text', timeoutMs: 2000, batch: 2 });
  assert.equal(e.id, 'ollama:nomic-embed-text');
  const texts = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
  const out = await e.embed(texts);
  assert.equal(out.length, 5);
  texts.forEach((t, i) => assertClose(out[i]!, unitOf(t, 8)));
  for (const v of out) assert.ok(Math.abs(norm(v) - 1) < 1e-5);
  assert.equal(e.dim, 8);
  assert.deepEqual(fake.requests.map((r) => r.path), ['/api/embed', '/api/embed', '/api/embed']);
  assert.deepEqual(fake.requests.map((r) => r.body.input), [['alpha', 'beta'], ['gamma', 'delta'], ['epsilon']]);
  assert.equal(fake.requests[0]!.body.model, 'nomic-embed-text');
  assert.equal(fake.requests[0]!.authorization, undefined);
});

test('ollama: an empty list sends nothing', async () => {
  reset();
  const out = await ollamaEmbedder({ url: fake.url, model: 'm' }).embed([]);
  assert.deepEqual(out, []);
  assert.equal(fake.requests.length, 0);
});

test('openai: Bearer key from the named variable, /v1/embeddings, index order respected', async () => {
  reset();
  process.env.CAIRN_TEST_EMBED_KEY = 'sk-test-123';
  try {
    const e = openaiEmbedder({ url: `${fake.url}/v1`, model: 'text-embedding-3-small', apiKeyEnv: 'CAIRN_TEST_EMBED_KEY', timeoutMs: 2000 });
    assert.equal(e.id, 'openai:text-embedding-3-small');
    fake.fault = 'shuffled';
    const out = await e.embed(['one', 'two', 'three']);
    ['one', 'two', 'three'].forEach((t, i) => assertClose(out[i]!, unitOf(t, 8)));
    assert.equal(fake.requests[0]!.path, '/v1/embeddings');
    assert.equal(fake.requests[0]!.authorization, 'Bearer sk-test-123');
    assert.deepEqual(fake.requests[0]!.body, { model: 'text-embedding-3-small', input: ['one', 'two', 'three'] });
  } finally {
    delete process.env.CAIRN_TEST_EMBED_KEY;
  }
});

test('openai: the endpoint follows the url given', () => {
  assert.equal(openaiEndpoint('https://api.example.test/v1'), 'https://api.example.test/v1/embeddings');
  assert.equal(openaiEndpoint('https://api.example.test/v1/'), 'https://api.example.test/v1/embeddings');
  assert.equal(openaiEndpoint('http://127.0.0.1:8080/embeddings'), 'http://127.0.0.1:8080/embeddings');
});

test('openai: a missing key variable is an error naming it, and nothing is sent', async () => {
  reset();
  delete process.env.CAIRN_TEST_EMBED_NOPE;
  const e = openaiEmbedder({ url: fake.url, model: 'm', apiKeyEnv: 'CAIRN_TEST_EMBED_NOPE' });
  await assert.rejects(e.embed(['x']), (err: Error) => err instanceof EmbedError && /CAIRN_TEST_EMBED_NOPE/.test(err.message));
  assert.equal(fake.requests.length, 0);
});

test('HTTP errors, bad shapes, wrong counts and non-JSON are EmbedErrors that say what went wrong', async () => {
  const cases: Array<[FakeEmbedServer['fault'], RegExp]> = [
    ['http500', /HTTP 500/],
    ['http401', /HTTP 401.*Incorrect API key/],
    ['badShape', /no embeddings array|not a non-empty array/],
    ['wrongCount', /asked for 2 embeddings, got 1/],
    ['notJson', /not JSON/],
  ];
  for (const [fault, re] of cases) {
    reset();
    fake.fault = fault;
    await assert.rejects(ollamaEmbedder({ url: fake.url, model: 'm', timeoutMs: 2000 }).embed(['a', 'b']), (err: Error) => err instanceof EmbedError && re.test(err.message), `ollama ${fault}`);
    const o = openaiEmbedder({ url: `${fake.url}/v1`, model: 'm', timeoutMs: 2000 });
    if (fault === 'badShape') {
      await assert.rejects(o.embed(['a', 'b']), (err: Error) => err instanceof EmbedError && /not a non-empty array/.test(err.message), `openai ${fault}`);
    } else {
      await assert.rejects(o.embed(['a', 'b']), (err: Error) => err instanceof EmbedError && re.test(err.message), `openai ${fault}`);
    }
  }
});

test('a slow server times out with an error naming the endpoint and the limit', async () => {
  reset();
  fake.fault = 'slow';
  fake.slowMs = 3000;
  const t0 = Date.now();
  await assert.rejects(
    ollamaEmbedder({ url: fake.url, model: 'm', timeoutMs: 150 }).embed(['a']),
    (err: Error) => err instanceof EmbedError && /within 150 ms/.test(err.message) && err.message.includes('/api/embed'),
  );
  assert.ok(Date.now() - t0 < 2000, 'gave up at the timeout');
});

test('nothing listening: a clear EmbedError', async () => {
  const closed = await startFakeEmbedServer();
  const url = closed.url;
  await closed.close();
  await assert.rejects(ollamaEmbedder({ url, model: 'm', timeoutMs: 2000 }).embed(['a']), (err: Error) => err instanceof EmbedError && /cannot reach/.test(err.message));
});

test('withFallback: uses the primary while it works and says so', async () => {
  reset();
  const warnings: string[] = [];
  const fb = fakeFallback();
  const e = withFallback(ollamaEmbedder({ url: fake.url, model: 'm', timeoutMs: 2000 }), fb, (m) => warnings.push(m));
  const before = e.lastUsed;
  assert.equal(before, null);
  const r = await e.embedWithSource(['x', 'y']);
  assert.equal(r.embedder.id, 'ollama:m');
  assert.equal(e.lastUsed?.id, 'ollama:m');
  assert.equal(e.id, 'ollama:m');
  assert.equal(r.vectors.length, 2);
  assert.equal(fb.calls, 0);
  assert.deepEqual(warnings, []);
});

test('withFallback: on failure degrades to the built-in with ONE warning, and stays there', async () => {
  reset();
  fake.fault = 'http500';
  const warnings: string[] = [];
  const fb = fakeFallback();
  const primary: Embedder = ollamaEmbedder({ url: fake.url, model: 'm', timeoutMs: 2000 });
  const e = withFallback(primary, fb, (m) => warnings.push(m));
  for (let i = 0; i < 3; i++) {
    const r = await e.embedWithSource(['a', 'b']);
    assert.equal(r.embedder, fb);
    assert.equal(r.vectors.length, 2);
  }
  fake.fault = 'none'; // the primary recovering does not flip the index back mid-session
  const again = await e.embed(['c']);
  assert.deepEqual([...again[0]!], [1, 0, 0, 0]);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /HTTP 500.*builtin:test-v1/);
  assert.equal(e.degraded, true);
  assert.equal(e.lastUsed, fb);
  assert.equal(e.id, 'builtin:test-v1');
  assert.equal(e.dim, 4);
  assert.equal(fake.requests.length, 1, 'the failed primary is not asked again');
});

test('withFallback: a timeout degrades too, one warning for concurrent calls', async () => {
  reset();
  fake.fault = 'slow';
  fake.slowMs = 3000;
  const warnings: string[] = [];
  const e = withFallback(ollamaEmbedder({ url: fake.url, model: 'm', timeoutMs: 100 }), fakeFallback(), (m) => warnings.push(m));
  const rs = await Promise.all([e.embedWithSource(['a']), e.embedWithSource(['b']), e.embedWithSource(['c'])]);
  for (const r of rs) assert.equal(r.embedder.id, 'builtin:test-v1');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /within 100 ms/);
});
