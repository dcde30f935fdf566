// Credentials stated after a word that names them, in any phrasing: `password: X`, `DB_PASSWORD=X`,
// `"client_secret": "X"`, "the staging password is X", "PIN for the on-call phone: X", "Passwort
// vom Admin: X", "la contraseña del router es X", "with password X", and the other way round, "X
// is the keystore passphrase". The word says a credential follows; the value (credentialValues.ts)
// tells it from prose. Each word class takes the shapes a credential of its kind has: a password
// may be a word, a PIN only digits, an API key only a random string. The team store takes weaker
// evidence than the personal store (a plain word, a short password, an unquoted passphrase).
//
// Each rule is a keyword found by a plain regex (credentialWords.ts) followed by a scan by hand
// over the separator and the value, so the cost is linear in the text whatever it holds.
import { mask } from './entropy.ts';
import { lineAround, lineBefore } from './findings.ts';
import { exampleOrDisowned, HASH_OF, type Shapes, type Value, readValue, shapesOf } from './credentialValues.ts';
import { DEFAULT_PASSWORDS, inResourceName, isFixture, isLocalDefault } from './disowned.ts';
import { ENTRY_NOUNS, FOREIGN_WORD, LOCK_NOUNS, NOT_A_LOCK_CODE, OPENING_VERBS } from './lexicon.ts';
import {
  blank,
  identWords,
  KEY_RE,
  type KeyClass,
  NOT_SECRET_PREFIX,
  OPENS,
  type Policy,
  SECRET_SUFFIX,
  type Sep,
  separatorAt,
} from './credentialWords.ts';
import { looksLikeSecretValue } from './passwordRules.ts';

export { keyClassOf, type KeyClass, type Policy, type Sep } from './credentialWords.ts';

export interface StatedCredential {
  keyClass: KeyClass;
  /** The key as written, extended over an identifier around it (DB_PASSWORD, storePassword, SECRET_KEY_BASE). */
  key: string;
  sep: Sep;
  /** The assignment as written (`=`, `:`, `is`...). */
  op: string;
  snippet: string;
  /** Where the value is in the text: [start, end). */
  start: number;
  end: number;
}

/** Words before a key that make it public by design: a search-only or publishable key, a site key. */
const PUBLIC_BEFORE = /\b(?:public|publishable|search[- ]only|client[- ]side|browser)[ \t]+(?:[\w-]+[ \t]+)?$/i;
/** A lock named just before a bare "code" ("Alarm: code 4455"). */
const LOCK_BEFORE = /\b(?:alarm(?:anlage|panel|system)?|cadenas|candado|cadeado|lucchetto|hangslot|k\u0142\u00f3dk\w*|tresor|coffre|door|gate|garage|safe|lock|keypad|locker|padlock|lockbox|keybox)\b[^.\n]{0,40}$/i;

const NETWORK_LINE = /\b(?:localhost|frontend|backend|server|servidor|http|https|tcp|udp|dev|docker|pnpm|npm|yarn|vite|api|app|container|proxy|listen|firewall)\b/i;

const OPENING_AFTER = new RegExp(`(?:${OPENING_VERBS})[ \\t]+`, 'iuy');
const ABOUT_IT = /^[ \t]+(?:accessors?|ids?|names?|paths?|files?|types?|formats?|ttls?|lengths?|expiry|expiration|policy|policies|rotation|prefix|suffix|fields?|columns?|headers?|hash(?:es)?|hint|reset|manager)\b/i;
const PUBLIC_AFTER = /^[^.\n]{0,12}\b(?:is a public|public by design|public identifier|public key|ok to commit)\b/i;
const VAULT_NAME = /(?:kee|last|1|one|roboform|sticky|nord|zoho)pass(?:word)?$/i;

/** Keys whose bare value may be hex: a secret, an API, app, admin or access key. */
const HEX_KEYS = /^(?:secret|(?:api|app|admin|access|master|client|server|service|write|private|secret)[ _-]?key)$/i;

/** Does `v` (stated after a word of class `cls` with separator `sep`) hold a credential under `policy`? */
function accepts(cls: KeyClass, sep: Sep, v: Value, s: Shapes, policy: Policy, key: string): boolean {
  const n = [...v.text].length;
  // A PIN or door code has four digits or more; a lock combination or a card's CVV may have three.
  const minDigits = /[ -]/.test(v.text) || /combination|combo|cvv|cvc/i.test(key) ? 3 : 4;
  const digit = /\d/.test(v.text);
  const word = s.word && v.clauseEnd;
  // A meeting's host key is a PIN; an SSH host key (its fingerprint, its base64) is public: digits only.
  if (cls === 'code' && /host[ -]?key/i.test(key) && s.digits === 0) return false;
  // A passphrase: in quotes, three or more words to the end of the clause, or words joined by - _ .
  const joined = !/\s/.test(v.text) && v.text.split(/[-_.]+/).length >= 2;
  const phrase = s.passphrase && (v.quoted || v.words >= 3 || joined);
  if (policy === 'team') {
    switch (cls) {
      case 'pw':
        if (sep === ' ') return !v.text.includes('`') && (s.random || s.strong || (s.password && n >= 6 && /[\d\W_]/.test(v.text)) || (s.digits >= 4 && /[#*]$/.test(v.text)) || DEFAULT_PASSWORDS.has(v.text.toLowerCase()) || (/passcode/i.test(key) && s.digits >= 4 && !v.quoted) || (v.quoted && s.passphrase && v.words >= 3)); // "Zoom passcode 583920", passphrase "obsidian rowing nebula tango"
        return s.random || s.strong || s.password || s.digits >= 4 || phrase || (word && (n >= 6 || sep === ':'));
      case 'pass':
        if (sep === ' ') return s.random || s.strong;
        return s.random || s.strong || (s.password && n >= 6) || (phrase && (v.quoted || digit)) || (word && v.quoted);
      case 'secret':
      case 'key':
        // Bare ("the admin token Zk8Lq2..."): only a long random string; hex (a hash, a request id)
        // and UUIDs are ids more often than tokens there.
        // Or a password with a symbol of its own ("service account svc-backup, secret Vole!Hill-2024").
        // After "secret" or an API, app or admin key, hex is the key itself ("app secret 9c88...", "API key 9c4f...").
        if (sep === ' ') {
          if (s.random && /^[0-9a-f]{16,}$/i.test(v.text) && (!v.quoted || n >= 32) && (HEX_KEYS.test(key) || (cls === 'key' && n >= 32) || (cls === 'secret' && n >= 32 && /^(?:auth|access|api|bearer|service|bot|refresh|session|personal)[ _-]?(?:token|secret)$/i.test(key)))) return true;
          // Quoted too when long and mixed ("the secret \"hcjyb...4b3p2lOe\""): a name in quotes has no digits among both cases.
          const mixed = /\d/.test(v.text) && /\p{Lu}/u.test(v.text) && /\p{Ll}/u.test(v.text);
          return (s.random && n >= 20 && (!v.quoted || (mixed && n >= 24)) && !/^[0-9a-f-]+$/i.test(v.text)) || (s.strong && /\d/.test(v.text) && /[^\p{L}\d_./+-]/u.test(v.text));
        }
        return s.random || s.strong || (cls === 'secret' && ((s.password && n >= 8) || phrase));
      case 'seed':
        return ((sep !== ' ' || !v.quoted) && (s.random || s.strong)) || (s.passphrase && v.words >= 12); // bare too: "TOTP secret FLQQ..."
      case 'auth':
        return sep === ':' && s.random;
      case 'code':
        if (sep === ' ') return (s.digits >= 4 || /^\d{2,6}[A-D]\d{1,4}$/i.test(v.text)) && !v.quoted; // `digicode 48B21`: a keypad's letter inside
        return s.digits >= minDigits || s.random || s.strong || (s.password && digit);
    }
  }
  // The personal store is the user's own: no plain words, short passwords or bare digits, which
  // are test fixtures and examples there more often than credentials.
  const random = s.random || (!/\s/.test(v.text) && looksLikeSecretValue(v.text));
  switch (cls) {
    case 'pw':
      if (sep === ' ') return s.random || s.strong; // bare ("with password X"): no weaker shape than a strong password
      if (sep === 'is') return random || s.strong || (s.password && n >= 6) || s.digits >= 6 || (phrase && (v.quoted || digit));
      return random || s.strong || s.digits >= 6 || (phrase && (v.quoted || digit || v.words >= 3 || v.text.split(/[-_.]+/).length >= 3));
    case 'pass':
      return sep !== ' ' ? random || s.strong || (phrase && v.quoted) : s.strong;
    case 'secret':
      return sep !== ' ' && (random || s.strong || (phrase && v.quoted && (digit || /\p{Lu}/u.test(v.text))));
    case 'key':
      return sep !== ' ' && (random || s.strong);
    case 'seed':
      return (sep !== ' ' && (random || s.strong)) || (s.passphrase && v.words >= 12);
    case 'auth':
      return sep === ':' && s.random;
    case 'code':
      // Bare ("PIN 4821", "entry code 4826#") only after a word that can only mean a code.
      if (sep === ' ') return s.digits >= 4 && !v.quoted && (/^(?:PIN|PUK|CVV|CVC)$/.test(key) || /code|number|nummer/i.test(key));
      return s.digits >= minDigits || s.random || s.strong;
  }
}

/** After the word: does the sentence end, or go on with a preposition ("X is the passphrase for ...")? */
const AFTER_REVERSED = /^(?:[ \t]*(?:$|[\n.,;!?)])|[ \t]+(?:for|of|on|to|at|in|used|that|and|but|so|\u2014|\u2013|-|\()(?![\p{L}]))/u;
const DETERMINERS = new Set(['the', 'our', 'my', 'your', 'its', 'their', 'his', 'her', 'this']);

/** "X is the keystore passphrase", "use X as the password": the value before `is / as the <up to three words> <word>`. */
function reversedValue(text: string, keyStart: number, keyEnd: number): Value | null {
  if (!AFTER_REVERSED.test(text.slice(keyEnd, keyEnd + 12))) return null;
  if (!blank(text[keyStart - 1])) return null; // the word must stand alone
  const lineFrom = keyStart - lineBefore(text, keyStart, 120).length;
  const tokens = [...text.slice(lineFrom, keyStart).matchAll(/[^ \t]+/g)].map((t) => ({ t: t[0], at: lineFrom + t.index }));
  let i = tokens.length - 1;
  let mods = 0;
  while (i >= 0 && mods < 3 && /^[\p{L}\d-]+$/u.test(tokens[i]!.t) && !/^(?:is|was|as|an?)$/i.test(tokens[i]!.t) && !DETERMINERS.has(tokens[i]!.t.toLowerCase())) {
    i--;
    mods++;
  }
  if (i >= 0 && /^an?$/i.test(tokens[i]!.t)) return null; // "X is a terrible password": an example, not the password
  if (i >= 0 && DETERMINERS.has(tokens[i]!.t.toLowerCase())) i--;
  if (i >= 1 && /^(?:still|now|also|currently|actually|literally|really)$/i.test(tokens[i]!.t)) i--;
  if (i < 1 || !/^(?:is|was|as)$/i.test(tokens[i]!.t)) return null;
  const raw = tokens[i - 1]!;
  const lead = /^["'`(\u201c]*/.exec(raw.t)![0].length;
  const value = raw.t.slice(lead).replace(/["'`,:\u201d]+$/, '');
  if (value === '') return null;
  const start = raw.at + lead;
  return { text: value, start, end: start + value.length, quoted: lead > 0, clauseEnd: true, words: 1 };
}

/**
 * Credentials stated after a credential word (see the header), under the team or the personal
 * store's rules. `all`: every one (spans to blank), not just the first. `claimed`: where another
 * rule already found a value, which is not read again.
 */
export function detectStatedCredentials(text: string, policy: Policy, all = true, claimed?: (at: number) => boolean): StatedCredential[] {
  const out: StatedCredential[] = [];
  for (const m of text.matchAll(KEY_RE)) {
    const groups = m.groups!;
    const cls = (Object.keys(groups).find((g) => groups[g] !== undefined) ?? 'pw') as KeyClass | 'cjk' | 'cjkcode' | 'barecode' | 'lock' | 'entry';
    // "code" alone is an error or exit code unless what follows says what it opens ("the code to open the bike locker").
    if (cls === 'barecode' && !OPENS.test(text.slice(m.index + m[0].length, m.index + m[0].length + 80)) && !LOCK_BEFORE.test(text.slice(Math.max(0, m.index - 30), m.index))) continue;
    if ((cls === 'barecode' || cls === 'lock') && NOT_A_LOCK_CODE.test(text.slice(Math.max(0, m.index - 20), m.index + m[0].length + 20))) continue;
    if (cls === 'lock' && /^safe$/i.test(m[0]) && NOT_SAFE.test(text.slice(Math.max(0, m.index - 20), m.index))) continue; // "it is safe to"
    // Italian, Portuguese and Swedish "porta"/"porten" is a network port as often as a door: not on a line about servers.
    if (cls === 'entry' && /^(?:porta|porten)$/i.test(m[0]) && NETWORK_LINE.test(lineAround(text, m.index, m.index + m[0].length))) continue;
    const lock = cls === 'lock' || cls === 'entry' ? cls : undefined;
    const keyClass: KeyClass = cls === 'cjk' ? 'pw' : cls === 'barecode' || cls === 'lock' || cls === 'entry' || cls === 'cjkcode' ? 'code' : cls;
    const word = m[0];
    const prev = text[m.index - 1];
    // Inside a longer word only as the end of a compound password key (DBPASSWORD, storePassword)
    // or after a camelCase boundary (clientSecret, apiKey); never after a digit (`1Password`).
    if (prev !== undefined && /\p{L}/u.test(prev) && cls !== 'cjk' && cls !== 'cjkcode') {
      // Also `bindpw=`, `rootpwd:` (a short word ending a key written against its value) and the
      // compounds of languages that join words (Datenbankpasswort, beheerderswachtwoord).
      const compound =
        keyClass === 'pw' && (/^pass/i.test(word) || (/^pwd?$/i.test(word) && /^[ \t]*[:=]/.test(text.slice(m.index + word.length, m.index + word.length + 3))) || /^(?:passwort|kennwort|wachtwoord|l\u00f6senord|salasana|passord|adgangskode|parool)$/i.test(word));
      const camel = /\p{Ll}/u.test(prev) && /^\p{Lu}/u.test(word);
      if (!compound && !camel) continue;
    }
    let from = m.index;
    while (from > 0 && m.index - from < 60 && /[A-Za-z0-9_.-]/.test(text[from - 1]!)) from--;
    if (/^-D[A-Z]/.test(text.slice(from, from + 3))) from += 2; // a compiler define (`-DWIFI_PASS=...`)
    let end = m.index + word.length;
    if ('_.-'.includes(text[end] ?? ' ') && /[A-Za-z0-9]/.test(text[end + 1] ?? ' ')) {
      let e = end;
      while (e < text.length && e - end < 40 && /[A-Za-z0-9_.-]/.test(text[e]!)) e++;
      const suffix = text.slice(end, e).replace(/[.-]+$/, '');
      if (!identWords(suffix).every((w) => SECRET_SUFFIX.has(w) || /^v?\d+$/.test(w))) continue;
      end += suffix.length;
    }
    // "token accessor for the CI role: ...", "password policy: ...": the next word names something about the credential.
    if (ABOUT_IT.test(text.slice(end, end + 16))) continue;
    if (/\b(?:get|show|read|fetch|item)[ \t]+(?:--?\w+[ \t]+)?$/i.test(text.slice(Math.max(0, from - 24), from))) continue; // `bw get password item`: a command, the item's name follows
    // `-field=password`, `type=secret`: the word is the value of another setting, it names nothing stated after it.
    if (text[from - 1] === '=') continue;
    if (VAULT_NAME.test(text.slice(Math.max(0, m.index - 4), end))) continue; // KeePass, LastPass, 1Password: a vault's name
    if (word === 'PASS' && /^[ \t]*(?:---[ \t]+)?PASS:?[ \t]/.test(lineBefore(text, m.index) + text.slice(m.index, m.index + 6))) continue; // a test runner's result line
    const key = text.slice(from, end);
    const found = lock
      ? lockCode(text, end, lock, word)
      : ((text[from - 1] === '<' && text[end] === '>' ? xmlValue(text, end + 1, keyClass, policy, word) : statedAt(text, end, keyClass, policy, word, key, claimed)) ??
        reversed(text, m.index, end, keyClass, policy));
    if (!found) continue;
    // The identifier names something else (`nextPageToken`, `max_token`), the value is a digest
    // of the credential ("sha256 of the secret: ..."), or an example ("e.g. password: ...").
    const before = identWords(text.slice(from, m.index));
    if (before.length > 0 && NOT_SECRET_PREFIX.has(before[before.length - 1]!)) continue;
    if (before.some((w) => /^(?:fake|mock|dummy|example|sample|placeholder)$/.test(w))) continue; // `FAKE_API_KEY = ...`: a fixture says so in its name
    // `passwordSecret`, `tokenSecretName`: a credential word before another names the Secret that holds it.
    if (before.some((w) => /^(?:password|passwd|pwd|pass|token|apikey|credentials?)$/.test(w)) && keyClass === 'secret') continue;
    if (HASH_OF.test(text.slice(Math.max(0, m.index - 40), m.index)) || exampleOrDisowned(text, m.index, found.v.end)) continue;
    if (PUBLIC_AFTER.test(text.slice(found.v.end, found.v.end + 60))) continue; // "apiKey AIza... is a public identifier"
    // A key meant to be public: "the search-only API key", "publishable key (public, in the bundle): ...".
    if (!found.reversed && (PUBLIC_BEFORE.test(lineBefore(text, from, 30)) || /\bpublic\b/i.test(text.slice(end, found.valueAt)))) continue;
    // Inside an ARN (where a secret is kept), a fixture's login, a throwaway container's default.
    if (inResourceName(text, m.index) || isFixture(text, found.v.start, found.v.end, found.v.text) || isLocalDefault(text, found.v.start, found.v.end, key, found.v.text)) continue;
    const snippet = found.reversed ? `${mask(found.v.text, 1)} is the ${word}` : `${text.slice(from, found.valueAt).replace(/\s+/g, ' ').slice(0, 80)}${mask(found.v.text, 1)}`;
    out.push({ keyClass, key, sep: found.sep, op: found.op, snippet, start: found.v.start, end: found.v.end });
    if (!all) break;
  }
  if (all || out.length === 0) out.push(...codesBefore(text).slice(0, all ? undefined : 1));
  return out;
}

const LOCK_OR_ENTRY = `(?:[\\p{L}-]+[ \\t]+){0,3}?(?:(${LOCK_NOUNS})|${ENTRY_NOUNS})(?![\\p{L}])`;
/** "use 4471 for the front door", "4471 opens the padlock on the shed": a code before what it opens. */
const CODE_BEFORE = new RegExp(
  `(?<![\\w.#*-])(?:(use|enter|punch in|type in|key in|dial|try)[ \\t]+)?([*#]?\\d{4,8}[#*]?)[ \\t]+` +
    `(for|at|on|to open|to unlock|to disarm|opens|unlocks|disarms)[ \\t]+(?:the[ \\t]+)?${LOCK_OR_ENTRY}`,
  'giu',
);
/** "disarm with 60418 on the panel": a verb of opening and a code, in a note that names what it opens. */
const VERB_THEN_CODE = /\b(?:(?:disarm|unlock|open)(?:s|ed)?(?:[ \t]+(?:it[ \t]+)?(?:with|using))?|type|enter|punch in|key in)[ \t]+(\d{4,8}#?)(?![\w.])/gi;
const OPENS_SOMETHING = /\b(?:alarm|door|gate|safe|lock|padlock|keypad|panel|garage|locker)\b/i;
/**
 * "PIN de desbloqueo 271094", "Türcode Haupteingang 7391#", "codice porta sul retro 4471": a code
 * word, a short qualifier, then the code. "code" alone needs the qualifier to name what it opens.
 */
const QUALIFIED_CODE =
  /(?<![\p{L}\d])(PIN|PUK|t\u00fcrcode|doorcode|deurcode|digicode|c\u00f3digo|codigo|code|kod|codice)[ \t]+((?:(?:de|del|du|for|f\u00fcr|van|do|di|da|sul|der|des)[ \t]+)?[\p{L}-]{2,20}(?:[ \t]+[\p{L}-]{2,20}){0,3})[ \t]*:?[ \t]+(\d{4,8}[#*]?|\d{2,6}[A-D]\d{1,4})(?![\w.])/giu;
const OPENED_BY_CODE = /porta|puerta|door|t\u00fcr|alarm|allarme|alarma|alarmu|drzwi|cassa|caja|kasa|tpe|terminal|safe|tresor|coffre|cadenas|gate|port\u00f3n|cancello|garage|locker|phone|m\u00f3vil|handy|telefon/i;
/** Cheap first test: a run of four digits or more followed by a word. */
const CODE_THEN_WORD = /\d{4}[#*]?[ \t]+\p{L}/u;

function codesBefore(text: string): StatedCredential[] {
  const out: StatedCredential[] = [];
  for (const m of text.matchAll(QUALIFIED_CODE)) {
    const [word, qualifier, code] = [m[1]!, m[2]!, m[3]!];
    if (/^(?:code|c\u00f3digo|codigo|kod|codice)$/i.test(word) && !OPENED_BY_CODE.test(qualifier)) continue;
    if (TIME_OR_YEAR.test(code) || NOT_A_LOCK_CODE.test(qualifier) || exampleOrDisowned(text, m.index, m.index + m[0].length)) continue;
    const start = m.index + m[0].length - code.length;
    out.push({ keyClass: 'code', key: word, sep: ' ', op: ' ', snippet: `${word} ${qualifier} ${mask(code, 0)}`, start, end: start + code.length });
  }
  if (OPENS_SOMETHING.test(text)) {
    for (const m of text.matchAll(VERB_THEN_CODE)) {
      const code = m[1]!;
      const start = m.index + m[0].length - code.length;
      if (TIME_OR_YEAR.test(code) || exampleOrDisowned(text, m.index, start + code.length)) continue;
      out.push({ keyClass: 'code', key: 'code', sep: 'is', op: 'with', snippet: `${m[0].slice(0, m[0].length - code.length)}${mask(code, 0)}`, start, end: start + code.length });
    }
  }
  if (!CODE_THEN_WORD.test(text)) return out;
  for (const m of text.matchAll(CODE_BEFORE)) {
    // "for the door" needs a verb of entering before the code ("Ticket 4471 for the garage door" is a ticket).
    if (!m[1] && !/^(?:opens|unlocks|disarms)$/i.test(m[3]!)) continue;
    const code = m[2]!;
    if (!m[4] && TIME_OR_YEAR.test(code)) continue; // "1200 opens the flood gate log window": a time before a door, not its code
    const start = m.index + m[0].indexOf(code);
    if (exampleOrDisowned(text, m.index, start + code.length)) continue;
    out.push({ keyClass: 'code', key: 'code', sep: 'is', op: 'opens', snippet: `${mask(code, 0)} ${m[0].slice(m[0].indexOf(code) + code.length).trim().slice(0, 40)}`, start, end: start + code.length });
  }
  return out;
}

/** `<password>X</password>`: the element's text, as an assignment. */
interface Found {
  v: Value;
  sep: Sep;
  op: string;
  /** Where the value starts (the snippet shows the text before it). */
  valueAt: number;
  /** "X is the password": the value came before the word. */
  reversed?: boolean;
}

function xmlValue(text: string, at: number, cls: KeyClass, policy: Policy, key: string): Found | null {
  const close = text.slice(at, at + 201).indexOf('<');
  if (close === -1) return null;
  const raw = text.slice(at, at + close);
  const value = raw.trim();
  if (value === '' || raw.includes('\n')) return null;
  const v: Value = { text: value, start: at + raw.indexOf(value), end: at + raw.indexOf(value) + value.length, quoted: true, clauseEnd: true, words: value.split(/\s+/).length };
  return acceptValue(cls, ':', v, policy, key) ? { v, sep: ':', op: '>', valueAt: at } : null;
}

/** Does `v`, stated after a word of class `cls` with `sep`, hold a credential under `policy`? */
export function acceptValue(cls: KeyClass, sep: Sep, v: Value, policy: Policy, key: string): boolean {
  const shapes = shapesOf(v.text, v.quoted);
  return shapes !== null && accepts(cls, sep, v, shapes, policy, key);
}

/**
 * An environment line (`API_SECRET=walnut-harbor-quill`): a real value whatever its shape when it
 * has a digit or a symbol, in the personal store too (a .env file holds the live values).
 */
function envValue(ident: string, op: string, cls: KeyClass, v: Value, policy: Policy): boolean {
  if (op !== '=' || !/^[A-Z][A-Z0-9_]*$/.test(ident) || (cls !== 'pw' && cls !== 'pass' && cls !== 'secret')) return false;
  const s = shapesOf(v.text, v.quoted);
  // A plain word too in the team store (`POSTGRES_PASSWORD=postgres on the staging host`): the value ends at the blank, whatever follows.
  return s !== null && !/\s/.test(v.text) && (s.password || s.passphrase || s.random || (policy === 'team' && s.word));
}

/** `set -x MY_TOKEN 9f8e...` (fish), `export API_KEY 3c1d...`: hex after an environment variable's name. */
function bareEnvHex(ident: string, sep: Sep, cls: KeyClass, v: Value): boolean {
  return sep === ' ' && (cls === 'secret' || cls === 'key') && !v.quoted && /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(ident) && /^[0-9a-f]{16,}$/i.test(v.text) && /\d/.test(v.text) && /[a-f]/i.test(v.text);
}

function statedAt(text: string, at: number, cls: KeyClass, policy: Policy, key: string, ident = key, claimed?: (at: number) => boolean): Found | null {
  const s = separatorAt(text, at, { foreign: FOREIGN_WORD.test(key), lockVerbs: cls === 'code' ? 'all' : undefined });
  if (!s || claimed?.(s.end)) return null; // a value an earlier rule already reported
  if (s.sep === ' ' && cls !== 'pw' && cls !== 'pass' && cls !== 'code' && cls !== 'seed' && !(policy === 'team' && (cls === 'secret' || cls === 'key'))) return null;
  // "pass" alone is mostly a verb ("pass the token to the step"): bare, only after a user name on its line.
  if (s.sep === ' ' && cls === 'pass' && !/\b(?:user(?:name)?|login|account|ssid|wifi|wi-fi|wlan|admin|root|rcon|vnc|rdp|s?ftp|smtp|db)\b/i.test(lineBefore(text, at))) return null;
  // Only a password, a secret or a seed may be a run of words; bare, only a seed phrase.
  const phrases = (cls === 'pw' || cls === 'pass' || cls === 'secret' || cls === 'seed') && (s.sep !== ' ' || cls === 'seed');
  for (const v of readValue(text, s.end, phrases)) {
    const phrase = /(?:auth|access|api|bearer|service|bot|refresh|session|personal)[ _-]?$/i.exec(text.slice(Math.max(0, at - key.length - 12), at - key.length))?.[0];
    if (acceptValue(cls, s.sep, v, policy, phrase ? phrase + key : key) || envValue(ident, s.op, cls, v, policy) || (policy === 'team' && bareEnvHex(ident, s.sep, cls, v))) return { v, sep: s.sep, op: s.op, valueAt: s.end };
  }
  return null;
}

/** Words before "safe" that make it an adjective ("it is safe to retry"). */
const NOT_SAFE = /\b(?:is|are|was|were|be|being|been|it's|its|not|feel|feels|stay|keep|play|quite|very|totally|perfectly|considered|remains?|thread|type|memory|fail)[ \t-]+$/i;
/** What may follow a lock's code in its clause: a separable particle ("geht mit 31-08-77 auf"), then the clause ends. */
const AFTER_LOCK_CODE = /^[ \t]+(?:auf|zu|up|open|then|and|und|et|y|e|och|en)\b/i;
/** A year or a time of day (0630, 2359, 1999, 2024): what a bare number after a door or an alarm is as often as a code. */
const TIME_OR_YEAR = /^(?:(?:[01]\d|2[0-3])[0-5]\d|(?:19|20)\d\d)$/;
const ONE_WORD_THEN_END = /^[ \t]+\p{L}{2,20}[ \t]*(?:[.!;,\n]|$)/u;
/** Combination locks and their like take three digits; a keypad four. */
const THREE_DIGIT_LOCKS = /combination|combo|padlock|bike lock|cable lock|zahlenschloss|vorh\u00e4ngeschloss|cadenas|candado|cadeado|lucchetto|hangslot|cijferslot|k\u0142\u00f3dk|h\u00e4ngl\u00e5s|kodl\u00e5s/iu;

/**
 * A code stated after a lock (a safe, a padlock: any separator or a verb of opening) or an entry
 * (a door, a gate, an alarm: a verb of opening, or a keypad's # or * in the code): digits only,
 * ending its clause.
 */
function lockCode(text: string, at: number, lock: 'lock' | 'entry', key: string): Found | null {
  const s = separatorAt(text, at, { foreign: FOREIGN_WORD.test(key), lockVerbs: lock === 'lock' ? 'all' : 'opening' });
  if (!s || s.sep === ' ') return null;
  // "Office alarm: disarm with 7316": a verb of opening after the separator.
  OPENING_AFTER.lastIndex = s.end;
  const imperative = OPENING_AFTER.exec(text);
  if (imperative) {
    s.end += imperative[0].length;
    s.op = imperative[0].trim();
  }
  const byVerb = /\p{L}/u.test(s.op) && !/^(?:is|ist|est|es|\u00e8|\u00e9|\u00e4r|lautet|jest|to|was|war)$/i.test(s.op);
  for (const v of readValue(text, s.end, false)) {
    const shapes = shapesOf(v.text, v.quoted);
    if (!shapes || shapes.digits < (/[ -]/.test(v.text) || THREE_DIGIT_LOCKS.test(key) ? 3 : 4)) continue;
    // After a verb of opening, one more word may end the clause ("wird mit 4815 entschärft").
    if (!v.clauseEnd && !AFTER_LOCK_CODE.test(text.slice(v.end, v.end + 8)) && !(byVerb && ONE_WORD_THEN_END.test(text.slice(v.end, v.end + 30)))) continue;
    // After a door or an alarm with only ':' or "is": a keypad's # or *, or digits that are no year or time of day ("Alarm: 0630").
    // Not `ALARM=5000`: a setting's value, not a code.
    if (lock === 'entry' && !byVerb && !/[#*]/.test(v.text) && (shapes.digits < 4 || s.op === '=' || TIME_OR_YEAR.test(v.text.replace(/[ -]/g, '')))) continue;
    return { v, sep: s.sep, op: s.op, valueAt: s.end };
  }
  return null;
}

function reversed(text: string, keyStart: number, keyEnd: number, cls: KeyClass, policy: Policy): Found | null {
  if (cls !== 'pw' && cls !== 'pass' && cls !== 'secret' && cls !== 'key' && cls !== 'code') return null;
  const v = reversedValue(text, keyStart, keyEnd);
  if (!v) return null;
  const s = shapesOf(v.text);
  if (!s) return null;
  if (cls === 'code') return s.digits >= 4 ? { v, sep: 'is', op: 'is', valueAt: v.start, reversed: true } : null; // "4471 is the door code"
  const n = [...v.text].length;
  // A long word that is none of a sentence ("correcthorsebatterystaple is the passphrase") counts in both stores: the phrasing is explicit.
  const ok = s.random || s.strong || (s.word && n >= 12) || (s.password && n >= (policy === 'team' ? 6 : 8));
  return ok ? { v, sep: 'is', op: 'is', valueAt: v.start, reversed: true } : null;
}
