// The built-in embedder: the shipped table (server/dist/cairn-embed.bin) loads and embeds
// sensibly, and a missing or damaged file is a clear error naming its path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  builtinEmbedder,
  decodeEmbedFile,
  defaultEmbedFile,
  encodeEmbedFile,
  EMBED_FORMAT_VERSION,
  loadEmbedModel,
  StaticEmbedModel,
  type EmbedTable,
} from '../../src/core/embed/builtin.ts';
import { dot, EmbedError } from '../../src/core/embed/embedder.ts';
import { embedWords } from '../../src/core/embed/tokenize.ts';
import { ngramIds } from '../../src/core/embed/ngrams.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

const SHIPPED = fileURLToPath(new URL('../../dist/cairn-embed.bin', import.meta.url));
const shipped = builtinEmbedder({ file: SHIPPED });
const cos = (a: string, b: string) => dot(shipped.embedSync(a), shipped.embedSync(b));
const norm = (v: Float32Array) => Math.sqrt(dot(v, v));

test('the shipped file is where the source-tree default points, and within the size budget', () => {
  assert.equal(defaultEmbedFile(), SHIPPED);
  assert.ok(existsSync(SHIPPED), `${SHIPPED} is committed`);
  assert.ok(readFileSync(SHIPPED).length <= 16 * 1024 * 1024);
  assert.match(shipped.id, /^builtin:[a-z0-9-]+-v1$/);
  assert.equal(shipped.dim, 256);
});

test('CAIRN_EMBED_FILE overrides the location', () => {
  const before = process.env.CAIRN_EMBED_FILE;
  process.env.CAIRN_EMBED_FILE = '/somewhere/else.bin';
  try {
    assert.equal(defaultEmbedFile(), '/somewhere/else.bin');
    assert.equal(builtinEmbedder().file, '/somewhere/else.bin');
  } finally {
    if (before === undefined) delete process.env.CAIRN_EMBED_FILE;
    else process.env.CAIRN_EMBED_FILE = before;
  }
});

test('vectors are unit length, deterministic, and the same through embed() and embedSync()', async () => {
  const texts = ['Nightly backups of the billing Postgres database', 'which editor do I like', 'x', '', '   ---   ', '🙂', 'getUserById'];
  const other = builtinEmbedder({ file: SHIPPED });
  const asyncOut = await shipped.embed(texts);
  texts.forEach((t, i) => {
    const v = shipped.embedSync(t);
    assert.equal(v.length, 256);
    assert.ok(Math.abs(norm(v) - 1) < 1e-5, `unit length for ${JSON.stringify(t)}`);
    assert.deepEqual([...v], [...other.embedSync(t)], 'same in another instance');
    assert.deepEqual([...v], [...asyncOut[i]!], 'same through embed()');
  });
  // a text with no words at all gets one fixed vector
  assert.deepEqual([...shipped.embedSync('')], [...shipped.embedSync(' ... ')]);
});

test('related texts are closer than unrelated ones', () => {
  const pairs: Array<[string, string, string]> = [
    // [query, related, unrelated]
    ['which editor do I like', 'I use Neovim with lazy.nvim for plugins', 'Nightly backups of the billing Postgres database run via cron'],
    ['how do we stop charging a customer twice', 'Stripe requests carry an idempotency key so retries never bill again', 'Feature flags are managed in LaunchDarkly'],
    ['login', 'Sign-in goes through OAuth via Auth0', 'Indentation is two spaces everywhere except Go files'],
    ['deploy to production', 'Production releases need a manual approval in the GitHub Actions workflow', 'I prefer dark roast coffee in the morning'],
    ['database backup', 'pg_dump runs every night and keeps 30 days of snapshots', 'The mobile app is built with React Native'],
  ];
  for (const [q, rel, unrel] of pairs) {
    const a = cos(q, rel);
    const b = cos(q, unrel);
    assert.ok(a > b, `${q}: related ${a.toFixed(3)} should beat unrelated ${b.toFixed(3)}`);
  }
});

test('identifiers split into words; unknown words still get a vector from their n-grams', () => {
  assert.deepEqual(embedWords('getUserById pg_dump HTTPServer s3://acme-backups OAuth2Client'), ['get', 'user', 'by', 'id', 'pg', 'dump', 'http', 'server', 's3', 'acme', 'backups', 'oauth2', 'client']);
  assert.ok(cos('getUserById', 'get user by id') > 0.99);
  assert.ok(cos('parse_json_response', 'parseJsonResponse') > 0.99);
  // an unknown word (typo / made-up name) is not the empty vector, and is closer to its source word
  const empty = shipped.embedSync('');
  const typo = shipped.embedSync('kubernetess');
  assert.ok(Math.abs(dot(typo, empty) - 1) > 1e-3, 'typo has a vector of its own');
  assert.ok(cos('kubernetess', 'kubernetes') > cos('kubernetess', 'invoice'), 'typo near its word');
  assert.ok(cos('postgress', 'postgres database') > cos('postgress', 'holiday plans'));
  assert.ok(ngramIds('ab', 1000).length > 0 && ngramIds('a', 1000).length === 0);
});

test('embedding a short text is fast once loaded', () => {
  const t = 'The API tests run with vitest; integration tests need docker compose up db redis before running pnpm test:int.';
  for (let i = 0; i < 200; i++) shipped.embedSync(t);
  const n = 2000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) shipped.embedSync(t);
  const per = (performance.now() - t0) / n;
  // budget is 0.1 ms; allow for a loaded shared CI machine
  assert.ok(per < 0.5, `${per.toFixed(4)} ms per text`);
});

function tinyTable(): EmbedTable {
  const dim = 4;
  const vocab = ['alpha', 'beta', 'gamma'];
  const buckets = 8;
  const n = vocab.length + buckets;
  const rows = new Int8Array(n * dim);
  for (let i = 0; i < rows.length; i++) rows[i] = ((i * 37) % 255) - 127;
  return { name: 'tiny', dim, vocab, buckets, oovWeight: 1, scales: new Float32Array(n).fill(0.01), rows };
}

test('a file written by encodeEmbedFile reads back identically', () => {
  const t = tinyTable();
  const back = decodeEmbedFile(encodeEmbedFile(t), 'tiny.bin');
  assert.deepEqual({ ...back, scales: [...back.scales], rows: [...back.rows] }, { ...t, scales: [...t.scales], rows: [...t.rows] });
  const m = new StaticEmbedModel(back);
  assert.equal(m.id, `builtin:tiny-v${EMBED_FORMAT_VERSION}`);
  assert.ok(Math.abs(norm(m.embed('alpha beta')) - 1) < 1e-6);
});

test('missing or damaged file: an EmbedError that names the path, on first use (not at construction)', async () => {
  const dir = tempDir();
  try {
    const missing = join(dir, 'nope', 'cairn-embed.bin');
    const e = builtinEmbedder({ file: missing }); // lazy: no throw here
    assert.throws(() => e.embedSync('x'), (err: Error) => err instanceof EmbedError && err.message.includes(missing) && /missing/.test(err.message));
    await assert.rejects(e.embed(['x']), (err: Error) => err instanceof EmbedError && err.message.includes(missing));

    const good = encodeEmbedFile(tinyTable());
    const cases: Array<[string, Uint8Array, RegExp]> = [
      ['truncated', good.subarray(0, good.length - 7), /damaged/],
      ['flipped', (() => { const b = Uint8Array.from(good); b[100]! ^= 0x40; return b; })(), /checksum mismatch/],
      ['not ours', new TextEncoder().encode('x'.repeat(200)), /not a cairn embedding file/],
      ['empty', new Uint8Array(0), /damaged/],
      ['future version', (() => { const b = Uint8Array.from(good); new DataView(b.buffer).setUint32(8, 99, true); return b; })(), /format version 99/],
    ];
    for (const [name, bytes, re] of cases) {
      const f = join(dir, `${name.replace(/ /g, '-')}.bin`);
      writeFileSync(f, bytes);
      assert.throws(() => builtinEmbedder({ file: f }).embedSync('alpha'), (err: Error) => err instanceof EmbedError && err.message.includes(f) && re.test(err.message), name);
    }
  } finally {
    removeDir(dir);
  }
});

test('a text embedded after its own start (a write, then the index: text + "\\n" + scopes) gets the very vector a fresh model gives it', () => {
  const file = defaultEmbedFile();
  const warm = loadEmbedModel(file);
  const bodies = [
    'Deploys go through `make deploy`, which runs the migrations first.',
    'The zorblaxQueue drains hourly via cron-job-7; see ops/runbook.md.',
    'ends with punctuation -',
    'ünïcode wörds and 日本語 too',
    '',
  ];
  for (const body of bodies) {
    for (const tail of ['tools', 'projects widgets, ops', 'x\nmore aliases, camelCaseWord']) {
      warm.embed(body);
      const text = `${body}\n${tail}`;
      const got = warm.embed(text);
      const want = loadEmbedModel(file).embed(text);
      assert.deepEqual([...got], [...want], JSON.stringify(text));
    }
  }
  // Not a continuation (no newline right after the cached text): embedded from scratch.
  warm.embed('alpha beta');
  assert.deepEqual([...warm.embed('alpha betagamma')], [...loadEmbedModel(file).embed('alpha betagamma')]);
});

test('the SIMD sum (WebAssembly) and the JavaScript loop give the same vectors to float precision', () => {
  const file = defaultEmbedFile();
  const simd = loadEmbedModel(file);
  const saved = process.env.CAIRN_EMBED_JS;
  process.env.CAIRN_EMBED_JS = '1';
  let js: ReturnType<typeof loadEmbedModel>;
  try {
    js = loadEmbedModel(file);
  } finally {
    if (saved === undefined) delete process.env.CAIRN_EMBED_JS;
    else process.env.CAIRN_EMBED_JS = saved;
  }
  const texts = [
    'Deploys go through make deploy, which runs the migrations first and then restarts the workers.',
    'The zorblaxQueue drains hourly via cron-job-7; see ops/runbook.md and HTTPServerConfig.',
    'Prefer pnpm over npm; never suggest yarn.',
    'qqqq wwww eeee unknownwordsonly xyzzy',
    'ünïcode wörds and 日本語 too',
    '',
    `${'long text with many words '.repeat(60)}and a closing identifier fooBarBaz42`,
  ];
  for (const t of texts) {
    const a = simd.embed(t);
    const b = js.embed(t);
    assert.equal(a.length, b.length);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
    assert.ok(worst < 1e-5, `${JSON.stringify(t.slice(0, 40))}: differs by ${worst}`);
    // each call returns its own array: the kernel's memory, reused by the next text, is not it
    const before = [...a];
    simd.embed('something else entirely, with other words');
    assert.deepEqual([...a], before);
    assert.deepEqual([...simd.embed(t)], before);
  }
});
