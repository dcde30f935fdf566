// The arguments of memory_write (and of what reuses its checks: update, merge, import), checked
// before anything is written: each bad one is its own clear error, and validateWrite names them
// all in one message.
import type { StoreContext } from './context.ts';
import { ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { MAX_SCOPES, scopeAllowed, validateScope } from '../scopes.ts';
import { CATEGORIES, CONFIDENCES, SOURCES, type Category, type Confidence, type Source, type ValidWrite } from '../types.ts';


const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface WriteInput {
  content: string;
  scopes: string[];
  confidence?: Confidence;
  source?: Source;
  category?: Category;
  expires?: string | null;
  aliases?: string[];
  force?: boolean;
  acknowledge_transient?: boolean;
}


export function checkContent(c: Pick<StoreContext, 'config'>, v: unknown, arg = 'content'): string {
  if (typeof v !== 'string') throw new ValidationError(`${arg} must be a string holding the memory text`);
  const text = v.replace(/\r\n?/g, '\n').trim();
  if (text === '') throw new ValidationError(`${arg} is empty: write the fact to remember`);
  // The file must read back as exactly this text: a NUL makes it a binary file (skipped on
  // load, so the acknowledged memory would vanish) and an unpaired surrogate has no UTF-8 form
  // (it would come back as U+FFFD).
  const nul = text.indexOf('\u0000');
  if (nul !== -1) throw new ValidationError(`${arg} contains a NUL character at position ${nul}: a memory is plain text`);
  const lone = LONE_SURROGATE.exec(text);
  if (lone) throw new ValidationError(`${arg} contains an unpaired UTF-16 surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}) at position ${lone.index}: send valid Unicode text`);
  const max = c.config.behavior.max_body_chars;
  if (text.length > max) throw new ValidationError(`${arg} is ${text.length} characters, over the limit of ${max} (behavior.max_body_chars): store a shorter, durable fact`);
  return text;
}

export function checkScopes(c: Pick<StoreContext, 'config'>, v: unknown, arg = 'scopes'): string[] {
  if (!Array.isArray(v) || v.length === 0) throw new ValidationError(`${arg} must list at least one scope, like ["tools"] or ["projects:foo"]`);
  if (v.length > MAX_SCOPES) throw new ValidationError(`${arg} has ${v.length} entries: at most ${MAX_SCOPES} scopes per memory`);
  const out: string[] = [];
  v.forEach((s, i) => {
    const scope = validateScope(s, `${arg}[${i}]`);
    if (!scopeAllowed(scope, c.config.scopes.allowed)) {
      throw new ValidationError(`scope "${scope}" is not allowed by scopes.allowed in config.toml: use one of ${c.config.scopes.allowed.join(', ')}`);
    }
    if (!out.includes(scope)) out.push(scope);
  });
  return out;
}

/** aliases: other words a later search may use; trimmed, distinct, each one line of text. */
export function checkAliases(v: unknown, arg = 'aliases'): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ValidationError(`${arg} must be an array of short texts, like ["login", "sign-in"]`);
  if (v.length > LIMITS.aliases) throw new ValidationError(`${arg} has ${v.length} entries: at most ${LIMITS.aliases} aliases per memory`);
  const out: string[] = [];
  v.forEach((a, i) => {
    if (typeof a !== 'string') throw new ValidationError(`${arg}[${i}] must be a string, got ${JSON.stringify(a)}`);
    const t = a.replace(/\s+/g, ' ').trim();
    if (t === '') throw new ValidationError(`${arg}[${i}] is empty: give a word or short phrase`);
    if (t.length > LIMITS.aliasChars) throw new ValidationError(`${arg}[${i}] is ${t.length} characters: at most ${LIMITS.aliasChars} per alias`);
    if (t.includes('\u0000') || LONE_SURROGATE.test(t)) throw new ValidationError(`${arg}[${i}] is not plain text`);
    if (!out.includes(t)) out.push(t);
  });
  return out;
}

export function checkEnum<T extends string>(v: unknown, arg: string, allowed: readonly T[], dflt: T): T {
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  throw new ValidationError(`${arg} must be one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
}

export function checkExpires(c: Pick<StoreContext, 'now'>, v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(v.trim())) {
    throw new ValidationError(`expires must be an ISO 8601 date or date-time like 2027-01-31 or 2027-01-31T12:00:00Z, got ${JSON.stringify(v)}`);
  }
  const t = Date.parse(v.trim());
  if (Number.isNaN(t)) throw new ValidationError(`expires ${JSON.stringify(v)} is not a real date`);
  if (t <= c.now().getTime()) throw new ValidationError(`expires ${JSON.stringify(v)} is in the past: give a future date, or omit it`);
  return new Date(t).toISOString();
}

export function checkBool(v: unknown, arg: string): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new ValidationError(`${arg} must be true or false`);
  return v;
}


/** Every bad argument is named in one message (not just the first), and nothing is written. */
export function validateWrite(c: Pick<StoreContext, 'config' | 'now'>, input: WriteInput): ValidWrite {
  const problems: string[] = [];
  const attempt = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      problems.push(err.message);
      return undefined as T;
    }
  };
  const w: ValidWrite = {
    content: attempt(() => checkContent(c, input.content)),
    scopes: attempt(() => checkScopes(c, input.scopes)),
    confidence: attempt(() => checkEnum(input.confidence, 'confidence', CONFIDENCES, 'medium')),
    source: attempt(() => checkEnum(input.source, 'source', SOURCES, 'explicit-statement')),
    category: attempt(() => checkEnum(input.category, 'category', CATEGORIES, 'fact')),
    expires: attempt(() => checkExpires(c, input.expires)),
  };
  const aliases = attempt(() => checkAliases(input.aliases));
  if (aliases && aliases.length > 0) w.aliases = aliases;
  attempt(() => checkBool(input.force, 'force'));
  attempt(() => checkBool(input.acknowledge_transient, 'acknowledge_transient'));
  if (problems.length) throw new ValidationError(problems.join('; '));
  return w;
}
