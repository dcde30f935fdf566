// Elicitation of pending writes through the built bundle over stdio with the SDK client: a claim
// about the user is put to a client that declared elicitation as a form and the answer is acted
// on (confirm, edit, discard); a declined, dismissed or timed-out form, the switch off, or a
// client without elicitation all leave the pending write exactly as memory_write always left it.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { readEventLogs } from '../helpers/disk.ts';
import { session } from './session.ts';

let root: string;
let repo: string;
let n = 0;

before(() => {
  root = tempDir('cairn-mcp-elicit-');
  repo = tempRepo('git@github.com:acme/widgets.git');
});
after(() => {
  removeDir(root);
  removeDir(repo);
});

const ELICIT = { elicitation: { form: {} } };
const PENDING_KEYS = ['expires_at', 'hint', 'pending_id', 'pending_reason', 'preview', 'status'];

function freshStore(config?: string): string {
  const store = join(root, `store-${n++}`);
  if (config !== undefined) {
    mkdirSync(store, { recursive: true, mode: 0o700 });
    writeFileSync(join(store, 'config.toml'), config);
  }
  return store;
}
function pendingFiles(store: string): string[] {
  const dir = join(store, '.pending');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
}

const CLAIM = { content: 'The user prefers short answers without preamble.', scopes: ['user'], category: 'user-inference' };

test('confirm: the form shows the claim and its scopes; the claim is committed as memory_write_confirm commits it', async () => {
  const store = freshStore();
  const s = await session({ store, cwd: repo, capabilities: ELICIT });
  s.answer = () => ({ action: 'accept', content: { decision: 'confirm', text: CLAIM.content } });
  const r = await s.call('memory_write', CLAIM);
  assert.equal(s.asked.length, 1);
  assert.match(s.asked[0]!.message, /The user prefers short answers without preamble\./);
  assert.match(s.asked[0]!.message, /Scopes: user/);
  assert.deepEqual(s.asked[0]!.requestedSchema.properties.decision.enum, ['confirm', 'edit', 'discard']);
  assert.equal(s.asked[0]!.requestedSchema.properties.text.default, CLAIM.content);
  assert.equal(r.status, 'committed');
  assert.equal(r.elicitation, 'confirmed');
  assert.equal(r.category, 'user-inference');
  const shown = await s.call('memory_show', { id: r.id });
  assert.equal(shown.memories[0].body, CLAIM.content);
  assert.deepEqual(pendingFiles(store), []);
  const ev = readEventLogs(store).events.find((e) => e.kind === 'write_confirm');
  assert.equal(ev?.id, r.id);
});

test('edit: the user\'s text is committed through the gates; a refused edit keeps the claim pending', async () => {
  const store = freshStore();
  const s = await session({ store, cwd: repo, capabilities: ELICIT });
  const edited = 'The user prefers short answers, with the conclusion first.';
  s.answer = () => ({ action: 'accept', content: { decision: 'edit', text: edited } });
  const r = await s.call('memory_write', CLAIM);
  assert.equal(r.status, 'committed');
  assert.equal(r.elicitation, 'edited');
  assert.equal((await s.call('memory_show', { id: r.id })).memories[0].body, edited);
  assert.deepEqual(pendingFiles(store), []);
  const ev = readEventLogs(store).events.find((e) => e.kind === 'write_confirm');
  assert.equal(ev?.edited, true);
  assert.equal(ev?.id, r.id);

  // Changed text with Confirm is the user's wording too.
  s.answer = () => ({ action: 'accept', content: { decision: 'confirm', text: 'The user writes commit messages in the imperative mood.' } });
  const r2 = await s.call('memory_write', { ...CLAIM, content: 'The user likes imperative commit messages.' });
  assert.equal(r2.elicitation, 'edited');
  assert.equal((await s.call('memory_show', { id: r2.id })).memories[0].body, 'The user writes commit messages in the imperative mood.');

  // An edit that adds a secret: refused by the secret gate, nothing stored, the claim still pending.
  s.answer = () => ({ action: 'accept', content: { decision: 'edit', text: 'The user keeps the token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 handy for deploys.' } });
  const r3 = await s.call('memory_write', { ...CLAIM, content: 'The user deploys on Fridays only after a review.' });
  assert.equal(r3.status, 'secret_detected');
  assert.equal(r3.elicitation, 'edit_refused');
  assert.match(r3.hint, /still pending/);
  assert.equal(pendingFiles(store).length, 1);
  const c = await s.call('memory_write_confirm', { pending_id: r3.pending_id });
  assert.equal((await s.call('memory_show', { id: c.id })).memories[0].body, 'The user deploys on Fridays only after a review.');
});

test('discard: nothing committed, the pending write is gone, the reason is logged', async () => {
  const store = freshStore();
  const s = await session({ store, cwd: repo, capabilities: ELICIT });
  s.answer = () => ({ action: 'accept', content: { decision: 'discard', reason: 'not true' } });
  const r = await s.call('memory_write', CLAIM);
  assert.equal(r.status, 'discarded');
  assert.equal(r.elicitation, 'discarded');
  assert.deepEqual(pendingFiles(store), []);
  assert.equal((await s.call('memory_list', {})).items.length, 0);
  const ev = readEventLogs(store).events.find((e) => e.kind === 'write_cancel');
  assert.equal(ev?.pending_id, r.pending_id);
  assert.match(String(ev?.reason), /discarded by the user in the confirmation form: not true/);
  assert.equal((await s.raw('memory_write_confirm', { pending_id: r.pending_id })).isError, true);
});

for (const [name, answer] of [
  ['decline', () => ({ action: 'decline' as const })],
  ['cancel', () => ({ action: 'cancel' as const })],
] as const) {
  test(`${name}: the pending result exactly as without a form; nothing committed; confirmable later`, async () => {
    const store = freshStore();
    const s = await session({ store, cwd: repo, capabilities: ELICIT });
    s.answer = answer;
    const r = await s.call('memory_write', CLAIM);
    assert.equal(s.asked.length, 1);
    assert.equal(r.status, 'pending');
    assert.deepEqual(Object.keys(r).sort(), PENDING_KEYS);
    assert.equal((await s.call('memory_list', {})).items.length, 0, 'nothing committed');
    assert.equal(pendingFiles(store).length, 1);
    const c = await s.call('memory_write_confirm', { pending_id: r.pending_id });
    assert.equal(c.status, 'committed');
  });
}

test('timeout: a form the user never answers leaves the write pending', async () => {
  const store = freshStore();
  const s = await session({ store, cwd: repo, capabilities: ELICIT, env: { CAIRN_ELICIT_TIMEOUT_MS: '1000' } });
  s.answer = () => new Promise(() => {});
  const t0 = Date.now();
  const r = await s.call('memory_write', CLAIM);
  assert.ok(Date.now() - t0 >= 900, 'waited for the form');
  assert.equal(s.asked.length, 1);
  assert.equal(r.status, 'pending');
  assert.deepEqual(Object.keys(r).sort(), PENDING_KEYS);
  assert.equal(pendingFiles(store).length, 1);
});

test('no elicitation capability, or elicit_pending = false: no form, today\'s pending result', async () => {
  const plain = await session({ store: freshStore(), cwd: repo });
  const r = await plain.call('memory_write', CLAIM);
  assert.equal(r.status, 'pending');
  assert.deepEqual(Object.keys(r).sort(), PENDING_KEYS);
  assert.match(r.hint, /call memory_write_confirm with pending_id/);

  const off = await session({ store: freshStore('[behavior]\nelicit_pending = false\n'), cwd: repo, capabilities: ELICIT });
  off.answer = () => ({ action: 'accept', content: { decision: 'confirm' } });
  const r2 = await off.call('memory_write', CLAIM);
  assert.equal(off.asked.length, 0, 'the switch off asks nothing');
  assert.equal(r2.status, 'pending');
  assert.deepEqual(Object.keys(r2).sort(), PENDING_KEYS);
  assert.equal(r2.hint, r.hint);

  // A write that does not go pending is never put to the user.
  const on = await session({ store: freshStore(), cwd: repo, capabilities: ELICIT });
  const w = await on.call('memory_write', { content: 'Widgets builds with make all from the repository root.', scopes: ['projects:widgets'] });
  assert.equal(w.status, 'committed');
  assert.equal(w.elicitation, undefined);
  assert.equal(on.asked.length, 0);
});

test('an answer that can no longer be applied (the write was cancelled meanwhile) is an error that says so', async () => {
  const store = freshStore();
  const s = await session({ store, cwd: repo, capabilities: ELICIT });
  s.answer = async () => {
    // While the form is open, the pending write is cancelled through the tool.
    const pending = readdirSync(join(store, '.pending')).find((f) => f.endsWith('.json'))!.replace(/\.json$/, '');
    await s.call('memory_write_cancel', { pending_id: pending });
    return { action: 'accept', content: { decision: 'confirm' } };
  };
  const r = await s.raw('memory_write', CLAIM);
  assert.equal(r.isError, true);
  assert.match((r.content[0] as { text: string }).text, /the user answered cairn's confirmation form \(confirm\) for pending write p_\w+, but it could not be applied: no pending write with id/);
  assert.equal((await s.call('memory_list', {})).items.length, 0);
});
