// The [embed] section of config.toml and the embedder it asks for. The keys are checked one by
// one in ../config.ts (like every section), which also holds its shape and the rules that tie
// keys together (root modules import no helper folder). Nothing is contacted here:
// createEmbedder() only builds objects.
//
//   [embed]
//   enabled = true              # false: lexical search only, no vectors at all
//   provider = "local"          # "local" | "builtin" | "ollama" | "openai"
//   url = "http://127.0.0.1:11434"   # ollama / openai only
//   model = "nomic-embed-text"       # ollama / openai only (required there)
//   api_key_env = "OPENAI_API_KEY"   # openai only: the NAME of the variable holding the key
//   timeout_ms = 10000               # ollama / openai only
import { existsSync } from 'node:fs';
import type { EmbedConfig } from '../config.ts';
import { ConfigError } from '../errors.ts';
import { builtinEmbedder, type BuiltinEmbedder } from './builtin.ts';
import type { Embedder } from './embedder.ts';
import { sharedLocalEmbedder, type LocalEmbedder, type LocalOptions } from './local.ts';
import { ollamaEmbedder, openaiEmbedder, withFallback } from './providers.ts';

export { checkEmbedSection, defaultEmbedConfig, defaultEmbedProvider, EMBED_PROVIDERS, type EmbedConfig, type EmbedProvider } from '../config.ts';

export const OLLAMA_DEFAULT_URL = 'http://127.0.0.1:11434';
export const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_KEY_ENV = 'OPENAI_API_KEY';

/**
 * Which environment variable holds the OpenAI-compatible key: the one `embed.api_key_env` names
 * (missing then is an error, so a typo is seen), else OPENAI_API_KEY when it is set, else none: a
 * local server (llama.cpp, LM Studio, vLLM, ...) usually wants no Authorization header.
 */
export function openaiKeyEnv(configured: string | null | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (configured) return configured;
  return env[OPENAI_DEFAULT_KEY_ENV] ? OPENAI_DEFAULT_KEY_ENV : undefined;
}

/**
 * The embedder `config` asks for, or null when embedding is off. A provider is wrapped with the
 * built-in as fallback (one warning through `warn` if it fails). The built-in's data file is read
 * on first use, so a missing file shows up as a rejected embed() (EmbedError naming the path).
 */
export function createEmbedder(config: { embed: EmbedConfig } | EmbedConfig, warn: (m: string) => void, opts: { builtinFile?: string; local?: LocalOptions } = {}): Embedder | null {
  const c = 'embed' in config ? config.embed : config;
  if (!c.enabled) return null;
  const builtin = builtinEmbedder(opts.builtinFile ? { file: opts.builtinFile } : {});
  switch (c.provider) {
    case 'builtin':
      return builtin;
    case 'local':
      return tieredEmbedder(builtin, warn, opts.local);
    case 'ollama':
      return withFallback(ollamaEmbedder({ url: c.url ?? OLLAMA_DEFAULT_URL, model: c.model ?? '', timeoutMs: c.timeout_ms }), builtin, warn);
    case 'openai':
      return withFallback(
        openaiEmbedder({ url: c.url ?? OPENAI_DEFAULT_URL, model: c.model ?? '', apiKeyEnv: openaiKeyEnv(c.api_key_env), timeoutMs: c.timeout_ms }),
        builtin,
        warn,
      );
    default:
      c.provider satisfies never;
      throw new ConfigError(`embed.provider ${String(c.provider)} is not known`);
  }
}

/** The local model with the built-in table to answer until the model's vectors cover the store (semantic.ts, `interim`). */
export interface TieredEmbedder {
  model: LocalEmbedder;
  interim: BuiltinEmbedder;
}

/**
 * provider "local": the model, or the built-in table alone (with one warning) when the model's
 * file cannot be read. A file that reads but fails its checksum or cannot run fails later, in the
 * worker: the semantic leg then switches to its interim leg (one warning too).
 */
function tieredEmbedder(builtin: BuiltinEmbedder, warn: (m: string) => void, opts: LocalOptions = {}): Embedder {
  try {
    const model = sharedLocalEmbedder(opts);
    return Object.assign(model, { interim: builtin });
  } catch (err) {
    warn(`${(err as Error).message}; semantic search uses the built-in table instead (${builtin.id})`);
    return builtin;
  }
}

/** The interim embedder of a tiered one (provider "local"), else null. */
export function interimOf(e: Embedder): BuiltinEmbedder | null {
  return (e as Partial<TieredEmbedder>).interim ?? null;
}

/**
 * The embedders of one store's semantic leg (index/storeIndex.ts opens it), or null when embedding
 * is off: the configured embedder and, for provider "local", the built-in table answering until the
 * model can. Without the table's file (the npm package ships the model only) there is no interim:
 * one warning, and search is lexical until the model's vectors cover the store.
 */
export function legEmbedders(config: EmbedConfig, warn: (m: string) => void): { embedder: Embedder; interim: BuiltinEmbedder | null } | null {
  const embedder = createEmbedder(config, warn);
  if (embedder === null) return null;
  let interim = interimOf(embedder);
  if (interim && !existsSync(interim.file)) {
    warn('the built-in embedding table is not installed here: until the local model has embedded the store, search is lexical only');
    interim = null;
  }
  return { embedder, interim };
}
