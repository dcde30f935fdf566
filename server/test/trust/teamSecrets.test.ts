// The team store's stricter secret rules (trust/gates/teamSecrets.ts): what they refuse beyond the
// personal gate, and the ordinary project notes they must let through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectTeamSecrets } from '../../src/core/trust/gates/teamSecrets.ts';
import { detectSecrets } from '../../src/core/trust/gates/secrets.ts';

const kinds = (t: string) => detectTeamSecrets(t).map((f) => f.kind);

test('refused from the team store: private hosts with credential words, email with a stated password, bare random tokens', () => {
  assert.deepEqual(kinds('The staging db on 192.168.4.20 uses the login deploy with the password in the vault'), ['private-host-credential']);
  assert.deepEqual(kinds('metrics.corp needs a token from the ops page'), ['private-host-credential']);
  assert.deepEqual(kinds('The shared test account is qa@example.com with password is Spring2026x'), ['email-password']);
  assert.deepEqual(kinds('The webhook signing value is Zq8vR2mK9xLp4Tn7 for the staging hook'), ['high-entropy-token']);
  for (const t of ['The staging db on 192.168.4.20 uses the login deploy with the password in the vault', 'The webhook signing value is Zq8vR2mK9xLp4Tn7 for the staging hook']) {
    assert.deepEqual(detectSecrets(t), [], 'the personal gate lets these through: the team rules are the stricter ones');
  }
  for (const f of detectTeamSecrets('The webhook signing value is Zq8vR2mK9xLp4Tn7')) assert.doesNotMatch(f.snippet, /Zq8vR2mK9xLp4Tn7/, 'the value never appears in the answer');
});

test('let through: ids, hashes, identifiers, versions, paths, private hosts without credential words, prose about passwords', () => {
  for (const t of [
    'Memory 01M85A9EFEXVDACKS6T88K3HAT supersedes the old note; commit 3f2a9c1b7e5d4a6f8b0c1d2e3f4a5b6c7d8e9f01 fixed it',
    'The request id looks like 123e4567-e89b-12d3-a456-426614174000 in the logs',
    'Call handleRequestV2Async from src/server/api.ts; build with node scripts/build-v2-release.mjs for 1.2.3-beta.4',
    'The build cache server is at 10.0.0.12 on port 8080 and serves artifacts read-only',
    'Passwords are rotated every 90 days; ask ops@example.com where the current one is kept',
    'Use the kebab-case flag names like enable-new-checkout-v2 and team-payments-2026-q3',
  ]) assert.deepEqual(kinds(t), [], t);
});
