// config.toml: every key optional, every value checked. A bad value is an error naming the key,
// never a silent default (format.md).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TomlError, parse as parseToml } from 'smol-toml';
import { throwIfFolderAccess } from './access.ts';
import { ConfigError, errorMessage } from './errors.ts';

/** [embed]: the semantic search leg's embedder (core/embed/config.ts builds it). */
export const EMBED_PROVIDERS = ['local', 'builtin', 'ollama', 'openai'] as const;
export type EmbedProvider = (typeof EMBED_PROVIDERS)[number];
export interface EmbedConfig {
  /** false: lexical search only, no vectors at all */
  enabled: boolean;
  provider: EmbedProvider;
  /** ollama / openai; null: the provider's default (ollama http://127.0.0.1:11434, openai https://api.openai.com/v1) */
  url: string | null;
  /** ollama / openai (required there) */
  model: string | null;
  /** openai: the NAME of the environment variable holding the key; null means OPENAI_API_KEY */
  api_key_env: string | null;
  /** ollama / openai: per request */
  timeout_ms: number;
}

/**
 * The provider when config.toml names none: "local" (the transformer model, docs/semantic.md), or
 * what $CAIRN_EMBED_PROVIDER says ("local" or "builtin": a machine-wide fast mode, and what the
 * test suite runs with so that its many short-lived servers do not each load the model).
 */
export function defaultEmbedProvider(env: NodeJS.ProcessEnv = process.env): EmbedProvider {
  const v = env.CAIRN_EMBED_PROVIDER;
  if (v === undefined || v === '') return 'local';
  if (v === 'local' || v === 'builtin') return v;
  throw new ConfigError(`environment variable CAIRN_EMBED_PROVIDER must be "local" or "builtin", got ${JSON.stringify(v)}`);
}

export function defaultEmbedConfig(): EmbedConfig {
  return { enabled: true, provider: defaultEmbedProvider(), url: null, model: null, api_key_env: null, timeout_ms: 10_000 };
}

/** [embed] rules across keys (each key's own type and range are checked by checkValue); `given` = the keys the file set. */
export function checkEmbedSection(c: EmbedConfig, given: ReadonlySet<string>): void {
  if (c.provider === 'builtin' || c.provider === 'local') {
    for (const k of ['url', 'model', 'api_key_env', 'timeout_ms'] as const) {
      if (given.has(k)) throw new ConfigError(`config key embed.${k} is only used with embed.provider = "ollama" or "openai" (provider is "${c.provider}")`);
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

export interface Config {
  storage: { directory: string | null };
  behavior: {
    require_write_confirmation: boolean;
    default_max_results: number;
    recency_half_life_days: number;
    verification_stale_days: number;
    pending_ttl_minutes: number;
    max_body_chars: number;
    /** Ask the user about a pending write through the client's form (MCP elicitation) when it offers one. */
    elicit_pending: boolean;
    /** Default for `cairn tombstones prune` without --older-than; 0: none (the flag is required). */
    tombstone_retention_days: number;
  };
  /** global: scopes in view outside a git repo whatever repo they were written in (tools.md auto_scope). */
  scopes: { allowed: string[]; global: string[] };
  telemetry: { enabled: boolean; max_bytes: number };
  hooks: { session_start: boolean };
  /** Anthropic's `memory` tool over the notes area (docs/tools.md "memory"): offered unless false. */
  memory_tool: { enabled: boolean };
  search: { synonyms: Record<string, string[]> };
  curation: { dead_weight_min_age_days: number; dead_weight_min_retrievals: number };
  /**
   * Feedback-aware ranking (docs/config.md [ranking]): memory_record_use outcomes move a hit
   * within its relevance band by at most ±feedback_max_percent; outcomes fade with the half-life.
   */
  ranking: { feedback: boolean; feedback_half_life_days: number; feedback_max_percent: number };
  embed: EmbedConfig;
  /** Automatic git sync in the MCP server (README "Sync"): off unless `auto = true`. */
  sync: { auto: boolean; interval_minutes: number; debounce_seconds: number };
  /**
   * The team store of the current repository (README "Team memory"): `.cairn/` at the git root of
   * the working directory, marked by `.cairn/team.toml`. false: never opened, never searched.
   */
  team: { enabled: boolean };
}

/** Scopes about the user and their tools rather than one repo: in view outside any repo. */
export const DEFAULT_GLOBAL_SCOPES: readonly string[] = ['preferences', 'tools', 'user', 'me', 'global'];

export function defaultConfig(): Config {
  return {
    storage: { directory: null },
    behavior: {
      require_write_confirmation: false,
      default_max_results: 5,
      recency_half_life_days: 30,
      verification_stale_days: 30,
      pending_ttl_minutes: 60,
      max_body_chars: 20000,
      elicit_pending: true,
      tombstone_retention_days: 0,
    },
    scopes: { allowed: [], global: [...DEFAULT_GLOBAL_SCOPES] },
    telemetry: { enabled: true, max_bytes: 10_000_000 },
    hooks: { session_start: true },
    memory_tool: { enabled: true },
    search: { synonyms: {} },
    curation: { dead_weight_min_age_days: 14, dead_weight_min_retrievals: 3 },
    ranking: { feedback: true, feedback_half_life_days: 60, feedback_max_percent: 5 },
    embed: defaultEmbedConfig(),
    sync: { auto: false, interval_minutes: 15, debounce_seconds: 30 },
    team: { enabled: true },
  };
}

type Kind = 'bool' | 'int' | 'string' | 'string[]' | 'synonyms' | 'enum' | 'url';
interface KeySpec {
  kind: Kind;
  min?: number;
  max?: number;
  /** enum: the accepted values */
  values?: readonly string[];
}

const SPEC: Record<string, Record<string, KeySpec>> = {
  storage: { directory: { kind: 'string' } },
  behavior: {
    require_write_confirmation: { kind: 'bool' },
    default_max_results: { kind: 'int', min: 1, max: 50 },
    recency_half_life_days: { kind: 'int', min: 1, max: 36500 },
    verification_stale_days: { kind: 'int', min: 1, max: 36500 },
    pending_ttl_minutes: { kind: 'int', min: 1, max: 525600 },
    max_body_chars: { kind: 'int', min: 100, max: 1_000_000 },
    elicit_pending: { kind: 'bool' },
    tombstone_retention_days: { kind: 'int', min: 0, max: 36500 },
  },
  scopes: { allowed: { kind: 'string[]' }, global: { kind: 'string[]' } },
  telemetry: { enabled: { kind: 'bool' }, max_bytes: { kind: 'int', min: 10_000, max: 10_000_000_000 } },
  hooks: { session_start: { kind: 'bool' } },
  memory_tool: { enabled: { kind: 'bool' } },
  search: { synonyms: { kind: 'synonyms' } },
  curation: {
    dead_weight_min_age_days: { kind: 'int', min: 0, max: 36500 },
    dead_weight_min_retrievals: { kind: 'int', min: 1, max: 1_000_000 },
  },
  ranking: {
    feedback: { kind: 'bool' },
    feedback_half_life_days: { kind: 'int', min: 1, max: 36500 },
    feedback_max_percent: { kind: 'int', min: 0, max: 15 },
  },
  embed: {
    enabled: { kind: 'bool' },
    provider: { kind: 'enum', values: EMBED_PROVIDERS },
    url: { kind: 'url' },
    model: { kind: 'string' },
    api_key_env: { kind: 'string' },
    timeout_ms: { kind: 'int', min: 100, max: 600_000 },
  },
  sync: {
    auto: { kind: 'bool' },
    interval_minutes: { kind: 'int', min: 1, max: 10_080 },
    debounce_seconds: { kind: 'int', min: 1, max: 3_600 },
  },
  team: { enabled: { kind: 'bool' } },
};

function describe(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? 'an array' : String(v);
}

function checkValue(key: string, spec: KeySpec, v: unknown): unknown {
  switch (spec.kind) {
    case 'bool':
      if (typeof v !== 'boolean') throw new ConfigError(`config key ${key} must be true or false, got ${describe(v)}`);
      return v;
    case 'int': {
      const n = typeof v === 'bigint' ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isInteger(n)) {
        throw new ConfigError(`config key ${key} must be a whole number, got ${describe(v)}`);
      }
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
        throw new ConfigError(`config key ${key} must be between ${spec.min} and ${spec.max}, got ${n}`);
      }
      return n;
    }
    case 'string':
      if (typeof v !== 'string' || v.trim() === '') {
        throw new ConfigError(`config key ${key} must be a non-empty string, got ${describe(v)}`);
      }
      return v;
    case 'string[]':
      if (!Array.isArray(v) || v.some((s) => typeof s !== 'string' || s === '')) {
        throw new ConfigError(`config key ${key} must be an array of non-empty strings`);
      }
      return v;
    case 'synonyms': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        throw new ConfigError(`config key ${key} must be a table of term = ["synonym", ...]`);
      }
      const out: Record<string, string[]> = {};
      for (const [term, list] of Object.entries(v)) {
        if (!Array.isArray(list) || list.some((s) => typeof s !== 'string' || s.trim() === '')) {
          throw new ConfigError(`config key ${key}.${term} must be an array of non-empty strings`);
        }
        out[term.toLowerCase()] = list.map((s: string) => s.toLowerCase());
      }
      return out;
    }
    case 'enum':
      if (typeof v !== 'string' || !spec.values?.includes(v)) {
        throw new ConfigError(`config key ${key} must be one of ${(spec.values ?? []).map((x) => JSON.stringify(x)).join(', ')}, got ${describe(v)}`);
      }
      return v;
    case 'url': {
      let u: URL | null = null;
      try {
        u = typeof v === 'string' ? new URL(v) : null;
      } catch {
        u = null;
      }
      if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
        throw new ConfigError(`config key ${key} must be an http:// or https:// URL, got ${describe(v)}`);
      }
      return v;
    }
    default:
      spec.kind satisfies never;
      throw new ConfigError(`config key ${key}: unknown kind`);
  }
}

/**
 * Old names users bring from bettermemory, accepted as aliases of today's keys (docs/config.md,
 * "Aliases"). Each use is reported through `onAlias` so the user learns the current name.
 */
export const CONFIG_ALIASES: Readonly<Record<string, string>> = {
  'behavior.recency_boost_half_life_days': 'behavior.recency_half_life_days',
};

/** Validates a parsed TOML document against the known keys. Unknown keys are errors too. */
export function configFromObject(doc: Record<string, unknown>, onAlias: (old: string, current: string) => void = () => {}): Config {
  const cfg = defaultConfig() as unknown as Record<string, Record<string, unknown>>;
  for (const [section, raw] of Object.entries(doc)) {
    let body = raw;
    if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
      const renamed: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(raw)) {
        const current = CONFIG_ALIASES[`${section}.${key}`];
        if (current === undefined) {
          renamed[key] = value;
          continue;
        }
        const currentKey = current.slice(section.length + 1);
        if (Object.hasOwn(raw, currentKey)) throw new ConfigError(`config keys ${section}.${key} and ${current} are the same setting (${section}.${key} is its old name): keep only ${current}`);
        onAlias(`${section}.${key}`, current);
        renamed[currentKey] = value;
      }
      body = renamed;
    }
    const spec = SPEC[section];
    if (!spec) {
      throw new ConfigError(`config section [${section}] is not known: use one of ${Object.keys(SPEC).map((s) => `[${s}]`).join(', ')}`);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ConfigError(`config key ${section} must be a table ([${section}])`);
    }
    for (const [key, value] of Object.entries(body)) {
      const ks = spec[key];
      if (!ks) {
        throw new ConfigError(`config key ${section}.${key} is not known: use one of ${Object.keys(spec).map((k) => `${section}.${k}`).join(', ')}`);
      }
      cfg[section]![key] = checkValue(`${section}.${key}`, ks, value);
    }
  }
  const out = cfg as unknown as Config;
  const embedDoc = doc.embed;
  checkEmbedSection(out.embed, new Set(typeof embedDoc === 'object' && embedDoc !== null ? Object.keys(embedDoc) : []));
  return out;
}

export function parseConfigText(text: string, file = 'config.toml', onAlias?: (old: string, current: string) => void): Config {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(tomlSyntaxMessage(file, err));
  }
  return configFromObject(doc, onAlias);
}

/** Alias notices already printed by this process: a config is read more than once per command. */
const aliasNoticed = new Set<string>();
function noticeAlias(file: string, old: string, current: string): void {
  const key = `${file}\0${old}`;
  if (aliasNoticed.has(key)) return;
  aliasNoticed.add(key);
  process.stderr.write(`cairn: ${file}: ${old} is the old (bettermemory) name of ${current}; it is read as ${current} (rename it to silence this)\n`);
}

/**
 * `<file>:<line>:<column>: <what smol-toml says>`, like a compiler, then smol-toml's code frame
 * (the lines around it with a caret under the column) so the mistake is seen where it is.
 */
function tomlSyntaxMessage(file: string, err: unknown): string {
  if (!(err instanceof TomlError)) return `${file} is not valid TOML: ${errorMessage(err).split('\n')[0]}`;
  const what = err.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
  const frame = err.codeblock.replace(/\n+$/, '');
  return `${file}:${err.line}:${err.column}: not valid TOML: ${what}${frame ? `\n${frame}` : ''}`;
}

/** Reads `<dir>/config.toml`; a missing file means all defaults. */
export function loadConfigFile(file: string): Config {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return defaultConfig();
    // The store folder itself refusing entry is the cause to name, not a config.toml that may not exist.
    throwIfFolderAccess(dirname(file), 'read', err);
    throw new ConfigError(`cannot read ${file}: ${errorMessage(err)}`);
  }
  return parseConfigText(text, file, (old, current) => noticeAlias(file, old, current));
}

export function configPath(storeDir: string): string {
  return join(storeDir, 'config.toml');
}
