// Path drift: which file paths a memory cites, and whether they still exist. A memory that says
// "the retry logic is in `src/net/retry.ts`" is suspect once that file is gone. The extractor
// errs towards NOT seeing a path: a false path reads as "missing" and makes a sound memory look
// drifted, which is worse than not checking a real one.
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export const MAX_CITED_PATHS = 8;

// Segments that mark an example path in docs: /path/to/x, /etc/foo, /foo/bar, /your/dir.
const PLACEHOLDER_SEGMENT = /^(?:foo|bar|baz|qux|quux|foobar|example|examples?-\w+|dummy|placeholder|xxx+|some(?:where|thing)?|your[-_\w]*|my[-_]?(?:project|app|repo|dir|file|path))(?:\.\w+)?$/i;
// First segments of URL routes, not file systems: /api/users, /v1/items, /auth/callback.
const ROUTE_ROOT = /^(?:api|v\d+|graphql|rest|rpc|auth|oauth2?|login|logout|signin|signup|callback|webhooks?|health|healthz|metrics|status|admin)$/i;
// Extensions that make a bare `name.ext` span a file name rather than `object.method`.
const FILE_EXT =
  /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs|json|jsonc|md|mdx|txt|toml|ya?ml|ini|cfg|conf|env|lock|py|pyi|rb|rs|go|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|fish|ps1|sql|css|scss|html|vue|svelte|xml|csv|proto|gradle|tf|nix|dockerfile|log|pem|crt|plist)$/i;

/** Strips a trailing `:line` or `:line:col` (editor-style citations). */
function stripLineSuffix(p: string): string {
  return p.replace(/:\d+(?::\d+)?$/, '');
}

function segmentsOf(p: string): string[] {
  return p.split(/[\\/]+/).filter((s) => s !== '' && s !== '~' && !/^[A-Za-z]:$/.test(s));
}

function isObviouslyFake(p: string): boolean {
  if (/\.\.\.|…|<|>|\*|\?|\{|\}|\$|%/.test(p)) return true; // elisions, templates, globs, variables
  if (/^\/path\/to(?:\/|$)/i.test(p) || /(^|[\\/])path[\\/]to([\\/]|$)/i.test(p)) return true;
  return segmentsOf(p).some((s) => PLACEHOLDER_SEGMENT.test(s));
}

/** Classifies one candidate; returns the normalized path or null when it is not a real-looking path. */
export function asCitedPath(raw: string, fromBackticks: boolean): string | null {
  if (/\.\.\.|…/.test(raw)) return null; // `/home/me/...`: an elided example, checked before trimming dots
  let p = raw.trim().replace(/[.,;:!?)\]'"]+$/, '');
  p = stripLineSuffix(p);
  if (p.length < 2 || p.length > 400) return null;
  const windows = /^[A-Za-z]:[\\/]/.test(p);
  if (/\s/.test(p) && !windows) return null; // `npm run build`: a command, not a path
  if (p.startsWith('-')) return null; // --flag
  if (p.includes('://') || /^[\w.-]+@[\w.-]+:/.test(p) || p.startsWith('@')) return null; // URL, user@host:, @scope/pkg
  if (isObviouslyFake(p)) return null;
  const segs = segmentsOf(p);
  if (p.startsWith('/')) {
    if (segs.length < 2) return null; // /verify, /tmp: routes and slash commands
    if (ROUTE_ROOT.test(segs[0]!)) return null;
    return p;
  }
  if (p.startsWith('~/')) return segs.length >= 1 ? p : null;
  if (windows) return segs.length >= 1 ? p : null;
  if (!fromBackticks) return null; // bare relative words in prose are too ambiguous
  if (!/^[\w.@+\-/\\]+$/.test(p) || p.startsWith('~')) return null;
  if (p.startsWith('./') || p.startsWith('../')) return segs.length >= 1 ? p : null;
  const last = segs[segs.length - 1] ?? '';
  if (segs.length === 1) return FILE_EXT.test(last) && !/^\d/.test(last) ? p : null; // `package.json`
  // `owner/repo`, `and/or`, `text/plain`: one slash and no extension is not clearly a path.
  if (segs.length === 2 && !FILE_EXT.test(last) && !p.endsWith('/')) return null;
  return p;
}

// One pass in document order: a backtick span, or a bare absolute / ~ / Windows path in prose.
// The lookbehind keeps URL paths (`://host/x`), remotes (`host:/x`) and words (`and/or`) out.
const CANDIDATE_RE = /`([^`\n]+)`|(?<![\w.:/~@\\-])(~?\/[\w.@+-]+(?:\/[\w.@+-]+)*\/?|[A-Za-z]:\\[^\s`'"<>|*?]+)/g;

/** Up to MAX_CITED_PATHS distinct paths cited in a memory body, in order of appearance. */
export function extractCitedPaths(body: string, max = MAX_CITED_PATHS): string[] {
  const out: string[] = [];
  for (const m of body.matchAll(CANDIDATE_RE)) {
    const p = m[1] !== undefined ? asCitedPath(m[1], true) : asCitedPath(m[2]!, false);
    if (p && !out.includes(p)) out.push(p);
    if (out.length >= max) break;
  }
  return out;
}

export interface PathCheckContext {
  /** Expands `~/`; defaults to the user's home directory. */
  home?: string;
  /**
   * Where relative paths resolve: the memory's origin worktree when the caller is in that repo,
   * else null (relative paths are then skipped, neither checked nor missing).
   */
  relativeRoot: string | null;
}

export interface PathCheck {
  checked: number;
  /** Cited paths (as written) that do not exist. */
  missing: string[];
}

/** Resolves a cited path to an absolute one, or null when it cannot be checked from here. */
export function resolveCitedPath(p: string, ctx: PathCheckContext): string | null {
  if (p.startsWith('~/')) return join(ctx.home ?? homedir(), p.slice(2));
  if (/^[A-Za-z]:[\\/]/.test(p)) return process.platform === 'win32' ? p : null; // not checkable elsewhere
  if (isAbsolute(p)) return p;
  return ctx.relativeRoot ? resolve(ctx.relativeRoot, p) : null;
}

export function checkPaths(paths: readonly string[], ctx: PathCheckContext): PathCheck {
  const missing: string[] = [];
  let checked = 0;
  for (const p of paths) {
    const abs = resolveCitedPath(p, ctx);
    if (abs === null) continue;
    checked++;
    if (!existsSync(abs)) missing.push(p);
  }
  return { checked, missing };
}

/** True when dir exists and is a directory (an origin worktree may be gone or on another machine). */
export function isDirectory(dir: string | null | undefined): dir is string {
  if (!dir) return false;
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
