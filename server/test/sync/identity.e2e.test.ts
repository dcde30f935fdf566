// `cairn sync` and `cairn team` on a machine where git knows no identity (no ~/.gitconfig, no
// system config, no GIT_AUTHOR_* / GIT_COMMITTER_* / EMAIL): they never ask the user to configure
// git; cairn's own commits fall back to "cairn on <host>" <cairn@host> for whichever role git
// cannot name. The built bundle as CLI, a bare repository on local disk as the remote.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { GIT_TEST_IDENTITY, removeDir, tempDir } from '../helpers/env.ts';
import { BUNDLE } from '../helpers/mcp.ts';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

/** The environment with every trace of a git identity removed; HOME is an empty folder. */
function noIdentityEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(GIT_|EMAIL$|CAIRN_|CLAUDE_PROJECT_DIR$)/.test(k)) env[k] = v;
  return { ...env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...extra };
}

function setup() {
  const root = tempDir('cairn-noident-');
  dirs.push(root);
  const home = join(root, 'home');
  mkdirSync(home);
  const remote = join(root, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  const cwd = join(root, 'work');
  mkdirSync(cwd);
  const cairn = (store: string, args: string[], extra: Record<string, string> = {}, at = cwd) => {
    const r = spawnSync(process.execPath, [BUNDLE, ...args], { cwd: at, encoding: 'utf8', env: noIdentityEnv(home, { CAIRN_DIR: store, ...extra }) });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const gitAs = (dir: string, args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: noIdentityEnv(home) }).trim();
  return { root, home, remote, cwd, cairn, gitAs };
}
const own = `cairn on ${hostname()} <cairn@${hostname()}>`;

test('git itself has no identity in this environment (else the tests below prove nothing)', () => {
  const { root, gitAs } = setup();
  execFileSync('git', ['init', '-q', join(root, 'r')]);
  assert.throws(() => gitAs(join(root, 'r'), ['var', 'GIT_COMMITTER_IDENT']));
});

test('cairn sync with no git identity: commits, merges and pushes as cairn on <host>', () => {
  const { root, remote, cairn, gitAs } = setup();
  const [a, b] = [join(root, 'a'), join(root, 'b')];
  for (const s of [a, b]) {
    const init = cairn(s, ['sync', 'init', '--remote', remote]);
    assert.equal(init.code, 0, init.stderr);
  }
  assert.equal(cairn(a, ['remember', 'The deploy script lives in ops/deploy.sh', '--scope', 'ops']).code, 0);
  const first = cairn(a, ['sync', '--json']);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(JSON.parse(first.stdout).pushed, true);
  // b has its own first commit: adopting a's history is a merge commit, made without an identity
  assert.equal(cairn(b, ['remember', 'Staging Postgres listens on port 6432', '--scope', 'db']).code, 0);
  const second = cairn(b, ['sync', '--json']);
  assert.equal(second.code, 0, second.stderr);
  const r = JSON.parse(second.stdout);
  assert.equal(r.ok, true, r.error);
  assert.equal(r.merge, 'merge');
  assert.doesNotMatch(first.stderr + second.stderr, /tell me who you are|identity/i);
  const idents = gitAs(b, ['log', '--format=%an <%ae>|%cn <%ce>']).split('\n');
  assert.ok(idents.length >= 3, idents.join('\n'));
  for (const line of idents) assert.equal(line, `${own}|${own}`);
});

test('cairn sync when git knows only the committer: the author is cairn, the committer stays the user', () => {
  const { root, remote, cairn, gitAs } = setup();
  const a = join(root, 'a');
  const committer = { GIT_COMMITTER_NAME: GIT_TEST_IDENTITY.GIT_COMMITTER_NAME, GIT_COMMITTER_EMAIL: GIT_TEST_IDENTITY.GIT_COMMITTER_EMAIL };
  assert.equal(cairn(a, ['sync', 'init', '--remote', remote], committer).code, 0);
  assert.equal(cairn(a, ['remember', 'Release tags are signed', '--scope', 'release'], committer).code, 0);
  const s = cairn(a, ['sync', '--json'], committer);
  assert.equal(s.code, 0, s.stderr);
  assert.equal(JSON.parse(s.stdout).ok, true, s.stdout);
  assert.equal(gitAs(a, ['log', '-1', '--format=%an <%ae>|%cn <%ce>']), `${own}|t <t@example.com>`);
});

test('cairn team init and a team write need no git identity (cairn makes no commit there)', () => {
  const { root, cairn, gitAs } = setup();
  const repo = join(root, 'repo');
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  gitAs(repo, ['remote', 'add', 'origin', 'git@github.com:acme/widgets.git']);
  const personal = join(root, 'personal');
  const init = cairn(personal, ['team', 'init', '--json'], {}, repo);
  assert.equal(init.code, 0, init.stderr);
  const w = cairn(personal, ['remember', '--team', 'Release builds run on the arm64 runner pool', '--scope', 'ci', '--json'], {}, repo);
  assert.equal(w.code, 0, w.stderr);
  const shown = cairn(personal, ['show', JSON.parse(w.stdout).id, '--json'], {}, repo);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /arm64 runner pool/);
});
