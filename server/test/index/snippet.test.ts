import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeSnippet, SNIPPET_MAX } from '../../src/core/index/snippet.ts';
import { SearchIndex, type IndexDoc } from '../../src/core/index/searchIndex.ts';

const filler = (n: number, w = 'lorem') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');

test('a short body is returned whole, whitespace collapsed', () => {
  assert.equal(makeSnippet('Use  pnpm\n\nnot npm.', -1, -1), 'Use pnpm not npm.');
});

test('a long body is cut at word boundaries and stays within the limit', () => {
  const body = filler(200);
  const s = makeSnippet(body, -1, -1);
  assert.ok(s.length <= SNIPPET_MAX, `${s.length}`);
  assert.ok(s.endsWith('…'));
  assert.ok(body.startsWith(s.slice(0, -1)));
  assert.match(s.slice(0, -1), /lorem\d+$/); // ends on a whole word
});

test('centred on the first matching passage, with an ellipsis on each cut side', () => {
  const body = `${filler(80)} the WIDGET token rotates hourly ${filler(80, 'ipsum')}`;
  const at = body.indexOf('WIDGET');
  const s = makeSnippet(body, at, at + 6);
  assert.ok(s.length <= SNIPPET_MAX);
  assert.ok(s.startsWith('…') && s.endsWith('…'));
  assert.ok(s.includes('WIDGET token rotates hourly'));
  const pos = s.indexOf('WIDGET');
  assert.ok(pos > 50 && pos < 150, `match at ${pos}`);
  // every word in the snippet is a whole word of the body
  for (const w of s.replace(/…/g, '').trim().split(' ')) assert.ok(body.split(/\s+/).includes(w), w);
});

test('a match near the end fills the window backwards', () => {
  const body = `${filler(100)} final WIDGET`;
  const at = body.indexOf('WIDGET');
  const s = makeSnippet(body, at, at + 6);
  assert.ok(s.endsWith('WIDGET'));
  assert.ok(s.length > 150 && s.length <= SNIPPET_MAX);
});

test('one giant word is hard-cut', () => {
  const s = makeSnippet('x'.repeat(1000), 0, 5);
  assert.ok(s.length <= SNIPPET_MAX);
});

test('search hits carry a snippet around the first match', () => {
  const ix = new SearchIndex<IndexDoc>();
  const body = `${filler(60)} Rotate the GPG signing key before release. ${filler(60, 'tail')}`;
  ix.load([{ id: 'A', body, scopes: ['x'], created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z' }]);
  const [h] = ix.search('signing key', { limit: 1 });
  assert.ok(h!.snippet.includes('GPG signing key before release'));
  assert.ok(h!.snippet.length <= SNIPPET_MAX);
});

test('hits are fast-mode objects of one hidden class, lexical and fused (no accessor of their own)', async () => {
  // An object literal with its own `get snippet()` is a dictionary-mode object with an accessor
  // of its own; with those, each search's hits survived the young-generation collections (42 KB
  // promoted per search at 50k memories, 15 KB with the classes).
  const { execFileSync } = await import('node:child_process');
  const fixture = new URL('./fixtures/hitShapes.ts', import.meta.url).pathname;
  const out = JSON.parse(execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', fixture], { encoding: 'utf8' })) as { lexical: boolean; fused: boolean; ownAccessor: boolean; n: number[] };
  assert.ok(out.n[0]! > 1 && out.n[1]! > 1, `enough hits to compare: ${out.n.join(', ')}`);
  assert.equal(out.ownAccessor, false, 'the snippet getter is on the prototype');
  assert.equal(out.lexical, true, 'lexical hits: fast properties, one hidden class');
  assert.equal(out.fused, true, 'fused hits: fast properties, one hidden class');
});
