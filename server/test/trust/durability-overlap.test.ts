// One phrase, one durability marker: overlapping matches resolve leftmost first, then longest,
// then in rule order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectTransient } from '../../src/core/trust/gates/durability.ts';

const labels = (t: string) => detectTransient(t).map((m) => m.marker);

describe('durability markers: one span, one marker', () => {
  it('"we just switched" is I/we just only', () => {
    assert.deepEqual(labels('We just switched the staging database to postgres 16.'), ['I/we just']);
  });

  it('"just shipped" alone still fires its own marker', () => {
    assert.deepEqual(labels('The team has just shipped the v2 importer.'), ['just shipped']);
  });

  it('"is now" inside "is now uses"-like phrasing: the leftmost span wins', () => {
    // "now uses" starts after "is now" begins and overlaps it: one marker.
    assert.deepEqual(labels('The build is now uses esbuild.'), ['is now']);
  });

  it('the same start: the longer match wins ("for now" vs "for the time being" never overlap; "as of now" vs "right now")', () => {
    assert.deepEqual(labels('As of now the API is frozen.'), ['as of now']);
  });

  it('separate phrases still fire separately', () => {
    assert.deepEqual(labels('We just moved it. The team just shipped v2 yesterday.'), ['yesterday', 'I/we just', 'just shipped']);
  });
});
