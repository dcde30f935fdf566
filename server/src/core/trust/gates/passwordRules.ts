// The personal gate's password rules: a password in a URL, a `key = value` assignment whose value
// looks random, a password on a command line, and a password stated in prose ("the staging
// password is X"). statedCredentials.ts adds the phrasings these anchored rules do not reach.
import { charClasses, isPlaceholder, mask, shannonEntropy } from './entropy.ts';
import { exampleOrDisowned, HASH_OF } from './credentialValues.ts';
import { inResourceName, isFixture } from './disowned.ts';
import { type Findings, linesOf, trimPunctuation } from './findings.ts';

/** Entropy (bits/char) a `password = value` value must reach to count as a secret. */
export const ASSIGNMENT_MIN_ENTROPY = 3.0;
export const ASSIGNMENT_MIN_LENGTH = 8;

export function detectUrlPasswords(text: string, out: Findings): void {
  // The password may hold a `#` (people paste it raw, `postgres://svc:Or8#kQz2@db`): the `@` after it still ends it.
  const re = /\b([a-z][a-z0-9+.-]{1,20}):\/\/([^\s:/?#@'"`<>]*):([^\s/?@'"`<>]+)@([^\s/?#'"`<>]+)/gi;
  for (const m of text.matchAll(re)) {
    const [, scheme, user, pass, host] = m as unknown as [string, string, string, string, string];
    if (isPlaceholder(pass) || /^(pass|pw|pwd)$/i.test(pass)) continue;
    const start = m.index + scheme.length + 3 + user.length + 1;
    if (out.overlaps(start, start + pass.length)) continue;
    out.add('url-password', `${scheme}://${user}:${mask(pass, 2)}@${host}`, start, start + pass.length);
  }
}

/** A reference to where a secret lives (`process.env.TOKEN`, `DB_PASSWORD`, `getToken()`), not one. */
function isCodeReference(v: string): boolean {
  return (
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:[[(].*)?$/.test(v) || // process.env.X, os.environ[...]
    /^[A-Za-z_$][\w$.:]*\(/.test(v) || // getToken(...), keyring::key_get(...)
    /^[A-Z][A-Z0-9_]*$/.test(v) // an environment variable name
  );
}

/**
 * Word segments joined by - _ . with at most short numbers (`tls-cert-2024`, `db-creds-v2`,
 * `app_secret_2`): the name of a secret (a k8s Secret, a vault entry), not its value.
 */
function isNameLike(v: string): boolean {
  const segs = v.split(/[-_.]+/).filter((s) => s !== '');
  return segs.length >= 2 && segs.every((s) => /^[A-Za-z]+$/.test(s) || /^v?\d{1,4}$/i.test(s));
}

/** The value side of a `password = value` assignment: does it look like a real credential? */
export function looksLikeSecretValue(v: string): boolean {
  if (/^(?:hmac-)?(?:sha\d+|md5):/i.test(v)) return false; // a digest of the secret (a Vault audit log's `hmac-sha256:...`)
  if (v.length < ASSIGNMENT_MIN_LENGTH) return false;
  if (isPlaceholder(v) || isCodeReference(v)) return false;
  if (/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(v) || v.includes('://')) return false; // a path or URL
  // Words joined by - _ . ("prod-db-credentials") name a secret; real ones carry digits or symbols.
  if (!/[0-9]/.test(v) && !/[^A-Za-z0-9_.-]/.test(v)) return false;
  if (isNameLike(v)) return false;
  if (charClasses(v) < 2) return false; // all digits, all letters
  return shannonEntropy(v) >= ASSIGNMENT_MIN_ENTROPY;
}

// The keyword is matched first and the key is then extended backwards by hand: a regex with a
// repeated `(segment[_.-])*` prefix backtracks quadratically on long runs like "a-a-a-...".
// `password` may end a longer key (PGPASSWORD, REDISPASSWORD, OldPassword) but not follow a digit
// (`1Password: ...` is the vault, not a key); the shorter words need a non-alphanumeric before them.
const ASSIGNMENT_RE =
  /(?:(?<![0-9])(?:password|passwd|passphrase)|(?<![A-Za-z0-9])(?:pwd|secret[_-]?key|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key|token))["']?\s*(=|:=|=>|:)[ \t]*(["'`]?)([^\s"'`,;)\]}]+)\2/gi;
const KEY_CHAR = /[A-Za-z0-9_.-]/;

export function detectAssignments(text: string, out: Findings): void {
  for (const m of text.matchAll(ASSIGNMENT_RE)) {
    const value = m[3]!.replace(/&[A-Za-z_][\w.-]*=.*$/, ''); // a URL's query goes on with its next parameter
    const start = m.index + m[0].length - value.length - m[2]!.length;
    if (out.overlaps(start, start + value.length)) continue;
    if (!looksLikeSecretValue(value) || HASH_OF.test(text.slice(Math.max(0, m.index - 40), m.index)) || exampleOrDisowned(text, m.index, start + value.length)) continue;
    if (inResourceName(text, m.index) || isFixture(text, start, start + value.length, value)) continue; // where the secret is (`arn:...:secret:name`), a fixture's
    let keyStart = m.index;
    while (keyStart > 0 && m.index - keyStart < 100 && KEY_CHAR.test(text[keyStart - 1]!)) keyStart--;
    const key = (text.slice(keyStart, m.index) + /^[A-Za-z_-]+/.exec(m[0])![0]).replace(/^[-_.]+/, '');
    if (/(?:^|[_.-])(?:fake|mock|dummy|example|sample)[_.-]/i.test(key)) continue; // `FAKE_API_KEY = ...`: a fixture says so in its name
    out.add('secret-assignment', `${key}${m[1] === ':' ? ': ' : m[1]}${mask(value, 2)}`, start, start + value.length);
  }
}

// Words that name where a secret is kept, never the secret: `pw: 1Password`, `password: Keychain`.
const VAULT_WORDS = /1password|keychain|keyring|vault|bitwarden|lastpass|keepass|dashlane|secrets?[-_ ]?manager/i;

/**
 * The value of a password flag or a password stated in prose. The context already says it is a
 * password, so the bar is lower than for `key = value` (no entropy), but still not a placeholder,
 * a variable, a path, or a plain lowercase word (`--password flag`, "the password is reset").
 */
export function looksLikeStatedPassword(v: string, minLength: number): boolean {
  if (v.length < minLength || v.length > 200) return false;
  if (isPlaceholder(v) || isCodeReference(v) || VAULT_WORDS.test(v)) return false;
  if (/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(v) || v.includes('://') || v.startsWith('-')) return false;
  if (/^\p{Ll}+$/u.test(v)) return false; // a word, in any language ("temporária", "ausgehängt")
  if (!/[0-9]/.test(v) && !/[^\p{L}0-9]/u.test(v)) return /\p{Lu}/u.test(v) && /\p{Ll}/u.test(v) && !/^\p{Lu}\p{Ll}+$/u.test(v);
  return charClasses(v) >= 2;
}

const MYSQL_CLIENTS = /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mysqlsh|mysqlslap|mariadb|mariadb-dump|mariadb-admin)\b/;

/** `mysql -u root -pS3cret` (mysql's password glued to -p) and `--password value` / `--password=value`. */
export function detectPasswordFlags(text: string, out: Findings): void {
  for (const line of linesOf(text)) {
    if (!MYSQL_CLIENTS.test(line.text)) continue;
    for (const m of line.text.matchAll(/(?<=[\s"',[])-p(["']?)([^\s"'`]+)\1/g)) {
      const value = m[2]!;
      if (!looksLikeStatedPassword(value, 3) && !(/^[a-z]{3,}$/.test(value) && !isPlaceholder(value))) continue;
      const start = line.start + m.index + 2 + m[1]!.length;
      if (out.overlaps(start, start + value.length)) continue;
      out.add('password-flag', `-p${mask(value, 2)}`, start, start + value.length);
    }
  }
  const re = /(?<![\w-])--(?:[a-z]+-)?(?:password|passwd|pass)(?:=|[ \t]+)(["']?)([^\s"'`]+)\1/gi;
  for (const m of text.matchAll(re)) {
    const value = trimPunctuation(m[2]!);
    if (!looksLikeStatedPassword(value, 4)) continue;
    const start = m.index + m[0].length - m[2]!.length - m[1]!.length;
    if (out.overlaps(start, start + value.length)) continue;
    out.add('password-flag', `${m[0].slice(0, m[0].length - m[2]!.length - m[1]!.length)}${mask(value, 2)}`, start, start + value.length);
  }
}

/**
 * Passwords stated in prose: "the staging password is X", "password for the admin is X",
 * "passphrase is X", and the shorthand "pw: X". The keyword, an optional "for <up to three
 * words>", then is / was, then the value. `password: X` / `password = X` are left to the
 * assignment rule and its entropy bar: that shape is config text, where test fixtures
 * (`password: "hunter2"` for a throwaway database) are common.
 */
const PROSE_RE =
  /\b(?:(?:password|passwd|passphrase|passcode|pw|pwd)\b(?:\s+(?:for|of|on)\s+[\w.@'-]+(?:\s+[\w.@'-]+){0,2}?)?\s+(?:is|was)\b|(?<![\w-])(?:pw|passcode)\s*[:=])\s*(["'`]?)([^\s"'`]+)\1/gi;

export function detectPasswordProse(text: string, out: Findings): void {
  for (const m of text.matchAll(PROSE_RE)) {
    const value = trimPunctuation(m[2]!);
    if (!looksLikeStatedPassword(value, 6)) continue;
    const start = m.index + m[0].length - m[2]!.length - m[1]!.length;
    if (isFixture(text, start, start + value.length, value)) continue;
    if (out.overlaps(start, start + value.length)) continue;
    out.add('password-prose', `${m[0].slice(0, m[0].length - m[2]!.length - m[1]!.length)}${mask(value, 2)}`, start, start + value.length);
  }
}
