// Errors that name the real cause, through the built CLI: a TOML syntax error keeps smol-toml's
// line, column and code frame; a store folder cairn may not read or write is named with the
// permission it lacks (never a config.toml that does not exist, never a stack); a read-only
// mount says so; `cairn doctor` fails its permissions check for a folder cairn cannot write.
// Each is one line on stderr, exit 1 (doctor: 2, its "failures"), and the store is untouched.
//
// Tests run as root, which permission bits do not stop: the permission cases run the CLI as the
// unprivileged user `nobody` (setpriv), and the read-only case bind-mounts the store read-only in
// a private mount namespace (unshare -m), so nothing outside the test sees the mount. Where those
// tools are missing (not root, no setpriv/unshare), those cases are skipped and say why.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { removeDir, tempDir } from '../helpers/env.ts';
import { BUNDLE, cli } from '../helpers/mcp.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) {
    spawnSync('chmod', ['-R', 'u+rwx', d]);
    removeDir(d);
  }
});

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const canSetpriv = isRoot && spawnSync('setpriv', ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', 'true']).status === 0;
const canUnshare = isRoot && spawnSync('unshare', ['-m', '--propagation', 'private', 'true']).status === 0;
const NO_SETPRIV = 'needs root and setpriv to run cairn as an unprivileged user (root ignores permission bits)';
const NO_UNSHARE = 'needs root and unshare -m to bind-mount the store read-only in a private mount namespace';

/** Every file under dir with its content (and every folder): "untouched" means this is equal. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out.set(`${p}/`, '');
        walk(p);
      } else out.set(p, createHash('sha256').update(readFileSync(p)).digest('hex').slice(0, 16));
    }
  };
  walk(dir);
  return out;
}

/**
 * The bundle as `nobody` can run it: a copy of server/dist in a folder every user may enter (the
 * checkout itself may sit under a 0700 temp folder, as a CI clone often does).
 */
let nobodyBundle: string | null = null;
function bundleForNobody(): string {
  if (nobodyBundle !== null) return nobodyBundle;
  const root = tempDir('cairn-perm-dist-');
  dirs.push(root);
  chmodSync(root, 0o755);
  cpSync(dirname(BUNDLE), join(root, 'dist'), { recursive: true, dereference: true });
  spawnSync('chmod', ['-R', 'a+rX', root]);
  return (nobodyBundle = join(root, 'dist', basename(BUNDLE)));
}

/** A store with one memory, inside a root every user may enter, owned by `nobody`. */
function storeForNobody() {
  const root = tempDir('cairn-perm-');
  dirs.push(root);
  chmodSync(root, 0o755);
  const store = join(root, 'store');
  const home = join(root, 'home');
  mkdirSync(home);
  const w = cli(['remember', 'The deploy script lives in ops/deploy.sh', '--scope', 'ops'], { store, cwd: root });
  assert.equal(w.code, 0, w.stderr);
  spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, store, home]);
  const asNobody = (args: string[]) => {
    const r = spawnSync('setpriv', ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', process.execPath, bundleForNobody(), ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CAIRN_DIR: store, CAIRN_CODE_CACHE: join(home, 'code-cache'), ...(process.env.CAIRN_EMBED_PROVIDER ? { CAIRN_EMBED_PROVIDER: process.env.CAIRN_EMBED_PROVIDER } : {}) },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return { root, store, home, asNobody };
}

const oneLine = (stderr: string) => {
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /\n\s+at |Error: |StoreLock/);
  return lines[0]!;
};

test('a TOML syntax error names the file, line and column, and shows smol-toml\'s code frame', () => {
  const store = tempDir('cairn-toml-');
  dirs.push(store);
  const file = join(store, 'config.toml');
  writeFileSync(file, '[behavior]\ndefault_max_results = 5\nverification_stale_days = @oops\n');
  const before = snapshot(store);
  const r = cli(['list'], { store, cwd: store });
  assert.equal(r.code, 1, r.stderr);
  const [first, ...frame] = r.stderr.trimEnd().split('\n');
  assert.equal(first, `cairn list: ${file}:3:27: not valid TOML: invalid value`);
  assert.deepEqual(frame, ['2:  default_max_results = 5', '3:  verification_stale_days = @oops', `${' '.repeat(30)}^`]);
  assert.deepEqual(snapshot(store), before);
});

test('an unreadable store folder is named with the permission it lacks, not as an unreadable config.toml', { skip: !canSetpriv && NO_SETPRIV }, () => {
  const { store, asNobody } = storeForNobody();
  assert.ok(!existsSync(join(store, 'config.toml')));
  for (const [mode, lacks] of [[0o000, 'read and search \\(x\\)'], [0o300, 'read']] as const) {
    chmodSync(store, mode);
    const before = (chmodSync(store, 0o700), snapshot(store));
    chmodSync(store, mode);
    for (const args of [['list'], ['search', 'deploy'], ['remember', 'Staging Postgres listens on 6432', '--scope', 'db']]) {
      const r = asNobody(args);
      assert.equal(r.code, 1, `${args[0]}: ${r.stderr}`);
      const line = oneLine(r.stderr);
      assert.match(line, new RegExp(`^cairn ${args[0]}: cannot read the store folder ${store}: permission denied, cairn \\(uid ${NOBODY}\\) lacks ${lacks} permission there \\(it is mode 0${mode.toString(8).padStart(3, '0')}, owned by uid ${NOBODY}; chmod u\\+rx ${store} as its owner\\)\\. Nothing was changed$`));
      assert.doesNotMatch(line, /config\.toml|EACCES/);
    }
    chmodSync(store, 0o700);
    assert.deepEqual(snapshot(store), before);
  }
});

test('a store folder cairn may read but not write: one line naming the folder and the write permission; doctor fails it', { skip: !canSetpriv && NO_SETPRIV }, () => {
  const { store, asNobody } = storeForNobody();
  const before = snapshot(store);
  chmodSync(store, 0o500);
  const r = asNobody(['remember', 'Staging Postgres listens on 6432', '--scope', 'db']);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(oneLine(r.stderr), `cairn remember: cannot write to the store folder ${store}: permission denied, cairn (uid ${NOBODY}) lacks write permission there (it is mode 0500, owned by uid ${NOBODY}; chmod u+rwx ${store} as its owner). Nothing was changed`);
  assert.deepEqual((chmodSync(store, 0o700), snapshot(store)), before);
  chmodSync(store, 0o500);
  // reading still works
  const list = asNobody(['list']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /ops\/deploy\.sh/);
  const d = asNobody(['doctor', '--json']);
  assert.equal(d.code, 2, d.stdout + d.stderr);
  const perm = JSON.parse(d.stdout).checks.find((c: { name: string }) => c.name === 'permissions');
  assert.equal(perm.status, 'fail');
  assert.match(perm.detail, new RegExp(`cannot write to the store folder ${store}: .*lacks write permission.*mode 0500`));
  const text = asNobody(['doctor']);
  assert.doesNotMatch(text.stdout, /ok +permissions/);
  chmodSync(store, 0o700);
});

test('doctor run by root on a 0500 store folder fails permissions too (the owner could not write there)', () => {
  const store = tempDir('cairn-doc500-');
  dirs.push(store);
  assert.equal(cli(['remember', 'The deploy script lives in ops/deploy.sh', '--scope', 'ops'], { store, cwd: store }).code, 0);
  chmodSync(store, 0o500);
  const d = cli(['doctor', '--json'], { store, cwd: store });
  chmodSync(store, 0o700);
  assert.equal(d.code, 2, d.stdout + d.stderr);
  const perm = JSON.parse(d.stdout).checks.find((c: { name: string }) => c.name === 'permissions');
  assert.equal(perm.status, 'fail');
  assert.equal(perm.detail, `${store} is 0500: its owner lacks write permission, so cairn cannot write there as that user: chmod 700 ${store}`);
});

test('a store on a read-only mount: one line saying so (EROFS), exit 1, nothing changed; doctor fails it', { skip: !canUnshare && NO_UNSHARE }, () => {
  const root = tempDir('cairn-ro-');
  dirs.push(root);
  const store = join(root, 'store');
  assert.equal(cli(['remember', 'The deploy script lives in ops/deploy.sh', '--scope', 'ops'], { store, cwd: root }).code, 0);
  const before = snapshot(store);
  const mode = statSync(store).mode;
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const inRoMount = (args: string[]) => {
    const script = `mount --bind ${q(store)} ${q(store)} && mount -o remount,bind,ro ${q(store)} && exec ${[process.execPath, BUNDLE, ...args].map(q).join(' ')}`;
    const r = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script], { cwd: root, encoding: 'utf8', env: { ...process.env, CAIRN_DIR: store, HOME: store, CLAUDE_PROJECT_DIR: '' } });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const r = inRoMount(['remember', 'Staging Postgres listens on 6432', '--scope', 'db']);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(oneLine(r.stderr), `cairn remember: cannot write to the store folder ${store}: it is on a read-only file system (EROFS); remount it read-write or point CAIRN_DIR at a writable folder. Nothing was changed`);
  const d = inRoMount(['doctor', '--json']);
  assert.equal(d.code, 2, d.stdout + d.stderr);
  assert.match(JSON.parse(d.stdout).checks.find((c: { name: string }) => c.name === 'permissions').detail, /read-only file system \(EROFS\)/);
  assert.equal(statSync(store).mode, mode);
  assert.deepEqual(snapshot(store), before);
});
