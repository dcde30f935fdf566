// The value side of a credential stated after a word ("password: X", "the PIN is X"): where it
// is in the text, and what shape it has. A word of a sentence ("is stored in Vault", "is rotated
// monthly"), a placeholder, a variable, a path, a URL, a resource's name (`db-creds-v2`), public
// key material or a number with a unit is no credential; everything else is described by the
// shapes it has, and each rule (statedCredentials.ts) says which shapes it takes after which word.
import { charClasses, isPlaceholder, shannonEntropy } from './entropy.ts';
import { lineAfter, lineBefore } from './findings.ts';
import { FOREIGN_PARTICIPLE, FOREIGN_PROSE_WORDS, FUNCTION_WORDS } from './lexicon.ts';

export interface Shapes {
  /** Machine-made: long, letters and digits, high entropy; or hex, base32, base64, a UUID. */
  random: boolean;
  /** A human password of 8+ characters using three of lower / upper / digit / symbol. */
  strong: boolean;
  /** Letters with digits or symbols, or a case change inside (4+ characters). */
  password: boolean;
  /** Digits only (grouped by spaces or dashes, or with a keypad's # and *): the count. */
  digits: number;
  /** One word of letters that is no word of a sentence. */
  word: boolean;
  /** Words joined by spaces, dashes, underscores or dots, none of them a word of a sentence. */
  passphrase: boolean;
}

/** Words of a sentence that follow "password is" / "token:" where no value is stated. */
export const PROSE_WORDS = new Set(
  (
    'a an the this that these those its it their our your my his her one any some no not none never also only still now ' +
    'in on at by for from to with within into inside under via of over through per each every all both either same different ' +
    'stored kept saved held managed handled set reset changed rotated expired expires expiring valid invalid required optional ' +
    'needed missing wrong correct incorrect unknown known shared secret private public sensitive unique random generated ' +
    'long short strong weak empty blank blocked locked unlocked disabled enabled revoked issued provided available ' +
    'see ask check use get request contact find look read fetch pull copy paste enter type run call open go refer ' +
    'and or but so if when where which who whom whose what how why because since until unless then than there here ' +
    'is was are were be been being has have had do does did will would can could should must may might ' +
    'pending tbd n/a na later elsewhere separately usually typically always often sometimes rarely ' +
    'vault keychain keyring manager file env environment config configuration variable secret secrets ' +
    'mandatory enforced supported allowed needed good bad fine ok okay same default defaults ' +
    'single multi non self auto time user users team per one two three lived ' +
    'whatever whichever anything something nothing everything you we they i he she me us them mine yours ours theirs him ' +
    'as like just about after before again first last next new old current previous ' +
    'rotate change generate create update remove delete add store keep save share send give need want know follow ' +
    'min max minimum maximum length characters chars digits letters words policy policies rules rule hint field column ' +
    'below above attached following prompt prompted interactive stdin input output sso oauth saml ldap oidc ' +
    'login logins sign signin account accounts access token tokens password passwords key keys code codes pin ' +
    'identical similar simple trivial secure insecure complex temporary permanent personal individual generic static dynamic ' +
    'fixed internal external local global plaintext cleartext hidden unique shown'
  ).split(/\s+/),
);
/** Word endings of prose (past participles, adverbs, adjectives, nouns), for lowercase words up to 14 letters. */
const PROSE_SUFFIX = /(?:ed|ing|ly|able|ible|ive|ous|ful|less|ment|tion|sion|ness|ity|ence|ance)$/;
export const proseWord = (w: string) => PROSE_WORDS.has(w) || FOREIGN_PROSE_WORDS.has(w) || (w.length <= 14 && (PROSE_SUFFIX.test(w) || FOREIGN_PARTICIPLE.test(w)));


/**
 * Words that name things in infrastructure. Joined by - _ . they make a resource's name
 * (`tls-cert-2024`, `db-creds-v2`, `app_secret_2`, `my-app-tls`), not a passphrase
 * (`mossy-river-lantern-42`).
 */
const RESOURCE_WORDS = new Set(
  (
    'tls ssl cert certs certificate certificates key keys secret secrets token tokens cred creds credential credentials ' +
    'password passwords pass pwd db database databases pg postgres postgresql mysql redis mongo mongodb sql api apis app apps ' +
    'svc service services prod production staging stage dev development test tests testing qa uat local internal external ' +
    'public private admin root user users web backend frontend server servers client clients auth oauth sso ldap saml jwt ' +
    'ssh gpg pgp aws gcp azure k8s kube kubernetes helm vault config configs env envs default main ci cd deploy deployment ' +
    'build release read write ro rw readonly readwrite ingress egress gateway proxy cluster node nodes pod pods job jobs cron ' +
    'worker workers queue cache bucket storage blob s3 iam role roles policy policies github gitlab actions oidc slack stripe ' +
    'billing payments mail smtp email sentry datadog grafana prometheus kafka rabbit rabbitmq elastic search index mock fake ' +
    'sample demo example ref name id ids v1 v2 v3 v4 ns namespace org team project repo store manager kms hsm signing'
  ).split(/\s+/),
);

/** Words before a credential word that make what follows its digest ("sha256 of the secret:", "bcrypt hash of the password"). */
export const HASH_OF = /\b(?:(?:hash(?:ed)?|sha-?\d*|md5|digest|checksum|fingerprint|bcrypt|argon2\w*)(?:[ \t]+of)?|hmac[ \t]+of)(?:[ \t]+(?:the|a|an|our|my|this))?(?:[ \t]+[\w-]+)?[ \t]*$/i;

// An example is no credential: "e.g. password: X", "password: X (example, never real)", "... not a secret".
// Not the last label of a host name (`files.partner.example`, RFC 2606), which names a real host in a note.
export const EXAMPLE_BEFORE = /\b(?:e\.g\.|for example|for instance|such as|example:|beispiel|z\.\s?b\.|exemple|par exemple|ejemplo|por ejemplo|exemplo|esempio|voorbeeld|bijvoorbeeld|przyk\u0142ad|\u043f\u0440\u0438\u043c\u0435\u0440)|\u4f8b\u3048\u3070|\u793a\u4f8b|\u4f8b\uff1a/iu;
export const EXAMPLE_AFTER = /(?<![.@/-])\b(?:examples?|samples?|dummy|fake|placeholder)\b(?!\.)|\bnot (?:a |the )?(?:real|secret|credential|password)\b|\bmade[- ]up\b|\bkein echter\b|\bpas (?:un )?vrai\b|\bno es real\b|\bn\u00e3o \u00e9 real\b|\bniet echt\b/i;

/** Does the line present the value as an example, or say it is none? */
export function exampleOrDisowned(text: string, keyStart: number, valueEnd: number): boolean {
  return EXAMPLE_BEFORE.test(lineBefore(text, keyStart, 80)) || EXAMPLE_AFTER.test(lineAfter(text, valueEnd, 80));
}

const CODE_ROOTS = new Set(
  'process env environ config configs settings secrets secret password passwd pass pwd token tokens key keys vars values params props this self ctx context app window meta data db database user auth credentials creds spec metadata item items request req response res global globals local locals options opts args kwargs'.split(' '),
);

/** `process.env.X`, `os.environ[...]`, `getToken()`, `$VAR`, an environment variable's name. */
export function isReference(v: string): boolean {
  if (/^[A-Za-z_$][\w$.:]*\(/.test(v)) return true; // also `keyring::key_get(...)`
  // A property path names a variable unless its last part is random (`s.Xy7Lq2Vt9Kp4Rw8SnZ3bF6hJ` is a token).
  // Plain words joined by dots (`river.candle.ninety`) are a passphrase, not a property path, unless one names code's objects.
  if (/^[a-z]+(?:\.[a-z]+){2,}$/i.test(v) && v.split('.').every((p) => /^[A-Z]?[a-z]{3,}$/.test(p)) && !v.split('.').some((p) => CODE_ROOTS.has(p.toLowerCase()))) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:[[(].*)?$/.test(v)) {
    const last = /[\w$]*$/.exec(v.split(/[[(]/)[0]!)![0];
    return !((last.length >= 16 && /\d/.test(last) && /[a-z]/.test(last) && /[A-Z]/.test(last) && shannonEntropy(last) >= 3.5) || /^[0-9a-f]{24,}$/.test(last));
  }
  // An environment variable's name: capitals joined by underscores, or capitals alone. A random
  // base32 string (a TOTP seed: capitals with digits inside, no underscore) is not one.
  // A variable named after the credential (`reporting_pw`, `db_password`, `:'api_token'` in psql).
  if (/^:?'?[a-z][a-z0-9]*(?:_[a-z0-9]+)*_(?:pw|pwd|pass|passwd|password|secret|token|key)'?$/.test(v)) return true;
  if (!/^[A-Z][A-Z0-9_]*$/.test(v)) return false;
  // Digits woven through capitals (`K8Z4QW1M`) are a password's, not a name's (`HTTP2`, `AWS4`).
  const digitCount = (v.match(/\d/g) ?? []).length;
  if (!v.includes('_') && digitCount >= 3 && ((v.match(/[A-Z]\d/g) ?? []).length >= 3 || v.length - digitCount <= 2)) return false; // `K8Z4QW1M`, `B4726`
  return v.includes('_') || !/[0-9]/.test(v) || v.length < 12;
}

// Where a credential is kept, never the credential: `password: 1Password`, `token: Keychain`.
export const VAULT_WORDS = /1password|keychain|keyring|vault|bitwarden|lastpass|keepass|dashlane|secrets?[-_ ]?manager|parameter[-_ ]?store|ssm/i;

/** Parts of public keys, fingerprints and digests, which are safe to share. */
const PUBLIC_MATERIAL = /^(?:hmac-sha\d+:|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2|sk-ssh|sk-ecdsa|age1[a-z0-9]{40,}$|npub1|pk_(?:live|test)_|pk\.eyJ|(?:sha\d+|md5):|sha\d+-)/i;

/** A resource's name: words (at least one of infrastructure) and short numbers joined by - _ . */
export function isResourceName(v: string): boolean {
  const segs = v.split(/[-_.]+/).filter((s) => s !== '');
  // Names are lowercase: a capital inside (`nas-Admin-77`) is a password's.
  if (segs.length < 2 || /[A-Z]/.test(v) || !segs.every((s) => /^[a-z]+$/.test(s) || /^v?\d{1,4}$/.test(s))) return false;
  return segs.some((s) => RESOURCE_WORDS.has(s.toLowerCase()));
}

/** Digits and one of a keypad's letter keys A-D (`7362B`), which a unit (`512B`, `10m`) has fewer digits than. */
const KEYPAD_CODE = /^\d{4,8}[A-D]$/;

/** Is `v` no credential at all, whatever word stands before it? */
function rejected(v: string): boolean {
  if (isPlaceholder(v) || isReference(v) || VAULT_WORDS.test(v) || PUBLIC_MATERIAL.test(v)) return true;
  if (/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(v) || v.includes('://') || v.startsWith('-') || v.startsWith('@')) return true;
  if (/^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/.test(v)) return true; // an email address: the login, not the password
  if (/\$\{|\$\(|\{\{|%\{/.test(v)) return true; // a template or a shell expansion inside
  if (/^[*_~]+\p{L}/u.test(v)) return true; // markdown emphasis: *see vault*
  if (/^\d+(?:[.,:]\d+)+$/.test(v) || /^\d{4}-\d\d-\d\d/.test(v)) return true; // an address, a time, a decimal, a date
  if ((/^v?\d+(?:\.\d+)*[a-z]{1,3}$/i.test(v) && !KEYPAD_CODE.test(v)) || /^v\d+(?:\.\d+)*$/i.test(v)) return true; // 3600s, 10m, 5GB, v2
  if (/^id_(?:rsa|dsa|ecdsa|ed25519)(?:[-_.]\w+)?$/i.test(v)) return true; // a key file's name (id_ed25519), not the key
  if (/(?:^|\.)[*#](?:\.|$)/.test(v)) return true; // a routing or topic pattern (payments.*, orders.#.created)
  if (/^[a-z][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)+$/.test(v) && /\/[a-z]/.test(v)) return true; // a vault or parameter path (`secret/dev/keycloak/admin`)
  if (/^\*[0-9A-F]{40}$/i.test(v)) return true;
  if (/^(?:kubectl|vault|aws|gcloud|az|op|gopass|bw|lpass|security|pass|cat|sops|doppler|infisical|chamber|heroku|gh|terraform|pulumi|openssl|base64|echo)\s/.test(v)) return true; // the command that fetches it
  if (/^(?:Get|Read|ConvertTo|ConvertFrom|New|Import|Invoke)-[A-Z][A-Za-z]+$/.test(v)) return true; // a PowerShell cmdlet (`$cred = Get-Credential`) // a MySQL password hash (IDENTIFIED BY PASSWORD '*...'), not the password
  if (/^(?:arn|urn):/i.test(v)) return true; // an AWS resource name (arn:aws:secretsmanager:...:secret:name): where a secret is, not the secret
  return false;
}

const WORD = /^\p{L}+$/u;

/** The shapes of `v`, or null when it is no credential (see the header). */
export function shapesOf(v: string, quoted = false): Shapes | null {
  const n = [...v].length;
  if (n < 3 || n > 200 || rejected(v)) return null;
  // Han, kana or Hangul without a Latin letter or a digit: a sentence of those languages ("総務に聞いてください"), not a password.
  if (/^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff5e\u30fc]+$/u.test(v)) return null;
  if (/^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Thai}\p{Script=Devanagari}]/u.test(v)) return null; // "관리자(Passbolt)에서만": a word of the sentence first
  const s: Shapes = { random: false, strong: false, password: false, digits: 0, word: false, passphrase: false };
  if (/^[\d#*]+$/.test(v) || /^\d{1,6}(?:(?:[ -]|[ \t]?[\u2013\u2014][ \t]?)\d{1,6})+$/.test(v) || KEYPAD_CODE.test(v)) {
    s.digits = v.replace(/\D/g, '').length;
    return s;
  }
  if (WORD.test(v)) {
    const w = v.toLowerCase();
    // One capitalised word ("Okta", "LDAP") names a system more often than it is a password.
    s.word = !proseWord(w) && !/^\p{Lu}\p{Ll}*$/u.test(v) && !/^\p{Lu}+$/u.test(v);
    s.password = /\p{Ll}\p{Lu}/u.test(v) && !/^\p{Lu}\p{Ll}+$/u.test(v); // camelCase inside
    return s.word || s.password ? s : null;
  }
  const parts = v.split(/[ \-_.]+/).filter((p) => p !== '');
  const joined = parts.length >= 2 && parts.every((p) => /^[\p{L}\d]+$/u.test(p));
  if (joined) {
    const lower = parts.map((p) => p.toLowerCase());
    if (isResourceName(v) && !/\s/.test(v)) return null;
    if (lower.every((p) => proseWord(p) || /^\d+$/.test(p))) return null; // "short-lived", "read-only"
    // Random words, not a sentence: no function word, and fewer than half of them words of prose
    // ("rotated every 90 days" is a sentence; "correct horse battery staple" is not).
    const alpha = lower.filter((p) => /^\p{L}+$/u.test(p));
    const prose = alpha.filter((p) => proseWord(p)).length;
    s.passphrase = alpha.length >= 2 && !lower.some((p) => FUNCTION_WORDS.has(p)) && 2 * prose < alpha.length && parts.every((p) => p.length <= 24);
  } else if (/\s/.test(v)) {
    // Spaces with symbols in it: a sentence unless it is a strong password in quotes.
    if (v.split(/\s+/).some((w) => FUNCTION_WORDS.has(w.toLowerCase()))) return null;
  }
  if (/\s/.test(v) && !quoted) return s.passphrase ? s : null; // words to the end of a clause: a passphrase or nothing
  const letters = /\p{L}/u.test(v);
  const digit = /[0-9]/.test(v);
  s.password = letters && n >= 4 && (digit || /[^\p{L}0-9]/u.test(v.replace(/ /g, '')) || /\p{Ll}\p{Lu}/u.test(v));
  s.strong = letters && n >= 8 && charClasses(v.replace(/ /g, '')) >= 3;
  const compact = v.replace(/[-\s]/g, '');
  s.random =
    !/\s/.test(v) &&
    ((n >= 12 && letters && digit && shannonEntropy(v) >= 3.0 && !s.passphrase) ||
      (/^[0-9a-f]{16,}$/i.test(compact) && /[a-f]/i.test(compact) && /\d/.test(compact)) || // hex, UUIDs, grouped hex
      (/^[A-Z2-7]{16,}=*$/.test(compact) && /[2-7]/.test(compact)) || // base32 (TOTP seeds)
      (/^[A-Za-z0-9+/]{12,}={1,2}$/.test(v) && shannonEntropy(v) >= 3.0) || // padded base64
      (/^[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){3,}$/.test(v) && digit && /[A-Z]/.test(v))) || // grouped recovery keys
    (quoted && /^[A-Z2-7]{4}(?: [A-Z2-7]{4}){3,9}$/.test(v) && /[2-7]/.test(v)) || // a base32 seed in groups of four
    (quoted && /^0x[0-9A-Fa-f]{8}(?:[ ,]+0x[0-9A-Fa-f]{8}){1,7}$/.test(v)); // a key in 32-bit words
  return s.random || s.strong || s.password || s.passphrase ? s : null;
}

export interface Value {
  text: string;
  start: number;
  end: number;
  quoted: boolean;
  /** Nothing of the sentence follows: end of line, punctuation, a parenthesis, a dash, a comment. */
  clauseEnd: boolean;
  /** Space-separated words taken up to the end of the clause (an unquoted passphrase). */
  words: number;
}

/** One more lowercase word or number of an unquoted passphrase, ending where a word ends. */
const PHRASE_WORD = / [\p{Ll}\d]{1,25}(?=[\s.,;!?)]|$)/uy;
const QUOTES: Record<string, string> = { '"': '"', "'": "'", '`': '`', '\u201c': '\u201d', '\u2018': '\u2019', '\u00ab': '\u00bb' };
const STOP = /[\s"'`\u201c\u201d\u2018\u2019;<]/;

/** After a value: does the sentence go on (false) or does the clause end here (true)? */
function clauseEndsAt(text: string, at: number, trimmed: boolean): boolean {
  if (trimmed) return true;
  let i = at;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t') && i - at < 200) i++;
  if (i >= text.length || text[i] === '\n' || text[i] === '\r') return true;
  return /[(\u2014\u2013#|,;.!?:)\]}-]/.test(text[i]!);
}

/**
 * The value at `at`: a quoted string (spaces allowed), a run of digit groups ("1 9 6 4"), a run
 * of lowercase words up to the end of the clause ("otter quilt maple 19 sunrise"), or a run of
 * non-space characters without trailing sentence punctuation. A run of words comes first, then
 * its first word alone (`phrases`: false when no run of words could be accepted).
 */
export function readValue(text: string, at: number, phrases = true): Value[] {
  const open = text[at];
  if (open !== undefined && QUOTES[open]) {
    const found = text.slice(at + 1, at + 202).indexOf(QUOTES[open]!);
    if (found === -1) return [];
    const close = at + 1 + found;
    const inner = text.slice(at + 1, close);
    if (/\n/.test(inner)) return [];
    const lead = inner.length - inner.trimStart().length;
    const value = inner.trim();
    if (value === '') return [];
    return [{ text: value, start: at + 1 + lead, end: at + 1 + lead + value.length, quoted: true, clauseEnd: clauseEndsAt(text, close + 1, false), words: value.split(/\s+/).length }];
  }
  // A key written as 32-bit words (`0x5A3C91E7 0x0B2D48F6 ...`), as debug tools take it: one value.
  const words32 = /0x[0-9A-Fa-f]{8}(?:[ ,]+0x[0-9A-Fa-f]{8}){1,7}(?![\w])/y;
  words32.lastIndex = at;
  const w32 = words32.exec(text);
  if (w32) return [{ text: w32[0], start: at, end: at + w32[0].length, quoted: true, clauseEnd: clauseEndsAt(text, at + w32[0].length, false), words: 1 }];
  // A base32 seed written in groups of four ("JBSW Y3DP EHPK 3PXP"), as authenticator apps show it: one value.
  const seed = /[A-Z2-7]{4}(?: [A-Z2-7]{4}){3,9}(?![A-Za-z0-9])/y;
  seed.lastIndex = at;
  const b32 = seed.exec(text);
  if (b32 && /[2-7]/.test(b32[0]) && /[A-Z]/.test(b32[0])) {
    return [{ text: b32[0], start: at, end: at + b32[0].length, quoted: true, clauseEnd: clauseEndsAt(text, at + b32[0].length, false), words: 1 }];
  }
  const groups = /\d{1,6}(?:(?:[ -]|[ \t]?[\u2013\u2014][ \t]?)\d{1,6}){1,7}(?![\p{L}\d])/uy;
  groups.lastIndex = at;
  const g = groups.exec(text);
  if (g && !/^\d+-\d+$/.test(g[0]) && !/^\d{4}-\d\d-\d\d/.test(g[0])) {
    return [{ text: g[0], start: at, end: at + g[0].length, quoted: false, clauseEnd: clauseEndsAt(text, at + g[0].length, false), words: 1 }];
  }
  let end = at;
  while (end < text.length && end - at <= 200 && !STOP.test(text[end]!)) end++;
  const raw = text.slice(at, end);
  // Trailing sentence punctuation is not part of the value (a value ending in ! keeps it when
  // more of the value precedes it: `Summer2024!`). A loop: a regex anchored at $ is quadratic.
  let cut = raw.length;
  while (cut > 0 && '.,:?)]}>'.includes(raw[cut - 1]!)) cut--;
  let value = raw.slice(0, cut);
  if (/^\p{L}+!+$/u.test(value)) value = value.replace(/!+$/, '');
  // A URL's query goes on with its next parameter (`secret=X&issuer=Y`): the value ends there.
  const param = /&[A-Za-z_][\w.-]*=/.exec(value);
  if (param) value = value.slice(0, param.index);
  // A value written against the next word of a language without spaces ("Tsubaki-8812です"): the value ends there.
  const cjk = /[\x21-\x7e][\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff0f]/u.exec(value);
  if (cjk) value = value.slice(0, cjk.index + 1);
  if (value === '') return [];
  const single: Value = { text: value, start: at, end: at + value.length, quoted: false, clauseEnd: clauseEndsAt(text, at + value.length, value.length < raw.length), words: 1 };
  if (!phrases || !/^[\p{Ll}\d]{1,24}$/u.test(value) || value.length < raw.length || FUNCTION_WORDS.has(value)) return [single];
  // Lowercase words and numbers separated by single spaces up to the end of the clause. A function
  // word makes the run a sentence (shapesOf refuses it), so reading stops there.
  let j = at + value.length;
  let words = 1;
  for (; words < 24; words++) {
    PHRASE_WORD.lastIndex = j;
    const w = PHRASE_WORD.exec(text);
    if (!w) break;
    if (FUNCTION_WORDS.has(w[0].slice(1))) return [single];
    j += w[0].length;
  }
  if (words < 2 || !clauseEndsAt(text, j, false)) return [single];
  return [{ text: text.slice(at, j), start: at, end: j, quoted: false, clauseEnd: true, words }, single];
}
