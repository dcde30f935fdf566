// The write gates through the core facade on a real temp store and a real git repo: gate order,
// every status, force / acknowledge_transient, the event-log fields, and the update secret check.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Cairn } from '../../src/core/cairn.ts';
import { readEvents } from '../../src/core/curation/events.ts';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { positiveFixtures } from './fakeSecrets.ts';

const PNPM = 'The user prefers pnpm over npm and yarn for every JavaScript and TypeScript project.';
const PNPM_REPHRASED = 'For every JavaScript and TypeScript project the user prefers pnpm over npm and yarn.';
const PNPM_RELATED = 'The user prefers pnpm over npm for JavaScript monorepos with workspaces.'; // 5/10 shared
const LINT = 'Lint with eslint flat config in eslint.config.js and prettier printWidth 100 in the web repo.';

let root: string;
let repo: string;
let c: Cairn;

before(async () => {
  root = tempDir();
  repo = tempRepo();
  c = await Cairn.open({ dir: join(root, 'store'), cwd: repo, env: { HOME: root } });
});
after(async () => {
  await c.close();
  removeDir(root);
  removeDir(repo);
});

const files = () => readdirSync(c.dir).filter((n) => n.endsWith('.md'));
const w = (content: string, extra: Record<string, unknown> = {}) =>
  c.write({ content, scopes: ['tools'], ...extra }) as Promise<Record<string, any>>;

describe('write gates', () => {
  it('commits a clean write', async () => {
    const r = await w(PNPM);
    assert.equal(r.status, 'committed');
    assert.equal(r.related, undefined);
  });

  it('secret_detected first, even when the text is also transient and a duplicate; nothing written', async () => {
    const before = files().length;
    const secret = positiveFixtures().find((f) => f.name === 'github ghp')!;
    const r = await w(`${PNPM} Currently the bot uses ${secret.secret}.`, { force: true, acknowledge_transient: true });
    assert.equal(r.status, 'secret_detected');
    assert.deepEqual(r.findings.map((f: { kind: string }) => f.kind), ['github-token']);
    assert.ok(!JSON.stringify(r).includes(secret.secret));
    assert.equal(files().length, before);
  });

  it('transient_warning before duplicate; acknowledge_transient moves on to the duplicate gate', async () => {
    const text = `${PNPM_REPHRASED} Right now.`;
    const r = await w(text);
    assert.equal(r.status, 'transient_warning');
    assert.deepEqual(r.markers.map((m: { marker: string }) => m.marker), ['right now']);
    assert.match(r.hint, /acknowledge_transient/);
    const r2 = await w(text, { acknowledge_transient: true });
    assert.equal(r2.status, 'duplicate');
  });

  it('duplicate carries the match with id, similarity and snippet', async () => {
    const r = await w(PNPM_REPHRASED);
    assert.equal(r.status, 'duplicate');
    assert.equal(r.matches.length, 1);
    assert.ok(r.matches[0].similarity >= 0.75);
    assert.match(r.matches[0].snippet, /prefers pnpm/);
    assert.match(r.hint, /memory_update/);
  });

  it('related (0.40-0.75) commits and lists the related memory', async () => {
    const r = await w(PNPM_RELATED);
    assert.equal(r.status, 'committed');
    assert.equal(r.related?.length, 1);
    assert.ok(r.related[0].similarity >= 0.4 && r.related[0].similarity < 0.75);
  });

  it('previously_removed carries removed_at and removed_reason', async () => {
    const x = await w(LINT);
    await c.remove({ id: x.id, reason: 'the web repo moved to biome' });
    const r = await w(LINT);
    assert.equal(r.status, 'previously_removed');
    assert.equal(r.matches[0].id, x.id);
    assert.equal(r.matches[0].removed_reason, 'the web repo moved to biome');
    assert.match(r.matches[0].removed_at, /^\d{4}-\d{2}-\d{2}T/);
    assert.match(r.hint, /biome/);
  });

  it('an active high match wins over a tombstone match', async () => {
    const a = await w('Deploys run from the release branch through the deploy workflow on tags only.');
    await c.remove({ id: a.id, reason: 'replaced' });
    const b = await w('Deploys run from the release branch through the deploy workflow on tags only.', { force: true });
    assert.equal(b.status, 'committed');
    const r = await w('Deploys run from the release branch through the deploy workflow on tags only.');
    assert.equal(r.status, 'duplicate');
    assert.equal(r.matches[0].id, b.id);
  });

  it('force skips the duplicate and tombstone gates (and reports the match as related), not secrets or durability', async () => {
    const r = await w(PNPM_REPHRASED, { force: true });
    assert.equal(r.status, 'committed');
    assert.ok(r.related.some((m: { similarity: number }) => m.similarity >= 0.75));
    const t = await w(LINT, { force: true });
    assert.equal(t.status, 'committed');
    assert.equal((await w('Yesterday the deploy key rotated.', { force: true })).status, 'transient_warning');
  });

  it('user-inference always goes pending, even with force', async () => {
    const r = await w('The user likes terse answers with code first.', { category: 'user-inference', force: true });
    assert.equal(r.status, 'pending');
    assert.equal(r.pending_reason, 'user-inference');
    assert.match(r.pending_id, /^p_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(r.preview.content, 'The user likes terse answers with code first.');
    assert.ok(Date.parse(r.expires_at) > Date.now());
    assert.ok(!files().some((f) => readFileSync(join(c.dir, f), 'utf8').includes('terse answers')));
  });

  it('records markers and acknowledge_transient on write events (per-marker override rates)', () => {
    const writes = readEvents(c.dir).events.filter((e) => e.kind === 'write' && Array.isArray(e.markers));
    assert.ok(writes.some((e) => e.status === 'transient_warning' && e.acknowledge_transient === false));
    assert.ok(writes.some((e) => e.status === 'duplicate' && e.acknowledge_transient === true && (e.markers as string[]).includes('right now')));
    const secrets = readEvents(c.dir).events.filter((e) => e.status === 'secret_detected');
    assert.deepEqual(secrets.map((e) => e.secret_kinds), [['github-token']]);
    assert.ok(!JSON.stringify(secrets).includes('ghp_'), 'no secret material in the log');
  });
});

describe('require_write_confirmation', () => {
  it('sends every write pending', async () => {
    const dir = join(root, 'confirm-store');
    mkdirSync(dir);
    writeFileSync(join(dir, 'config.toml'), '[behavior]\nrequire_write_confirmation = true\n');
    const c3 = await Cairn.open({ dir, cwd: repo, env: { HOME: root } });
    try {
      const r = (await c3.write({ content: 'Builds use node 20 everywhere.', scopes: ['tools'] })) as Record<string, any>;
      assert.equal(r.status, 'pending');
      assert.equal(r.pending_reason, 'require_write_confirmation');
    } finally {
      await c3.close();
    }
  });
});

describe('memory_update secret check', () => {
  it('refuses new content holding a secret and changes nothing', async () => {
    const x = await w('The staging database is reached through the bastion host.');
    const before = readFileSync(x.file, 'utf8');
    const secret = positiveFixtures().find((f) => f.name === 'url password')!;
    await assert.rejects(c.update({ id: x.id, content: secret.text }), (err: Error) => {
      assert.equal(err.name, 'ValidationError');
      assert.match(err.message, /url-password/);
      assert.ok(!err.message.includes(secret.secret));
      return true;
    });
    assert.equal(readFileSync(x.file, 'utf8'), before);
  });
});
