// Re-homing memories when a repo's remote changes. memory_health names origins
// written from this worktree that match none of its remotes; `cairn migrate-origin` moves them
// (dry run by default, --apply, one atomic locked write and one event per file, --json).
// The built bundle (MCP over stdio and the CLI) on real git repos.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { git, removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { cli, startServer } from '../helpers/mcp.ts';

const OLD = 'git@github.com:acme/widgets.git';
const NEW = 'git@github.com:acme/widgets-ng.git';
let root: string;
let store: string;
let repo: string;
let other: string;
let kept: string;
let gone: string;
let gadget: string;

const files = () =>
  [store, join(store, '.tombstones')].flatMap((d) => (existsSync(d) ? readdirSync(d).filter((n) => n.endsWith('.md')).map((n) => join(d, n)) : []));
const snapshot = () => new Map(files().map((f) => [f, readFileSync(f, 'utf8')]));
const run = (args: string[]) => cli(args, { store, cwd: repo });

before(async () => {
  root = tempDir('cairn-migrate-');
  store = join(root, 'store');
  repo = tempRepo(OLD);
  other = tempRepo('git@github.com:acme/gadgets.git');
  const s = await startServer({ store, cwd: repo });
  kept = (await s.call('memory_write', { content: 'Widgets publishes its docs site from the gh-pages branch.', scopes: ['projects:widgets'] })).id;
  gone = (await s.call('memory_write', { content: 'Widgets pins Node 18 in its CI matrix for the legacy build.', scopes: ['projects:widgets'] })).id;
  await s.call('memory_remove', { id: gone, reason: 'the legacy build was dropped' });
  await s.close();
  const o = await startServer({ store, cwd: other });
  gadget = (await o.call('memory_write', { content: 'Gadgets releases are signed with the team GPG key.', scopes: ['projects:gadgets'] })).id;
  await o.close();
  git(repo, 'remote', 'set-url', 'origin', NEW); // the repo was renamed
  git(repo, 'remote', 'add', 'upstream', 'https://github.com/upstream-org/widgets.git');
});
after(() => {
  removeDir(root);
  removeDir(repo);
  removeDir(other);
});

test('memory_health names the origin that matches none of the repo\'s remotes, with the fix', async () => {
  const s = await startServer({ store, cwd: repo });
  assert.equal((await s.call('memory_scope_overview', {})).total, 0, 'after the rename the memories are out of view');
  const h = await s.call('memory_health', {});
  assert.deepEqual(h.orphaned_origins, {
    applies: true,
    known_remotes: [NEW, 'https://github.com/upstream-org/widgets.git'],
    count: 1,
    rows: [{ repo: OLD, count: 2, ids: [kept, gone].sort(), fix: `cairn migrate-origin --from ${OLD} --to ${NEW} --apply` }],
  });
  await s.close();
  const text = run(['health']);
  assert.match(text.stdout, /Origins matching none of this repo's remotes \(1\)/);
  assert.ok(text.stdout.includes(`cairn migrate-origin --from ${OLD} --to ${NEW} --apply`));
  // Outside a repo there are no remotes to compare against.
  const plain = tempDir('cairn-plain-');
  try {
    const p = JSON.parse(cli(['health', '--json'], { store, cwd: plain }).stdout);
    assert.deepEqual(p.orphaned_origins, { applies: false, known_remotes: [], count: 0, rows: [] });
  } finally {
    removeDir(plain);
  }
});

test('bad input is refused with a specific message and changes nothing', () => {
  const before = snapshot();
  const noTo = run(['migrate-origin', '--from', OLD]);
  assert.equal(noTo.code, 2);
  assert.match(noTo.stderr, /--to URL is required/);
  const none = run(['migrate-origin', '--from', 'git@github.com:acme/nothing.git', '--to', NEW, '--apply']);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no memory or tombstone has origin git@github\.com:acme\/nothing\.git/);
  const empty = run(['migrate-origin', '--from', '', '--to', NEW]);
  assert.equal(empty.code, 1);
  assert.match(empty.stderr, /from must be a remote URL/);
  assert.deepEqual(snapshot(), before);
});

test('a dry run (the default) lists what would move and changes nothing', () => {
  const before = snapshot();
  // Another spelling of the same repo matches: scheme, .git and (on github.com) case are ignored.
  const r = run(['migrate-origin', '--from', 'https://github.com/ACME/Widgets', '--to', `https://x-access-token:ghs_secret123@github.com/acme/widgets-ng.git`]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^would move 2 files \(1 memory, 1 tombstone\) from https:\/\/github\.com\/ACME\/Widgets to https:\/\/github\.com\/acme\/widgets-ng\.git \(dry run: nothing changed; add --apply\)/);
  assert.ok(!r.stdout.includes('ghs_secret123'), 'the token in --to is never shown');
  const j = JSON.parse(run(['migrate-origin', '--from', OLD, '--to', NEW, '--json']).stdout);
  assert.deepEqual(j, { from: OLD, to: NEW, applied: false, active: [kept], tombstoned: [gone] });
  assert.deepEqual(snapshot(), before);
});

test('--apply rewrites each file (memories and tombstones), logs one event per file, and the repo sees them again', async () => {
  const before = snapshot();
  const r = run(['migrate-origin', '--from', OLD, '--to', NEW, '--apply', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { from: OLD, to: NEW, applied: true, active: [kept], tombstoned: [gone] });
  const after = snapshot();
  for (const [f, text] of before) {
    const now = after.get(f)!;
    if (text.includes(`id: ${gadget}`)) {
      assert.equal(now, text, 'another repo\'s memory is untouched');
      continue;
    }
    // Only the repo line changed: `updated` and everything else stay.
    assert.equal(now, text.replace(`repo: ${JSON.stringify(OLD)}`, `repo: ${JSON.stringify(NEW)}`).replace(`repo: ${OLD}`, `repo: ${NEW}`));
    assert.notEqual(now, text);
  }
  assert.equal(existsSync(join(store, '.lock')), false);
  const events = readFileSync(join(store, '.events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.kind === 'migrate_origin');
  assert.deepEqual(events.map((e) => [e.id, e.from, e.to, e.tombstoned]).sort(), [[kept, OLD, NEW, false], [gone, OLD, NEW, true]].sort());
  const s = await startServer({ store, cwd: repo });
  assert.equal((await s.call('memory_scope_overview', {})).total, 1);
  assert.equal((await s.call('memory_health', {})).orphaned_origins.count, 0);
  await s.close();
  // Running it again: nothing left under the old origin.
  const again = run(['migrate-origin', '--from', OLD, '--to', NEW, '--apply']);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /no memory or tombstone has origin/);
});
