// End to end through the built bundle over stdio: every issue-2 tool, its error cases, and what
// lands on disk.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type Session } from '../helpers/mcp.ts';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';

let root: string;
let store: string;
let repo: string;
let s: Session;

before(async () => {
  root = tempDir();
  store = join(root, 'store'); // does not exist yet: created on first write
  repo = tempRepo('https://github.com/acme/widgets.git');
  s = await startServer({ store, cwd: repo });
});
after(async () => {
  await s.close();
  removeDir(root);
  removeDir(repo);
});

const mode = (p: string) => statSync(p).mode & 0o777;

async function write(content: string, scopes = ['projects:widgets'], extra: Record<string, unknown> = {}) {
  const r = await s.call('memory_write', { content, scopes, ...extra });
  assert.equal(r.status, 'committed', JSON.stringify(r));
  return r;
}

test('tools/list: every tool has both schemas, annotations and a description', async () => {
  const { tools } = await s.client.listTools();
  const names = tools.map((t) => t.name);
  for (const n of ['memory_write', 'memory_show', 'memory_list', 'memory_update', 'memory_verify', 'memory_remove', 'memory_restore', 'memory_list_tombstones', 'memory_scope_overview', 'memory_search']) {
    assert.ok(names.includes(n), `${n} registered`);
  }
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', t.name);
    // `memory` (Anthropic's memory tool) answers in plain text, as that tool does: no output schema.
    if (t.name === 'memory') assert.equal(t.outputSchema, undefined);
    else assert.equal(t.outputSchema?.type, 'object', t.name);
    assert.ok(t.description && t.description.length > 20, t.name);
    assert.equal(t.annotations?.openWorldHint, false, t.name);
    for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const) assert.equal(typeof t.annotations?.[k], 'boolean', `${t.name} ${k}`);
  }
});

test('memory_write commits a file in the on-disk format with origin, 0700 dir and 0600 file', async () => {
  const r = await write('The widgets service reads its settings from `config/app.toml` at startup.', ['projects:widgets', 'config'], { confidence: 'high' });
  assert.match(r.id, /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
  assert.deepEqual(r.scopes, ['projects:widgets', 'config']);
  assert.equal(mode(store), 0o700);
  assert.equal(mode(r.file), 0o600);
  const name = r.file.split('/').pop();
  assert.match(name, new RegExp(`^\\d{4}-\\d{2}-\\d{2}-the-widgets-service-reads-its-settings-${r.id.slice(-6).toLowerCase()}\\.md$`));
  const text = readFileSync(r.file, 'utf8');
  assert.match(text, /^---\nschema_version: 1\n/);
  assert.match(text, new RegExp(`\nid: ${r.id}\n`));
  assert.match(text, /\nscopes: \[projects:widgets, config\]\n/);
  assert.match(text, /\nconfidence: high\n/);
  assert.match(text, /\nlast_verified_at: null\n/);
  assert.match(text, /\n {2}repo: https:\/\/github.com\/acme\/widgets.git\n/);
  assert.match(text, /\n {2}branch: main\n/);
  assert.ok(text.includes(`worktree_root: ${repo}`) || text.includes(`worktree_root: "${repo}"`));
  assert.match(text, /\n---\nThe widgets service reads/);
  // no temp files left behind
  assert.deepEqual(readdirSync(store).filter((n) => n.endsWith('.tmp')), []);
});

test('memory_write validation names every bad argument and writes nothing', async () => {
  const before = readdirSync(store).sort();
  assert.equal(await s.fail('memory_write', { content: '   ', scopes: ['tools'] }), 'content is empty: write the fact to remember');
  assert.match(await s.fail('memory_write', { content: 'x', scopes: [] }), /scopes must list at least one scope/);
  assert.equal(await s.fail('memory_write', { content: 'x', scopes: ['Tools'] }), 'scopes[0] "Tools" is not lowercase: use "tools"');
  assert.match(await s.fail('memory_write', { content: 'x', scopes: ['my tools'] }), /scopes\[0\] "my tools" is not a valid scope .*use "my-tools"/);
  const both = await s.fail('memory_write', { content: '', scopes: ['Bad Scope!'] });
  assert.match(both, /content is empty/);
  assert.match(both, /scopes\[0\]/);
  assert.match(await s.fail('memory_write', { content: 'x', scopes: ['tools'], expires: '2001-01-01' }), /expires "2001-01-01" is in the past/);
  assert.match(await s.fail('memory_write', { content: 'x', scopes: ['tools'], expires: 'next week' }), /expires must be an ISO 8601 date/);
  assert.match(await s.fail('memory_write', { content: 'x'.repeat(20001), scopes: ['tools'] }), /content is 20001 characters, over the limit of 20000/);
  assert.match(await s.fail('memory_write', { content: 5, scopes: ['tools'] }), /^content: expected string, got a number$/);
  assert.match(await s.fail('memory_write', { content: 'x', scopes: ['tools'], confidence: 'very' }), /confidence/);
  assert.match(await s.fail('memory_write', { content: 'x', scope: ['tools'] }), /^scopes: expected array, but it is missing; unknown argument "scope" for memory_write: it takes content, scopes, confidence, source, category, expires, aliases, force, acknowledge_transient, store$/);
  assert.deepEqual(readdirSync(store).sort(), before);
});

test('memory_show: one id, several ids, and the four distinct id errors', async () => {
  const a = await write('Use pnpm, not npm, in the widgets monorepo.');
  const b = await write('The widgets CI runs on self-hosted runners labelled gpu-large.');
  const one = await s.call('memory_show', { id: a.id });
  assert.equal(one.memories.length, 1);
  const m = one.memories[0];
  assert.equal(m.body, 'Use pnpm, not npm, in the widgets monorepo.');
  assert.equal(m.source, 'explicit-statement');
  assert.equal(m.origin.repo, 'https://github.com/acme/widgets.git');
  assert.equal(m.verification.status, 'never');
  assert.equal(m.staleness_verdict, 'spot_check_required');
  assert.ok(m.path_drift, 'show carries path_drift detail');
  // lowercase ids are accepted
  assert.equal((await s.call('memory_show', { id: a.id.toLowerCase() })).memories[0].id, a.id);
  const many = await s.call('memory_show', { ids: [a.id, b.id, '01JQ3Z8V7M2K4T6Y9B1C3D5F7H'] });
  assert.deepEqual(many.memories.map((x: { id: string }) => x.id), [a.id, b.id]);
  assert.deepEqual(many.missing, [{ id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H', reason: 'no memory with id 01JQ3Z8V7M2K4T6Y9B1C3D5F7H' }]);

  const malformed = await s.fail('memory_show', { id: '../../etc/passwd' });
  assert.match(malformed, /is not a memory id: ids are 26-character ULIDs/);
  const unknown = await s.fail('memory_show', { id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H' });
  assert.equal(unknown, 'no memory with id 01JQ3Z8V7M2K4T6Y9B1C3D5F7H');
  await s.call('memory_remove', { id: b.id, reason: 'runners were replaced' });
  const tomb = await s.fail('memory_show', { id: b.id });
  assert.match(tomb, /was removed on \d{4}-\d{2}-\d{2} \(reason: "runners were replaced"\)/);
  assert.notEqual(new Set([malformed, unknown, tomb]).size, 2);
  assert.match(await s.fail('memory_show', {}), /exactly one of id/);
  assert.match(await s.fail('memory_show', { ids: new Array(11).fill(a.id) }), /ids/);
});

test('memory_list pages with a cursor, newest first, summaries only unless asked', async () => {
  const ids = [];
  for (let i = 0; i < 5; i++) ids.push((await write(`Paging fact number ${i}. It has a second sentence.`, ['paging'])).id);
  const p1 = await s.call('memory_list', { scopes: ['paging'], limit: 2 });
  assert.deepEqual(p1.items.map((x: { id: string }) => x.id), [ids[4], ids[3]]);
  assert.equal(p1.items[0].summary, 'Paging fact number 4.');
  assert.equal(p1.items[0].body, undefined);
  const p2 = await s.call('memory_list', { scopes: ['paging'], limit: 2, cursor: p1.next_cursor });
  assert.deepEqual(p2.items.map((x: { id: string }) => x.id), [ids[2], ids[1]]);
  const p3 = await s.call('memory_list', { scopes: ['paging'], limit: 2, cursor: p2.next_cursor, with_bodies: true });
  assert.deepEqual(p3.items.map((x: { id: string }) => x.id), [ids[0]]);
  assert.equal(p3.next_cursor, null);
  assert.equal(p3.items[0].body, 'Paging fact number 0. It has a second sentence.');
  assert.match(await s.fail('memory_list', { cursor: 'garbage' }), /cursor "garbage" was not issued by this server/);
  // prefix nesting and globs
  await write('Nested scope fact.', ['projects:widgets:api']);
  const nested = await s.call('memory_list', { scopes: ['projects:widgets'] });
  assert.ok(nested.items.some((x: { scopes: string[] }) => x.scopes.includes('projects:widgets:api')));
  const glob = await s.call('memory_list', { scopes: ['pag*'] });
  assert.equal(glob.items.length, 5);
});

test('memory_update keeps id/created/source, bumps updated, resets verification on content change; unknown keys survive', async () => {
  const a = await write('The staging database is called widgets_stage.');
  // a hand-added unknown key must survive every write-back byte-for-byte
  const text = readFileSync(a.file, 'utf8');
  const custom = 'x-team-notes:\n  owner: "platform"   # keep me\n  tags: [a, b]';
  writeFileSync(a.file, text.replace('\n---\n', `\n${custom}\n---\n`));
  const v = await s.call('memory_verify', { id: a.id, note: 'checked psql' });
  assert.equal(v.verified, a.id);
  assert.ok(v.last_verified_at);
  assert.equal(v.updated, a.updated, 'verify does not bump updated');
  const shown = (await s.call('memory_show', { id: a.id })).memories[0];
  assert.equal(shown.verification.status, 'fresh');

  await new Promise((r) => setTimeout(r, 5));
  const u = await s.call('memory_update', { id: a.id, confidence: 'high' });
  assert.equal(u.id, a.id);
  assert.equal(u.created, a.created);
  assert.equal(u.source, 'explicit-statement');
  assert.ok(u.updated > a.updated);
  assert.equal(u.last_verified_at, v.last_verified_at, 'no content change keeps verification');
  const u2 = await s.call('memory_update', { id: a.id, content: 'The staging database is called widgets_staging.', scopes: ['projects:widgets', 'db'] });
  assert.equal(u2.last_verified_at, null, 'a content change resets verification');
  assert.deepEqual(u2.scopes, ['projects:widgets', 'db']);
  const after = readFileSync(u2.file, 'utf8');
  assert.ok(after.includes(custom), 'unknown frontmatter block preserved byte-for-byte');
  assert.match(after, /widgets_staging\.\n$/);
  assert.match(await s.fail('memory_update', { id: a.id }), /at least one of content, scopes, confidence, expires or aliases/);
  assert.match(await s.fail('memory_update', { id: a.id, scopes: ['Nope'] }), /not lowercase/);
  assert.equal(await s.fail('memory_update', { id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H', content: 'x' }), 'no memory with id 01JQ3Z8V7M2K4T6Y9B1C3D5F7H');
  assert.match(await s.fail('memory_verify', { id: 'abc' }), /is not a memory id/);
});

test('memory_remove tombstones with reason and session; memory_restore brings it back intact', async () => {
  const a = await write('Releases are cut from the release/* branches.');
  await s.call('memory_verify', { id: a.id });
  const before = (await s.call('memory_show', { id: a.id })).memories[0];
  assert.match(await s.fail('memory_remove', { id: a.id, reason: '  ' }), /reason is empty/);
  assert.match(await s.fail('memory_remove', { id: a.id }), /reason/);
  const r = await s.call('memory_remove', { id: a.id, reason: 'we release from main now' });
  assert.equal(r.removed, a.id);
  assert.ok(r.tombstone.startsWith(join(store, '.tombstones')));
  assert.ok(!existsSync(a.file));
  assert.equal(mode(r.tombstone), 0o600);
  const t = readFileSync(r.tombstone, 'utf8');
  assert.match(t, /\nremoved: \d{4}-\d{2}-\d{2}T[\d:.]+Z\n/);
  assert.match(t, /\nremoved_reason: "we release from main now"\n/);
  assert.match(t, /\nremoved_session: [0-7][0-9A-Z]{25}\n/);
  assert.match(t, /Releases are cut from the release\/\* branches\./);
  assert.match(await s.fail('memory_remove', { id: a.id, reason: 'again' }), /was removed on/);
  assert.match(await s.fail('memory_update', { id: a.id, content: 'x' }), /was removed on .*we release from main now/);

  const tombs = await s.call('memory_list_tombstones', {});
  const row = tombs.items.find((x: { id: string }) => x.id === a.id);
  assert.equal(row.removed_reason, 'we release from main now');
  assert.ok(row.removed);
  const list = await s.call('memory_list', { limit: 200 });
  assert.ok(!list.items.some((x: { id: string }) => x.id === a.id), 'removed memories leave list');

  const back = await s.call('memory_restore', { id: a.id });
  assert.equal(back.status, 'committed');
  assert.equal(back.created, before.created);
  assert.equal(back.updated, before.updated);
  assert.equal(back.last_verified_at, before.last_verified_at);
  assert.ok(!existsSync(r.tombstone));
  const restored = readFileSync(back.file, 'utf8');
  assert.doesNotMatch(restored, /removed/);
  assert.match(await s.fail('memory_restore', { id: a.id }), /is not removed/);
  assert.equal(await s.fail('memory_restore', { id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H' }), 'no removed memory with id 01JQ3Z8V7M2K4T6Y9B1C3D5F7H');
});

test('memory_scope_overview: counts per scope for the caller repo, no bodies', async () => {
  const ov = await s.call('memory_scope_overview', {});
  assert.equal(ov.current_repo, 'https://github.com/acme/widgets.git');
  assert.ok(ov.total > 0);
  assert.ok(ov.scopes['projects:widgets'] > 0);
  assert.deepEqual(ov.disabled_scopes, []);
  for (const k of ['stale', 'never_verified', 'drifted', 'expired', 'dead']) assert.equal(typeof ov.curation_pending[k], 'number');
  assert.ok(!JSON.stringify(ov).includes('pnpm'), 'no bodies');
});

test('a malformed hand-made file is skipped with a warning and left byte-identical', async () => {
  const bad = join(store, 'broken-by-hand.md');
  const junk = '---\nid: [unclosed\nscopes: tools\n---\nthis file is broken\n';
  writeFileSync(bad, junk);
  const list = await s.call('memory_list', { limit: 200 });
  assert.ok(list.items.length > 0, 'the rest of the store still loads');
  await write('Another fact after the broken file appeared.');
  assert.equal(readFileSync(bad, 'utf8'), junk);
  assert.match(s.stderr(), /skipped .*broken-by-hand\.md: frontmatter is not valid YAML/);
});

test('a hand-made file without an id is a memory, and gets its id on the next write-back', async () => {
  const f = join(store, 'my-note.md');
  writeFileSync(f, '---\nscopes: [notes]\ncreated: 2026-01-02T03:04:05.000Z\n---\nHand written note about tmux prefix C-a.\n');
  const list = await s.call('memory_list', { scopes: ['notes'] });
  assert.equal(list.items.length, 1);
  const id = list.items[0].id;
  assert.equal(list.items[0].summary, 'Hand written note about tmux prefix C-a.');
  await s.call('memory_verify', { id });
  assert.match(readFileSync(f, 'utf8'), new RegExp(`\nid: ${id}\n`));
  assert.equal((await s.call('memory_list', { scopes: ['notes'] })).items[0].id, id, 'same id after write-back');
});
