import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize } from '../../src/core/index/tokenize.ts';
import { stem } from '../../src/core/index/stem.ts';
import { isStopword } from '../../src/core/index/stopwords.ts';
import { queryWords } from '../../src/core/index/query.ts';

const terms = (text: string) => tokenize(text).filter((t) => !t.stop).map((t) => (t.whole ? `${t.term}*` : t.term));

test('splits kebab, snake, camel and scope parts and keeps the whole identifier', () => {
  assert.deepEqual(terms('pg-dump-nightly'), ['pg', 'dump', 'nightly', 'pgdumpnightly*']);
  assert.deepEqual(terms('request_id'), ['request', 'id', 'requestid*']);
  assert.deepEqual(terms('requestId'), ['request', 'id', 'requestid*']);
  assert.deepEqual(terms('HTTPServer'), ['http', 'server', 'httpserver*']);
  assert.deepEqual(terms('JWTs APIs'), ['jwt', 'api']);
  assert.deepEqual(terms('projects:foo:api'), ['project', 'foo', 'api', 'projectsfooapi*']);
  assert.deepEqual(terms('src/core/store.ts'), ['src', 'core', 'store', 'ts', 'srccorestorets*']);
});

test('parts get consecutive positions; the whole shares the first part position', () => {
  const toks = tokenize('use requestId here');
  const pos = Object.fromEntries(toks.map((t) => [t.whole ? `${t.term}*` : t.term, t.pos]));
  assert.equal(pos['request'], 1);
  assert.equal(pos['id'], 2);
  assert.equal(pos['requestid*'], 1);
  assert.equal(pos['here'], 3);
});

test('offsets point back into the source text', () => {
  const text = 'Rotate the pg-dump key';
  for (const t of tokenize(text)) assert.equal(text.slice(t.start, t.end).toLowerCase().replace(/[-]/g, ''), t.whole ? t.term : t.surface);
});

test('letters and digits of any script, lowercased; digits do not split words', () => {
  assert.deepEqual(terms('Ünïcode Straße naïve'), ['ünïcode', 'straße', 'naïve']);
  assert.deepEqual(terms('Развертывание сервера'), ['развертывание', 'сервера']);
  assert.deepEqual(terms('k8s ipv4 base64'), ['k8s', 'ipv4', 'base64']);
  // Han/Kana have no spaces between words: one token per character.
  assert.deepEqual(terms('東京タワー'), ['東', '京', 'タ', 'ワ', 'ー']);
});

test('punctuation, URLs and apostrophes', () => {
  assert.deepEqual(terms("the user's token, (expired)!"), ['user', 'token', 'expir']);
  assert.deepEqual(terms('done. Next'), ['done', 'next']);
  assert.ok(terms('see https://github.com/acme/widgets').includes('github'));
});

test('the ASCII fast path and the general path cut the same groups', () => {
  assert.deepEqual(terms('trailing- dash. score_ ok'), ['trail', 'dash', 'score', 'ok']);
  assert.deepEqual(terms('caféBar'), ['café', 'bar', 'cafébar*']);
  assert.deepEqual(terms('fooé barFoo'), ['fooé', 'bar', 'foo', 'barfoo*']);
  assert.deepEqual(terms('v2 IPv4Address'), ['v2', 'ipv4', 'address', 'ipv4address*']);
  assert.deepEqual(terms('x--y k..b'), ['x', 'y', 'k', 'b']);
  assert.deepEqual(terms('😀 emoji😀word'), ['emoji', 'word']);
});

test('stemmer: plurals and tenses meet at one stem', () => {
  const same = [
    ['backup', 'backups'],
    ['cache', 'cached', 'caching', 'caches'],
    ['retry', 'retries', 'retried'],
    ['configure', 'configured', 'configuring'],
    ['deploy', 'deployed', 'deploying', 'deploys'],
    ['run', 'running', 'runs'],
    ['create', 'created', 'creating', 'creates'],
    ['test', 'tests', 'testing', 'tested'],
    ['use', 'used', 'uses', 'using'],
    ['query', 'queries'],
    ['process', 'processes'],
  ];
  for (const group of same) {
    const stems = new Set(group.map(stem));
    assert.equal(stems.size, 1, `${group.join('/')} -> ${[...stems].join('/')}`);
  }
});

test('stemmer leaves short words, acronyms, non-plurals and non-ASCII alone', () => {
  for (const w of ['aws', 'ios', 'ops', 'status', 'redis', 'class', 'analysis', 'k8s', 'straße', 'string', 'thing']) {
    assert.equal(stem(w), w, w);
  }
  assert.equal(stem('deployment'), 'deployment'); // derivations are left to prefix matching
});

test('stopwords are flagged, not dropped, and only filler words are stopwords', () => {
  const toks = tokenize('how do I rotate the key');
  assert.deepEqual(toks.filter((t) => t.stop).map((t) => t.surface), ['how', 'do', 'i', 'the']);
  for (const w of ['id', 'well', 'shell', 'key', 'use', 'test', 'api']) assert.equal(isStopword(w), false, w);
  for (const w of ['the', 'what', 'should', 'dont', 'please']) assert.equal(isStopword(w), true, w);
});

test('query words: stopwords and repeats dropped, order kept, identifiers split', () => {
  assert.deepEqual(queryWords('How do I restore the DB backups? backup!').map((w) => w.surface), ['restore', 'db', 'backups']);
  assert.deepEqual(queryWords('requestId header').map((w) => w.term), ['request', 'id', 'header']);
  assert.deepEqual(queryWords('what is it'), []);
});
