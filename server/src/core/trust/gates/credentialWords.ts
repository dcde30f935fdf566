// The words that name a credential and how a value follows them: the keyword classes (a password,
// a secret or token, an API key, a PIN or code, an OTP seed), the identifiers they may stand in
// (DB_PASSWORD, clientSecret, SECRET_KEY_BASE, not nextPageToken or PASSWORD_FILE), and the
// separators between word and value in many phrasings and languages: `:`, `=`, `=>`, `->`, a tab,
// "is", "lautet", "es", "est :", a qualifier ("PIN for the on-call phone:", "Passwort vom Admin:",
// "password (needed for any restore!):") and bare whitespace ("with password X").
//
// Every scan here is a sticky regex or a loop bounded by a constant, so the cost per keyword is
// constant and the whole scan linear in the text.

import {
  BARE_CODE_WORDS,
  CJK_CODE_WORDS,
  CODE_COMPOUNDS,
  ELIDED_PREPOSITIONS,
  ENTRY_NOUNS,
  FUNCTION_WORDS,
  LOCK_NOUNS,
  LOCK_VERBS,
  OPENED_THINGS,
  OPENING_VERBS,
  PREPOSITIONS,
  QUALIFIED_VERBS,
} from './lexicon.ts';

/** What the word names: a password, the short word "pass", a secret or token, an API or other key, a PIN or code, an OTP seed, an `auth` field. */
export type KeyClass = 'pw' | 'pass' | 'secret' | 'key' | 'code' | 'seed' | 'auth';
/** ':' an assignment (`:`, `=`, `=>`, a tab), 'is' a sentence, ' ' bare whitespace. */
export type Sep = ':' | 'is' | ' ';
export type Policy = 'team' | 'personal';


const L = '\\p{L}';
const KEY_WORDS =
  '(?:api|access|auth|authentication|debug|unlock|global|private|secret|signing|encryption|decryption|master|licen[cs]e|recovery|pre-?shared|shared|session|hmac|webhook|app|client|admin|root|storage|subscription|activation|product|account|service|server|consumer|x-api|integration|routing|unseal|bot|cookie|jwt|cipher|data|wrapping|aes(?:-?(?:128|192|256))?(?:-?(?:gcm|cbc|ctr))?|3?des|kek|dek)[ _-]?key|master\\.key|apikey|psk|klucz(?:em)? api|api anahtar(?:\u0131|i)|cl(?:\u00e9|e) (?:d\u0027|de l\u0027)?api|clave (?:de (?:la )?)?api|chave (?:d[ae] )?api|chiave api|api-schl(?:\u00fc|ue)ssel|api-sleutel|\u043a\u043b\u044e\u0447 api|(?:wlan-?|netzwerk)?schl(?:\u00fc|ue)ssel';
const PW_WORDS =
  '(?<!\\d)(?:password|passwd|passphrase|passcode|pass-phrase|pasword|passwrod|passowrd)|community[ _-]string|(?<=\\bsnmp[^\\n]{0,30})community|(?:wifi|wi-fi|wlan|wpa[23]?|wep|network)[ _-]?key|parola d\'ordine|passwort|kennwort|wachtwoord|contrase(?:\u00f1|n)a|senha|palavra-passe|l(?:\u00f6|o)senord(?:et)?|salasana|has(?:\u0142|l)o|heslo|jelsz(?:\u00f3|o)|(?:\u015f|s)ifre(?:si)?|passord(?:et)?|adgangskode(?:n)?|frase-passe|frase secreta|lozinka|parool|ww|\u043f\u0430\u0440\u043e\u043b[\u044c\u044f]|\u043f\u0430\u0440\u043e\u043b\u0430|mot[ -]de[ -]passe|clave|contrasenya|parol(?:a|\u0103|ei)|parole|slapta\u017eodis|geslo|lykilor\u00f0|fjal\u00ebkalim|m\u1eadt kh\u1ea9u|kata (?:sandi|laluan)|' +
  `(?<![\\d])(?:pwd|pw|pswd|pword|mdp)`;
const CODE_WORDS =
  `(?<![${L}])(?:${CODE_COMPOUNDS})|(?<![${L}])pin[ -]?(?:code|number|nummer|no\\.?)|code d'acc(?:\u00e8|e)s` +
  `|(?<![${L}\\d])(?:pin|puk|cvv2?|cvc2?|digicode|keypad|combination|combo|kombination|combinaison|combinaci(?:\u00f3|o)n|lockbox|key ?box|key ?safe|geheimzahl|host[ -]key|host[ -]pin|passkey|v\u00e4rdnyckel|hostschl\u00fcssel)` +
  `|(?<![${L}])(?:door|alarm|lock|gate|garage|keypad|safe|entry|unlock|recovery|backup|disarm|duress|access|guest|building|security|padlock|locker|parking|elevator|lift|mailbox|lockbox|key ?box|wifi|wi-fi|2fa|mfa|master|house|office|front[ -]door|scratch|emergency|one-time|voicemail|phone|sim|screen|device|laptop|bank|card|atm|pager|bike|storage)(?:[ -]${L}{1,20})?[ -]codes?`;
const SEED_WORDS = `(?<![${L}])(?:totp|otp|hotp|2fa|mfa|authenticator)[ _-]?(?:seed|secret|key)|(?:wallet|bip-?39|crypto)[ _-]?seed(?:[ _-]?(?:phrase|words))?|frase de recupera(?:ci\u00f3n|\u00e7\u00e3o)|frase semilla|phrase de r(?:\u00e9|e)cup(?:\u00e9|e)ration|wiederherstellungs(?:phrase|s\u00e4tze)|herstelzin|fraza odzyskiwania|seed[ _-]?phrase|recovery[ _-]?phrase|mnemonic`;
export const KEY_RE = new RegExp(
  `(?<seed>${SEED_WORDS})(?![${L}])|(?<code>${CODE_WORDS})(?![${L}])|(?<key>${KEY_WORDS})(?![${L}])|(?<pw>${PW_WORDS})(?![${L}])` +
    `|(?<pass>(?<![\\d])pass)(?![${L}\\d])|(?<secret>secret|token|credentials?|creds?)(?![${L}])|(?<auth>(?<![${L}\\d])_?auth)(?![${L}\\d])` +
    '|(?<cjk>\u30d1\u30b9\u30ef\u30fc\u30c9|\u5bc6\u7801|\u5bc6\u78bc|\ube44\ubc00\ubc88\ud638|\uc554\ud638|\u53e3\u4ee4|\ud328\uc2a4\uc6cc\ub4dc|\ube44\ubc88|\u30a2\u30af\u30bb\u30b9\u30ad\u30fc|API\u30ad\u30fc|\u0e23\u0e2b\u0e31\u0e2a\u0e1c\u0e48\u0e32\u0e19|\u092a\u093e\u0938\u0935\u0930\u094d\u0921|\u05e1\u05d9\u05e1\u05de[\u05d4\u05d0]|\u0643\u0644\u0645\u0629 (?:\u0627\u0644\u0645\u0631\u0648\u0631|\u0627\u0644\u0633\u0631)|\u0631\u0645\u0632 \u0639\u0628\u0648\u0631|\u03ba\u03c9\u03b4\u03b9\u03ba(?:\u03cc\u03c2|\u03cc|\u03bf\u03cd) \u03c0\u03c1\u03cc\u03c3\u03b2\u03b1\u03c3\u03b7\u03c2|\u03c3\u03c5\u03bd\u03b8\u03b7\u03bc\u03b1\u03c4\u03b9\u03ba\u03cc)' +
    `|(?<cjkcode>${CJK_CODE_WORDS})` +
    `|(?<lock>(?<![${L}])(?:${LOCK_NOUNS}))(?![${L}])|(?<entry>(?<![${L}])(?:${ENTRY_NOUNS}))(?![${L}])` +
    `|(?<barecode>(?<![${L}\\d])(?:${BARE_CODE_WORDS}))(?![${L}])`,
  'giu',
);

// After a preposition ("code for the bike locker", "Kod do drzwi") or as the next word ("Code WiFi du bureau").
export const OPENS = new RegExp(`^[ \\t]+(?:(?:(?:${PREPOSITIONS})[ \\t]|${ELIDED_PREPOSITIONS})[^:\\n=.;]{0,60}?)?(?<![${L}\\d])(?:${OPENED_THINGS})(?![${L}])`, 'iu');
/** A word naming what a password opens, standing between it and the separator: "mot de passe wifi :", "Passwort WLAN:". */
const TARGET_WORDS = 'wifi|wi-fi|wlan|admin|root|router|vpn|db|database|ssh|server|e-?mail|mail|ftp|smtp|bios|guest|user|account|app|master|system|portal|console|panel|r\u00e9seau|reseau|red|netz|netzwerk';
const TARGET = new RegExp(`(?:${TARGET_WORDS})[ \\t]*(?=[:=\\uff1a]|(?:is|est|es|ist|lautet)[ \\t])`, 'iy');
/** The same word followed by a qualifier: "mot de passe wifi du bureau :". */
const TARGET_WORD = new RegExp(`(?:${TARGET_WORDS})(?=[ \\t])`, 'iy');


/** The last word of an identifier before the key that makes it no credential (`nextPageToken`, `max_tokens`, `gpio_pin`). */
export const NOT_SECRET_PREFIX = new Set(
  'page next continuation cursor sync pagination resume cancellation request correlation max min num input output total public pub gpio led csrf xsrf idempotency cache design lexer parser syntax hint forgot invalid expired missing unknown malformed'.split(' '),
);
/** The words an identifier may go on with after the key and still name the credential (SECRET_KEY_BASE, DB_PASSWORD_PROD). */
export const SECRET_SUFFIX = new Set(
  'key base value val prod production staging stage dev development test local live secret token password pass pwd hex b64 base64 raw plain plaintext string str salt pepper current new old primary secondary main master admin root user default access api app auth bot bearer jwt hmac signing encryption enc private client server db database rw ro code number nummer'.split(
    ' ',
  ),
);

export const identWords = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');

export const blank = (c: string | undefined) => c === ' ' || c === '\t';
export function skipBlank(text: string, i: number): number {
  const from = i;
  while (i < text.length && blank(text[i]) && i - from < 400) i++;
  return i;
}

const ASSIGN = /=>|:=|->|\u2192|=|:|\uff1a|\?(?=[ \t])/y;
function assignAt(text: string, at: number): string | null {
  ASSIGN.lastIndex = at;
  const m = ASSIGN.exec(text);
  if (!m || (m[0] === ':' && text[at + 1] === '/' && text[at + 2] === '/')) return null;
  return m[0];
}

const VERB =
  /(?:(?:is|was|are|lautet|ist|war|es|est|era|\u00e9|\u00e8|\u00e4r|jest|er|je|este|c['\u2019]est|l\u00e0|adalah|ialah|\u03b5\u03af\u03bd\u03b1\u03b9|\u0435|yra|ir)(?:[ \t]*:|[ \t]*(?=\r?\n)|[ \t]+(?:(?:now|still|currently|just|literally|simply|actually|always|also|again|set to|changed to|reset to|updated to)[ \t]+){0,2}:?)|(?:(?:got|was|has been|is now|been)[ \t]+)?(?:set|changed|reset|updated)[ \t]+to|\u306f|\u662f|\u4e3a|\u70ba|\ub294|\uc740|\uc774|\uac00)[ \t]*/iy;
function verbAt(text: string, at: number): number | null {
  VERB.lastIndex = at;
  const m = VERB.exec(text);
  return m ? at + m[0].length : null;
}

const PREP = new RegExp(`(?:${PREPOSITIONS})(?=[ \\t])|${ELIDED_PREPOSITIONS}(?=\\p{L})`, 'iuy');
const QWORD = /[\p{L}\p{N}._@'\u2019/#+-]{1,40}/uy;
/** "Hasło do serwera to X", "Пароль администратора — X": a copula or a dash after a qualifier. */
const QUALIFIED_VERB = new RegExp(`(?:${QUALIFIED_VERBS})[ \\t]+`, 'iuy');
/** A word of a genitive qualifier ("Hasło administratora:", "Пароль базы —"): letters, no function word. */
const GENITIVE_WORD = /[\p{L}][\p{L}-]{0,30}(?![\p{L}\d])/uy; // no digits: `Passwort K8Z4QW1M — ...` states a value, no genitive
/** "opens with", "geht mit", "se abre con": how a lock's code is stated. */
const LOCK_VERB = new RegExp(`(?:${LOCK_VERBS})[ \\t]+`, 'iuy');
const OPENING_VERB = new RegExp(`(?:${OPENING_VERBS})[ \\t]+`, 'iuy');

/** How a credential word may be followed: `foreign` words take a genitive qualifier; a lock or code takes the verbs of opening. */
export interface SepOptions {
  foreign?: boolean;
  lockVerbs?: 'all' | 'opening';
}

function stickyAt(re: RegExp, text: string, at: number): number | null {
  re.lastIndex = at;
  const m = re.exec(text);
  return m ? at + m[0].length : null;
}

/** Where a value starts after a verb that states it: a copula, a dash after a qualifier, or a verb of opening. */
function statedAfter(text: string, at: number, o: SepOptions, qualified: boolean): { op: string; end: number } | null {
  const v = (o.lockVerbs ? stickyAt(o.lockVerbs === 'all' ? LOCK_VERB : OPENING_VERB, text, at) : null) ?? verbAt(text, at) ?? (qualified || o.foreign ? stickyAt(QUALIFIED_VERB, text, at) : null);
  return v === null ? null : { op: text.slice(at, v).trim(), end: v };
}

/**
 * A qualifier between the word and its separator: a parenthesis ("password (needed for any
 * restore!):"), a phrase opened by a preposition of up to eight words ("PIN for the on-call
 * phone:", "Passwort vom Jenkins-Admin:", "Contraseña del WiFi de invitados de la oficina:") and,
 * after a word of another language, a genitive of up to three words ("Hasło administratora:").
 * Returns where the separator starts, or null.
 */
function qualifierEnd(text: string, at: number, o: SepOptions): number | null {
  let k = at;
  let any = false;
  const stops = (after: number) => text[after] === '(' || assignAt(text, after) !== null || statedAfter(text, after, o, true) !== null;
  for (let round = 0; round < 2; round++) {
    if (any && text[k] !== '(' && stops(k)) break; // "Hasło do serwera to X": "to" states the value here, it opens no second phrase
    if (text[k] === '(') {
      const inner = text.slice(k, k + 81);
      const close = inner.indexOf(')');
      if (close === -1 || inner.slice(0, close).includes('\n')) return null;
      k = skipBlank(text, k + close + 1);
      any = true;
      continue;
    }
    PREP.lastIndex = k;
    const p = PREP.exec(text);
    if (!p && o.foreign && round === 0) {
      let w = k;
      for (let words = 0; words < 3; words++) {
        GENITIVE_WORD.lastIndex = w;
        const g = GENITIVE_WORD.exec(text);
        if (!g || FUNCTION_WORDS.has(g[0].toLowerCase())) return null;
        const after = skipBlank(text, w + g[0].length);
        if (stops(after)) return after;
        if (after === w + g[0].length) return null;
        w = after;
      }
      return null;
    }
    if (!p) break;
    let w = k + p[0].length;
    let found = false;
    const elided = /['\u2019]$/.test(p[0]);
    for (let words = 0; words < 8 && !found; words++) {
      const s = skipBlank(text, w);
      if (s === w && !(elided && words === 0)) break;
      QWORD.lastIndex = s;
      const q = QWORD.exec(text);
      if (!q) break;
      w = s + q[0].length;
      const after = skipBlank(text, w);
      if (stops(after)) {
        k = after;
        found = true;
      }
    }
    if (!found) return null;
    any = true;
  }
  return any ? k : null;
}

/**
 * Where a value starts after its separator: past blanks and markdown emphasis (`**Password:** X`),
 * or, when a `:` or a verb ends its line, on the next line if that line holds one value alone
 * ("Recovery codes:" and the codes one a line). An `=` at the end of its line is an empty value
 * (`SESSION_SECRET=` in a .env template), whatever the next line holds.
 */
function valueStart(text: string, at: number, op: string): number {
  let i = at;
  for (let k = 0; k < 3 && (text[i] === '*' || text[i] === '_'); k++) i++;
  i = skipBlank(text, i);
  const nl = text[i] === '\r' && text[i + 1] === '\n' ? i + 1 : i;
  if (text[nl] !== '\n' || op.includes('=')) return i;
  // One value alone (not a key of its own: `valueFrom:`), or codes side by side, each with a digit ("de2d6-2ff6c  3f630-487da").
  const line = /[ \t]*(?:[-*\u2022][ \t]+|\d{1,2}[.)][ \t]+)?("[^"\n]{3,80}"|[^\s]{2,79}[^\s:]|(?=[^\s]*\d)[^\s]{4,40}(?:[ \t]+(?:[\u00b7\u2022|,/][ \t]+)?(?=[^\s]*\d)[^\s]{4,40}){1,11})[ \t]*(?:\r?\n|$)/y;
  line.lastIndex = nl + 1;
  const m = line.exec(text);
  return m ? m.index + m[0].indexOf(m[1]!) : i;
}

/** After the word (and its identifier): the separator, and where the value starts. */
export function separatorAt(text: string, at: number, o: SepOptions = {}): { sep: Sep; op: string; end: number } | null {
  let i = at;
  if (/^['\u2019]s[ \t]/.test(text.slice(i, i + 3))) return { sep: 'is', op: "'s", end: skipBlank(text, i + 2) }; // "the wifi password's X"
  while ((text[i] === '*' || text[i] === '_') && i - at < 3) i++; // markdown emphasis: **Password**: X
  if (text[i] === '"' || text[i] === "'" || text[i] === '`') {
    i++; // the closing quote of a quoted key
    // `<add key="DbPassword" value="..." />`: the key's value is the next attribute.
    const attr = /^[ \t]*value[ \t]*=[ \t]*/i.exec(text.slice(i, i + 20));
    if (attr) return { sep: ':', op: '=', end: i + attr[0].length };
  }
  let j = skipBlank(text, i);
  // A numbered one: "unseal key 1: X", "backup code #2 = X".
  const index = j > i ? /^#?\d{1,2}(?=[ \t]*[:=])/.exec(text.slice(j, j + 4)) : null;
  if (index) j = skipBlank(text, j + index[0].length);
  const op = assignAt(text, j) ?? (j > i && /^[-\u2013\u2014][ \t]/.test(text.slice(j, j + 2)) ? text[j]! : null); // `password - X`
  if (op) return { sep: ':', op, end: valueStart(text, j + op.length, op) };
  const cjk = verbAt(text, j);
  if (cjk !== null && j === i && /[\u306f\u662f\u4e3a\u70ba\ub294\uc740\uc774\uac00]/.test(text[j]!)) return { sep: 'is', op: text[j]!, end: cjk };
  // The word ends its line ("wifi password" and the value alone on the next): a label, unless the
  // word is itself a value (`- name: DB_PASSWORD`).
  if ((text[j] === '\n' || (text[j] === '\r' && text[j + 1] === '\n')) && !/[:=][ \t]*["'`]?[\w.-]*$/.test(text.slice(Math.max(0, at - 80), at))) {
    const next = valueStart(text, j, ':');
    return next > j ? { sep: ':', op: '\n', end: next } : null;
  }
  if (j === i) return null; // the word runs straight into something else
  const v = statedAfter(text, j, o, false);
  if (v !== null) return { sep: 'is', op: v.op, end: valueStart(text, v.end, ':') }; // "... passphrase is" and the value on the next line
  TARGET.lastIndex = j;
  const t = TARGET.exec(text);
  TARGET_WORD.lastIndex = j;
  const tw = t ? null : TARGET_WORD.exec(text); // "mot de passe wifi du bureau :": the target, then a qualifier
  const q = t ? j + t[0].length : (qualifierEnd(text, j, o) ?? (tw ? qualifierEnd(text, skipBlank(text, j + tw[0].length), o) : null));
  if (q !== null) {
    // "Passwort vom Jenkins-Admin: X", "password for the wifi: X": a sentence that states a value.
    const op2 = assignAt(text, q);
    if (op2) return { sep: 'is', op: op2, end: valueStart(text, q + op2.length, op2) };
    const v2 = statedAfter(text, q, o, true);
    if (v2 !== null) return { sep: 'is', op: v2.op, end: v2.end };
  }
  if (text.slice(i, j).includes('\t')) return { sep: ':', op: '\t', end: j }; // `password<TAB>value`
  return { sep: ' ', op: ' ', end: j };
}

const KEY_WORD = new RegExp(KEY_RE.source, KEY_RE.flags);

/** The class of a credential word standing alone (a table's column header, a `name:` field), or null. */
export function keyClassOf(word: string): KeyClass | null {
  // exec on a regex of its own: matchAll would copy the large KEY_RE for every cell of a table
  // (and matchAll on KEY_RE elsewhere starts from its lastIndex, which this must not move).
  KEY_WORD.lastIndex = 0;
  for (let m = KEY_WORD.exec(word); m; m = KEY_WORD.exec(word)) {
    const groups = m.groups!;
    const cls = Object.keys(groups).find((g) => groups[g] !== undefined);
    if (cls === 'barecode' || cls === 'lock' || cls === 'entry' || cls === undefined) continue; // a column "Door" holds room numbers
    return cls === 'cjk' ? 'pw' : cls === 'cjkcode' ? 'code' : (cls as KeyClass);
  }
  return null;
}
