// The secret kinds and shapes added to the gate (registry and SaaS tokens, passwords on command
// lines and in prose, every common DSN scheme), the placeholder decisions, the measured rates on
// the positive set and on the ordinary-notes corpus, and file names that never repeat a secret.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileNameFor } from '../../src/core/store/memfile.ts';
import { detectSecrets, secretSpans, withoutSecrets } from '../../src/core/trust/gates/secrets.ts';
import { morePositiveFixtures, positiveFixtures, randomString } from './fakeSecrets.ts';

function corpus(): string[] {
  const text = readFileSync(new URL('./fixtures/ordinary-notes.md', import.meta.url), 'utf8');
  return text.split(/\n====\n/).slice(1).map((n) => n.trim()).filter((n) => n !== '');
}

describe('secret detection: registry and SaaS tokens, passwords, DSNs', () => {
  for (const f of morePositiveFixtures()) {
    it(`finds ${f.kind} (${f.name}) and masks it`, () => {
      const found = detectSecrets(f.text);
      assert.ok(found.length >= 1, `no finding for ${f.name}`);
      assert.equal(found[0]!.kind, f.kind);
      for (const x of found) {
        assert.ok(!x.snippet.includes(f.secret), `snippet reveals the secret: ${x.snippet}`);
        assert.match(x.snippet, /\*{8}/);
      }
    });
  }

  it('prints and asserts the rates: every positive found, no ordinary note flagged', () => {
    const positives = [...positiveFixtures(), ...morePositiveFixtures()];
    const detected = positives.filter((f) => detectSecrets(f.text).some((x) => x.kind === f.kind)).length;
    const notes = corpus();
    const flagged = notes.filter((n) => detectSecrets(n).length > 0).length;
    console.log(`secret gate: detected ${detected}/${positives.length} positives; false positives ${flagged}/${notes.length} ordinary notes`);
    assert.equal(detected, positives.length);
    assert.equal(flagged, 0);
    assert.ok(notes.length >= 220, `corpus has only ${notes.length} notes`);
  });

  const clean: [string, string][] = [
    // Placeholders and variables are never secrets, in any shape.
    ['changeme is a placeholder', 'the default password is changeme until first login'],
    ['template DSN', 'postgres://app:<password>@db/app'],
    ['variable after -p', 'mysql -u root -p"$MYSQL_PWD" shop'],
    ['bare -p prompts', 'mysql -u root -p shop'],
    ['-p of other tools', 'mkdir -p out && ssh -p 2222 host && pytest -p no:cacheprovider'],
    ['--password-stdin', 'docker login --password-stdin < token.txt'],
    ['--password with a word', 'pass --password only when scripting'],
    ['--password with a variable', 'tool --password "$ADMIN_PASSWORD"'],
    ['prose about the password', 'the password is stored in 1Password and rotated every 90 days'],
    ['prose vault', 'pw: 1Password entry "grafana"'],
    // A weak password named as an example of what a check rejects is not a stated password.
    ['password123 as an example', 'the weak-password check rejects password123 and qwerty'],
    ['hf_ identifier', 'call hf_hub_download(repo_id, filename) with the cache dir set'],
    ['AccountKey placeholder', 'AccountKey=<key> in the template'],
    ['sig without SAS fields', 'the sig=abcdefghijklmnopqrstuvwxyz123456 field of our own webhook'],
    ['twilio words only', 'the Twilio auth token lives in Vault'],
    ['twilio account sid alone', 'Twilio account SID AC7f3e9a1c2b8d4f6e0a5c9b7d3e1f2a4c is the EU subaccount; the auth token is in SSM'],
  ];
  for (const [name, text] of clean) {
    it(`no finding: ${name}`, () => assert.deepEqual(detectSecrets(text), []));
  }

  it('a password stated as a value is found even when it is weak (password123)', () => {
    assert.equal(detectSecrets('the test admin password is password123')[0]?.kind, 'password-prose');
  });
});

describe('file names never repeat a secret', () => {
  const rec = (body: string) => ({ id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H', created: '2026-03-14T10:23:00.000Z', body });
  const windows = (secret: string) => {
    const s = secret.toLowerCase().replace(/[^a-z0-9]+/g, '');
    return Array.from({ length: Math.max(0, s.length - 5) }, (_, i) => s.slice(i, i + 6));
  };

  for (const f of [...positiveFixtures(), ...morePositiveFixtures()]) {
    it(`slug of a body holding ${f.name}`, () => {
      const name = fileNameFor(rec(`${f.text} is what the deploy uses`), withoutSecrets);
      const slug = name.slice(11, -10);
      for (const w of windows(f.secret)) assert.ok(!slug.includes(w), `${name} repeats ${w} of the secret`);
    });
  }

  it('keeps the words around the secret', () => {
    const tok = ['gh', 'p_', randomString('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 36, 7)].join('');
    assert.equal(fileNameFor(rec(`${tok} is the release bot token`), withoutSecrets), '2026-03-14-is-the-release-bot-token-3d5f7h.md');
  });

  it('withoutSecrets blanks exactly the flagged spans', () => {
    const fx = morePositiveFixtures().find((f) => f.name === 'postgres dsn')!;
    const spans = secretSpans(fx.text);
    assert.equal(spans.length, 1);
    assert.equal(fx.text.slice(spans[0]!.start, spans[0]!.end), fx.secret);
    assert.equal(withoutSecrets(fx.text), fx.text.replace(fx.secret, ' '));
    assert.equal(withoutSecrets('nothing secret here'), 'nothing secret here');
  });
});
