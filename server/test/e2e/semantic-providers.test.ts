// End to end through the built bundle with a configured provider: a fake Ollama on 127.0.0.1.
// A provider that errors or times out never fails a search (the built-in answers, one warning);
// switching the provider re-embeds every memory (CLI: a count on stderr) while searches answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { BUNDLE, startServer } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { startFakeEmbedServer, type FakeEmbedServer } from '../helpers/fakeEmbedServer.ts';
import { handWrite } from '../index/memfiles.ts';

let fake: FakeEmbedServer;
before(async () => {
  fake = await startFakeEmbedServer({ dim: 16 });
});
after(async () => {
  await fake.close();
});

const ollama = (timeoutMs = 2000) => `[embed]\nprovider = "ollama"\nurl = "${fake.url}"\nmodel = "fake-embed"\ntimeout_ms = ${timeoutMs}\n`;
const warnings = (stderr: string) => stderr.split('\n').filter((l) => /using the built-in embedder/.test(l));
/** stderr arrives on its own pipe: wait (up to 3 s) until it shows `n` fallback warnings. */
async function warned(stderr: () => string, n: number): Promise<string[]> {
  for (let i = 0; i < 30 && warnings(stderr()).length < n; i++) await new Promise((r) => setTimeout(r, 100));
  return warnings(stderr());
}
/** The CLI, spawned without blocking this process (the fake provider answers from here). */
function cli(args: string[], opts: { store: string; cwd: string }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BUNDLE, ...args], { cwd: opts.cwd, env: { ...process.env, CLAUDE_PROJECT_DIR: '', CAIRN_DIR: opts.store, HOME: opts.store }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
/** The embedder id recorded in .cache/vectors.bin (its JSON header). */
function cachedEmbedder(store: string): string | null {
  const file = join(store, '.cache', 'vectors.bin');
  if (!existsSync(file)) return null;
  const buf = readFileSync(file);
  const len = buf.readUInt32LE(48);
  const h = JSON.parse(buf.toString('utf8', 52, 52 + len)) as { embedder: string; count: number };
  return `${h.embedder}#${h.count}`;
}

test('a provider that fails or times out: every search answers, one warning, the built-in takes over', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  try {
    for (const body of ['Preferred code editor is Neovim with LazyVim.', 'Postgres backups run nightly with pg_dump.', 'Deploys need a manual approval for production.']) handWrite(store, body);
    writeFileSync(join(store, 'config.toml'), ollama());
    fake.fault = 'none';
    fake.requests.length = 0;
    let s = await startServer({ store, cwd: root });
    assert.equal((await s.call('memory_search', { query: 'postgres backups', auto_scope: false })).hits[0]?.snippet.includes('pg_dump'), true);
    for (let i = 0; i < 30 && !fake.requests.some((r) => r.path === '/api/embed'); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(fake.requests.some((r) => r.path === '/api/embed' && r.body.model === 'fake-embed'), 'the configured provider was asked');

    fake.fault = 'http500';
    for (let i = 0; i < 3; i++) {
      const hits = (await s.call('memory_search', { query: 'postgres backups', auto_scope: false })).hits;
      assert.match(hits[0]?.snippet ?? '', /pg_dump/, 'the search still answers');
    }
    assert.equal((await s.call('memory_write', { content: 'The staging cluster runs on three small nodes.', scopes: ['infra'] })).status, 'committed');
    assert.equal((await warned(s.stderr, 1)).length, 1, s.stderr());
    assert.match(warnings(s.stderr())[0]!, /500/);
    await s.close();

    // A provider slower than timeout_ms: the same, and the search does not wait for it twice.
    fake.fault = 'slow';
    fake.slowMs = 5000;
    writeFileSync(join(store, 'config.toml'), ollama(300));
    s = await startServer({ store, cwd: root });
    const t0 = Date.now();
    const hits = (await s.call('memory_search', { query: 'which editor do I like', auto_scope: false })).hits;
    const t1 = Date.now();
    await s.call('memory_search', { query: 'production approval', auto_scope: false });
    const t2 = Date.now();
    assert.ok(hits.length > 0);
    assert.ok(t1 - t0 < 4000, `first search took ${t1 - t0} ms`);
    assert.ok(t2 - t1 < 1000, `second search took ${t2 - t1} ms (the provider is not asked again)`);
    assert.equal((await warned(s.stderr, 1)).length, 1, s.stderr());
    assert.match(warnings(s.stderr())[0]!, /within 300 ms/);
    await s.close();
  } finally {
    fake.fault = 'none';
    removeDir(root);
  }
});

test('switching the provider re-embeds every memory: the CLI counts it, a server keeps answering meanwhile', async () => {
  const root = tempDir();
  const store = join(root, 'store');
  try {
    for (let i = 0; i < 120; i++) handWrite(store, `Note ${i} about the ${['deploy pipeline', 'billing service', 'editor setup', 'backup policy'][i % 4]} number ${i}.`);
    handWrite(store, 'Preferred code editor is Neovim with LazyVim.');
    // Built-in first: the one-shot CLI embeds on its first search and saves the vectors.
    let r = await cli(['search', 'neovim editor'], { store, cwd: root });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Neovim/);
    assert.match(r.stderr, /embedded 121 memories for semantic search/);
    assert.match(cachedEmbedder(store) ?? '', /^builtin:.*#121$/);

    // Switch to the provider: the next CLI command re-embeds all of them through it.
    fake.fault = 'none';
    fake.requests.length = 0;
    writeFileSync(join(store, 'config.toml'), ollama());
    r = await cli(['search', 'neovim editor'], { store, cwd: root });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Neovim/, 'the search answered during the re-embedding');
    assert.match(r.stderr, /embedded \d+ memories for semantic search/);
    assert.equal(cachedEmbedder(store), 'ollama:fake-embed#121', 'every memory has its provider vector');
    assert.ok(fake.requests.reduce((n, q) => n + (Array.isArray(q.body.input) ? q.body.input.length : 1), 0) >= 121);

    // Back to the built-in, in a server: searches answer at once while it re-embeds.
    writeFileSync(join(store, 'config.toml'), '');
    const s = await startServer({ store, cwd: root });
    for (let i = 0; i < 5; i++) assert.match((await s.call('memory_search', { query: 'neovim editor', auto_scope: false })).hits[0]?.snippet ?? '', /Neovim/);
    await s.close();
    assert.match(cachedEmbedder(store) ?? '', /^builtin:/);
    assert.doesNotMatch(s.stderr(), /failed|error/i);
  } finally {
    removeDir(root);
  }
});
