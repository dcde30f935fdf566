// summarize: the first sentence of a body, whitespace runs as single spaces, cut at a word
// boundary. It walks only as much of the body as the result needs; the reference below flattens
// the whole body first, as the definition reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarize } from '../../src/core/memory.ts';

function reference(body: string, max = 80): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  const m = /^(.+?[.!?])(?:\s|$)/.exec(flat);
  const first = m ? m[1]! : flat;
  if (first.length <= max) return first;
  const cut = first.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max / 2 ? cut.slice(0, sp) : cut).replace(/[\s,;:.-]+$/, '')}\u2026`;
}

test('summarize: the first sentence, flattened; a long one cut at a word with an ellipsis', () => {
  assert.equal(summarize('  Deploys run on   Fridays.\nNever on Mondays.'), 'Deploys run on Fridays.');
  assert.equal(summarize('v1.2 is out. Next: v1.3'), 'v1.2 is out.');
  assert.equal(summarize('. Starts with a dot. Then more.'), '. Starts with a dot.');
  assert.equal(summarize('Ends here!'), 'Ends here!');
  assert.equal(summarize('word '.repeat(40)), `${'word '.repeat(15).trim()}\u2026`);
  assert.equal(summarize('\n\t \u00a0'), '');
});

test('summarize: the same as flattening the whole body first, on bodies of every shape', () => {
  const pieces = ['a', 'bc', 'word', '.', '!', '?', ' ', '  ', '\n', '\t', '\u00a0', '\u2028', '\ufeff', ',', ';', ':', '-', '\u00e9', '\ud83d\ude00', 'v1.2', '...'];
  let seed = 99;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let i = 0; i < 20000; i++) {
    let body = '';
    for (let n = Math.floor(rnd() * 80); n > 0; n--) body += pieces[Math.floor(rnd() * pieces.length)];
    for (const max of [80, 12, 3, 1]) assert.equal(summarize(body, max), reference(body, max), `${JSON.stringify(body)} max ${max}`);
  }
});
