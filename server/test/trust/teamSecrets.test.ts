// The team store's stricter secret rules (trust/gates/teamSecrets.ts): what they refuse beyond the
// personal gate, and the ordinary project notes they must let through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectTeamSecrets } from '../../src/core/trust/gates/teamSecrets.ts';
import { detectSecrets } from '../../src/core/trust/gates/secrets.ts';

const kinds = (t: string) => detectTeamSecrets(t).map((f) => f.kind);

test('refused from the team store: email with a stated password, bare random tokens; a host and an account with no value pass', () => {
  assert.deepEqual(kinds('The staging db on 192.168.4.20 uses the login deploy with the password in the vault'), [], 'says where the password is, holds none');
  assert.deepEqual(kinds('The shared test account is qa@example.com with password is Spring2026x'), ['stated-credential', 'email-password']);
  assert.deepEqual(kinds('The webhook signing value is Zq8vR2mK9xLp4Tn7 for the staging hook'), ['high-entropy-token']);
  for (const t of ['The webhook signing value is Zq8vR2mK9xLp4Tn7 for the staging hook']) {
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

test('refused from the team store: any value stated after a credential word, whatever its shape, and login pairs', () => {
  for (const [t, kind, value] of [
    ['DB_PASSWORD=mossy-river-lantern-42', 'stated-credential', 'mossy-river-lantern-42'],
    ['password: blue-otter-garden-19', 'stated-credential', 'blue-otter-garden-19'],
    ['Guest wifi password: correcthorsebatterystaple', 'stated-credential', 'correcthorsebatterystaple'],
    ['Jenkins admin / Summer2024! is the staging login', 'login-pair', 'Summer2024!'],
    ['API_SECRET=walnut-harbor-quill', 'stated-credential', 'walnut-harbor-quill'],
    ['client_secret: "amber basalt cedar delta"', 'stated-credential', 'amber basalt cedar delta'],
    ['The admin password for grafana is sunflower', 'stated-credential', 'sunflower'],
    ['ssh to the box with password hunter22', 'stated-credential', 'hunter22'],
    ['The vpn pw: trout-lemon-94', 'stated-credential', 'trout-lemon-94'],
    ['Password was changed to orchard-pepper-2', 'stated-credential', 'orchard-pepper-2'],
    ['pin: 4821 for the door', 'stated-credential', '4821'],
  ] as const) {
    const found = detectTeamSecrets(t);
    assert.deepEqual(found.map((f) => f.kind), [kind], t);
    for (const f of found) assert.ok(!f.snippet.includes(value.slice(1)), `the value never appears in the answer: ${f.snippet}`);
  }
});

test('let through: notes that only say where credentials live, or talk about them', () => {
  for (const t of [
    'The wiki page at wiki.corp explains how to request database credentials.',
    'The staging database runs at 10.0.4.20 and its credentials are stored in Vault.',
    'metrics.corp needs a token from the ops page',
    'The password is stored in 1Password under "staging".',
    'The API token is short-lived and refreshed by the CLI.',
    'password: see the team vault',
    'Token expiry is 3600 seconds.',
    'The secret is mounted at /etc/secrets/db.',
    'DB_PASSWORD is read from the environment.',
    'Set DB_PASSWORD=${DB_PASSWORD} in compose.',
    'token: process.env.API_TOKEN',
    'Check the user/role mapping in docs/auth/roles.md before granting access.',
    'Password policy: minimum 14 characters, rotated quarterly.',
    'The token is valid for 24 hours.',
    'Logins use SSO via Okta; no passwords are stored locally.',
    'Use pwd to print the working directory.',
  ]) assert.deepEqual(kinds(t), [], t);
});
