// The [embed] section of config.toml and the embedder it asks for. The keys are checked one by
// one in ../config.ts (like every section); checkEmbedSection() adds the rules that tie keys
// together. Nothing is contacted here: createEmbedder() only builds objects.
//
//   [embed]
//   enabled = true              # false: lexical search only, no vectors at all
//   provider = "builtin"        # "builtin" | "ollama" | "openai"
//   url = "http://127.0.0.1:11434"   # ollama / openai only
//   model = "nomic-embed-text"       # ollama / openai only (required there)
//   api_key_env = "OPENAI_API_KEY"   # openai only: the NAME of the variable holding the key
//   timeout_ms = 10000               # ollama / openai only
import { ConfigError } from '../errors.ts';
import { builtinEmbedder } from './builtin.ts';
import type { Embedder } from './embedder.ts';
import { DEFAULT_TIMEOUT_MS, ollamaEmbedder, openaiEmbedder, withFallback } from './providers.ts';

export const EMBED_PROVIDERS = ['builtin', 'ollama', 'openai'] as const;
export type EmbedProvider = (typeof EMBED_PROVIDERS)[number];

export interface EmbedConfig {
  enabled: boolean;
  provider: EmbedProvider;
  /** null: the provider's default (ollama: http://127.0.0.1:11434, openai: https://api.openai.com/v1) */
  url: string | null;
  model: string | null;
  /** openai: null means OPENAI_API_KEY */
  api_key_env: string | null;
  timeout_ms: number;
}

export const OLLAMA_DEFAULT_URL = 'http://127.0.0.1:11434';
export const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_KEY_ENV = 'OPENAI_API_KEY';

export function defaultEmbedConfig(): EmbedConfig {
  return { enabled: true, provider: 'builtin', url: null, model: null, api_key_env: null, timeout_ms: DEFAULT_TIMEOUT_MS };
}

/** Rules across keys; each key's own type and range are already checked. */
export function checkEmbedSection(c: EmbedConfig, given?: ReadonlySet<string>): void {
  const set = (k: keyof EmbedConfig) => (given ? given.has(k) : c[k] !== defaultEmbedConfig()[k]);
  if (c.provider === 'builtin') {
    for (const k of ['url', 'model', 'api_key_env', 'timeout_ms'] as const) {
      if (set(k)) throw new ConfigError(`config key embed.${k} is only used with embed.provider = "ollama" or "openai" (provider is "builtin")`);
    }
    return;
  }
  if (c.model === null) throw new ConfigError(`config key embed.model is required when embed.provider = "${c.provider}"`);
  if (c.provider === 'ollama' && c.api_key_env !== null) {
    throw new ConfigError('config key embed.api_key_env is only used with embed.provider = "openai"');
  }
  if (c.api_key_env !== null && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.api_key_env)) {
    throw new ConfigError(`config key embed.api_key_env must name an environment variable (letters, digits, _), got ${JSON.stringify(c.api_key_env)}`);
  }
}

/**
 * The embedder `config` asks for, or null when embedding is off. A provider is wrapped with the
 * built-in as fallback (one warning through `warn` if it fails). The built-in's data file is read
 * on first use, so a missing file shows up as a rejected embed() (EmbedError naming the path).
 */
export function createEmbedder(config: { embed: EmbedConfig } | EmbedConfig, warn: (m: string) => void, opts: { builtinFile?: string } = {}): Embedder | null {
  const c = 'embed' in config ? config.embed : config;
  if (!c.enabled) return null;
  const builtin = builtinEmbedder(opts.builtinFile ? { file: opts.builtinFile } : {});
  switch (c.provider) {
    case 'builtin':
      return builtin;
    case 'ollama':
      return withFallback(ollamaEmbedder({ url: c.url ?? OLLAMA_DEFAULT_URL, model: c.model ?? '', timeoutMs: c.timeout_ms }), builtin, warn);
    case 'openai':
      return withFallback(
        openaiEmbedder({ url: c.url ?? OPENAI_DEFAULT_URL, model: c.model ?? '', apiKeyEnv: c.api_key_env ?? OPENAI_DEFAULT_KEY_ENV, timeoutMs: c.timeout_ms }),
        builtin,
        warn,
      );
    default:
      c.provider satisfies never;
      throw new ConfigError(`embed.provider ${String(c.provider)} is not known`);
  }
}
