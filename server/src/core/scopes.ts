// Scope names and scope filters (format.md): `^[a-z0-9]+(?:[-:][a-z0-9]+)*$`, `:` nests; a filter
// `projects:foo` also matches `projects:foo:api`; filters may be picomatch globs.
import { LIMITS } from './limits.ts';
import picomatch from 'picomatch';
import { ValidationError } from './errors.ts';

export const SCOPE_RE = /^[a-z0-9]+(?:[-:][a-z0-9]+)*$/;
export const MAX_SCOPE_LENGTH = LIMITS.scopeChars;
export const MAX_SCOPES = LIMITS.scopes;

/** Throws a ValidationError that says what is wrong with `s` and what would be accepted. */
export function validateScope(s: unknown, arg = 'scope'): string {
  if (typeof s !== 'string' || s === '') throw new ValidationError(`${arg} must be a non-empty string like "tools" or "projects:foo"`);
  if (s.length > MAX_SCOPE_LENGTH) throw new ValidationError(`${arg} "${s.slice(0, 20)}..." is ${s.length} characters: at most ${MAX_SCOPE_LENGTH} are allowed`);
  if (SCOPE_RE.test(s)) return s;
  const fixed = s.toLowerCase().trim().replace(/[\s_/.]+/g, '-').replace(/[^a-z0-9:-]/g, '').replace(/([-:])[-:]+/g, '$1').replace(/^[-:]+|[-:]+$/g, '');
  if (s !== s.toLowerCase() && SCOPE_RE.test(s.toLowerCase())) {
    throw new ValidationError(`${arg} "${s}" is not lowercase: use "${s.toLowerCase()}"`);
  }
  const hint = SCOPE_RE.test(fixed) ? `: use "${fixed}"` : '';
  throw new ValidationError(`${arg} "${s}" is not a valid scope (lowercase letters and digits, parts joined by "-" or ":")${hint}`);
}

export function isGlob(filter: string): boolean {
  return /[*?[\]{}!]/.test(filter);
}

/** Validates a filter: a scope, or a glob over scopes. */
export function validateScopeFilter(f: unknown, arg = 'scopes'): string {
  if (typeof f !== 'string' || f === '') throw new ValidationError(`${arg} entries must be non-empty strings (a scope like "tools" or a glob like "projects:*")`);
  if (isGlob(f)) {
    if (f.length > 200) throw new ValidationError(`${arg} glob "${f.slice(0, 20)}..." is longer than 200 characters`);
    return f;
  }
  return validateScope(f, `${arg} entry`);
}

/** A predicate over a memory's scopes: true when any scope matches any filter. */
export function scopeFilterMatcher(filters: readonly string[]): (scopes: readonly string[]) => boolean {
  if (filters.length === 0) return () => true;
  const globs = filters.filter(isGlob).map((g) => picomatch(g, { dot: true }));
  const prefixes = filters.filter((f) => !isGlob(f));
  const one = (s: string) =>
    prefixes.some((p) => s === p || s.startsWith(`${p}:`)) ||
    globs.some((m) => m(s) || m(s.replace(/:/g, '/')));
  return (scopes) => scopes.some(one);
}

/** Scope allow-list from config (`scopes.allowed`, globs allowed): empty allows everything. */
export function scopeAllowed(scope: string, allowed: readonly string[]): boolean {
  return allowed.length === 0 || scopeFilterMatcher(allowed)([scope]);
}
