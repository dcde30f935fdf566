// The write commands of the CLI (remember, confirm, cancel, update, verify, remove, restore,
// rename-scope) and what every command shares (--help, --json, exit codes), each run by spawning
// the built bundle against a real temp store (HOME is the temp dir too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE, cli } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { commands } from '../../src/cli/commands/index.ts';

function store() {
  const dir = tempDir('cairn-cli-cmd-');
  return { dir, run: (...args: string[]) => cli(args, { store: dir, cwd: dir }), input: (input: string, ...args: string[]) => cli(args, { store: dir, cwd: dir, input }) };
}
const mdFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : []);
const json = (r: { stdout: string }) => JSON.parse(r.stdout) as Record<string, unknown>;

test('every command answers --help with its options one per line, exit 0 (serve too)', () => {
  const s = store();
  for (const cmd of commands) {
    const r = s.run(cmd.name, '--help');
    assert.equal(r.code, 0, `${cmd.name} --help: ${r.stderr}`);
    assert.ok(r.stdout.startsWith(`usage: cairn ${cmd.name === 'serve' ? 'serve' : cmd.name}`), r.stdout);
    const lines = r.stdout.split('\n');
    for (const name of Object.keys(cmd.options)) {
      const hit = lines.filter((l) => new RegExp(`^  (-\\w, )?--${name}(?= )`).test(l));
      assert.equal(hit.length, 1, `${cmd.name} --help lists --${name} on exactly one line`);
      assert.ok(hit[0]!.trim().length > `--${name}`.length + 4, `${cmd.name} --${name} has a description`);
    }
    assert.ok(lines.some((l) => /^  -h, --help +show this help$/.test(l)));
    // Every command but serve takes --json, and it means one thing.
    if (cmd.name !== 'serve') assert.ok(cmd.options.json, `${cmd.name} lacks --json`);
  }
  // --all means the same on every command that has it.
  const alls = commands.filter((c) => c.options.all).map((c) => c.options.all!.help.replace(/ \(.*\)$/, ''));
  assert.ok(alls.length >= 3);
  assert.equal(new Set(alls).size, 1, alls.join(' | '));
  const serve = s.run('serve', 'extra');
  assert.equal(serve.code, 2);
  assert.match(serve.stderr, /serve takes no arguments/);
  const unknown = s.run('remember', 'x', '--scope', 'tools', '--colour');
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown option '--colour'; this command takes --scope, --user-claim, /);
  assert.equal(mdFiles(s.dir).length, 0, 'a usage error stores nothing');
  removeDir(s.dir);
});

test('remember: committed, the same gates as memory_write, errors in the CLI\'s words', () => {
  const s = store();
  const ok = s.run('remember', 'Releases', 'are', 'cut', 'from', 'the', 'release', 'branch.', '--scope', 'deployment', '--alias', 'shipping', '--confidence', 'high');
  assert.equal(ok.code, 0, ok.stderr);
  const id = /^remembered (\w{26}) {2}\[deployment\]$/m.exec(ok.stdout)?.[1];
  assert.ok(id, ok.stdout);
  const file = readFileSync(join(s.dir, mdFiles(s.dir)[0]!), 'utf8');
  assert.match(file, /Releases are cut from the release branch\./);
  assert.match(file, /confidence: high/);
  assert.match(file, /shipping/);

  const dup = s.run('remember', 'Releases are cut from the release branch.', '--scope', 'deployment');
  assert.equal(dup.code, 1);
  assert.match(dup.stderr, new RegExp(`not stored: memory ${id} already says this .*\\n.*cairn update ${id} --text .*--force`));
  const dupJson = s.run('remember', 'Releases are cut from the release branch.', '--scope', 'deployment', '--json');
  assert.equal(dupJson.code, 1);
  assert.equal(json(dupJson).status, 'duplicate');

  const secret = s.run('remember', 'The token is ghp_abcdefghijklmnopqrstuvwxyz0123456789AB', '--scope', 'x');
  assert.equal(secret.code, 1);
  assert.match(secret.stderr, /not stored: the text looks like it holds a secret \(github[^)]*\)\. .*There is no override/);
  assert.doesNotMatch(secret.stderr + secret.stdout, /ghp_abcdefghijklmnopqrstuvwxyz0123456789AB/);

  const transient = s.run('remember', 'We are currently on Node 18 in CI.', '--scope', 'ci');
  assert.equal(transient.code, 1);
  assert.match(transient.stderr, /"currently".*--acknowledge-transient/);
  const acked = s.run('remember', 'We are currently on Node 18 in CI.', '--scope', 'ci', '--acknowledge-transient', '--json');
  assert.equal(acked.code, 0, acked.stderr);
  assert.equal(json(acked).status, 'committed');

  const forced = s.run('remember', 'Releases are cut from the release branch.', '--scope', 'deployment', '--force', '--json');
  assert.equal(json(forced).status, 'committed');
  assert.equal(mdFiles(s.dir).length, 3);

  // Usage errors (exit 2) say what would be accepted, and store nothing.
  const cases: Array<[string[], RegExp]> = [
    [['remember', 'No scope given here.'], /give at least one --scope, like --scope tools/],
    [['remember', '--scope', 'x'], /give the text to store: cairn remember "/],
    [['remember', 'Bad scope here.', '--scope', 'Tools'], /--scope "Tools" is not lowercase: use "tools"/],
    [['remember', 'Bad confidence here.', '--scope', 'x', '--confidence', 'sure'], /--confidence must be one of low, medium, high, got "sure"/],
    [['remember', 'Bad date here.', '--scope', 'x', '--expires', 'tomorrow'], /--expires must be an ISO 8601 date or date-time like 2027-01-31/],
    [['remember', 'Bad date and scope.', '--scope', 'A B', '--expires', 'soon'], /--scope "A B" is not a valid scope.*; --expires must be/],
  ];
  for (const [args, re] of cases) {
    const r = s.run(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re);
    assert.match(r.stderr, /\nusage: cairn remember TEXT/);
  }
  assert.equal(mdFiles(s.dir).length, 3, 'nothing stored by a refused write');

  // TEXT "-" reads stdin.
  const piped = s.input('Staging runs on Fly.io in region ams.\n', 'remember', '-', '--scope', 'infra', '--json');
  assert.equal(piped.code, 0, piped.stderr);
  const shown = s.run('show', String(json(piped).id), '--json');
  assert.equal(json(shown).body, 'Staging runs on Fly.io in region ams.');
  removeDir(s.dir);
});

test('remember without a terminal leaves a claim about the user pending; confirm and cancel settle it', () => {
  const s = store();
  const p = s.run('remember', 'The user prefers short answers without preamble.', '--scope', 'preferences', '--user-claim');
  assert.equal(p.code, 0, p.stderr);
  const pid = /^pending (p_\w+): a claim about you; not stored until you confirm/m.exec(p.stdout)?.[1];
  assert.ok(pid, p.stdout);
  assert.match(p.stdout, new RegExp(`confirm: cairn confirm ${pid} +discard: cairn cancel ${pid}`));
  assert.equal(mdFiles(s.dir).length, 0);
  const c = s.run('confirm', pid!);
  assert.equal(c.code, 0, c.stderr);
  assert.match(c.stdout, /^remembered \w{26} {2}\[preferences\]/);
  assert.equal(mdFiles(s.dir).length, 1);
  const again = s.run('confirm', pid!);
  assert.equal(again.code, 1, 'a pending write is confirmed once');
  assert.match(again.stderr, /cairn confirm: /);

  const p2 = s.run('remember', 'The user works mostly in Rust.', '--scope', 'preferences', '--user-claim', '--json');
  const pid2 = String(json(p2).pending_id);
  assert.equal(json(p2).status, 'pending');
  const x = s.run('cancel', pid2, '--json');
  assert.equal(x.code, 0);
  assert.deepEqual(json(x), { cancelled: true, existed: true });
  assert.match(s.run('cancel', pid2).stdout, /no pending write .* nothing to cancel/);
  assert.equal(s.run('confirm', pid2).code, 1);
  const bad = s.run('confirm', 'not-an-id');
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /"not-an-id" is not a pending write id: .*like p_\w{26}/);
  assert.equal(mdFiles(s.dir).length, 1);
  removeDir(s.dir);
});

test('remember on a terminal asks y/N for a pending write (a real pty through script(1))', { skip: spawnSync('script', ['--version']).status !== 0 && 'no script(1) here' }, () => {
  const s = store();
  const run = (answer: string, text: string) =>
    spawnSync('script', ['-qec', `"${process.execPath}" "${BUNDLE}" remember "${text}" --scope preferences --user-claim`, '/dev/null'], {
      cwd: s.dir,
      input: answer,
      encoding: 'utf8',
      env: { ...process.env, CAIRN_DIR: s.dir, HOME: s.dir, CLAUDE_PROJECT_DIR: '' },
      timeout: 30_000,
    });
  const yes = run('y\n', 'The user reviews diffs in a terminal pager.');
  assert.equal(yes.status, 0, yes.stdout + yes.stderr);
  assert.match(yes.stdout, /Store this memory\? \[y\/N\]/);
  assert.match(yes.stdout, /remembered \w{26} {2}\[preferences\]/);
  const no = run('n\n', 'The user dislikes emoji in commit messages.');
  assert.equal(no.status, 1, no.stdout);
  assert.match(no.stdout, /not stored: you said no; pending write p_\w+ cancelled/);
  assert.equal(mdFiles(s.dir).length, 1);
  assert.deepEqual(existsSync(join(s.dir, '.pending')) ? readdirSync(join(s.dir, '.pending')).filter((f) => f.endsWith('.json')) : [], []);
  removeDir(s.dir);
});

test('update, verify, remove, restore: the memory changes in place, errors name the CLI options', () => {
  const s = store();
  const id = String(json(s.run('remember', 'The API runs on port 8080.', '--scope', 'api', '--json')).id);
  const v = s.run('verify', id, '--note', 'curl localhost:8080 answers');
  assert.equal(v.code, 0, v.stderr);
  assert.match(v.stdout, new RegExp(`^verified ${id} at \\d{4}-`));
  assert.notEqual(json(s.run('show', id, '--json')).last_verified_at, null);

  const u = s.run('update', id, '--text', 'The API runs on port 9090.', '--scope', 'api', '--scope', 'ports', '--alias', 'http port', '--json');
  assert.equal(u.code, 0, u.stderr);
  assert.deepEqual(json(u).scopes, ['api', 'ports']);
  const after = json(s.run('show', id, '--json'));
  assert.equal(after.body, 'The API runs on port 9090.');
  assert.equal(after.last_verified_at, null, 'a new text resets verification');
  assert.deepEqual(after.aliases, ['http port']);
  assert.match(s.run('update', id, '--no-aliases', '--expires', '2099-01-01').stdout, new RegExp(`^updated ${id}`));
  assert.equal((json(s.run('show', id, '--json')).aliases as string[] | undefined)?.length ?? 0, 0);

  const nothing = s.run('update', id);
  assert.equal(nothing.code, 2);
  assert.match(nothing.stderr, /give at least one of --text, --scope, --confidence, --expires, --no-expires, --alias or --no-aliases/);
  const both = s.run('update', id, '--expires', '2099-01-01', '--no-expires');
  assert.equal(both.code, 2);
  const badScope = s.run('update', id, '--scope', 'Not Valid');
  assert.equal(badScope.code, 2);
  assert.match(badScope.stderr, /--scope "Not Valid" is not a valid scope/);
  const unknownId = s.run('update', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '--text', 'x y z');
  assert.equal(unknownId.code, 1);
  assert.match(unknownId.stderr, /01ARZ3NDEKTSV4RRFFQ69G5FAV/);

  const noReason = s.run('remove', id);
  assert.equal(noReason.code, 2);
  assert.match(noReason.stderr, /--reason R is required/);
  const r = s.run('remove', id, '--reason', 'moved to 9191');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`removed ${id} \\(cairn restore ${id} brings it back\\)`));
  assert.equal(mdFiles(s.dir).length, 0);
  const removedAgain = s.run('remove', id, '--reason', 'again', '--json');
  assert.equal(removedAgain.code, 1);
  assert.match(removedAgain.stderr, /moved to 9191/);

  const back = s.run('restore', id, '--json');
  assert.equal(back.code, 0, back.stderr);
  assert.equal(json(back).id, id);
  assert.equal(mdFiles(s.dir).length, 1);
  const notRemoved = s.run('restore', id);
  assert.notEqual(notRemoved.code, 0);
  assert.match(notRemoved.stderr, /is not removed: only tombstoned memories can be restored/);
  removeDir(s.dir);
});

test('rename-scope: nested scopes follow; tombstones only with --include-tombstones; plurals', () => {
  const s = store();
  const a = String(json(s.run('remember', 'Widgets use tabs for indentation.', '--scope', 'projects:widgets', '--json')).id);
  const b = String(json(s.run('remember', 'Widgets deploy with Fly.', '--scope', 'projects:widgets:deploy', '--json')).id);
  const t = String(json(s.run('remember', 'Widgets used Heroku once.', '--scope', 'projects:widgets', '--json')).id);
  assert.equal(s.run('remove', t, '--reason', 'moved off Heroku').code, 0);

  const one = s.run('rename-scope', 'projects:widgets:deploy', 'projects:widgets:release');
  assert.equal(one.code, 0, one.stderr);
  assert.equal(one.stdout, 'renamed projects:widgets:deploy to projects:widgets:release in 1 memory\n');
  const r = s.run('rename-scope', 'projects:widgets', 'projects:gadgets', '--json');
  assert.deepEqual(json(r).active, [a, b].sort());
  assert.deepEqual(json(r).tombstoned, []);
  assert.deepEqual(json(s.run('show', b, '--json')).scopes, ['projects:gadgets:release']);
  const withTombs = s.run('rename-scope', 'projects:widgets', 'projects:gadgets', '--include-tombstones');
  assert.equal(withTombs.stdout, 'renamed projects:widgets to projects:gadgets in 0 memories and 1 removed memory\n');
  const bad = s.run('rename-scope', 'projects:gadgets');
  assert.equal(bad.code, 2);
  const same = s.run('rename-scope', 'x', 'x');
  assert.equal(same.code, 2);
  assert.match(same.stderr, /OLD and NEW are both "x"/);
  removeDir(s.dir);
});
