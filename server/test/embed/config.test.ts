// The [embed] section of config.toml: every key checked, unknown keys and meaningless
// combinations rejected with the key named; createEmbedder() builds without contacting anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig, parseConfigText } from '../../src/core/config.ts';
import { createEmbedder, defaultEmbedConfig, defaultEmbedProvider, openaiKeyEnv } from '../../src/core/embed/config.ts';
import { startFakeEmbedServer } from '../helpers/fakeEmbedServer.ts';
import type { FallbackEmbedder } from '../../src/core/embed/providers.ts';

test('[embed]: defaults to the local model, enabled; CAIRN_EMBED_PROVIDER picks the fast built-in table', () => {
  assert.equal(defaultEmbedProvider({}), 'local');
  assert.equal(defaultEmbedProvider({ CAIRN_EMBED_PROVIDER: '' }), 'local');
  assert.equal(defaultEmbedProvider({ CAIRN_EMBED_PROVIDER: 'builtin' }), 'builtin');
  assert.throws(() => defaultEmbedProvider({ CAIRN_EMBED_PROVIDER: 'ollama' }), /CAIRN_EMBED_PROVIDER must be "local" or "builtin", got "ollama"/);
  assert.deepEqual(parseConfigText('').embed, defaultEmbedConfig());
  assert.deepEqual(defaultConfig().embed, { enabled: true, provider: defaultEmbedProvider(), url: null, model: null, api_key_env: null, timeout_ms: 10000 });
  assert.equal(parseConfigText('[embed]\nprovider = "local"').embed.provider, 'local');
  assert.equal(parseConfigText('[embed]\nenabled = false').embed.enabled, false);
  assert.equal(parseConfigText('[embed]\nprovider = "builtin"').embed.provider, 'builtin');
});

test('[embed]: ollama and openai settings parse', () => {
  const o = parseConfigText('[embed]\nprovider = "ollama"\nurl = "http://127.0.0.1:11434"\nmodel = "nomic-embed-text"\ntimeout_ms = 5000').embed;
  assert.deepEqual(o, { enabled: true, provider: 'ollama', url: 'http://127.0.0.1:11434', model: 'nomic-embed-text', api_key_env: null, timeout_ms: 5000 });
  const a = parseConfigText('[embed]\nprovider = "openai"\nurl = "https://api.example.test/v1"\nmodel = "text-embedding-3-small"\napi_key_env = "MY_KEY"').embed;
  assert.equal(a.provider, 'openai');
  assert.equal(a.api_key_env, 'MY_KEY');
  assert.equal(parseConfigText('[embed]\nprovider = "openai"\nmodel = "m"').embed.url, null);
});

test('[embed]: bad values name their key', () => {
  const bad: Array<[string, RegExp]> = [
    ['[embed]\nprovider = "cohere"', /embed\.provider must be one of "local", "builtin", "ollama", "openai", got "cohere"/],
    ['[embed]\nprovider = 3', /embed\.provider must be one of/],
    ['[embed]\nenabled = "yes"', /embed\.enabled must be true or false/],
    ['[embed]\nprovider = "ollama"\nmodel = "m"\ntimeout_ms = 5', /embed\.timeout_ms must be between 100 and 600000, got 5/],
    ['[embed]\nprovider = "ollama"\nmodel = "m"\ntimeout_ms = 1.5', /embed\.timeout_ms must be a whole number/],
    ['[embed]\nprovider = "ollama"\nmodel = "m"\nurl = "localhost:11434"', /embed\.url must be an http:\/\/ or https:\/\/ URL/],
    ['[embed]\nprovider = "ollama"\nmodel = "m"\nurl = "ftp://x"', /embed\.url must be an http/],
    ['[embed]\nprovider = "ollama"\nmodel = ""', /embed\.model must be a non-empty string/],
    ['[embed]\nprovider = "ollama"', /embed\.model is required when embed\.provider = "ollama"/],
    ['[embed]\nprovider = "openai"', /embed\.model is required when embed\.provider = "openai"/],
    ['[embed]\nmodel = "m"', /embed\.model is only used with embed\.provider = "ollama" or "openai"/],
    ['[embed]\nurl = "http://127.0.0.1:1"', /embed\.url is only used with/],
    ['[embed]\ntimeout_ms = 10000', /embed\.timeout_ms is only used with/],
    ['[embed]\nprovider = "ollama"\nmodel = "m"\napi_key_env = "K"', /embed\.api_key_env is only used with embed\.provider = "openai"/],
    ['[embed]\nprovider = "openai"\nmodel = "m"\napi_key_env = "sk-abc-123"', /embed\.api_key_env must name an environment variable/],
    ['[embed]\nprovder = "ollama"', /embed\.provder is not known: use one of embed\.enabled, embed\.provider/],
    ['embed = 1', /config key embed must be a table/],
  ];
  for (const [text, re] of bad) assert.throws(() => parseConfigText(text), re, text);
});

test('createEmbedder: off, built-in, providers wrapped with the built-in fallback; nothing contacted', () => {
  const warn = () => assert.fail('no warning expected');
  assert.equal(createEmbedder(parseConfigText('[embed]\nenabled = false'), warn), null);
  const b = createEmbedder(parseConfigText(''), warn, { builtinFile: '/nonexistent/cairn-embed.bin' });
  assert.ok(b && 'embedSync' in b);
  const o = createEmbedder(parseConfigText('[embed]\nprovider = "ollama"\nmodel = "nomic-embed-text"'), warn) as FallbackEmbedder;
  assert.equal(o.id, 'ollama:nomic-embed-text');
  assert.equal(o.primary.id, 'ollama:nomic-embed-text');
  assert.equal((o.primary as unknown as { endpoint: string }).endpoint, 'http://127.0.0.1:11434/api/embed');
  const a = createEmbedder(parseConfigText('[embed]\nprovider = "openai"\nmodel = "text-embedding-3-small"'), warn) as FallbackEmbedder;
  assert.equal(a.id, 'openai:text-embedding-3-small');
  assert.equal((a.primary as unknown as { endpoint: string }).endpoint, 'https://api.openai.com/v1/embeddings');
});

test('openai provider: a named key variable is required; with none named, OPENAI_API_KEY if set, else no key (local servers)', async () => {
  assert.equal(openaiKeyEnv('MY_KEY', {}), 'MY_KEY');
  assert.equal(openaiKeyEnv(undefined, { OPENAI_API_KEY: 'sk-x' }), 'OPENAI_API_KEY');
  assert.equal(openaiKeyEnv(undefined, {}), undefined);
  const fake = await startFakeEmbedServer({ dim: 8 });
  const saved = process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_API_KEY;
  try {
    const warnings: string[] = [];
    const e = createEmbedder(parseConfigText(`[embed]\nprovider = "openai"\nurl = "${fake.url}/v1"\nmodel = "local"`), (m) => warnings.push(m)) as FallbackEmbedder;
    const [v] = await e.embed(['hello']);
    assert.equal(v!.length, 8, 'answered by the configured server, not the built-in');
    assert.deepEqual(warnings, []);
    assert.equal(fake.requests.at(-1)!.authorization, undefined, 'no Authorization header without a key');
  } finally {
    if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    await fake.close();
  }
});
