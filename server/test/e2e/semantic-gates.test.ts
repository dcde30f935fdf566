// End to end through the built bundle with the built-in embedder: the write gates catch a fact
// written again in other words (inflected words, "1st" for "first"), as a duplicate of an active
// memory and as previously removed, and still commit a distinct note on the same topic.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, type Session } from '../helpers/mcp.ts';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';

let root: string;
let repo: string;
let s: Session;

const INVOICES = 'The billing service sends invoices as PDF attachments by email on the first day of each month';
const INVOICES_REWORDED = 'On the 1st of every month, billing emails customers their invoice as an attached PDF';
const LARK = 'Lark API responses are cached in Redis for five minutes';
const LARK_REWORDED = 'The Lark API caches its responses in Redis with a five minute TTL';

const OTHERS = [
  'Postgres backups run nightly with pg_dump and are kept for thirty days in S3.',
  'Deploys to staging happen on merge to main; production needs a manual approval.',
  'Card payments that fail are retried three times over one week before the subscription is paused.',
  'Refunds are issued by the billing service to the original card within five business days.',
];

before(async () => {
  root = tempDir();
  repo = tempRepo('https://github.com/acme/billing.git');
  s = await startServer({ store: join(root, 'store'), cwd: repo });
  for (const content of OTHERS) assert.equal((await s.call('memory_write', { content, scopes: ['billing'] })).status, 'committed');
});
after(async () => {
  await s.close();
  removeDir(root);
  removeDir(repo);
});

test('a removed fact written again in other words is previously_removed, with the reason', async () => {
  const w = await s.call('memory_write', { content: INVOICES, scopes: ['billing'] });
  assert.equal(w.status, 'committed', JSON.stringify(w));
  await s.call('memory_remove', { id: w.id, reason: 'invoices moved to the customer portal' });
  const again = await s.call('memory_write', { content: INVOICES_REWORDED, scopes: ['billing'] });
  assert.equal(again.status, 'previously_removed', JSON.stringify(again));
  assert.equal(again.matches[0].id, w.id);
  assert.equal(again.matches[0].removed_reason, 'invoices moved to the customer portal');
  assert.ok(again.matches[0].semantic >= 0.6, JSON.stringify(again.matches[0]));
  // force writes it anyway; the removed one is not listed as related (it is not active).
  const forced = await s.call('memory_write', { content: INVOICES_REWORDED, scopes: ['billing'], force: true });
  assert.equal(forced.status, 'committed');
  await s.call('memory_remove', { id: forced.id, reason: 'cleanup' });
});

test('a second removed rewording: the cache TTL in other words', async () => {
  const w = await s.call('memory_write', { content: LARK, scopes: ['lark'] });
  assert.equal(w.status, 'committed', JSON.stringify(w));
  await s.call('memory_remove', { id: w.id, reason: 'the cache was dropped' });
  const again = await s.call('memory_write', { content: LARK_REWORDED, scopes: ['lark'] });
  assert.equal(again.status, 'previously_removed', JSON.stringify(again));
  assert.equal(again.matches[0].id, w.id);
});

test('an active fact written again in other words is a duplicate; with force it is committed and listed as related', async () => {
  const w = await s.call('memory_write', { content: INVOICES, scopes: ['invoices'], force: true });
  assert.equal(w.status, 'committed', JSON.stringify(w));
  const dup = await s.call('memory_write', { content: INVOICES_REWORDED, scopes: ['invoices'] });
  assert.equal(dup.status, 'duplicate', JSON.stringify(dup));
  assert.equal(dup.matches[0].id, w.id);
  assert.match(dup.hint, /memory_update/);
  const forced = await s.call('memory_write', { content: INVOICES_REWORDED, scopes: ['invoices'], force: true });
  assert.equal(forced.status, 'committed');
  assert.ok(forced.related?.some((r: { id: string }) => r.id === w.id), JSON.stringify(forced));
});

test('a distinct note on the same topic commits: other facts, other numbers', async () => {
  const distinct = [
    'The billing service emails a payment receipt right after each successful card charge.',
    'Failed card payments are retried four times over one week before the subscription is paused.',
    'Lark webhooks are queued in Redis and processed by the worker within one minute.',
  ];
  for (const content of distinct) {
    const r = await s.call('memory_write', { content, scopes: ['billing'] });
    assert.equal(r.status, 'committed', `${content}: ${JSON.stringify(r)}`);
  }
});
