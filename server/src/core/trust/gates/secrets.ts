// Secret detection for the write gate. The store is plaintext markdown that people sync, grep and
// commit, so a credential must never reach it: there is no override. The other side of that
// contract is precision — a gate that fires on ordinary notes (git SHAs, ULIDs, UUIDs, paths,
// prose about tokens) teaches users to work around it — so every rule anchors on a provider's
// fixed prefix or on an explicit `key = value` assignment, never on "a random-looking string".
import { charClasses, isPlaceholder, mask, shannonEntropy } from './entropy.ts';
import { detectLoginPairs, detectStatedCredentials } from './statedCredentials.ts';

export const SECRET_KINDS = [
  'private-key',
  'gcp-service-account',
  'gcp-api-key',
  'gcp-oauth-secret',
  'gcp-access-token',
  'aws-access-key-id',
  'aws-secret-access-key',
  'github-token',
  'gitlab-token',
  'slack-token',
  'slack-webhook',
  'stripe-key',
  'anthropic-key',
  'openai-key',
  'npm-token',
  'docker-hub-token',
  'pypi-token',
  'huggingface-token',
  'azure-storage-key',
  'azure-sas-token',
  'twilio-key',
  'sendgrid-key',
  'jwt',
  'bearer-token',
  'url-password',
  'password-flag',
  'password-prose',
  'secret-assignment',
  'env-credential',
  'login-pair',
] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

export interface SecretFinding {
  kind: SecretKind;
  /** The offending text with the secret itself masked (a few leading characters kept). */
  snippet: string;
}

/** Entropy (bits/char) a `password = value` value must reach to count as a secret. */
export const ASSIGNMENT_MIN_ENTROPY = 3.0;
export const ASSIGNMENT_MIN_LENGTH = 8;

interface TokenRule {
  kind: SecretKind;
  re: RegExp;
  /** Leading characters shown in the masked snippet (the fixed prefix plus a couple). */
  keep: number | ((token: string) => number);
  /** Extra check on the whole match; false drops it. */
  accept?: (token: string) => boolean;
}

const notExample = (t: string) => !/EXAMPLE/i.test(t);
const randomTail = (prefix: RegExp) => (t: string) => {
  const tail = t.replace(prefix, '');
  return /[0-9]/.test(tail) && /[A-Za-z]/.test(tail) && shannonEntropy(tail) >= 3.2 && notExample(t);
};

// Provider tokens: fixed prefixes, so a match is almost surely real. Order matters: a span
// claimed by an earlier rule is not reported again by a later, vaguer one.
const TOKEN_RULES: TokenRule[] = [
  { kind: 'gcp-api-key', re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g, keep: 6, accept: notExample },
  { kind: 'aws-access-key-id', re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, keep: 6, accept: notExample },
  { kind: 'github-token', re: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/g, keep: 6, accept: randomTail(/^gh._/) },
  { kind: 'github-token', re: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,}(?![A-Za-z0-9_])/g, keep: 13, accept: randomTail(/^github_pat_/) },
  {
    kind: 'gitlab-token',
    re: /(?<![A-Za-z0-9_-])gl(?:pat|dt|rt|ptt|cbt|ft|imt|oas|soat)-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
    keep: 8,
    accept: randomTail(/^gl[a-z]+-/),
  },
  { kind: 'slack-token', re: /(?<![A-Za-z0-9_-])(?:xox[bpars]|xapp)-[A-Za-z0-9-]{10,}(?![A-Za-z0-9_-])/g, keep: 7, accept: (t) => /[0-9]/.test(t) && notExample(t) },
  {
    kind: 'slack-webhook',
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]{8,}/g,
    keep: 33,
    accept: (t) => !/X{6,}|EXAMPLE/i.test(t),
  },
  { kind: 'stripe-key', re: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}(?![A-Za-z0-9_])/g, keep: 10, accept: randomTail(/^[a-z]{2}_[a-z]+_/) },
  { kind: 'stripe-key', re: /(?<![A-Za-z0-9_])whsec_[A-Za-z0-9]{24,}(?![A-Za-z0-9_])/g, keep: 8, accept: randomTail(/^whsec_/) },
  { kind: 'anthropic-key', re: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{24,}(?![A-Za-z0-9_-])/g, keep: 14, accept: randomTail(/^sk-ant-(?:[a-z]+\d*-)?/) },
  {
    kind: 'openai-key',
    re: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
    keep: (t) => (/^sk-[a-zA-Z]+-/.exec(t)?.[0].length ?? 3) + 2,
    accept: randomTail(/^sk-(?:proj-|svcacct-|admin-|None-)?/),
  },
  { kind: 'gcp-oauth-secret', re: /(?<![A-Za-z0-9_-])GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g, keep: 9, accept: randomTail(/^GOCSPX-/) },
  { kind: 'gcp-access-token', re: /(?<![A-Za-z0-9_.-])ya29\.[A-Za-z0-9_-]{30,}(?![A-Za-z0-9_-])/g, keep: 7, accept: randomTail(/^ya29\./) },
  { kind: 'npm-token', re: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g, keep: 6, accept: randomTail(/^npm_/) },
  { kind: 'docker-hub-token', re: /(?<![A-Za-z0-9_])dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g, keep: 11, accept: randomTail(/^dckr_[a-z]+_/) },
  // A PyPI token is a base64url macaroon whose first bytes always encode to "AgE".
  { kind: 'pypi-token', re: /(?<![A-Za-z0-9_-])pypi-AgE[A-Za-z0-9_-]{50,}(?![A-Za-z0-9_-])/g, keep: 9 },
  // Hugging Face tokens are letters only: demand a random-looking mix of cases, which a
  // snake_case identifier starting with hf_ (`hf_hub_download`) never has.
  {
    kind: 'huggingface-token',
    re: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,40}(?![A-Za-z0-9_])/g,
    keep: 5,
    accept: (t) => {
      const tail = t.slice(3);
      return (tail.match(/[A-Z]/g)?.length ?? 0) >= 4 && (tail.match(/[a-z]/g)?.length ?? 0) >= 4 && shannonEntropy(tail) >= 3.5 && notExample(t);
    },
  },
  { kind: 'sendgrid-key', re: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, keep: 5, accept: randomTail(/^SG\./) },
  // Twilio account and API-key SIDs: AC / SK and exactly 32 lowercase hex digits.
  { kind: 'twilio-key', re: /(?<![A-Za-z0-9_])(?:AC|SK)[0-9a-f]{32}(?![A-Za-z0-9_])/g, keep: 4, accept: (t) => /[0-9]/.test(t.slice(2)) && /[a-f]/.test(t.slice(2)) },
  // header.payload.signature, header and payload both base64url of `{"`.
  { kind: 'jwt', re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?![A-Za-z0-9_-])/g, keep: 8 },
];

interface Span {
  start: number;
  end: number;
}

class Findings {
  readonly list: SecretFinding[] = [];
  private readonly spans: Span[] = [];
  private readonly seen = new Set<string>();

  overlaps(start: number, end: number): boolean {
    return this.spans.some((s) => start < s.end && end > s.start);
  }

  spanList(): Span[] {
    return [...this.spans].sort((a, b) => a.start - b.start);
  }

  add(kind: SecretKind, snippet: string, start: number, end: number): void {
    this.spans.push({ start, end });
    const key = `${kind}\0${snippet}`;
    if (this.seen.has(key)) return; // the same secret pasted twice is one finding
    this.seen.add(key);
    this.list.push({ kind, snippet });
  }
}

function detectPrivateKeys(text: string, out: Findings): void {
  const re = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g;
  for (const m of text.matchAll(re)) {
    const start = m.index;
    const after = text.slice(start + m[0].length, start + m[0].length + 4000);
    const endAt = after.search(/-----END [A-Z0-9 ]*PRIVATE KEY/);
    const material = (endAt >= 0 ? after.slice(0, endAt) : after.slice(0, 600))
      .replace(/\\n/g, '\n')
      .replace(/^[A-Za-z-]+: .*$/gm, ''); // PEM headers such as Proc-Type / DEK-Info
    // A header alone (a note explaining the PEM format) is not a key; key material is: PEM
    // lines are unbroken runs of 64 base64 characters, which no prose word reaches.
    const runs = material.split(/\s+/).filter((r) => /^[A-Za-z0-9+/=]{32,}$/.test(r) && /[0-9+/]/.test(r));
    if (runs.length === 0) continue;
    const end = start + m[0].length + (endAt >= 0 ? endAt : Math.min(after.length, 600));
    if (out.overlaps(start, end)) continue;
    out.add('private-key', `${m[0]} ********`, start, end);
  }
}

function detectGcpServiceAccount(text: string, out: Findings): void {
  if (!/"type"\s*:\s*"service_account"/.test(text)) return;
  const re = /"(private_key_id|private_key)"\s*:\s*"([^"]{8,})"/g;
  for (const m of text.matchAll(re)) {
    const value = m[2]!;
    if (isPlaceholder(value)) continue;
    const valueStart = m.index + m[0].length - value.length - 1;
    out.add('gcp-service-account', `"type": "service_account", "${m[1]}": "${mask(value, m[1] === 'private_key' ? 0 : 2)}"`, valueStart, valueStart + value.length);
  }
}

function detectTokens(text: string, out: Findings): void {
  for (const rule of TOKEN_RULES) {
    for (const m of text.matchAll(rule.re)) {
      const token = m[0];
      if (rule.accept && !rule.accept(token)) continue;
      if (out.overlaps(m.index, m.index + token.length)) continue;
      const keep = typeof rule.keep === 'number' ? rule.keep : rule.keep(token);
      out.add(rule.kind, mask(token, keep), m.index, m.index + token.length);
    }
  }
}

function detectAwsSecretKeys(text: string, out: Findings): void {
  const re = /aws_?secret_?(?:access_?)?key["']?\s*(?:=|:=|=>|:)\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi;
  for (const m of text.matchAll(re)) {
    const value = m[1]!;
    if (!notExample(value) || isPlaceholder(value)) continue;
    const start = m.index + m[0].length - value.length;
    if (out.overlaps(start, start + value.length)) continue;
    out.add('aws-secret-access-key', `${m[0].slice(0, m[0].length - value.length)}${mask(value, 2)}`, start, start + value.length);
  }
}

function detectUrlPasswords(text: string, out: Findings): void {
  const re = /\b([a-z][a-z0-9+.-]{1,20}):\/\/([^\s:/?#@'"`<>]*):([^\s/?#@'"`<>]+)@([^\s/?#'"`<>]+)/gi;
  for (const m of text.matchAll(re)) {
    const [, scheme, user, pass, host] = m as unknown as [string, string, string, string, string];
    if (isPlaceholder(pass) || /^(pass|pw|pwd)$/i.test(pass)) continue;
    const start = m.index + scheme.length + 3 + user.length + 1;
    if (out.overlaps(start, start + pass.length)) continue;
    out.add('url-password', `${scheme}://${user}:${mask(pass, 2)}@${host}`, start, start + pass.length);
  }
}

function detectBearer(text: string, out: Findings): void {
  for (const m of text.matchAll(/\bBearer\s+([A-Za-z0-9._~+/-]{20,}=*)/g)) {
    const value = m[1]!;
    const start = m.index + m[0].length - value.length;
    if (out.overlaps(start, start + value.length)) continue;
    if (!looksLikeSecretValue(value)) continue;
    out.add('bearer-token', `Bearer ${mask(value, 4)}`, start, start + value.length);
  }
}

/** A reference to where a secret lives (`process.env.TOKEN`, `DB_PASSWORD`, `getToken()`), not one. */
function isCodeReference(v: string): boolean {
  return (
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:[[(].*)?$/.test(v) || // process.env.X, os.environ[...]
    /^[A-Za-z_$][\w$.]*\(/.test(v) || // getToken(...)
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
  /(?:(?<![0-9])(?:password|passwd|passphrase)|(?<![A-Za-z0-9])(?:pwd|secret[_-]?key|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key|token))["']?\s*(=|:=|=>|:)\s*(["'`]?)([^\s"'`,;)\]}]+)\2/gi;
const KEY_CHAR = /[A-Za-z0-9_.-]/;

function detectAssignments(text: string, out: Findings): void {
  for (const m of text.matchAll(ASSIGNMENT_RE)) {
    const value = m[3]!;
    const start = m.index + m[0].length - value.length - m[2]!.length;
    if (out.overlaps(start, start + value.length)) continue;
    if (!looksLikeSecretValue(value)) continue;
    let keyStart = m.index;
    while (keyStart > 0 && m.index - keyStart < 100 && KEY_CHAR.test(text[keyStart - 1]!)) keyStart--;
    const key = (text.slice(keyStart, m.index) + /^[A-Za-z_-]+/.exec(m[0])![0]).replace(/^[-_.]+/, '');
    out.add('secret-assignment', `${key}${m[1] === ':' ? ': ' : m[1]}${mask(value, 2)}`, start, start + value.length);
  }
}

function detectAzure(text: string, out: Findings): void {
  // Connection strings: storage accounts (AccountKey=) and Service Bus / Event Hubs (SharedAccessKey=).
  for (const m of text.matchAll(/\b(AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{30,}={0,2})(?![A-Za-z0-9+/=])/g)) {
    const value = m[2]!;
    if (isPlaceholder(value) || !notExample(value) || shannonEntropy(value) < 4) continue;
    const start = m.index + m[1]!.length + 1;
    if (out.overlaps(start, start + value.length)) continue;
    out.add('azure-storage-key', `${m[1]}=${mask(value, 2)}`, start, start + value.length);
  }
  // SAS tokens: the `sig=` of a query string that also carries SAS fields (sv=, se=, sp=...).
  for (const m of text.matchAll(/(?<=[?&;\s]|^)sig=([A-Za-z0-9%+/=_-]{20,})/g)) {
    const value = m[1]!;
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const lineEnd = text.indexOf('\n', m.index);
    const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
    if (!/(?:^|[?&;\s])(?:sv|se|sp|ss|srt|spr|st|sr)=/.test(line)) continue;
    if (isPlaceholder(value) || shannonEntropy(value) < 3.5) continue;
    const start = m.index + 4;
    if (out.overlaps(start, start + value.length)) continue;
    out.add('azure-sas-token', `sig=${mask(value, 2)}`, start, start + value.length);
  }
}

/** Twilio auth tokens are 32 hex digits with no prefix: only next to the words that name them. */
function detectTwilioAuthTokens(text: string, out: Findings): void {
  const re = /\b(?:twilio[\w ]{0,30}?)?auth[_ -]?token\b["']?\s*(?:[:=]|\bis\b)?\s*["']?([0-9a-f]{32})(?![0-9A-Za-z])/gi;
  for (const m of text.matchAll(re)) {
    const value = m[1]!;
    if (!/[0-9]/.test(value) || !/[a-f]/i.test(value)) continue;
    const start = m.index + m[0].length - value.length;
    if (out.overlaps(start, start + value.length)) continue;
    out.add('twilio-key', `auth token ${mask(value, 2)}`, start, start + value.length);
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
  if (/^[a-z]+$/.test(v)) return false; // a word
  if (!/[0-9]/.test(v) && !/[^A-Za-z0-9]/.test(v)) return /[A-Z]/.test(v) && /[a-z]/.test(v) && !/^[A-Z][a-z]+$/.test(v);
  return charClasses(v) >= 2;
}

const MYSQL_CLIENTS = /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mysqlsh|mysqlslap|mariadb|mariadb-dump|mariadb-admin)\b/;

/** `mysql -u root -pS3cret` (mysql's password glued to -p) and `--password value` / `--password=value`. */
function detectPasswordFlags(text: string, out: Findings): void {
  for (const line of linesOf(text)) {
    if (!MYSQL_CLIENTS.test(line.text)) continue;
    for (const m of line.text.matchAll(/(?<=\s)-p(["']?)([^\s"'`]+)\1/g)) {
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

function detectPasswordProse(text: string, out: Findings): void {
  for (const m of text.matchAll(PROSE_RE)) {
    const value = trimPunctuation(m[2]!);
    if (!looksLikeStatedPassword(value, 6)) continue;
    const start = m.index + m[0].length - m[2]!.length - m[1]!.length;
    if (out.overlaps(start, start + value.length)) continue;
    out.add('password-prose', `${m[0].slice(0, m[0].length - m[2]!.length - m[1]!.length)}${mask(value, 2)}`, start, start + value.length);
  }
}

/** A value without trailing sentence punctuation (a loop: /[.,;:!?)\]]+$/ is quadratic in a long value). */
function trimPunctuation(v: string): string {
  let end = v.length;
  while (end > 0 && '.,;:!?)]'.includes(v[end - 1]!)) end--;
  return v.slice(0, end);
}

function* linesOf(text: string): Generator<{ text: string; start: number }> {
  let start = 0;
  while (start <= text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    yield { text: text.slice(start, end), start };
    if (nl === -1) return;
    start = nl + 1;
  }
}

function detectAll(text: string): Findings {
  const out = new Findings();
  detectGcpServiceAccount(text, out); // before private keys: the JSON's embedded PEM is one finding
  detectPrivateKeys(text, out);
  detectTokens(text, out);
  detectAzure(text, out);
  detectTwilioAuthTokens(text, out);
  detectAwsSecretKeys(text, out);
  detectUrlPasswords(text, out);
  detectBearer(text, out);
  detectAssignments(text, out);
  detectPasswordFlags(text, out);
  detectPasswordProse(text, out);
  detectStatedShared(text, out);
  return out;
}

/**
 * The team gate's stated-credential rules where they fit a personal store too: an environment
 * assignment (`DB_PASSWORD=mossy-river-lantern-42`: an .env line is a real value, whatever its
 * shape, when it carries a digit or a symbol) and a `user / password` login pair. A plain word
 * after `password:` stays allowed here (test fixtures in config notes are common).
 */
function detectStatedShared(text: string, out: Findings): void {
  for (const f of [...detectStatedCredentials(text, { envOnly: true, all: true }), ...detectLoginPairs(text)]) {
    if (out.overlaps(f.start, f.end)) continue;
    out.add(f.kind === 'login-pair' ? 'login-pair' : 'env-credential', f.snippet, f.start, f.end);
  }
}

/**
 * Where the secrets are: [start, end) of every span a finding covers, in text order. Used where
 * text is copied somewhere a finding cannot stop it (a file name built from the body).
 */
export function secretSpans(text: string): { start: number; end: number }[] {
  return detectAll(text).spanList();
}

/**
 * The text with every span the detector flags blanked out (one space each). A body with a secret
 * normally never reaches a file, but an import, a pending write confirmed after a rule was added
 * or a hand edit can bring one in; a file name built from the body must not repeat it (names show
 * up in `ls`, git and sync logs even where contents do not).
 */
export function withoutSecrets(text: string): string {
  const spans = secretSpans(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    if (s.start > at) out += text.slice(at, s.start);
    out += ' ';
    at = Math.max(at, s.end);
  }
  return out + text.slice(at);
}

/** Every secret in `text`, most specific kind first; an empty array means the text is clean. */
export function detectSecrets(text: string): SecretFinding[] {
  return detectAll(text).list;
}
