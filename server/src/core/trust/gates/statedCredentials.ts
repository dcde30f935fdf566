// Credentials stated in a note, whatever their shape: a value after a credential word
// (`password: blue-otter-garden-19`, `DB_PASSWORD=mossy-river-lantern-42`, "the wifi password is
// correcthorsebatterystaple", `client_secret = ...`, `token: ...`) and `user / password` login
// pairs ("Jenkins admin / Summer2024! is the staging login"). The personal gate's rules anchor on
// shapes a random credential has (entropy, digits); these accept any value the words say is one,
// and tell it from prose by the value itself: a word of a sentence ("is stored in Vault", "is
// rotated monthly", "see the wiki"), a placeholder, a variable or a path is not a credential.
//
// Each rule is a keyword found by a plain regex followed by a scan by hand over the separator and
// the value, so the cost is linear in the text whatever it holds (long runs of spaces included).
import { isPlaceholder, mask } from './entropy.ts';

export interface StatedCredential {
  kind: 'stated-credential' | 'login-pair';
  snippet: string;
  /** Where the value is in the text: [start, end). */
  start: number;
  end: number;
}

// A credential word. `password` may end a longer key (DB_PASSWORD, PGPASSWORD, wifipassword);
// the shorter words need a non-letter before them (client_secret, api-token, not "secretary").
// Also the word for password in a few other languages, and the codes that open something.
const KEY_RE =
  /(?:password|passwd|passphrase|passcode|passwort|kennwort|wachtwoord|contrase\u00f1a|contrasena|senha|l\u00f6senord|salasana|has\u0142o|\u043f\u0430\u0440\u043e\u043b\u044c|\u30d1\u30b9\u30ef\u30fc\u30c9|\u5bc6\u7801|mot de passe|(?<![A-Za-z])(?:pwd|pw|pin|secret|token|api[ _-]?key|access[ _-]?key|(?:door|alarm|lock|gate|garage|safe|keypad|entry|unlock|recovery|backup)[ -]codes?))(?![A-Za-z])/giu;
/** The words that may take a value after bare whitespace ("with password hunter2"). */
const BARE_KEYS = /^(?:password|passwd|passphrase|passcode|pwd|passwort|kennwort)$/i;
/** Keys whose value may be digits only (a PIN, a door code), not a TTL or a count. */
const DIGIT_KEYS = /pass|pwd|pin|code|kennwort|wachtwoord|contrase|senha|losenord|l\u00f6senord|salasana|has\u0142o|\u043f\u0430\u0440\u043e\u043b\u044c|\u30d1\u30b9\u30ef\u30fc\u30c9|\u5bc6\u7801/i;

/** Words of a sentence that follow "password is" / "token:" where no value is stated. */
const PROSE_WORDS = new Set(
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
    'single multi non self auto time user users team per one two three lived'
  ).split(/\s+/),
);
/** Word endings of prose (past participles, adverbs, adjectives, nouns), for lowercase words up to 14 letters. */
const PROSE_SUFFIX = /(?:ed|ing|ly|able|ible|ive|ous|ful|less|ment|tion|sion|ness|ity|ence|ance)$/;
const proseWord = (w: string) => PROSE_WORDS.has(w) || (w.length <= 14 && PROSE_SUFFIX.test(w));
// Where a credential is kept, never the credential: `password: 1Password`, `token: Keychain`.
const VAULT_WORDS = /1password|keychain|keyring|vault|bitwarden|lastpass|keepass|dashlane|secrets?[-_ ]?manager|parameter[-_ ]?store|ssm/i;

/** `process.env.X`, `os.environ[...]`, `getToken()`, `$VAR`, an environment variable's name. */
function isReference(v: string): boolean {
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:[[(].*)?$/.test(v) || /^[A-Za-z_$][\w$.]*\(/.test(v) || /^[A-Z][A-Z0-9_]*$/.test(v);
}

/**
 * Is `v`, stated after a credential word with separator `sep` (':' or '=' an assignment, 'is' a
 * sentence, ' ' bare whitespace), a credential? `key` is the keyword as written.
 */
export function credentialValue(v: string, sep: ':' | 'is' | ' ', key: string): boolean {
  if ([...v].length < 4 || v.length > 200) return false;
  if (isPlaceholder(v) || isReference(v) || VAULT_WORDS.test(v)) return false;
  if (/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(v) || v.includes('://') || v.startsWith('-') || v.startsWith('@')) return false;
  // Words joined by hyphens that are all words of a sentence ("short-lived", "read-only").
  if (/^[A-Za-z]+(?:-[A-Za-z]+)+$/.test(v) && v.toLowerCase().split('-').every(proseWord)) return false;
  const letters = /^[A-Za-z]+$/.test(v);
  if (letters) {
    const w = v.toLowerCase();
    if (proseWord(w)) return false;
    // One capitalised word ("Okta", "LDAP") names a system more often than it is a password.
    if (/^[A-Z][a-z]+$/.test(v) || /^[A-Z]+$/.test(v)) return false;
    // Bare whitespace ("password reset", "token refresh") takes no plain word.
    if (sep === ' ') return false;
    return w.length >= 6 || sep === ':';
  }
  if (/^\d+$/.test(v)) return DIGIT_KEYS.test(key) && v.length >= 4; // a PIN, not a TTL
  // A number with a unit or a version (token: 3600s, secret: v2) is a setting, not a credential.
  if (/^\d+(?:\.\d+)*[a-z]{0,3}$/i.test(v) || /^v\d+(?:\.\d+)*$/i.test(v)) return false;
  if (/^[\d.:]+$/.test(v)) return false; // an address or a time
  return sep !== ' ' || v.length >= 6;
}

/** After the keyword: an optional closing quote, "for <up to three words>", then the separator. */
function separatorAt(text: string, at: number): { sep: ':' | 'is' | ' '; end: number } | null {
  let i = at;
  if (text[i] === '"' || text[i] === "'") i++;
  const ws = (j: number) => {
    while (j < text.length && (text[j] === ' ' || text[j] === '\t') && j - at < 400) j++;
    return j;
  };
  let j = ws(i);
  const assign = /^(?:=>|:=|=|:|\uff1a)/.exec(text.slice(j, j + 2));
  if (assign) {
    let k = j + assign[0].length;
    while (k < text.length && /\s/.test(text[k]!) && k - j < 400) k++;
    return { sep: ':', end: k };
  }
  if (j === i) return null; // the word runs straight into something else
  // "for the admin account", "of the CI bot", "on staging": up to three words before is / was.
  const q = /^(?:for|of|on)\s+[\w.@'-]{1,40}(?:\s+[\w.@'-]{1,40}){0,2}?\s+(?=is\s|was\s)/i.exec(text.slice(j, j + 160));
  if (q) j += q[0].length;
  const verb = /^(?:is|was|=)\s+(?:(?:now|still|currently|just|literally|set to|changed to|reset to)\s+)?/i.exec(text.slice(j, j + 40));
  if (verb) return { sep: 'is', end: j + verb[0].length };
  const changed = /^(?:set|changed|reset|updated)\s+to\s+/i.exec(text.slice(j, j + 30));
  if (changed) return { sep: 'is', end: j + changed[0].length };
  if (q) return null;
  return { sep: ' ', end: j };
}

/** The value at `at`: a quoted string (spaces allowed) or a run of non-space characters. */
function valueAt(text: string, at: number): { value: string; start: number } | null {
  const open = text[at];
  if (open === '"' || open === "'" || open === '`') {
    const close = text.indexOf(open, at + 1);
    if (close === -1 || close - at > 201) return null;
    const value = text.slice(at + 1, close);
    return /\n/.test(value) ? null : { value, start: at + 1 };
  }
  let end = at;
  while (end < text.length && end - at <= 200 && !/[\s"'`]/.test(text[end]!)) end++;
  // Trailing sentence punctuation is not part of the value (a value ending in ! keeps it when
  // more of the value precedes it: `Summer2024!`).
  let value = text.slice(at, end).replace(/[.,;:?)\]}>]+$/, '');
  if (/^[A-Za-z]+!+$/.test(value)) value = value.replace(/!+$/, '');
  return value === '' ? null : { value, start: at };
}

/**
 * Values stated after a credential word (see the header). `envOnly`: only environment-style
 * assignments (`DB_PASSWORD=...`, a value with a digit or a symbol), the personal gate's share;
 * `all`: every one (spans to blank), not just the first.
 */
export function detectStatedCredentials(text: string, opts: { envOnly?: boolean; all?: boolean } = {}): StatedCredential[] {
  const out: StatedCredential[] = [];
  for (const m of text.matchAll(KEY_RE)) {
    const key = m[0];
    const s = separatorAt(text, m.index + key.length);
    if (!s) continue;
    if (s.sep === ' ' && !BARE_KEYS.test(key)) continue;
    const v = valueAt(text, s.end);
    if (!v) continue;
    if (!credentialValue(v.value, s.sep, key)) continue;
    // The key as written, extended back over an environment-style prefix (DB_PASSWORD).
    let from = m.index;
    while (from > 0 && m.index - from < 60 && /[A-Za-z0-9_]/.test(text[from - 1]!)) from--;
    if (opts.envOnly && !/^[A-Z][A-Z0-9]*_(?:PASSWORD|PASSWD|PWD|SECRET|TOKEN)=$/.test(text.slice(from, s.end))) continue;
    if (opts.envOnly && !/[0-9]/.test(v.value) && !/[^A-Za-z0-9]/.test(v.value)) continue;
    out.push({ kind: 'stated-credential', snippet: `${text.slice(from, s.end).replace(/\s+/g, ' ')}${mask(v.value, 1)}`, start: v.start, end: v.start + v.value.length });
    if (!opts.all) return out; // one is enough to refuse; the snippet names it
  }
  return out;
}

const LOGIN_WORDS = /\b(?:login|log\s?in|logon|sign[- ]?in|credentials?|creds|username|user|account|password|passwd|pw)\b/i;
// Starts only where a word starts (the lookbehind), so a long run costs one attempt, not one per character.
const PAIR_RE = /(?<![\w.@+-])([A-Za-z][\w.@+-]{0,63})[ \t]*\/[ \t]*([^\s/]{6,64})/g;

/** `user / password` pairs on a line that speaks of logging in ("admin / Summer2024! is the login"). */
export function detectLoginPairs(text: string): StatedCredential[] {
  let start = 0;
  while (start <= text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(start, end);
    if (line.includes('/') && LOGIN_WORDS.test(line)) {
      for (const m of line.matchAll(PAIR_RE)) {
        const before = line[m.index - 1];
        if (before !== undefined && /[\w./:@~-]/.test(before)) continue; // inside a path or URL
        const after = line[m.index + m[0].length];
        if (after === '/') continue;
        const pass = m[2]!.replace(/[.,;:?)\]}>]+$/, '');
        if (!pairPassword(pass)) continue;
        const at = start + m.index + m[0].length - m[2]!.length;
        return [{ kind: 'login-pair', snippet: `${m[1]} / ${mask(pass, 1)}`, start: at, end: at + pass.length }];
      }
    }
    if (nl === -1) break;
    start = nl + 1;
  }
  return [];
}

/** The right side of a login pair: a password's shape (letters with digits or symbols, or mixed case), no file name. */
function pairPassword(v: string): boolean {
  if (v.length < 6 || isPlaceholder(v) || isReference(v) || VAULT_WORDS.test(v)) return false;
  if (/\.(?:md|ts|js|json|ya?ml|txt|html|py|go|rs|sh|conf|cfg|ini|toml|log|csv)$/i.test(v)) return false;
  if (!/[A-Za-z]/.test(v)) return false;
  return /[0-9]/.test(v) || /[^A-Za-z0-9]/.test(v) || (/[a-z]/.test(v) && /[A-Z]/.test(v) && !/^[A-Z][a-z]+$/.test(v));
}
