// The secret gate: every kind fires on a runtime-built example, snippets never carry the secret,
// and a corpus of ordinary developer notes produces no finding at all.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isPlaceholder, mask, shannonEntropy } from '../../src/core/trust/gates/entropy.ts';
import { ASSIGNMENT_MIN_ENTROPY, SECRET_KINDS, detectSecrets, looksLikeSecretValue } from '../../src/core/trust/gates/secrets.ts';
import { morePositiveFixtures, positiveFixtures, randomString, statedPositiveFixtures } from './fakeSecrets.ts';

function corpus(): string[] {
  const text = readFileSync(new URL('./fixtures/ordinary-notes.md', import.meta.url), 'utf8');
  return text.split(/\n====\n/).slice(1).map((n) => n.trim()).filter((n) => n !== '');
}

describe('secret detection: positives', () => {
  const fixtures = positiveFixtures();
  for (const f of fixtures) {
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

  it('has a positive fixture for every kind', () => {
    const covered = new Set([...fixtures, ...morePositiveFixtures(), ...statedPositiveFixtures()].map((f) => f.kind));
    assert.deepEqual(SECRET_KINDS.filter((k) => !covered.has(k)), []);
  });

  it('reports a token once even when it is also a key=value assignment', () => {
    const f = fixtures.find((x) => x.name === 'openai project')!;
    assert.deepEqual(detectSecrets(f.text).map((x) => x.kind), ['openai-key']);
  });

  it('reports the same secret pasted twice once, two different secrets twice', () => {
    const a = positiveFixtures().find((x) => x.name === 'github ghp')!.secret;
    const b = positiveFixtures().find((x) => x.name === 'github gho')!.secret;
    assert.equal(detectSecrets(`${a} and again ${a}`).length, 1);
    assert.equal(detectSecrets(`${a} and ${b}`).length, 2);
  });

  it('finds several kinds in one note', () => {
    const all = fixtures.filter((f) => ['aws akia', 'jwt', 'url password'].includes(f.name));
    const kinds = detectSecrets(all.map((f) => f.text).join('\n\n')).map((x) => x.kind).sort();
    assert.deepEqual(kinds, ['aws-access-key-id', 'jwt', 'url-password']);
  });
});

describe('secret detection: negatives', () => {
  it('has a corpus of at least 150 ordinary notes', () => {
    assert.ok(corpus().length >= 150, `only ${corpus().length} notes`);
  });

  it('reports nothing on the ordinary-notes corpus (false-positive rate 0)', () => {
    const hits = corpus()
      .map((note) => ({ note: note.slice(0, 80), found: detectSecrets(note) }))
      .filter((x) => x.found.length > 0);
    assert.deepEqual(hits, []);
  });

  const clean: [string, string][] = [
    ['git sha', 'fixed in 3f9c2a1b4d5e6f708192a3b4c5d6e7f809a1b2c3'],
    ['ulid', 'memory 01JQ3Z8V7M2K4T6Y9B1C3D5F7H'],
    ['uuid', 'tenant 550e8400-e29b-41d4-a716-446655440000'],
    ['path', 'see /home/me/.ssh/id_ed25519 and ~/.aws/credentials'],
    ['pem header alone', 'the file starts with -----BEGIN RSA PRIVATE KEY----- followed by base64 lines'],
    ['aws example key', 'AKIAIOSFODNN7EXAMPLE'],
    ['placeholder assignment', 'api_key: <your-key>'],
    ['masked assignment', 'password = ********'],
    ['env reference', 'token = process.env.GITHUB_TOKEN'],
    ['env name', 'token: GITHUB_TOKEN'],
    ['template', 'password: ${DB_PASSWORD}'],
    ['changeme', 'password=changeme'],
    ['placeholder url password', 'postgres://user:password@localhost/app'],
    ['url without password', 'https://jdoe@bitbucket.org/acme/x.git and git@github.com:acme/x.git'],
    ['secret name', 'secret: tls-cert-2024'],
    ['short weak value', 'password: hunter2'],
    ['kebab sk- words', 'the sk-learn-style-pipeline-for-batch-jobs config'],
    ['prefix mention', 'tokens start with ghp_, glpat-, xoxb-, sk_live_ and sk-ant-'],
    ['jwt header only', 'the header eyJhbGciOiJIUzI1NiJ9 decodes to alg HS256'],
    ['max_tokens', 'max_tokens: 4096'],
  ];
  for (const [name, text] of clean) {
    it(`no finding: ${name}`, () => assert.deepEqual(detectSecrets(text), []));
  }
});

describe('secret detection: helpers and thresholds', () => {
  it('shannon entropy: 0 for a repeated char, log2(n) for n distinct chars', () => {
    assert.equal(shannonEntropy('aaaaaaaa'), 0);
    assert.equal(shannonEntropy('abcdefgh'), 3);
    assert.equal(shannonEntropy(''), 0);
  });

  it('assignment values need the entropy threshold', () => {
    // 8 distinct characters = exactly 3.0 bits: at the threshold, accepted.
    assert.equal(ASSIGNMENT_MIN_ENTROPY, 3.0);
    assert.equal(looksLikeSecretValue('abcd1234'), true);
    assert.equal(detectSecrets('password=abcd1234')[0]?.kind, 'secret-assignment');
    // 8 characters with a repeat fall below 3.0 bits: rejected.
    assert.ok(shannonEntropy('abcd1233') < 3);
    assert.equal(looksLikeSecretValue('abcd1233'), false);
    assert.deepEqual(detectSecrets('password=abcd1233'), []);
  });

  it('assignment values must be at least 8 characters', () => {
    assert.equal(looksLikeSecretValue('ab1d2!x'), false);
    assert.equal(looksLikeSecretValue('ab1d2!xQ'), true);
  });

  it('placeholders', () => {
    for (const p of ['<your-key>', '***', '${VAR}', '$VAR', '%VAR%', '{{ token }}', 'changeme', 'xxxxxxxx', 'YOUR_API_KEY', 'example-secret-123']) {
      assert.equal(isPlaceholder(p), true, p);
    }
    assert.equal(isPlaceholder(randomString('abcdef0123456789', 20, 9)), false);
  });

  it('mask keeps a few leading chars, never more than a third, never the length', () => {
    assert.equal(mask('abcdefghijkl', 4), 'abcd********');
    assert.equal(mask('abcdef', 4), 'ab********');
    assert.equal(mask('abcdefghijklmnopqrstuvwxyz', 2), 'ab********');
  });
});
