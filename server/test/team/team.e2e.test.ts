// Team memory end to end (README "Team memory"): real git repos in temp dirs, the built bundle as
// MCP server over stdio and as CLI, a personal store elsewhere ($CAIRN_DIR). No mocks.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { GIT_TEST_IDENTITY, git, removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { cli, startServer } from '../helpers/mcp.ts';
import { startUi } from '../ui/harness.ts';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

// A teammate's own git command line (their pull makes a merge commit, so it needs their identity).
const cliGit = (cwd: string, args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_TEST_IDENTITY } });
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
};
const mdFiles = (d: string) => (existsSync(d) ? readdirSync(d).filter((f) => f.endsWith('.md')) : []);

/** A repo with a committed team store and a personal store outside it. */
function setup() {
  const repo = tempRepo();
  const personal = tempDir('cairn-personal-');
  dirs.push(repo, personal);
  const run = (args: string[], cwd = repo, env: Record<string, string> = {}) => cli(args, { store: personal, cwd, env });
  const init = run(['team', 'init', '--json']);
  assert.equal(init.code, 0, init.stderr);
  const team = join(repo, '.cairn');
  return { repo, personal, team, run };
}

test('cairn team init: team.toml, README, .gitignore for per-machine files; idempotent; refused outside a repo', () => {
  const { repo, team, run, personal } = setup();
  assert.match(readFileSync(join(team, 'team.toml'), 'utf8'), /cairn team store/);
  assert.ok(existsSync(join(team, 'README.txt')));
  const ignore = readFileSync(join(team, '.gitignore'), 'utf8');
  for (const l of ['.cache/', '.events.jsonl*', '.pending/', '.lock']) assert.ok(ignore.split('\n').includes(l), l);
  const again = JSON.parse(run(['team', 'init', '--json']).stdout);
  assert.equal(again.created, false);
  assert.deepEqual(again.files, []);
  // Writing and searching make caches and an event log: git must never see them.
  assert.equal(run(['remember', '--team', 'Integration tests need the docker compose stack from dev/compose.yml running', '--scope', 'testing']).code, 0);
  const fromSub = join(repo, 'src', 'deep');
  mkdirSync(fromSub, { recursive: true });
  const sub = run(['search', 'docker compose', '--json'], fromSub);
  assert.equal(JSON.parse(sub.stdout).hits[0]?.store, 'team', 'found from a subdirectory: the team store is at the repo root');
  assert.ok(existsSync(join(team, '.cache')));
  const status = git(repo, 'status', '--porcelain', '--untracked-files=all');
  assert.doesNotMatch(status, /\.cache|\.events|\.pending|\.lock/);
  assert.match(status, /\.cairn\/team\.toml/);
  assert.equal(mdFiles(team).length, 1);
  const doc = JSON.parse(run(['doctor', '--json']).stdout);
  const tc = doc.checks.find((c: any) => c.name === 'team store');
  assert.equal(tc?.status, 'ok', JSON.stringify(tc));
  assert.match(tc.detail, /1 memory, 0 tombstones/);
  writeFileSync(join(team, 'hand-broken.md'), '---\n---\n');
  const doc2 = JSON.parse(run(['doctor', '--json']).stdout);
  assert.match(JSON.stringify(doc2.checks.find((c: any) => c.name === 'team store')), /warn.*hand-broken\.md/s);
  const outside = tempDir('cairn-norepo-');
  dirs.push(outside);
  const r = run(['team', 'init'], outside);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /not inside a git repository/);
  assert.ok(!existsSync(join(outside, '.cairn')));
  void personal;
});

test('MCP: search and list see both stores with store labels in one ranking; write store:"team" lands in .cairn/; show/update/verify/remove/restore act on the holder', async () => {
  const { repo, personal, team } = setup();
  const s = await startServer({ store: personal, cwd: repo });
  const t = await s.call('memory_write', { content: 'Release builds are signed by the sigstore step in ci/release.yml before upload', scopes: ['release'], store: 'team' });
  assert.equal(t.status, 'committed');
  assert.equal(t.store, 'team');
  assert.ok(t.file.startsWith(team), t.file);
  assert.equal(mdFiles(team).length, 1);
  const teamText = readFileSync(t.file, 'utf8');
  assert.match(teamText, /cwd: null/);
  assert.doesNotMatch(teamText, new RegExp(repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'no local path of the writer in a shared file');
  const p = await s.call('memory_write', { content: 'I prefer to run release builds locally with make release before tagging', scopes: ['release'] });
  assert.equal(p.store, 'personal');
  assert.ok(p.file.startsWith(personal));
  assert.equal(mdFiles(team).length, 1, 'a personal write never lands in the team store');

  // One fused ranking: the team memory matches the query better and ranks first.
  const r = await s.call('memory_search', { query: 'sigstore signed release upload' });
  assert.deepEqual(r.hits.map((h: any) => [h.id, h.store]), [[t.id, 'team'], [p.id, 'personal']]);
  const r2 = await s.call('memory_search', { query: 'make release locally tagging' });
  assert.equal(r2.hits[0].id, p.id);
  assert.equal(r2.hits[0].store, 'personal');
  // The fused path (alternates): still one ranking over both stores, the better match first.
  const r3 = await s.call('memory_search', { query: 'sigstore signed release upload', alternates: ['artifact signing step'] });
  assert.deepEqual(r3.hits.map((h: any) => [h.id, h.store]), [[t.id, 'team'], [p.id, 'personal']]);
  const r4 = await s.call('memory_search', { query: 'make release locally tagging', alternates: ['local release build before a tag'] });
  assert.deepEqual(r4.hits.map((h: any) => h.store)[0], 'personal');
  const list = await s.call('memory_list', {});
  assert.deepEqual(new Set(list.items.map((i: any) => `${i.id}:${i.store}`)), new Set([`${t.id}:team`, `${p.id}:personal`]));
  const shown = await s.call('memory_show', { ids: [t.id, p.id] });
  assert.deepEqual(shown.memories.map((m: any) => m.store), ['team', 'personal']);
  assert.equal((await s.call('memory_show', { id: t.id })).memories[0].store, 'team');

  const u = await s.call('memory_update', { id: t.id, content: 'Release builds are signed by the sigstore step in ci/release.yml before the upload to the registry' });
  assert.equal(u.store, 'team');
  assert.match(readFileSync(join(team, mdFiles(team)[0]!), 'utf8'), /upload to the registry/);
  assert.equal((await s.call('memory_verify', { id: t.id })).store, 'team');
  const rm = await s.call('memory_remove', { id: t.id, reason: 'signing moved to the registry side' });
  assert.equal(rm.store, 'team');
  assert.equal(mdFiles(team).length, 0);
  assert.equal(mdFiles(join(team, '.tombstones')).length, 1);
  const tombs = await s.call('memory_list_tombstones', {});
  assert.equal(tombs.items[0].id, t.id);
  assert.equal(tombs.items[0].store, 'team');
  assert.equal((await s.call('memory_restore', { id: t.id })).store, 'team');
  assert.equal(mdFiles(team).length, 1);
  assert.equal(mdFiles(personal).length, 1);
  const use = await s.call('memory_record_use', { memory_ids: [t.id, p.id], outcome: 'applied' });
  assert.deepEqual(use.unknown_ids, []);
  assert.equal(use.recorded, 2);
  const ov = await s.call('memory_scope_overview', {});
  assert.equal(ov.team.total, 1);
  assert.deepEqual(ov.team.scopes, { release: 1 });
  await s.close();
});

test('memory_scope_disable hides the scope\'s team memories too, in search, list, show-all views and the overview; enable brings them back', async () => {
  const { repo, personal } = setup();
  const s = await startServer({ store: personal, cwd: repo });
  const t = await s.call('memory_write', { content: 'Staging deploys are paused every Friday afternoon by the release captain', scopes: ['deploys'], store: 'team' });
  const p = await s.call('memory_write', { content: 'I check the deploy calendar before pushing on Fridays', scopes: ['deploys'] });
  const other = await s.call('memory_write', { content: 'Friday lunch is pizza in the big meeting room', scopes: ['office'], store: 'team' });
  const ids = async () => (await s.call('memory_search', { query: 'friday deploys staging release calendar pizza' })).hits.map((h: any) => h.id).sort();
  assert.deepEqual(await ids(), [t.id, p.id, other.id].sort());
  await s.call('memory_scope_disable', { scope: 'deploys' });
  assert.deepEqual(await ids(), [other.id], 'neither store\'s deploys memories are found');
  assert.deepEqual((await s.call('memory_list', {})).items.map((i: any) => i.id), [other.id]);
  const ov = await s.call('memory_scope_overview', {});
  assert.deepEqual(ov.team.scopes, { office: 1 });
  await s.call('memory_scope_enable', { scope: 'deploys' });
  assert.deepEqual(await ids(), [t.id, p.id, other.id].sort());
  assert.equal((await s.call('memory_scope_overview', {})).team.total, 2);
  await s.close();
});

test('write gates check both stores: a team tombstone refuses a personal write with its reason; duplicates across stores are flagged both ways', async () => {
  const { repo, personal, team } = setup();
  const s = await startServer({ store: personal, cwd: repo });
  const gone = await s.call('memory_write', { content: 'The nightly job rebuilds the search index with scripts/reindex.sh at 02:00 UTC', scopes: ['ops'], store: 'team' });
  await s.call('memory_remove', { id: gone.id, reason: 'we moved reindexing into the app on boot' });
  const before = mdFiles(personal).length;
  const again = await s.call('memory_write', { content: 'The nightly job rebuilds the search index with scripts/reindex.sh at 02:00 UTC', scopes: ['ops'] });
  assert.equal(again.status, 'previously_removed');
  assert.equal(again.matches[0].id, gone.id);
  assert.equal(again.matches[0].store, 'team');
  assert.equal(again.matches[0].removed_reason, 'we moved reindexing into the app on boot');
  assert.match(again.hint, /team store/);
  assert.equal(mdFiles(personal).length, before, 'nothing written');

  const shared = await s.call('memory_write', { content: 'Database migrations live in db/migrations and run with npm run migrate', scopes: ['db'], store: 'team' });
  const dup = await s.call('memory_write', { content: 'Database migrations live in db/migrations and run with npm run migrate', scopes: ['db'] });
  assert.equal(dup.status, 'duplicate');
  assert.equal(dup.matches[0].id, shared.id);
  assert.equal(dup.matches[0].store, 'team');
  const mine = await s.call('memory_write', { content: 'My scratch notes for the auth refactor are in ~/notes/auth-refactor.md', scopes: ['auth'] });
  const dup2 = await s.call('memory_write', { content: 'My scratch notes for the auth refactor are in ~/notes/auth-refactor.md', scopes: ['auth'], store: 'team' });
  assert.equal(dup2.status, 'duplicate');
  assert.equal(dup2.matches[0].id, mine.id);
  assert.equal(dup2.matches[0].store, 'personal');
  const removedMine = await s.call('memory_write', { content: 'The legacy admin panel is served from the /old-admin route of the api', scopes: ['api'] });
  await s.call('memory_remove', { id: removedMine.id, reason: 'old admin panel was deleted' });
  const teamAgain = await s.call('memory_write', { content: 'The legacy admin panel is served from the /old-admin route of the api', scopes: ['api'], store: 'team' });
  assert.equal(teamAgain.status, 'previously_removed');
  assert.equal(teamAgain.matches[0].store, 'personal');
  assert.equal(mdFiles(team).length, 1, 'only the shared migrations memory is in the team store');
  await s.close();
});

test('the team store refuses secrets more strictly, and claims about the user; each refusal writes nothing', async () => {
  const { repo, personal, team, run } = setup();
  const s = await startServer({ store: personal, cwd: repo });
  const cases = [
    ['The staging database on 10.20.30.40 takes the login admin, password Marten-Quay-47.', 'stated-credential'],
    ['The webhook signing value is Zq8vR2mK9xLp4Tn7 for the staging hook.', 'high-entropy-token'],
    ['After the deploy, ssh into build.internal as ops with Quartz!lake7 and restart the worker.', 'password-shaped'],
    ['Guest wifi password: correcthorsebatterystaple', 'stated-credential'],
    ['Jenkins admin / Summer2024! is the staging login', 'login-pair'],
    // Read by shape and context: a lock's code, another language's qualifier, a labelled row.
    ['The padlock on the bike cage is 4127', 'stated-credential'],
    ["La password dell'utente root sul NAS è Cipresso!58", 'stated-credential'],
    ['creds for the staging UI\tops\tOrca!Bay-2291', 'stated-credential'],
  ] as const;
  for (const [content, kind] of cases) {
    const r = await s.call('memory_write', { content, scopes: ['ops'], store: 'team' });
    assert.equal(r.status, 'secret_detected', content);
    assert.ok(r.findings.some((f: any) => f.kind === kind), JSON.stringify(r.findings));
    assert.match(r.hint, /team store is committed and shared/);
    assert.equal(r.store, 'team');
  }
  assert.equal(mdFiles(team).length, 0);
  // Notes that only say where credentials live are stored.
  // And so are an ARN (where a secret is kept) and a request id.
  for (const content of [
    'The staging database on 10.20.30.40 takes the login admin with password from the vault entry db-admin.',
    'The analytics client id is kX93mPq2Lw7ZtR4v and it is safe to share internally.',
    'The wiki page at wiki.corp explains how to request database credentials.',
    'The staging database runs at 10.0.4.20 and its credentials are stored in Vault.',
    'The lambda reads arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/orders-Ab12Cd only.',
    'Customer reported request id req_gzQ2xK8pLm4vTn failing with 502.',
  ]) {
    const r = await s.call('memory_write', { content, scopes: ['ops'], store: 'team', force: true });
    assert.equal(r.status, 'committed', content);
    await s.call('memory_remove', { id: r.id, reason: 'only checking the gate' });
  }
  // The personal gate is unchanged: the same texts are not secrets by its rules.
  assert.equal((await s.call('memory_write', { content: cases[1][0], scopes: ['ops'] })).status, 'committed');
  // The personal gate's own kinds are refused from the team store as well.
  const gh = await s.call('memory_write', { content: `CI pushes with ghp_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`, scopes: ['ci'], store: 'team' });
  assert.equal(gh.status, 'secret_detected');
  // An update of a team memory gets the strict check too.
  const ok = await s.call('memory_write', { content: 'The feature flags are defined in config/flags.yaml and reviewed weekly', scopes: ['flags'], store: 'team' });
  const upd = await s.fail('memory_update', { id: ok.id, content: 'The feature flags service on flags.internal takes the user flagbot, password Heron-Bridge-47' });
  assert.match(upd, /(?:password-shaped|stated-credential).*team memory/s);
  assert.doesNotMatch(readFileSync(join(team, mdFiles(team)[0]!), 'utf8'), /flags\.internal/);
  const claim = await s.fail('memory_write', { content: 'The user prefers tabs over spaces in every repository', scopes: ['style'], category: 'user-inference', store: 'team' });
  assert.match(claim, /user-inference cannot go to the team store/);
  assert.equal(mdFiles(team).length, 1);
  const cliRefusal = run(['remember', '--team', cases[0][0], '--scope', 'ops']);
  assert.equal(cliRefusal.code, 1);
  assert.match(cliRefusal.stderr, /not stored in the team store.*stated-credential/s);
  assert.equal(mdFiles(team).length, 1);
  await s.close();
});

test('a teammate\'s commit pulled into .cairn/ is seen by a running server without restart; health lists team problems labelled', async () => {
  const { repo, personal } = setup();
  git(repo, 'add', '.cairn');
  git(repo, 'commit', '-q', '-m', 'team store');
  const bare = join(tempDir('cairn-bare-'), 'origin.git');
  dirs.push(join(bare, '..'));
  git(repo, 'init', '-q', '--bare', bare);
  git(repo, 'remote', 'set-url', 'origin', bare);
  git(repo, 'push', '-q', 'origin', 'main');
  git(repo, 'branch', '-q', '--set-upstream-to=origin/main', 'main');
  const mateRoot = tempDir('cairn-mate-');
  dirs.push(mateRoot);
  const mate = join(mateRoot, 'clone');
  git(mateRoot, 'clone', '-q', '-b', 'main', bare, mate);

  const s = await startServer({ store: personal, cwd: repo });
  assert.equal((await s.call('memory_search', { query: 'flamegraph profiling' })).hits.length, 0);
  const matePersonal = tempDir('cairn-mate-personal-');
  dirs.push(matePersonal);
  const w = cli(['remember', '--team', 'Profile the api with npm run flamegraph; the output lands in tmp/profile', '--scope', 'perf', '--json'], { store: matePersonal, cwd: mate });
  assert.equal(w.code, 0, w.stderr);
  const mateId = JSON.parse(w.stdout).id;
  git(mate, 'add', '.cairn');
  git(mate, 'commit', '-q', '-m', 'team memory: profiling');
  git(mate, 'push', '-q', 'origin', 'HEAD:main');
  git(repo, 'pull', '-q', '--ff-only');

  const deadline = Date.now() + 15_000;
  let hits: any[] = [];
  while (Date.now() < deadline) {
    hits = (await s.call('memory_search', { query: 'flamegraph profiling' })).hits;
    if (hits.length > 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(hits[0]?.id, mateId);
  assert.equal(hits[0]?.store, 'team');

  // A hand-broken team file shows up in health under the team store's report.
  writeFileSync(join(repo, '.cairn', 'broken.md'), '---\nid: [unclosed\n---\nbody\n');
  let h: any;
  const deadline2 = Date.now() + 15_000;
  while (Date.now() < deadline2) {
    h = await s.call('memory_health', {});
    if (JSON.stringify(h.team ?? {}).includes('broken.md')) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(h.store, 'personal');
  assert.equal(h.team.store, 'team');
  assert.equal(h.team.totals.active, 1);
  assert.match(JSON.stringify(h.team), /broken\.md/);
  await s.close();
});

test('two teammates edit one team memory: a plain git pull merges it field by field through cairn\'s driver; the other body is kept in .cairn/.conflicts/', async () => {
  const { repo, personal, run } = setup();
  const init = JSON.parse(run(['team', 'init', '--json']).stdout);
  assert.match(init.merge_driver, /merge-driver %O %A %B %P$/);
  assert.match(readFileSync(join(repo, '.cairn', '.gitattributes'), 'utf8'), /^\/\*\.md merge=cairn$/m);
  assert.match(git(repo, 'config', 'merge.cairn.driver'), /merge-driver/);
  const w = run(['remember', '--team', 'Release builds run on the arm64 runner pool; x86 runners only build docs', '--scope', 'ci', '--json']);
  const id = JSON.parse(w.stdout).id;
  git(repo, 'add', '.cairn');
  git(repo, 'commit', '-q', '-m', 'team store');
  const bare = join(tempDir('cairn-bare-'), 'origin.git');
  dirs.push(join(bare, '..'));
  git(repo, 'init', '-q', '--bare', bare);
  git(repo, 'remote', 'set-url', 'origin', bare);
  git(repo, 'push', '-q', 'origin', 'main');
  git(repo, 'branch', '-q', '--set-upstream-to=origin/main', 'main');
  const mateRoot = tempDir('cairn-mate-');
  dirs.push(mateRoot);
  const mate = join(mateRoot, 'clone');
  git(mateRoot, 'clone', '-q', '-b', 'main', bare, mate);
  const matePersonal = tempDir('cairn-mate-personal-');
  dirs.push(matePersonal);
  const mateRun = (args: string[]) => cli(args, { store: matePersonal, cwd: mate });
  // The teammate's clone registers the driver too (the attributes came with the clone).
  const mi = JSON.parse(mateRun(['team', 'init', '--json']).stdout);
  assert.equal(mi.created, false);
  assert.deepEqual(mi.files, []);

  // The teammate adds a scope and rewrites the body; here the body is rewritten differently, later.
  assert.equal(mateRun(['update', id, '--scope', 'ci', '--scope', 'release', '--text', 'Release builds run on the arm64 runner pool since March; x86 runners only build docs']).code, 0);
  git(mate, 'commit', '-q', '-am', 'team memory: since March');
  git(mate, 'push', '-q', 'origin', 'HEAD:main');
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(run(['update', id, '--text', 'Release builds run on the arm64 runner pool (ci/runners.tf); x86 runners only build docs']).code, 0);
  git(repo, 'commit', '-q', '-am', 'team memory: runners.tf');
  const pull = cliGit(repo, ['pull', '-q', '--no-rebase', '--no-edit']);
  assert.equal(pull.code, 0, pull.stderr);
  assert.doesNotMatch(readFileSync(join(repo, '.cairn', `${mdFiles(join(repo, '.cairn')).find((f) => f.includes(id.toLowerCase()) || readFileSync(join(repo, '.cairn', f), 'utf8').includes(id))}`), 'utf8'), /^<<<<<<<|^>>>>>>>/m);
  const shown = JSON.parse(run(['show', id, '--json']).stdout);
  assert.deepEqual([...shown.scopes].sort(), ['ci', 'release'], 'the scope the teammate added survives');
  assert.match(shown.body, /ci\/runners\.tf/, 'the newer body wins');
  const conflicts = join(repo, '.cairn', '.conflicts');
  assert.ok(existsSync(conflicts), 'the other body is kept in the team store, not at the code repo root');
  assert.ok(!existsSync(join(repo, '.conflicts')));
  const kept = readdirSync(conflicts).map((f) => readFileSync(join(conflicts, f), 'utf8')).join('\n');
  assert.match(kept, /since March/);
  void personal;
});

test('cairn ui browse lists both stores, a team memory marked team; its page and signals come from the team store', async () => {
  const { repo, personal, run } = setup();
  assert.equal(run(['remember', 'Personal: I keep scratch notes in ~/notes/scratch.md', '--scope', 'tools']).code, 0);
  writeFileSync(join(repo, 'Makefile'), 'all:\n');
  const t = JSON.parse(run(['remember', '--team', 'The Makefile target all builds the docs site before the api', '--scope', 'build', '--json']).stdout);
  const ui = await startUi({ store: personal, cwd: repo });
  try {
    const auth = await fetch(ui.url, { redirect: 'manual' });
    const cookie = String(auth.headers.get('set-cookie')).split(';')[0]!;
    const get = async (p: string) => (await fetch(`${ui.origin}${p}`, { headers: { Cookie: cookie } })).text();
    const page = await get('/browse');
    assert.match(page, /1–2 of 2/);
    assert.match(page, /scratch notes/);
    const row = page.split('<tr>').find((r) => r.includes('Makefile target'));
    assert.ok(row, 'the team memory is listed');
    assert.match(row!, /class="badge b-c1"[^>]*>team</);
    assert.doesNotMatch(page.split('<tr>').find((r) => r.includes('scratch notes'))!, />team</);
    assert.match(await get('/browse?text=makefile'), /1–1 of 1/);
    const mem = await get(`/m/${t.id}`);
    assert.match(mem, />team</);
  } finally {
    await ui.stop();
  }
});

test('outside a git repo, without a team store, or with [team] enabled = false: no team store and no error', async () => {
  const { repo, personal } = setup();
  await (async () => {
    const s = await startServer({ store: personal, cwd: repo });
    await s.call('memory_write', { content: 'Lint rules come from the shared eslint config package @acme/eslint-config', scopes: ['lint'], store: 'team' });
    await s.close();
  })();
  const outside = tempDir('cairn-outside-');
  dirs.push(outside);
  const s = await startServer({ store: personal, cwd: outside });
  assert.equal((await s.call('memory_search', { query: 'eslint config', auto_scope: false })).hits.length, 0);
  const err = await s.fail('memory_write', { content: 'Anything at all for the team store here', scopes: ['x'], store: 'team' });
  assert.match(err, /store "team" is not available: .* is not inside a git repository; nothing was written/);
  assert.equal(s.stderr().includes('team store'), false);
  await s.close();

  writeFileSync(join(personal, 'config.toml'), '[team]\nenabled = false\n');
  const off = await startServer({ store: personal, cwd: repo });
  assert.equal((await off.call('memory_search', { query: 'eslint config' })).hits.length, 0);
  assert.match(await off.fail('memory_write', { content: 'Anything at all for the team store here', scopes: ['x'], store: 'team' }), /turned off/);
  await off.close();
});

test('an id both stores hold: the personal memory answers, health lists the clash', async () => {
  const { team, run } = setup();
  const w = JSON.parse(run(['remember', 'Personal fact about the build cache living in ~/.cache/widgets', '--scope', 'build', '--json']).stdout);
  mkdirSync(team, { recursive: true });
  copyFileSync(w.file, join(team, 'copy.md'));
  const shown = JSON.parse(run(['show', w.id, '--json']).stdout);
  assert.equal(shown.store, 'personal');
  const list = JSON.parse(run(['list', '--json']).stdout);
  assert.equal(list.items.filter((i: any) => i.id === w.id).length, 1);
  const h = JSON.parse(run(['health', '--json']).stdout);
  assert.deepEqual(h.team.id_clashes, [w.id]);
});

test('with require_write_confirmation a team write waits in the team store\'s own .pending/ (gitignored) and confirms into .cairn/', async () => {
  const { repo, personal, team } = setup();
  writeFileSync(join(personal, 'config.toml'), '[behavior]\nrequire_write_confirmation = true\n');
  const s = await startServer({ store: personal, cwd: repo });
  const p = await s.call('memory_write', { content: 'Code review needs one approval from the owning team listed in CODEOWNERS', scopes: ['review'], store: 'team' });
  assert.equal(p.status, 'pending');
  assert.equal(p.store, 'team');
  assert.ok(existsSync(join(team, '.pending', `${p.pending_id}.json`)));
  assert.equal(existsSync(join(personal, '.pending', `${p.pending_id}.json`)), false);
  assert.equal(mdFiles(team).length, 0);
  const done = await s.call('memory_write_confirm', { pending_id: p.pending_id });
  assert.equal(done.status, 'committed');
  assert.ok(done.file.startsWith(team), done.file);
  assert.equal(mdFiles(team).length, 1);
  const q = await s.call('memory_write', { content: 'Release notes are drafted in docs/releases before the tag is pushed', scopes: ['release'], store: 'team' });
  assert.deepEqual(await s.call('memory_write_cancel', { pending_id: q.pending_id }), { cancelled: true, existed: true });
  assert.equal(mdFiles(team).length, 1);
  assert.doesNotMatch(git(repo, 'status', '--porcelain', '--untracked-files=all'), /\.pending/);
  await s.close();
});

test('without $CAIRN_DIR a team .cairn/ is never taken as the personal store (a .cairn/ without team.toml still is: the project store)', () => {
  const { repo, personal, team } = setup();
  const env = { CAIRN_DIR: '', HOME: personal };
  const w = cli(['remember', 'Personal: I name my scratch branches with my initials and delete them every Friday', '--scope', 'git', '--json'], { store: '', cwd: repo, env });
  assert.equal(w.code, 0, w.stderr);
  assert.ok(JSON.parse(w.stdout).file.startsWith(join(personal, '.cairn')), w.stdout);
  assert.equal(mdFiles(team).length, 0);
  const doc = JSON.parse(cli(['doctor', '--json'], { store: '', cwd: repo, env }).stdout);
  assert.equal(doc.store.via, 'home');
  // The old rule is unchanged for a .cairn/ that is not a team store.
  const other = tempRepo();
  dirs.push(other);
  mkdirSync(join(other, '.cairn'));
  const doc2 = JSON.parse(cli(['doctor', '--json'], { store: '', cwd: other, env }).stdout);
  assert.equal(doc2.store.via, 'project');
});
