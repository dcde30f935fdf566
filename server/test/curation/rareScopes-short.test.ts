// Short scopes: api/app and the other common short words are never a typo pair; transpositions
// and plural s still are; nested scopes are judged on the segment that differs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMON_SHORT_SCOPES, isTypoPair, rareScopes } from '../../src/core/curation/rareScopes.ts';

describe('short scope typo pairs', () => {
  it('api/app, ci/cd, web/wed-like substitutions between short words are not typos', () => {
    for (const [a, b] of [['api', 'app'], ['ci', 'cd'], ['ops', 'ups'], ['web', 'wed'], ['db', 'dbs'], ['test', 'tests'], ['doc', 'docs'], ['ui', 'ux']]) {
      assert.equal(isTypoPair(a!, b!), false, `${a}/${b}`);
    }
  });

  it('a transposition or a plural s of a short word is still a typo', () => {
    assert.equal(isTypoPair('aip', 'api'), true);
    assert.equal(isTypoPair('rpeo', 'repo'), true);
    assert.equal(isTypoPair('cfg', 'cfgs'), true);
    assert.equal(isTypoPair('cfg', 'cgf'), true);
    assert.equal(isTypoPair('cfg', 'cfh'), false); // a substitution between short words
  });

  it('two common short words are never a pair, whatever their length', () => {
    assert.ok(COMMON_SHORT_SCOPES.has('infra') && COMMON_SHORT_SCOPES.has('api'));
    for (const w of ['api', 'app', 'cli', 'web', 'ui', 'ux', 'db', 'ops', 'infra', 'docs', 'test', 'tests', 'ci', 'cd', 'dev', 'prod', 'qa', 'ml', 'ai', 'ios']) {
      assert.ok(COMMON_SHORT_SCOPES.has(w), w);
    }
  });

  it('longer scopes keep the edit-distance budget: tool/tools, deployment/deploymnet', () => {
    assert.equal(isTypoPair('tool', 'tools'), true);
    assert.equal(isTypoPair('deploymnet', 'deployment'), true);
    assert.equal(isTypoPair('frontend', 'backend'), false);
  });

  it('nested scopes are judged on the one segment that differs', () => {
    assert.equal(isTypoPair('projects:widgets:api', 'projects:widgets:app'), false);
    assert.equal(isTypoPair('projects:widgets:aip', 'projects:widgets:api'), true);
    assert.equal(isTypoPair('projects:widgets', 'projects:widgtes'), true);
  });

  it('rareScopes reports tool/tools but not app/api', () => {
    const counts = new Map([['api', 5], ['app', 1], ['tools', 4], ['tool', 1]]);
    const rows = rareScopes(counts, new Map([['app', 'a'], ['tool', 't']]));
    assert.deepEqual(rows.map((r) => [r.scope, r.similar_to.map((x) => x.scope)]), [['tool', ['tools']]]);
  });
});
