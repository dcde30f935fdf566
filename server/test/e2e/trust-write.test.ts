// Every memory_write status end to end: the built bundle over stdio, in a real git repo, with
// pending writes confirmed and cancelled (also from a second server process on the same store).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { startServer, type Session } from '../helpers/mcp.ts';
import { positiveFixtures } from '../trust/fakeSecrets.ts';

let root: string;
let store: string;
let repo: string;
let s: Session;

before(async () => {
  root = tempDir();
  store = join(root, 'store');
  repo = tempRepo();
  s = await startServer({ store, cwd: repo });
});
after(async () => {
  await s.close();
  removeDir(root);
  removeDir(repo);
});

const memoryFiles = () => readdirSync(store).filter((n) => n.endsWith('.md'));
const write = (content: string, extra: Record<string, unknown> = {}) => s.call('memory_write', { content, scopes: ['tools'], ...extra });

const FACT = 'Integration tests for the widgets API run against a disposable postgres container started by docker compose.';
const REPHRASED = 'The widgets API integration tests run against a disposable postgres container that docker compose starts.';
const RELATED = 'Unit tests for the widgets API mock nothing and run without the postgres container.';

let factId: string;

test('committed', async () => {
  const r = await write(FACT);
  assert.equal(r.status, 'committed');
  assert.match(r.id, /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
  factId = r.id;
});

test('secret_detected: masked findings, nothing written, force and acknowledge do not help', async () => {
  const before = memoryFiles().length;
  const fx = positiveFixtures();
  const aws = fx.find((f) => f.name === 'aws akia')!;
  const url = fx.find((f) => f.name === 'url password')!;
  const r = await write(`CI creds: ${aws.text} and ${url.text}`, { force: true, acknowledge_transient: true });
  assert.equal(r.status, 'secret_detected');
  assert.deepEqual(r.findings.map((f: { kind: string }) => f.kind).sort(), ['aws-access-key-id', 'url-password']);
  const text = JSON.stringify(r);
  assert.ok(!text.includes(aws.secret) && !text.includes(url.secret), text);
  assert.match(r.hint, /no override/i);
  assert.equal(memoryFiles().length, before);
});

test('transient_warning, then acknowledged', async () => {
  const r = await write('The staging cluster currently runs Kubernetes 1.29, upgraded this week.');
  assert.equal(r.status, 'transient_warning');
  assert.deepEqual(r.markers.map((m: { marker: string }) => m.marker), ['currently', 'this week']);
  assert.match(r.markers[0].snippet, /currently runs/);
  const ok = await write('The staging cluster currently runs Kubernetes 1.29, upgraded this week.', { acknowledge_transient: true });
  assert.equal(ok.status, 'committed');
});

test('duplicate', async () => {
  const r = await write(REPHRASED);
  assert.equal(r.status, 'duplicate');
  assert.equal(r.matches[0].id, factId);
  assert.ok(r.matches[0].similarity >= 0.75);
  assert.equal(typeof r.matches[0].snippet, 'string');
});

test('committed with related', async () => {
  const r = await write(RELATED);
  assert.equal(r.status, 'committed');
  assert.equal(r.related[0].id, factId);
  assert.ok(r.related[0].similarity >= 0.4 && r.related[0].similarity < 0.75);
});

test('previously_removed, and force writes anyway', async () => {
  const text = 'Release notes are drafted in docs/releases with one markdown file per minor version.';
  const w = await write(text);
  await s.call('memory_remove', { id: w.id, reason: 'release notes moved to GitHub releases' });
  const r = await write(text);
  assert.equal(r.status, 'previously_removed');
  assert.equal(r.matches[0].id, w.id);
  assert.equal(r.matches[0].removed_reason, 'release notes moved to GitHub releases');
  assert.ok(r.matches[0].removed_at);
  assert.equal((await write(text, { force: true })).status, 'committed');
});

test('pending (user-inference) -> confirm -> committed; confirm again is an error', async () => {
  const r = await write('The user prefers reviewing one commit at a time.', { category: 'user-inference' });
  assert.equal(r.status, 'pending');
  assert.equal(r.pending_reason, 'user-inference');
  assert.equal(r.preview.content, 'The user prefers reviewing one commit at a time.');
  const c = await s.call('memory_write_confirm', { pending_id: r.pending_id });
  assert.equal(c.status, 'committed');
  assert.equal(c.category, 'user-inference');
  assert.match(await s.fail('memory_write_confirm', { pending_id: r.pending_id }), /no pending write with id/);
});

test('pending -> cancel', async () => {
  const r = await write('The user wants answers in British English.', { category: 'user-inference' });
  assert.deepEqual(await s.call('memory_write_cancel', { pending_id: r.pending_id }), { cancelled: true, existed: true });
  assert.deepEqual(await s.call('memory_write_cancel', { pending_id: r.pending_id }), { cancelled: true, existed: false });
});

test('pending ids: expired, unknown and malformed are three different errors', async () => {
  const r = await write('The user keeps a changelog for every side project.', { category: 'user-inference' });
  // Expire it on disk (the pending store is plain files; no waiting in tests).
  const file = join(store, '.pending', `${r.pending_id}.json`);
  const entry = JSON.parse(readFileSync(file, 'utf8'));
  entry.expires_at = new Date(Date.now() - 60_000).toISOString();
  writeFileSync(file, JSON.stringify(entry));
  const expired = await s.fail('memory_write_confirm', { pending_id: r.pending_id });
  const unknown = await s.fail('memory_write_confirm', { pending_id: 'p_01JQ3Z8V7M2K4T6Y9B1C3D5F7H' });
  const malformed = await s.fail('memory_write_confirm', { pending_id: 'not-a-pending-id' });
  assert.match(expired, /expired at/);
  assert.match(unknown, /no pending write with id p_01JQ3Z8V7M2K4T6Y9B1C3D5F7H/);
  assert.match(malformed, /is not a pending write id/);
  assert.equal(new Set([expired, unknown, malformed]).size, 3);
});

test('a pending write can be confirmed from another server process on the same store', async () => {
  const r = await write('The user runs every command through a justfile.', { category: 'user-inference' });
  const other = await startServer({ store, cwd: repo });
  try {
    const c = await other.call('memory_write_confirm', { pending_id: r.pending_id });
    assert.equal(c.status, 'committed');
  } finally {
    await other.close();
  }
  const [m] = (await s.call('memory_show', { id: (await s.call('memory_list', { scopes: ['tools'], limit: 1 })).items[0].id })).memories;
  assert.equal(m.body, 'The user runs every command through a justfile.');
});

test('require_write_confirmation sends every write pending', async () => {
  const dir = join(root, 'strict-store');
  const first = await startServer({ store: dir, cwd: repo });
  await first.call('memory_write', { content: 'Seed fact so the store directory exists.', scopes: ['tools'] });
  await first.close();
  writeFileSync(join(dir, 'config.toml'), '[behavior]\nrequire_write_confirmation = true\n');
  const strict = await startServer({ store: dir, cwd: repo });
  try {
    const r = await strict.call('memory_write', { content: 'The CI cache key includes the lockfile hash.', scopes: ['tools'] });
    assert.equal(r.status, 'pending');
    assert.equal(r.pending_reason, 'require_write_confirmation');
    assert.equal((await strict.call('memory_write_confirm', { pending_id: r.pending_id })).status, 'committed');
  } finally {
    await strict.close();
  }
});

test('memory_update refuses content with a secret', async () => {
  const jwt = positiveFixtures().find((f) => f.name === 'jwt')!;
  const msg = await s.fail('memory_update', { id: factId, content: `Use ${jwt.secret} for the integration tests.` });
  assert.match(msg, /jwt/);
  assert.ok(!msg.includes(jwt.secret));
  const [m] = (await s.call('memory_show', { id: factId })).memories;
  assert.equal(m.body, FACT);
});
