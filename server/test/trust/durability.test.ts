// Durability markers: word boundaries, case, one report per marker, SHA-like tokens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MARKER_RULES, SHA_MARKER, detectTransient, findShaLike, snippetAround } from '../../src/core/trust/gates/durability.ts';

const labels = (text: string) => detectTransient(text).map((m) => m.marker);

describe('durability markers', () => {
  const fires: [string, string][] = [
    ['The build is currently broken on arm64.', 'currently'],
    ['Right now the cache is disabled.', 'right now'],
    ['As of now we pin node 20.', 'as of now'],
    ['As of today the API is v2.', 'as of now'],
    ['Skip the e2e suite for now.', 'for now'],
    ['At the moment staging points to eu-west-1.', 'at the moment'],
    ['Today I moved the docs to /docs.', 'today I/we'],
    ['today we decided to drop yarn', 'today I/we'],
    ['This morning the deploy failed twice.', 'this morning'],
    ['Yesterday the cert expired.', 'yesterday'],
    ['Tomorrow we cut the release branch.', 'tomorrow'],
    ['This week the on-call is Sam.', 'this week'],
    ['Last week we moved to pnpm.', 'last week'],
    ['I just renamed the package.', 'I/we just'],
    ["We've just switched to vitest.", 'I/we just'],
    ['The team just shipped dark mode.', 'just shipped'],
    ['The PR just merged into main.', 'just shipped'],
    ['Use the latest SDK.', 'the latest'],
    ['The new parser handles CRLF.', 'the new'],
    ['The router now uses file-based routes.', 'now uses'],
    ['The default is now strict mode.', 'is now'],
    ['The branch is 3 commits ahead of origin.', 'commits ahead/behind'],
    ['main is behind origin by two commits', 'commits ahead/behind'],
    ['The fix is unpushed on my laptop.', 'is unpushed'],
    ['There are uncommitted changes in the worktree.', 'is unpushed'],
    ['The migration is still failing on CI.', 'still broken'],
    ['Search rewrite is a work in progress.', 'in progress'],
    ['The search rewrite is WIP.', 'in progress'],
    ['wip: the importer skips notes', 'in progress'],
    ['We recently moved the bucket.', 'recently'],
  ];
  for (const [text, label] of fires) {
    it(`"${text}" fires ${label}`, () => assert.ok(labels(text).includes(label), `${JSON.stringify(labels(text))}`));
  }

  const quiet = [
    'Requests are processed concurrently by four workers.', // concurrently is not currently
    'Renew the certificate every 90 days.', // renew is not "the new"
    'The newest entries sort first.', // "the newest" is not "the new"
    'Use a know-nothing default.',
    'Yesterdays is not a word we use here.',
    'The latestVersion field holds a semver string.',
    'Upload the nowcast data to the bucket.',
    'Store times in UTC and convert at the edge.',
    'The user prefers pnpm over npm.',
    'Ids are ULIDs like 01JQ3Z8V7M2K4T6Y9B1C3D5F7H.',
    'Tenant 550e8400-e29b-41d4-a716-446655440000 is the staging one.',
    'Experiments live on branches named wip/<topic> and are never merged.', // a path segment, not a state
    'Drafts go in docs/wip/ and the CI skips that folder.',
    'The wip-limit column caps cards per lane at three.',
  ];
  for (const text of quiet) {
    it(`"${text}" fires nothing`, () => assert.deepEqual(detectTransient(text), []));
  }

  it('is case-insensitive', () => {
    assert.deepEqual(labels('CURRENTLY broken'), ['currently']);
    assert.deepEqual(labels('Currently broken'), ['currently']);
  });

  it('reports each marker once, with the first occurrence as snippet', () => {
    const found = detectTransient('Currently A is on. Later: currently B is off. Currently C.');
    assert.equal(found.length, 1);
    assert.match(found[0]!.snippet, /Currently A is on/);
  });

  it('reports several markers in rule order', () => {
    assert.deepEqual(labels('Yesterday we currently had for now the latest build'), ['currently', 'for now', 'yesterday', 'the latest']);
  });

  it('every rule has a distinct stable label', () => {
    const all = MARKER_RULES.map((r) => r.label);
    assert.equal(new Set(all).size, all.length);
    assert.ok(!all.includes(SHA_MARKER));
  });

  it('snippets are short, single-line and show the marker', () => {
    const long = `${'word '.repeat(40)}is currently\nbroken ${'tail '.repeat(40)}`;
    const [m] = detectTransient(long);
    assert.ok(m!.snippet.length <= 80, m!.snippet);
    assert.ok(m!.snippet.includes('currently broken'));
    assert.ok(m!.snippet.startsWith('…') && m!.snippet.endsWith('…'));
    assert.equal(snippetAround('short text', 0, 5), 'short text');
  });
});

describe('commit-SHA-like tokens', () => {
  const shas = ['a1b2c3d', '3f9c2a1b4d5e6f708192a3b4c5d6e7f809a1b2c3', 'deadbeef1', '0a1b2c3d4e5f'];
  for (const s of shas) {
    it(`${s} is SHA-like`, () => {
      assert.equal(findShaLike(`fixed in ${s}.`)?.sha, s);
      assert.deepEqual(labels(`fixed in ${s}.`), [SHA_MARKER]);
    });
  }
  const not: [string, string][] = [
    ['6 chars', 'a1b2c3'],
    ['41 chars', `${'a1'.repeat(20)}b`],
    ['sha256 (64)', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['only digits', '12345678'],
    ['only letters', 'defaced'],
    ['uppercase', 'A1B2C3D4'],
    ['inside a longer alphanumeric run', 'xa1b2c3d4e'],
    ['hex run glued to more hex-ish', 'a1b2c3d4G'],
    ['css colour', '#a1b2c3d4'],
    ['0x literal', '0x7fffffff1'],
    ['uuid', '550e8400-e29b-41d4-a716-446655440000'],
    ['lowercase ulid', '01jq3z8v7m2k4t6y9b1c3d5f7h'],
  ];
  for (const [name, s] of not) {
    it(`${name} (${s}) is not SHA-like`, () => assert.equal(findShaLike(`see ${s} here`), undefined));
  }

  it('reports SHA markers once however many SHAs', () => {
    assert.deepEqual(labels('a1b2c3d then b2c3d4e then c3d4e5f'), [SHA_MARKER]);
  });
});
