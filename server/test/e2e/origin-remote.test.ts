// Remote URLs and origins, end to end through the built bundle with real git repos:
// a credential in the remote URL never reaches a file, an answer or an export (and a file that
// already holds one is read redacted, reported by `cairn doctor`, rewritten clean on its next
// change); auto-scope matches GitHub/GitLab/Bitbucket remotes whatever their case.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { cli, startServer } from '../helpers/mcp.ts';

const TOKEN = 'ghs_Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8c';
const dirs: string[] = [];
after(() => dirs.forEach(removeDir));
const temp = (p: string) => {
  const d = tempDir(p);
  dirs.push(d);
  return d;
};
const repoWith = (remote: string) => {
  const r = tempRepo(remote);
  dirs.push(r);
  return r;
};
const mdFiles = (store: string) => readdirSync(store).filter((n) => n.endsWith('.md')).map((n) => join(store, n));

test('a token in the remote URL is stored, shown and exported nowhere', async () => {
  const root = temp('cairn-cred-');
  const store = join(root, 'store');
  const repo = repoWith(`https://x-access-token:${TOKEN}@github.com/me/widgets.git?ref=main`);
  const s = await startServer({ store, cwd: repo });
  const w = await s.call('memory_write', { content: 'Widgets releases are cut from the main branch on Tuesdays.', scopes: ['projects:widgets'] });
  assert.equal(w.status, 'committed');
  const ov = await s.call('memory_scope_overview', {});
  assert.equal(ov.current_repo, 'https://github.com/me/widgets.git');
  assert.equal(ov.total, 1);
  const [m] = (await s.call('memory_show', { id: w.id })).memories;
  assert.equal(m.origin.repo, 'https://github.com/me/widgets.git');
  await s.close();
  for (const f of mdFiles(store)) assert.ok(!readFileSync(f, 'utf8').includes(TOKEN), `${f} holds the token`);
  const ex = cli(['export'], { store, cwd: repo });
  assert.equal(ex.code, 0, ex.stderr);
  assert.ok(!ex.stdout.includes(TOKEN) && !ex.stdout.includes('x-access-token'));
  assert.ok(ex.stdout.includes('https://github.com/me/widgets.git'));
  for (const n of readdirSync(store, { recursive: true }) as string[]) {
    const p = join(store, n);
    if (statSync(p).isFile()) assert.ok(!readFileSync(p, 'utf8').includes(TOKEN), `${p} holds the token`);
  }
});

test('a file that already holds a token: read redacted, reported by doctor (ids, never the token), rewritten clean on its next change', async () => {
  const root = temp('cairn-cred-');
  const store = join(root, 'store');
  mkdirSync(store, { mode: 0o700 });
  const repo = repoWith('https://github.com/me/widgets.git');
  const id = '01JABCDEFGHJKMNPQRSTVWXYZ0';
  const file = join(store, `2026-01-05-widgets-release-${id.slice(-6).toLowerCase()}.md`);
  writeFileSync(
    file,
    [
      '---', 'schema_version: 1', `id: ${id}`, 'created: 2026-01-05T10:00:00.000Z', 'updated: 2026-01-05T10:00:00.000Z',
      'scopes: [projects:widgets]', 'confidence: high', 'source: explicit-statement', 'category: fact', 'last_verified_at: null', 'expires: null',
      'origin:', `  cwd: ${repo}`, `  repo: "https://x-access-token:${TOKEN}@github.com/me/widgets.git"`, '  branch: main', `  worktree_root: ${repo}`,
      '---', 'Widgets releases are cut from the main branch on Tuesdays.', '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const doc = cli(['doctor', '--json'], { store, cwd: repo });
  assert.ok(!doc.stdout.includes(TOKEN) && !doc.stderr.includes(TOKEN), 'doctor never prints the token');
  const rep = JSON.parse(doc.stdout);
  const cred = rep.checks.find((c: { name: string }) => c.name === 'remote credentials');
  assert.equal(cred.status, 'warn');
  assert.match(cred.detail, /^1 file stores a remote URL/);
  assert.deepEqual(cred.items, [`${id} ${file}`]);

  const s = await startServer({ store, cwd: repo });
  // Read as if stripped: in view from the repo it was written in, and shown without the token.
  const ov = await s.call('memory_scope_overview', {});
  assert.equal(ov.total, 1);
  const [m] = (await s.call('memory_show', { id })).memories;
  assert.equal(m.origin.repo, 'https://github.com/me/widgets.git');
  const ex = cli(['export'], { store, cwd: repo });
  assert.ok(!ex.stdout.includes(TOKEN), 'export copies no token from an old file');
  assert.ok(readFileSync(file, 'utf8').includes(TOKEN), 'reading alone never rewrites the file');
  // The next change rewrites it clean.
  await s.call('memory_verify', { id });
  await s.close();
  const after = mdFiles(store).map((f) => readFileSync(f, 'utf8')).join('\n');
  assert.ok(!after.includes(TOKEN), 'rewritten without the token');
  assert.ok(after.includes('repo: https://github.com/me/widgets.git'));
  const again = JSON.parse(cli(['doctor', '--json'], { store, cwd: repo }).stdout);
  assert.equal(again.checks.find((c: { name: string }) => c.name === 'remote credentials').status, 'ok');
});

test('auto-scope: GitHub remotes match whatever their case; other hosts compare exactly; nothing is rewritten for it', async () => {
  const root = temp('cairn-case-');
  const store = join(root, 'store');
  const lower = repoWith('https://github.com/me/widgets');
  const upper = repoWith('git@github.com:Me/Widgets.git');
  const selfLower = repoWith('https://git.example.com/me/gadgets.git');
  const selfUpper = repoWith('https://git.example.com/Me/Gadgets.git');
  const a = await startServer({ store, cwd: lower });
  await a.call('memory_write', { content: 'Widgets uses pnpm workspaces for its packages.', scopes: ['projects:widgets'] });
  await a.close();
  const c = await startServer({ store, cwd: selfLower });
  await c.call('memory_write', { content: 'Gadgets uses a Makefile for the firmware build.', scopes: ['projects:gadgets'] });
  await c.close();
  const before = mdFiles(store).map((f) => [f, readFileSync(f, 'utf8'), statSync(f).mtimeMs] as const);

  const b = await startServer({ store, cwd: upper });
  const ov = await b.call('memory_scope_overview', {});
  assert.equal(ov.total, 1, 'github.com/Me/Widgets sees what was written under github.com/me/widgets');
  assert.deepEqual(Object.keys(ov.scopes), ['projects:widgets']);
  const hits = (await b.call('memory_search', { query: 'pnpm workspaces' })).hits;
  assert.equal(hits.length, 1);
  await b.close();

  const d = await startServer({ store, cwd: selfUpper });
  const ov2 = await d.call('memory_scope_overview', {});
  assert.equal(ov2.scopes['projects:gadgets'], undefined, 'a self-hosted server compares the path exactly');
  assert.equal((await d.call('memory_search', { query: 'firmware Makefile' })).hits.length, 0);
  await d.close();
  for (const [f, text, mtime] of before) {
    assert.equal(readFileSync(f, 'utf8'), text);
    assert.equal(statSync(f).mtimeMs, mtime);
  }
});
