// Path drift: which file paths a memory cites, and whether they still exist. A memory that says
// "the retry logic is in `src/net/retry.ts`" is suspect once that file is gone. The extractor
// errs towards NOT seeing a path: a false path reads as "missing" and makes a sound memory look
// drifted, which is worse than not checking a real one.
//
// Where paths are taken from:
//   - a backtick span that is one word: the span (`src/net/retry.ts`, `package.json`, `test/fixtures/`);
//   - a backtick span that is a command line (`scripts/release.sh --prod`, `node dist/x.mjs init`):
//     each word, and the value of `--flag=value` / `KEY=value`, judged by the same rules;
//   - prose: absolute, `~/` and `C:\` paths, and relative paths with a directory part AND an
//     extension (`see src/foo.py for...`, `./scripts/dev.sh`); a bare word without both is too
//     ambiguous (`and/or`, `owner/repo`, `feature/login`).
// Never paths: URLs and `host:` remotes, placeholders (`/path/to`, `<file>`, `$VAR`, `foo/bar`),
// flags, URL routes (`/api/users`), versions (`v1.2.3`), `@scope/pkg` and `owner/repo`, docker
// images (anything with a `:tag`, or whose first segment is a domain: `ghcr.io/acme/app`),
// globs (`*`, `?`, `{}`) and two-segment names without an extension (branches: `feature/login`).
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export const MAX_CITED_PATHS = 8;

// Segments that mark an example path in docs: /path/to/x, /etc/foo, /foo/bar, /your/dir.
// (`myproject`, `my-app` are not here: framework scaffolds name real projects that way.)
const PLACEHOLDER_SEGMENT = /^(?:foo|bar|baz|qux|quux|foobar|example|examples?-\w+|dummy|placeholder|xxx+|some(?:where|thing)?|your[-_\w]*)(?:\.\w+)?$/i;
// First segments of URL routes, not file systems: /api/users, /v1/items, /auth/callback.
const ROUTE_ROOT = /^(?:api|v\d+|graphql|rest|rpc|auth|oauth2?|login|logout|signin|signup|callback|webhooks?|health|healthz|metrics|status|admin)$/i;
// Extensions that make a bare `name.ext` span a file name rather than `object.method`.
const FILE_EXT =
  /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs|json|jsonc|md|mdx|txt|toml|ya?ml|ini|cfg|conf|env|lock|py|pyi|rb|rs|go|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|fish|ps1|sql|css|scss|html|vue|svelte|xml|csv|proto|gradle|tf|nix|dockerfile|log|pem|crt|plist)$/i;

/**
 * A last segment that reads as a file name: a known extension, or any extension of 2-10
 * characters starting with a letter (`.exs`, `.mk`, `.ipynb`); never `.1` or `.x` (versions).
 */
function hasFileExtension(seg: string): boolean {
  return FILE_EXT.test(seg) || /^[^.]*[^./][^/]*\.[A-Za-z][A-Za-z0-9]{1,9}$/.test(seg);
}

/**
 * A dotfile named on its own in backticks (`.nvmrc`, `.env.local`, `.python-version`,
 * `.gitattributes`): tool-config shapes only, so a member like `.length` or `.then` is not one.
 */
function isDotfileName(seg: string): boolean {
  if (!/^\.[a-z][a-z0-9._-]*$/.test(seg)) return false;
  return /[-_.]/.test(seg.slice(1)) || /(?:rc|ignore|attributes|config|modules|keep|env)$/.test(seg);
}

/** Strips a trailing `:line` or `:line:col` (editor-style citations). */
function stripLineSuffix(p: string): string {
  return p.replace(/:\d+(?::\d+)?$/, '');
}

function segmentsOf(p: string): string[] {
  return p.split(/[\\/]+/).filter((s) => s !== '' && s !== '~' && !/^[A-Za-z]:$/.test(s));
}

function isObviouslyFake(p: string): boolean {
  if (/\.\.\.|\u2026|<|>|\*|\?|\{|\}|\$|%/.test(p)) return true; // elisions, templates, globs, variables
  if (/^\/path\/to(?:\/|$)/i.test(p) || /(^|[\\/])path[\\/]to([\\/]|$)/i.test(p)) return true;
  return segmentsOf(p).some((s) => PLACEHOLDER_SEGMENT.test(s));
}

// A first segment that is a host name (`github.com/x`, `ghcr.io/acme/app`, `golang.org/x/tools`):
// dotted, not a dotfile, and ending in a label that is not a file extension.
function isDomainLike(seg: string): boolean {
  const m = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.([a-z]{2,12})$/i.exec(seg);
  return m !== null && !FILE_EXT.test(`.${m[1]}`);
}

// Device files: always there, never what a note is about.
const DEVICE = /^\/dev\/(?:null|zero|stdin|stdout|stderr|tty|u?random)$/;

/** Classifies one candidate; returns the normalized path or null when it is not a real-looking path. */
export function asCitedPath(raw: string, fromBackticks: boolean): string | null {
  if (/\.\.\.|\u2026/.test(raw)) return null; // `/home/me/...`: an elided example, checked before trimming dots
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
    if (ROUTE_ROOT.test(segs[0]!) || DEVICE.test(p)) return null;
    return p;
  }
  if (p.startsWith('~/')) return segs.length >= 1 ? p : null;
  if (windows) return segs.length >= 1 ? p : null;
  if (!/^[\w.@+\-/\\]+$/.test(p) || p.startsWith('~')) return null;
  const last = segs[segs.length - 1] ?? '';
  if (!p.startsWith('./') && !p.startsWith('../') && isDomainLike(segs[0] ?? '') && segs.length >= 2) return null; // github.com/x, ghcr.io/a/b
  if (!fromBackticks) {
    // Prose: a directory part and an extension (a letter first: `v1/2.0` is no file), nothing less.
    if (segs.length < 2 && !p.startsWith('./') && !p.startsWith('../')) return null;
    return hasFileExtension(last) ? p : null;
  }
  if (p.startsWith('./') || p.startsWith('../')) return segs.length >= 1 ? p : null;
  if (segs.length === 1) {
    if (p.endsWith('/') && /^[\w.-]+\/$/.test(p)) return p; // `migrations/`: a directory
    return (FILE_EXT.test(last) && !/^\d/.test(last)) || isDotfileName(last) ? p : null; // `package.json`, `.nvmrc`
  }
  // `owner/repo`, `and/or`, `text/plain`: one slash and no extension is not clearly a path.
  // A dot-directory (`.github/CODEOWNERS`, `.husky/pre-commit`) is never an owner or a branch.
  if (segs.length === 2 && !hasFileExtension(last) && !p.endsWith('/') && !segs[0]!.startsWith('.')) return null;
  return p;
}

// One pass in document order: a backtick span, a bare absolute / ~ / Windows path, or a bare
// relative path with a slash in prose. The lookbehinds keep URL paths (`://host/x`), remotes
// (`host:/x`, `host:a/b`) and the middle of words out.
const CANDIDATE_RE =
  /`([^`\n]+)`|(?<![\w.:/~@\\$-])(~?\/[\w.@+-]+(?:\/[\w.@+-]+)*\/?|[A-Za-z]:\\[^\s`'"<>|*?]+)|(?<![\w.:/~@\\$%{<*-])((?:\.\.?\/|\.(?=\w))?[\w@+-][\w.@+-]*(?:\/[\w.@+-]+)+)(?![\w/*{}<>$(])/g;

/**
 * The words of a command line in backticks that may be paths: each word without its quotes and
 * redirections, and the value of `--flag=value` / `KEY=value`. Flags, words with a `:` (image
 * tags, `host:path`, `node:20`) and the like are dropped by asCitedPath's rules.
 */
function commandWords(span: string): string[] {
  const out: string[] = [];
  for (let w of span.split(/\s+/)) {
    w = w.replace(/^\d*[<>]+&?/, '').replace(/^[('"]+|[)'";&|]+$/g, '');
    if (w === '' || w === '&&' || w === '||' || w === '|') continue;
    const eq = /^(?:--?[\w-]+|[A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(w);
    if (eq) w = eq[1]!.replace(/^['"]|['"]$/g, '');
    else if (w.startsWith('-')) continue;
    if (/^[\w.-]+:(?![\\/])/.test(w) && !/^[A-Za-z]:[\\/]/.test(w)) continue; // node:20, host:path, image:tag
    out.push(w);
  }
  return out;
}

// What one candidate yields, remembered for the candidates seen last: a store cites the same
// files again and again, and classifying one (asCitedPath's dozen patterns) costs several times
// finding it. Both functions depend on the text alone.
const CANDIDATE_MEMO = 4096;
const candidateMemo = new Map<string, readonly string[]>();
const NONE: readonly string[] = [];
function candidatePaths(m: RegExpExecArray): readonly string[] {
  // Keyed by the whole match: a span keeps its backticks, a bare path has none.
  const key = m[0];
  let paths = candidateMemo.get(key);
  if (paths === undefined) {
    const found: string[] = [];
    if (m[1] !== undefined) {
      const span = m[1].trim();
      const windows = /^[A-Za-z]:[\\/]/.test(span);
      if (/\s/.test(span) && !windows) {
        for (const w of commandWords(span)) {
          const p = asCitedPath(w, true);
          if (p) found.push(p);
        }
      } else {
        const p = asCitedPath(span, true);
        if (p) found.push(p);
      }
    } else {
      const p = asCitedPath(m[2] ?? m[3]!, false);
      if (p) found.push(p);
    }
    paths = found.length === 0 ? NONE : found;
    if (candidateMemo.size >= CANDIDATE_MEMO) candidateMemo.clear();
    candidateMemo.set(key, paths);
  }
  return paths;
}

/** Characters that may come before a candidate's first backtick, slash or backslash (see nextCandidate). */
const LEAD = new Uint8Array(128);
for (const ch of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.@+-~:') LEAD[ch.charCodeAt(0)] = 1;

/** A copy of the candidate pattern (global; tests compare nextCandidate with a scan of every position). */
export function candidatePattern(): RegExp {
  return new RegExp(CANDIDATE_RE);
}

/**
 * The first candidate at or after `from`: what a scan of every position from there finds, from
 * fewer positions. Every candidate holds a backtick, a slash or a backslash, and before the first
 * of them only LEAD characters (a word, `~/`, `C:\`, `./`), so the pattern is tried from the
 * start of that run before the next such character, never over the prose in between.
 */
export function nextCandidate(body: string, from: number): RegExpExecArray | null {
  const n = body.length;
  let k = from;
  for (; k < n; k++) {
    const c = body.charCodeAt(k);
    if (c === 96 || c === 47 || c === 92) break; // ` / \
  }
  if (k === n) return null;
  let start = k;
  while (start > from) {
    const c = body.charCodeAt(start - 1);
    if (c >= 128 || LEAD[c] === 0) break;
    start--;
  }
  CANDIDATE_RE.lastIndex = start;
  return CANDIDATE_RE.exec(body);
}

/** Up to MAX_CITED_PATHS distinct paths cited in a memory body, in order of appearance. */
export function extractCitedPaths(body: string, max = MAX_CITED_PATHS): string[] {
  const out: string[] = [];
  for (let from = 0; out.length < max; ) {
    const m = nextCandidate(body, from);
    if (m === null) break;
    from = m.index + m[0].length; // never empty
    for (const p of candidatePaths(m)) if (!out.includes(p) && out.length < max) out.push(p);
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
