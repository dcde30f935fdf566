// `npm run demo` (scripts/demo.ts), the README's first command: it talks to the built bundle over
// stdio, must exit 0 on a machine with no git identity, and must leave no `cairn-demo-*` folder
// in the temp directory, neither after a normal run nor after Ctrl-C.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { removeDir, tempDir } from '../helpers/env.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DEMO = ['--import', 'tsx', 'scripts/demo.ts'];

/** The environment of a new user: an empty HOME, no git identity anywhere, a private TMPDIR. */
function newUserEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(GIT_(AUTHOR|COMMITTER)_|EMAIL$|CAIRN_|CLAUDE_PROJECT_DIR$)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, HOME: tmp, TMPDIR: tmp, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
}
const leftovers = (tmp: string) => readdirSync(tmp).filter((n) => n.startsWith('cairn-demo-'));

test('the demo runs to the end with no git identity and removes its temp folder', () => {
  const tmp = tempDir('cairn-demo-test-');
  try {
    const r = spawnSync(process.execPath, DEMO, { cwd: ROOT, env: newUserEnv(tmp), encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /> memory_search/);
    assert.match(r.stdout, /> memory_scope_overview \{\}\n {2}repo git@github\.com:acme\/widgets\.git: 3 memories/);
    assert.doesNotMatch(r.stderr, /TypeError|cairn demo failed/);
    assert.deepEqual(leftovers(tmp), []);
  } finally {
    removeDir(tmp);
  }
});

test('Ctrl-C in the middle of the demo still removes its temp folder', async () => {
  const tmp = tempDir('cairn-demo-test-');
  try {
    const child = spawn(process.execPath, DEMO, { cwd: ROOT, env: newUserEnv(tmp), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        // Interrupt once the server runs and the store holds a memory.
        if (out.includes('> memory_write')) resolve();
      });
      child.on('exit', () => reject(new Error(`the demo ended before its first answer: ${out}`)));
    });
    assert.ok(leftovers(tmp).length === 1, 'the demo folder exists while it runs');
    child.kill('SIGINT');
    assert.equal(await exited, 130);
    assert.deepEqual(leftovers(tmp), []);
  } finally {
    removeDir(tmp);
  }
});
