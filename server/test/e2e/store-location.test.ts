// A project store is found from anywhere inside its repository, never above
// the repository root, and `cairn doctor` says which store is in use and why. Real git repos,
// the built bundle (MCP over stdio and the CLI), no $CAIRN_DIR.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { git, removeDir, tempDir } from '../helpers/env.ts';
import { cli, startServer } from '../helpers/mcp.ts';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));
const md = (d: string) => (existsSync(d) ? readdirSync(d).filter((n) => n.endsWith('.md')) : []);

function layout() {
  const root = realpathSync(tempDir('cairn-loc-'));
  dirs.push(root);
  const home = join(root, 'home');
  const repo = join(root, 'work', 'widgets');
  const deep = join(repo, 'src', 'api');
  mkdirSync(home, { recursive: true });
  mkdirSync(deep, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  return { root, home, repo, deep };
}
// No $CAIRN_DIR: the location rules decide.
const env = (home: string) => ({ CAIRN_DIR: '', HOME: home });

test('from a subdirectory, the repo root\'s .cairn/ is the store (not ~/.cairn), and doctor says why', async () => {
  const { home, repo, deep } = layout();
  mkdirSync(join(repo, '.cairn'), { mode: 0o700 });
  const s = await startServer({ store: '', cwd: deep, env: env(home) });
  const w = await s.call('memory_write', { content: 'The widgets API handlers live under src/api and use zod schemas.', scopes: ['projects:widgets'] });
  assert.equal(w.status, 'committed');
  await s.close();
  assert.equal(md(join(repo, '.cairn')).length, 1, 'written into the project store');
  assert.equal(existsSync(join(home, '.cairn')), false, 'the home store is not touched');

  const d = cli(['doctor', '--json'], { store: '', cwd: deep, env: env(home) });
  const r = JSON.parse(d.stdout);
  assert.equal(r.store.dir, join(repo, '.cairn'));
  assert.equal(r.store.via, 'project');
  assert.equal(r.store.why, `project store: .cairn/ found at ${repo}, searching from ${deep} up to the repo root ${repo}`);
  const text = cli(['doctor'], { store: '', cwd: deep, env: env(home) }).stdout;
  assert.match(text, new RegExp(`store\\s+${join(repo, '.cairn').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(project store: \\.cairn/ found at `));
  // The CLI reads the same store from anywhere in the repo.
  const l = cli(['list', '--json'], { store: '', cwd: join(repo, 'src'), env: env(home) });
  assert.equal(JSON.parse(l.stdout).items.length, 1);
});

test('a .cairn/ above the repo root is not the repo\'s store: home default, and doctor names the range searched', async () => {
  const { root, home, repo, deep } = layout();
  mkdirSync(join(root, 'work', '.cairn'), { mode: 0o700 }); // a parent of several repos
  const s = await startServer({ store: '', cwd: deep, env: env(home) });
  await s.call('memory_write', { content: 'The widgets API handlers live under src/api and use zod schemas.', scopes: ['projects:widgets'] });
  await s.close();
  assert.equal(md(join(root, 'work', '.cairn')).length, 0);
  assert.equal(md(join(home, '.cairn')).length, 1);
  const r = JSON.parse(cli(['doctor', '--json'], { store: '', cwd: deep, env: env(home) }).stdout);
  assert.equal(r.store.dir, join(home, '.cairn'));
  assert.equal(r.store.via, 'home');
  assert.equal(r.store.why, `home default: no .cairn/ from ${deep} up to the repo root ${repo}`);
});

test('$CAIRN_DIR wins and doctor says so', () => {
  const { home, repo, deep } = layout();
  mkdirSync(join(repo, '.cairn'), { mode: 0o700 });
  const other = join(home, 'elsewhere');
  mkdirSync(other, { mode: 0o700 });
  const r = JSON.parse(cli(['doctor', '--json'], { store: other, cwd: deep, env: { HOME: home } }).stdout);
  assert.deepEqual([r.store.dir, r.store.via, r.store.why], [other, 'env', `$CAIRN_DIR is set to ${other}`]);
});
