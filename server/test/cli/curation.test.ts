// The curation commands, each run by spawning the built bundle against real temp stores and real
// temp client config files (HOME is a temp dir).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, startServer, BUNDLE } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { daysAgo, writeMemory } from '../curation/fixtures/store.ts';
import { runCli } from '../../src/cli/main.ts';

test('health: --json is the tool\'s object; the text puts contradictions first', async () => {
  const store = tempDir('cairn-cli-store-');
  const cwd = tempDir('cairn-cli-cwd-');
  writeMemory(store, { body: 'Old release notes nobody reads.', scopes: ['release'], created: daysAgo(90) });
  const s = await startServer({ store, cwd });
  let fromTool: Record<string, unknown>;
  try {
    const w = await s.call('memory_write', { content: 'Deploys run scripts/deploy.sh from the repo root.', scopes: ['deployment'] });
    await s.call('memory_record_use', { memory_ids: [w.id], outcome: 'contradicted', note: 'renamed to release.sh' });
    fromTool = await s.call('memory_health', { window_days: 14 });
  } finally {
    await s.close();
  }
  const r = cli(['health', '--json', '--days', '14'], { store, cwd });
  assert.equal(r.code, 0, r.stderr);
  const fromCli = JSON.parse(r.stdout);
  delete fromCli.generated_at;
  delete fromTool.generated_at;
  // How far the embedding is, from the server that holds the semantic index; a command that
  // never opens it (health does not search) says null rather than open it to report on it.
  const sem = fromTool.semantic_index as { embedder: string; answering: string; embedded: number; pending: number };
  assert.match(sem.embedder, /^builtin:/);
  assert.deepEqual(sem, { embedder: sem.embedder, answering: sem.embedder, embedded: 2, pending: 0 });
  assert.equal(fromCli.semantic_index, null);
  delete fromCli.semantic_index;
  delete fromTool.semantic_index;
  assert.deepEqual(fromCli, fromTool);

  const t = cli(['health'], { store, cwd });
  assert.equal(t.code, 0);
  const contra = t.stdout.indexOf('Contradicted and not fixed since (1)');
  assert.ok(contra > 0 && contra < t.stdout.indexOf('Cold: not retrieved in the last 30 days (1)'), t.stdout);
  assert.match(t.stdout, /why: renamed to release\.sh/);
  assert.match(t.stdout, /Verification debt: 2 never verified, 0 stale, 0 fresh/);
  const bad = cli(['health', '--days', 'ten'], { store, cwd });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--days must be a whole number from 1 to 3650, got "ten"/);
  removeDir(store);
  removeDir(cwd);
});

test('tombstones list and prune: dry run first, only old tombstones deleted for good', () => {
  const store = tempDir('cairn-cli-store-');
  const old = writeMemory(store, { body: 'An ancient removed note.', scopes: ['x'], removed: daysAgo(100), removed_reason: 'obsolete', removed_session: null });
  const recent = writeMemory(store, { body: 'A recently removed note.', scopes: ['y'], removed: daysAgo(5), removed_reason: 'wrong', removed_session: null });
  writeMemory(store, { body: 'An active note.', scopes: ['x'] });
  const list = cli(['tombstones', 'list', '--json', '--scope', 'x'], { store, cwd: store });
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(JSON.parse(list.stdout).items.map((i: { id: string }) => i.id), [old.id]);
  assert.match(cli(['tombstones', 'list'], { store, cwd: store }).stdout, /reason: wrong/);

  const dry = cli(['tombstones', 'prune', '--older-than', '30', '--dry-run'], { store, cwd: store });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /would delete 1 tombstone removed more than 30 days ago \(dry run: nothing deleted\)/);
  assert.equal(readdirSync(join(store, '.tombstones')).length, 2);
  const real = cli(['tombstones', 'prune', '--older-than', '30', '--json'], { store, cwd: store });
  assert.deepEqual(JSON.parse(real.stdout).pruned, [old.id]);
  const left = readdirSync(join(store, '.tombstones'));
  assert.equal(left.length, 1);
  assert.ok(left[0]!.includes(recent.id.slice(-6).toLowerCase()));
  assert.equal(cli(['tombstones', 'prune'], { store, cwd: store }).code, 2, '--older-than is required');
  assert.equal(cli(['tombstones', 'purge'], { store, cwd: store }).code, 2);
  removeDir(store);
});

test('export (0600, --scope, --no-tombstones) and import: idempotent, never over a newer edit', () => {
  const src = tempDir('cairn-cli-src-');
  writeMemory(src, { body: 'Foo API uses cursor pagination.', scopes: ['projects:foo'] });
  writeMemory(src, { body: 'Bar uses offsets.', scopes: ['projects:bar'] });
  writeMemory(src, { body: 'Removed foo note.', scopes: ['projects:foo'], removed: daysAgo(3), removed_reason: 'dup', removed_session: null });
  const out = join(src, 'export.json');
  const e = cli(['export', '-o', out], { store: src, cwd: src });
  assert.equal(e.code, 0, e.stderr);
  assert.match(e.stderr, /exported 2 memories and 1 tombstone to /);
  assert.equal(statSync(out).mode & 0o777, 0o600);
  const doc = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(doc.format, 'cairn-export');
  const foo = JSON.parse(cli(['export', '--scope', 'projects:foo', '--no-tombstones'], { store: src, cwd: src }).stdout);
  assert.deepEqual([foo.memories.length, foo.tombstones.length], [1, 0]);

  const dst = tempDir('cairn-cli-dst-');
  const i1 = cli(['import', out], { store: dst, cwd: src });
  assert.equal(i1.code, 0, i1.stderr);
  assert.match(i1.stdout, /3 added, 0 updated, 0 unchanged, 0 kept/);
  const i2 = cli(['import', out, '--json'], { store: dst, cwd: src });
  assert.deepEqual(JSON.parse(i2.stdout), { added: 0, updated: 0, unchanged: 3, kept_newer: 0, total: 3 });
  assert.equal(readdirSync(join(dst, '.tombstones')).length, 1);

  writeFileSync(join(src, 'bad.json'), '{"format":"cairn-export","version":1,"memories":[{"id":"x"}],"tombstones":[]}');
  const bad = cli(['import', join(src, 'bad.json')], { store: dst, cwd: src });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /memories\[0\] has id "x", not a 26-character ULID/);
  assert.equal(cli(['import'], { store: dst, cwd: src }).code, 2);
  removeDir(src);
  removeDir(dst);
});

test('export warns about secret-looking bodies', () => {
  const store = tempDir('cairn-cli-store-');
  const leaky = writeMemory(store, { body: 'The CI token is ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 in the vault.', scopes: ['ci'] });
  const e = cli(['export'], { store, cwd: store });
  assert.equal(e.code, 0);
  assert.match(e.stderr, new RegExp(`1 exported memory looks like it holds a secret; the export is plaintext[^]*${leaky.id}: github-token`));
  removeDir(store);
});

test('import shows progress on a terminal for long runs', async () => {
  const src = tempDir('cairn-cli-src-');
  for (let i = 0; i < 120; i++) writeMemory(src, { body: `Bulk note number ${i} about topic ${i % 7}.`, scopes: ['bulk'] });
  const out = join(src, 'all.json');
  assert.equal(cli(['export', '-o', out], { store: src, cwd: src }).code, 0);
  const dst = tempDir('cairn-cli-dst-');
  let err = '';
  let stdout = '';
  // Progress goes to stderr when stderr is a terminal, once a phase has run for a while (the
  // seam makes that at once here); stdout being a terminal is not enough.
  const env = { ...process.env, CAIRN_DIR: dst, HOME: dst, CAIRN_PROGRESS_AFTER_MS: '0' };
  const quiet = tempDir('cairn-cli-dst-');
  let quietErr = '';
  assert.equal(await runCli(['import', out], { out: () => {}, err: (s) => void (quietErr += s), isTTY: true, env: { ...env, CAIRN_DIR: quiet, HOME: quiet }, cwd: src }), 0);
  assert.doesNotMatch(quietErr, /importing/);
  removeDir(quiet);
  const code = await runCli(['import', out], {
    out: (s) => void (stdout += s), err: (s) => void (err += s), isTTY: false, errIsTTY: true, env, cwd: src,
  });
  assert.equal(code, 0, err);
  assert.match(err, /\rcairn: importing \d+\/120, about \d+ s left/);
  assert.match(err, /\rcairn: importing 120\/120\x1b\[K\n/);
  assert.match(stdout, /120 added/);
  removeDir(src);
  removeDir(dst);
});

test('init: snippet and locations; --client merges idempotently, byte-identical the second time', () => {
  const home = tempDir('cairn-cli-home-');
  const opts = { store: join(home, 'store'), cwd: home, env: { HOME: home, XDG_CONFIG_HOME: '' } };
  const desktop = join(home, '.config', 'Claude', 'claude_desktop_config.json');
  mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
  writeFileSync(desktop, '{\n  "theme": "dark",\n  "mcpServers": {\n    "other": { "command": "x" }\n  }\n}\n');

  const listing = cli(['init', '--json'], opts);
  assert.equal(listing.code, 0, listing.stderr);
  const l = JSON.parse(listing.stdout);
  assert.deepEqual(l.snippet.mcpServers.cairn, { command: process.execPath, args: [BUNDLE], env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' } });
  assert.deepEqual(l.clients.find((c: { client: string }) => c.client === 'claude-desktop'), {
    client: 'claude-desktop', label: 'Claude Desktop', file: desktop, present: true, registered: false,
  });
  assert.equal(l.clients.find((c: { client: string }) => c.client === 'cursor').present, false);

  const printOnly = cli(['init', '--client', 'claude-desktop', '--print-only'], opts);
  // Only the entry cairn would add, never the rest of the user's file.
  assert.match(printOnly.stdout, /claude_desktop_config\.json: cairn would add this entry \(the rest of the file stays as it is\):\n\{\n {2}"mcpServers": \{\n {4}"cairn": \{/);
  assert.doesNotMatch(printOnly.stdout, /theme|"other"/);
  assert.doesNotMatch(readFileSync(desktop, 'utf8'), /cairn/);

  const first = cli(['init', '--client', 'claude-desktop', '--json'], opts);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(JSON.parse(first.stdout).status, 'added');
  const bytes = readFileSync(desktop);
  const cfg = JSON.parse(bytes.toString());
  assert.equal(cfg.theme, 'dark');
  // Where the entry goes is jsonc-parser's choice that leaves the neighbours' bytes alone (first here, since
  // appending would reformat the one-line "other"); both entries are there either way.
  assert.deepEqual(Object.keys(cfg.mcpServers).sort(), ['cairn', 'other']);
  assert.deepEqual(cfg.mcpServers.other, { command: 'x' });
  const second = cli(['init', '--client', 'claude-desktop'], opts);
  assert.match(second.stdout, /already registered, nothing changed/);
  assert.deepEqual(readFileSync(desktop), bytes);

  const vscode = cli(['init', '--client', 'vscode'], opts);
  assert.equal(vscode.code, 0);
  assert.deepEqual(JSON.parse(readFileSync(join(home, '.config', 'Code', 'User', 'mcp.json'), 'utf8')).servers.cairn.type, 'stdio');

  const cursorFile = join(home, '.cursor', 'mcp.json');
  mkdirSync(join(home, '.cursor'));
  writeFileSync(cursorFile, '{ not json');
  const refused = cli(['init', '--client', 'cursor'], opts);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /is not valid JSON .*cairn left it untouched/s);
  assert.equal(readFileSync(cursorFile, 'utf8'), '{ not json');
  const unknown = cli(['init', '--client', 'emacs'], opts);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown client "emacs": use one of claude-code, claude-desktop, cursor, vscode, windsurf, cline, continue/);

  const doc = cli(['doctor', '--json'], opts);
  const reg = JSON.parse(doc.stdout).checks.find((c: { name: string }) => c.name === 'registrations');
  assert.equal(reg.status, 'warn', 'the unparseable cursor file is reported');
  assert.ok(reg.items.some((i: string) => i.startsWith('Claude Desktop: ')));
  removeDir(home);
});

test('doctor exit codes: 0 healthy, 1 warnings, 2 a bad config', () => {
  const home = tempDir('cairn-cli-home-');
  const store = join(home, 'store');
  mkdirSync(store, { mode: 0o700 });
  writeMemory(store, { body: 'Fine.', scopes: ['notes'] });
  const opts = { store, cwd: home, env: { HOME: home } };
  assert.equal(cli(['init', '--client', 'cursor'], opts).code, 0);
  const ok = cli(['doctor'], opts);
  assert.equal(ok.code, 0, ok.stdout);
  assert.match(ok.stdout, /cairn doctor: all checks passed/);
  writeFileSync(join(store, 'junk.md'), 'no frontmatter at all', { mode: 0o600 });
  const warn = cli(['doctor'], opts);
  assert.equal(warn.code, 1);
  assert.match(warn.stdout, /warn {2}files .*1 file skipped[^]*junk\.md/);
  writeFileSync(join(store, 'config.toml'), '[telemetry]\nenabled = "yes"\n');
  const fail = cli(['doctor', '--json'], opts);
  assert.equal(fail.code, 2);
  assert.equal(JSON.parse(fail.stdout).status, 'fail');
  removeDir(home);
});

test('search and show for people at a terminal', () => {
  const store = tempDir('cairn-cli-store-');
  const m = writeMemory(store, { body: 'Nightly backups use pg_dump in custom format.', scopes: ['backups'] });
  const r = cli(['search', 'pg_dump', 'backups'], { store, cwd: store });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^${m.id} {2}high {4}\\[backups\\] {2}spot check required\\n {4}Nightly backups`));
  const j = JSON.parse(cli(['search', 'backups', '--json', '--scope', 'backups'], { store, cwd: store }).stdout);
  assert.deepEqual(j.hits.map((h: { id: string }) => h.id), [m.id]);
  assert.match(cli(['search', 'kubernetes'], { store, cwd: store }).stdout, /no matching memories/);
  assert.equal(cli(['search'], { store, cwd: store }).code, 2);
  const show = cli(['show', m.id], { store, cwd: store });
  assert.match(show.stdout, /scopes: {5}backups[^]*Nightly backups use pg_dump/);
  const kinds = readFileSync(join(store, '.events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).kind);
  assert.deepEqual(kinds, ['search', 'search', 'search', 'show']);
  assert.ok(existsSync(join(store, '.events.jsonl')));
  removeDir(store);
});
