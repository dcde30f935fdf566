// A user name with its password, in the shapes people paste them: `admin / Summer2024!` on a
// line about a login, `curl -u user:pass`, `user:pass@host` without a scheme, a .pgpass line, a
// password given to a command-line tool (`sshpass -p`, `redis-cli -a`, `ldapsearch -w`...), and,
// for the team store, a product's default credentials (`admin/admin`, `root:toor`) that still
// open a live system. Linear: each pattern starts only where a word starts, with bounded runs.
import { isPlaceholder, mask } from './entropy.ts';
import { isReference, shapesOf, VAULT_WORDS } from './credentialValues.ts';
import { lineAround, linesOf } from './findings.ts';
import { DEFAULT_PASSWORDS, isFixture, isLocalDefault } from './disowned.ts';
import { LOGIN_WORDS_INTL } from './lexicon.ts';
import { exampleOnLine } from './providerTokens.ts';
import type { Policy } from './statedCredentials.ts';

export interface PairFinding {
  kind: 'login-pair' | 'default-credential' | 'password-flag' | 'url-password' | 'weak-password';
  snippet: string;
  /** Where the password is in the text: [start, end). */
  start: number;
  end: number;
}

const LOGIN_WORDS =
  /\b(?:u\/p|get[ \t]+in(?:to)?|basic[ -]auth|login|log\s?in|logon|sign[- ]?in|credentials?|creds?|username|user|account|password|passwd|pass|pw|wifi|wi-fi|wlan|ssid|s?ftp|ssh|rdp|vnc|vpn|benutzer(?:name)?|zugangsdaten|anmeldedaten|anmeldung|kennwort|passwort|identifiants?|utilisateur|usuario|credenciales|gebruiker(?:snaam)?|inloggegevens|anv\u00e4ndare|utente|credenziali)\b/iu;
const ACCOUNT_USER = /^(?:admin|administrator|root|superuser|sysadmin|sa)$/i;
const loginLine = (line: string) => LOGIN_WORDS.test(line) || LOGIN_WORDS_INTL.test(line);
// Starts only where a word starts (the lookbehind), so a long run costs one attempt, not one per character.
const PAIR_RE = /(?<![\w.@+-])([A-Za-z][\w.@+-]{0,63})[ \t]*\/[ \t]*["'`]?([^\s/"'`]{6,64})/g;

/** The right side of a login pair: a password's shape (letters with digits or symbols, or mixed case), no file name. */
export function pairPassword(v: string): boolean {
  if (v.length < 6 || isPlaceholder(v) || isReference(v) || VAULT_WORDS.test(v)) return false;
  if (/\.(?:md|ts|js|json|ya?ml|txt|html|py|go|rs|sh|conf|cfg|ini|toml|log|csv)$/i.test(v)) return false;
  if (!/[A-Za-z]/.test(v)) return false;
  // Digits, a symbol other than the - _ . of names and paths, or a case change inside.
  return /[0-9]/.test(v) || /[^A-Za-z0-9_.-]/.test(v) || (/[a-z]/.test(v) && /[A-Z]/.test(v) && !/^[A-Z][a-z]+$/.test(v));
}

/**
 * What the team store also takes as a pair's password: a machine-made string whatever the line
 * says (`app / Qw8vRk2mLx7z`), a passphrase of three words or more on a line about logging in
 * (`ci-bot / correct-walrus-lantern-prism`), anything password-shaped after an administrator
 * account (`root / calvin2`).
 */
function teamPairPassword(user: string, pass: string, login: boolean, spaced: boolean): boolean {
  const s = shapesOf(pass);
  if (!s || isPlaceholder(pass) || isReference(pass) || VAULT_WORDS.test(pass) || /^[0-9a-f]+$/i.test(pass)) return false;
  // Written apart (`app / X`): a repository, a branch or base64 holds its slash without blanks.
  if (spaced && s.random && /\d/.test(pass) && /[a-z]/.test(pass) && /[A-Z]/.test(pass) && /^[a-z][\w.-]{0,30}$/i.test(user)) return true;
  if (login && s.passphrase && /^[\p{L}\d]+(?:[-_][\p{L}\d]+){2,}$/u.test(pass)) return true; // not a file's name (`lib-common.templates`)
  if (DEFAULT_USERS.has(user.toLowerCase()) && adminPassword(pass)) return true; // `guest/Gst-Stg-91`
  return ACCOUNT_USER.test(user) && pairPassword(pass) && !/^[\p{Ll}\d]+(?:[-_.][\p{Ll}\d]+)+$/u.test(pass); // not a page's or a branch's name (`2024-roadmap`)
}

/** `user / password` pairs on a line that speaks of logging in ("admin / Summer2024! is the login"). */
function slashPairs(text: string, policy: Policy): PairFinding[] {
  const nl = text.indexOf('\n');
  const titled = nl !== -1 && text.trimStart().startsWith('|') && loginLine(text.slice(0, Math.min(nl, 300))); // a table headed "| box | how to get in |"
  for (const line of linesOf(text)) {
    if (!line.text.includes('/')) continue;
    const login = loginLine(line.text) || titled;
    for (const m of line.text.matchAll(PAIR_RE)) {
      // The login word must be in the sentence, not inside the password (`feature/login-page`);
      // an administrator account is one itself (`root / Pine!Ridge-8 on the lab hypervisor`).
      const trimmed = m[2]!.replace(/[.,;:?)\]}>]+$/, '');
      const sentenceLogin = login && (titled || loginLine(line.text.slice(0, m.index + m[0].length - m[2]!.length) + ' ' + line.text.slice(m.index + m[0].length)));
      const team = policy === 'team' && teamPairPassword(m[1]!, trimmed, sentenceLogin, /[ \t]\/[ \t]/.test(m[0]));
      const account = (ACCOUNT_USER.test(m[1]!) && adminPassword(trimmed)) || team;
      if (!account && !sentenceLogin) continue;
      const before = line.text[m.index - 1];
      if (before !== undefined && /[\w./:@~-]/.test(before)) continue; // inside a path or URL
      if (line.text[m.index + m[0].length] === '/') continue;
      const pass = m[2]!.replace(/[.,;:?)\]}>]+$/, '');
      if (!pairPassword(pass) && !team) continue;
      const at = line.start + m.index + m[0].length - m[2]!.length;
      return [{ kind: 'login-pair', snippet: `${m[1]} / ${mask(pass, 1)}`, start: at, end: at + pass.length }];
    }
  }
  return [];
}

// Accounts products ship with, and the passwords they ship with (or that people keep).
const DEFAULT_USERS = new Set(
  'admin administrator root user guest test demo sa postgres elastic kibana pi ubuntu ubnt oracle system manager operator support tomcat jenkins grafana minioadmin cisco vagrant nagios zabbix mysql superuser super service default'.split(
    ' ',
  ),
);
// The user is matched alone (a lookahead for the separator), so a pair is never skipped because
// a previous match consumed its first half ("heads up: admin:admin").
const DEFAULT_USER = new RegExp(`(?<![\\w./:@-])(?:${[...DEFAULT_USERS].join('|')})(?=[ \\t]*[/:])`, 'gi');
const DEFAULT_PASS = /[ \t]*([/:])[ \t]*([^\s/:,;'"`)]{3,20})(?![\w/@.-]|:\d)/y;

/** A line saying the default no longer opens anything. */
const DEFAULT_OFF =
  /\b(?:is|are|was|were|been|got|gets)[ \t]+(?:now[ \t]+)?(?:disabled|removed|deleted|changed|rotated|replaced|blocked|turned off)\b|\bno longer\b|\b(?:does not|doesn't|do not|don't) work\b|\b(?:changes|resets|rotates|replaces|disables) (?:it|them)\b|\bmust be changed\b|(?<!\b(?:never|nobody|not|no one|n't)[ \t]+(?:ever[ \t]+)?)\bchanged (?:it|them|that|this)\b|\bchange (?:the |all |any )?defaults?\b|\bto (?:be )?change(?:d)?\b|\bfactory defaults?\b|\bdefaults? (?:for|on|of) (?:new |fresh )?install/i;

/** `admin/admin`, `root:toor`, `admin / changeme`: a product's default credentials, stated as a pair. */
function defaultPairs(text: string): PairFinding[] {
  for (const m of text.matchAll(DEFAULT_USER)) {
    const user = m[0].toLowerCase();
    DEFAULT_PASS.lastIndex = m.index + m[0].length;
    const p = DEFAULT_PASS.exec(text);
    if (!p || /[\w-]/.test(text[m.index + m[0].length] ?? '')) continue;
    const pass = p[2]!.replace(/[.!?]+$/, '');
    if (pass.toLowerCase() !== user && !DEFAULT_PASSWORDS.has(pass.toLowerCase())) continue;
    if (/^user(?:name)?$/.test(user) && /^pass(?:word)?$/i.test(pass)) continue; // the format, `user:password`
    if (DEFAULT_OFF.test(lineAround(text, m.index, p.index + p[0].length)) || isLocalDefault(text, m.index, p.index + p[0].length, user, pass)) continue;
    const at = p.index + p[0].length - p[2]!.length;
    return [{ kind: 'default-credential', snippet: `${m[0]}${p[1]}${mask(pass, 1)}`, start: at, end: at + pass.length }];
  }
  return [];
}

/** `admin:Qw3rty!55` on a line about logging in: a user name, a colon, a strong password. */
const COLON_PAIR = /(?<![\w./:@$%-])([A-Za-z][\w.-]{1,32}):([^\s:@/'"`<>]{8,64})(?![\w@/:])/g;
const AUTH_WORDS = /\b(?:chpasswd|log(?:ged)?[ -]?in|logon|sign[ -]?in|credentials?|creds?|basic[ -]auth|auth|user(?:name)?|account|password|passwd|pw|s?ftp|ssh|rdp|vpn|smb|imap|smtp)\b/i;

/** `curl -u user:pass`, `http -a user:pass`, `--user=user:pass`. */
const FLAG_PAIR = /(?<![\w-])(?:-u|--user|-a|--auth|--basic-auth|--credentials)(?:[ \t]+|=)(["']?)([^\s:"'$]{1,64}):([^\s"']{1,128})\1/g;
/** `user:pass@host` without a scheme (a URL with one is the url-password rule's). */
const BARE_AT = /(?<![\w.:/@%+-])([A-Za-z][\w.+-]{0,63}):([^\s:@/'"`<>]{1,128})@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)/g;

function colonPairs(text: string, policy: Policy): PairFinding[] {
  const out: PairFinding[] = [];
  const ok = (user: string, pass: string) =>
    /\p{L}/u.test(pass) &&
    (pairPassword(pass) || (policy === 'team' && !isPlaceholder(pass) && !isReference(pass) && (shapesOf(pass) !== null || DEFAULT_PASSWORDS.has(pass.toLowerCase()) || pass === user)));
  for (const m of text.matchAll(FLAG_PAIR)) {
    const pass = m[3]!;
    if (!ok(m[2]!, pass)) continue;
    const at = m.index + m[0].length - pass.length - m[1]!.length;
    out.push({ kind: 'login-pair', snippet: `${m[2]}:${mask(pass, 1)}`, start: at, end: at + pass.length });
  }
  for (const line of linesOf(text)) {
    if (!line.text.includes(':') || !AUTH_WORDS.test(line.text)) continue;
    for (const m of line.text.matchAll(COLON_PAIR)) {
      const pass = m[2]!.replace(/[.,;:?)\]}>]+$/, '');
      if (!pairPassword(pass) || /^v?\d/.test(pass) || !shapesOf(pass)?.strong || /^(?:sha\d*|md5|blake2[bs]?|sha3)$/i.test(m[1]!)) continue; // not a fingerprint (SHA256:...)
      const at = line.start + m.index + m[1]!.length + 1;
      out.push({ kind: 'login-pair', snippet: `${m[1]}:${mask(pass, 1)}`, start: at, end: at + pass.length });
    }
  }
  for (const m of text.matchAll(BARE_AT)) {
    const pass = m[2]!;
    if (!m[3]!.includes('.') && m[3] !== 'localhost') continue;
    if (!ok(m[1]!, pass)) continue;
    const at = m.index + m[1]!.length + 1;
    out.push({ kind: 'login-pair', snippet: `${m[1]}:${mask(pass, 1)}@${m[3]}`, start: at, end: at + pass.length });
  }
  return out;
}

/** `system/Oracle2024@//db:1521/XE` (sqlplus and friends): user, slash, password, at, a host (not `owner/repo@ref`). */
const SLASH_AT = /(?:(?<=thin:)|(?<![\w./:@-]))([A-Za-z][\w.+-]{0,63})\/([^\s/@'"`]{1,128})@(?:\/\/|[A-Za-z0-9-]+[.:])/g;
/** `https://<token>@github.com/...`: a token given as the URL's user name. */
const URL_TOKEN_USER = /\b([a-z][a-z0-9+.-]{1,20}):\/\/([A-Za-z0-9_-]{20,200})@[A-Za-z0-9]/g;
/** A Wi-Fi QR code's payload: `WIFI:S:<ssid>;T:WPA;P:<password>;;`. */
const WIFI_QR = /WIFI:(?:[A-Z]:[^;\n]{0,64};){0,5}?P:([^;\n]{1,64});/g;

function otherPairs(text: string): PairFinding[] {
  const out: PairFinding[] = [];
  for (const m of text.matchAll(SLASH_AT)) {
    const pass = m[2]!;
    if (!pairPassword(pass)) continue;
    const at = m.index + m[1]!.length + 1;
    out.push({ kind: 'login-pair', snippet: `${m[1]}/${mask(pass, 1)}@...`, start: at, end: at + pass.length });
  }
  for (const m of text.matchAll(URL_TOKEN_USER)) {
    const token = m[2]!;
    if (!shapesOf(token)?.random || isPlaceholder(token)) continue;
    if (/^@o?\d*\.?ingest(?:\.[a-z]{2})?\.sentry\.io/.test(text.slice(m.index + m[0].length - 2, m.index + m[0].length + 40))) continue; // a Sentry DSN's public key
    const at = m.index + m[1]!.length + 3;
    out.push({ kind: 'url-password', snippet: `${m[1]}://${mask(token, 2)}@...`, start: at, end: at + token.length });
  }
  for (const m of text.matchAll(WIFI_QR)) {
    const pass = m[1]!;
    if (isPlaceholder(pass)) continue;
    const at = m.index + m[0].length - pass.length - 1;
    out.push({ kind: 'login-pair', snippet: `WIFI:...P:${mask(pass, 1)}`, start: at, end: at + pass.length });
  }
  return out;
}

// A season or a common word with a year (`Summer2024!`, `Welcome-2023`): the password people pick
// when they must pick one, refused from the team store on a line about logging in.
const SEASONAL = /(?<![\w-])(?:spring|summer|autumn|fall|winter|welcome|password|passw0rd|p@ssw0rd|changeme|letmein|company|qwerty|sommer|herbst|fr\u00fchling|fruehling)[!@#$._-]?(?:19|20)\d\d[!@#$.?*]?(?![\w-])/iu;
const LOGIN_CONTEXT = /\b(?:log(?:ged)?[ -]?in|logon|sign(?:ed)?[ -]?in|passw(?:or)?d|pw|creds?|credentials|account|user(?:name)?|ssh|rdp|vpn|wifi|admin|root)\b/i;
const EXAMPLE_CONTEXT = /\b(?:banned|blocked|reject(?:s|ed)?|weak|example|e\.g\.|like|such as|policy|pattern|never use)\b/i;

function seasonalPasswords(text: string): PairFinding[] {
  for (const line of linesOf(text)) {
    if (!LOGIN_CONTEXT.test(line.text) || EXAMPLE_CONTEXT.test(line.text)) continue;
    const m = SEASONAL.exec(line.text);
    if (m) return [{ kind: 'weak-password', snippet: mask(m[0], 1), start: line.start + m.index, end: line.start + m.index + m[0].length }];
  }
  return [];
}

/** A .pgpass line: `host:port:database:user:password`. */
function pgpassLines(text: string): PairFinding[] {
  const out: PairFinding[] = [];
  // At the start of a line or after a label ("~/.pgpass line for reporting: host:5432:db:user:pw").
  for (const m of text.matchAll(/(?<=^|[ \t])([^:\s#]+):(\d{1,5}|\*):([^:\s]+):([^:\s]+):(\S+)[ \t]*$/gm)) {
    const pass = m[5]!;
    // After a label, the first field must be a host (a dot, localhost or *) and the second a port: not "mon:09:00:standup:...".
    const lineStart = m.index === 0 || text[m.index - 1] === '\n';
    if (!lineStart && (!/\.|^localhost$|^\*$/.test(m[1]!) || !/^(?:\d{3,5}|\*)$/.test(m[2]!))) continue;
    if (pass === '*' || isPlaceholder(pass) || isReference(pass) || pass.length < 3 || /^[\d:.]+$/.test(pass)) continue; // a time, a version
    const at = m.index + m[0].trimEnd().length - pass.length;
    out.push({ kind: 'login-pair', snippet: `${m[1]}:${m[2]}:${m[3]}:${m[4]}:${mask(pass, 1)}`, start: at, end: at + pass.length });
  }
  return out;
}

/** An administrator account, a separator (`-`, `--`, `->`, `:`), then its password: "Jenkins admin - X", "Grafana: admin -> X". */
const ACCOUNT_DASH = /(?<![\w./:@-])(?:admin|administrator|root|superuser|sysadmin|sa)[ \t]*(?:--?|\u2013|\u2014|->|\u2192|=>|:|=)[ \t]*(["'`]?)([^\s"'`]{8,64})\1/gi;

/** A password there: letters, digits and a symbol other than the - _ . / + of names, paths and versions, or a machine-made string. */
function accountPassword(v: string): boolean {
  const s = shapesOf(v);
  if (!s || isReference(v) || VAULT_WORDS.test(v)) return false;
  const name = /^[\p{Ll}\d]+(?:[-_.][\p{Ll}\d]+)+$/u.test(v); // 2024-roadmap, build-42-final: a page's or a branch's name
  return (s.random && !name) || (/\p{L}/u.test(v) && /\d/.test(v) && /[^\p{L}\d_./+-]/u.test(v));
}

/** After an administrator account and a slash, also a case change with digits (`admin / Pelican-Moon-22`), not a lowercase name (`2024-roadmap`). */
function adminPassword(v: string): boolean {
  return accountPassword(v) || (pairPassword(v) && /\d/.test(v) && /\p{Lu}/u.test(v) && /\p{Ll}/u.test(v));
}

/**
 * A login told as a sentence: "log in as deploy with X", "sign in with ops@acme.io and X",
 * "login to the router with admin and X". X must have a strong password's shape.
 */
const PROSE_LOGIN =
  /\b(?:log(?:ged)?[ -]?in|logon|sign(?:ed)?[ -]?in|connect(?:ed)?)\b[^.\n]{0,40}?\b(?:as[ \t]+[\w.@+-]{1,64}[ \t]+(?:with|using)|(?:with|using)[ \t]+[\w.@+-]{1,64}[ \t]+and)[ \t]+(?:(?:the[ \t]+)?password[ \t]+)?(["'`]?)([^\s"'`]{8,64})\1/gi;

function proseLogins(text: string): PairFinding[] {
  for (const m of text.matchAll(PROSE_LOGIN)) {
    const pass = m[2]!.replace(/[.,;:?)\]}>]+$/, '');
    const s = shapesOf(pass);
    if (!s || isReference(pass) || VAULT_WORDS.test(pass) || /\d\.\d/.test(pass) || !(s.random || (s.strong && adminPassword(pass)))) continue; // not a version (Kubernetes-1.29)
    const at = m.index + m[0].length - m[2]!.length - m[1]!.length;
    return [{ kind: 'login-pair', snippet: `${m[0].slice(0, m[0].length - m[2]!.length - m[1]!.length).slice(0, 60)}${mask(pass, 1)}`, start: at, end: at + pass.length }];
  }
  return [];
}

function accountPairs(text: string): PairFinding[] {
  for (const m of text.matchAll(ACCOUNT_DASH)) {
    const pass = m[2]!.replace(/[.,;:?)\]}>]+$/, '');
    if (!accountPassword(pass) || DEFAULT_OFF.test(lineAround(text, m.index, m.index + m[0].length))) continue;
    const at = m.index + m[0].length - m[2]!.length - m[1]!.length;
    return [{ kind: 'login-pair', snippet: `${m[0].slice(0, m[0].length - m[2]!.length - m[1]!.length)}${mask(pass, 1)}`, start: at, end: at + pass.length }];
  }
  return [];
}

/** `auth=("metrics", "X")`, `HTTPBasicAuth('u', 'X')`, `SetBasicAuth("u", "X")`: a user and a password as two string literals in code. */
const CODE_PAIR = /\b(?:auth|basic_?auth|HTTPBasicAuth|HTTPDigestAuth|BasicAuth|SetBasicAuth|withBasicAuth|basicAuth|login)(?:[ \t]*(?:=[ \t]*)?\(|[ \t]+(?=["']))[ \t]*(["'])([^"'\n]{1,64})\1[ \t]*,[ \t]*(["'])([^"'\n]{3,128})\3/gi;
/** "user lobby, pass sunflower", "username: deploy password: X": an account and its password named one after the other. */
// Each run of blanks stands alone (never two in a row), so a long run costs one pass, not one per split.
const USER_THEN_PASS =
  /\b(?:user(?:name)?|login|account)(?:[ \t]*[:=][ \t]*|[ \t]+)["'`]?([\w.@+-]{1,64})["'`]?[ \t]*(?:[,;/][ \t]*)?(?:and[ \t]+)?(?:pass(?:word)?|pw|pwd)(?:[ \t]*[:=][ \t]*|[ \t]+)(["'`]?)([^\s"'`,;]{3,64})\2/gi;

/** SQL: `ALTER USER app IDENTIFIED BY 'X'` (not MySQL's `IDENTIFIED BY PASSWORD '*<hash>'`). */
const SQL_IDENTIFIED = /\bIDENTIFIED[ \t]+(?:WITH[ \t]+\w+[ \t]+)?BY[ \t]+(?:PASSWORD[ \t]+)?(["'])([^"'\n]{3,128})\1/gi;

/** `new PDO($dsn, 'app', 'X')`, `mysqli_connect($host, 'app', 'X')`, `pg_connect`: a user and a password after the first argument. */
const CONNECT_CALL = /\b(?:new[ \t]+PDO|mysqli(?:_connect)?|mysql_connect|pg_connect|DriverManager\.getConnection)[ \t]*\([^(),\n]{1,120},[ \t]*(["'])([^"'\n]{1,64})\1[ \t]*,[ \t]*(["'])([^"'\n]{3,128})\3/g;
/** "just use redaktion and Zitrone-Heft-38": an account and a password told as a sentence. */
const USE_PAIR = /\buse[ \t]+([\w.@-]{2,40})[ \t]+and[ \t]+(["'`]?)([^\s"'`,;]{6,64})\2/gi;
/** `user / "paper crane moves at dawn"`: a quoted passphrase after a slash. */
const QUOTED_PAIR = /(?<![\w.@+/-])["']?([A-Za-z][\w.@+-]{0,63})["']?[ \t]*\/[ \t]*(["\u201c])([^"\u201d\n]{8,64})["\u201d]/g;
/** A JSON login object (`{"username": "x", "key": "<random>"}`, kaggle.json): the key beside the user is the credential. */
const JSON_KEY = /"(?:key|api_?key|token|secret)"[ \t]*:[ \t]*"([^"\n]{16,200})"/gi;

function namedPairs(text: string, policy: Policy): PairFinding[] {
  const out: PairFinding[] = [];
  if (policy === 'team') {
    for (const m of text.matchAll(USE_PAIR)) {
      const pass = m[3]!.replace(/[.,;:!?)]+$/, '');
      if (!adminPassword(pass) || isReference(pass)) continue;
      const at = m.index + m[0].length - m[3]!.length - m[2]!.length;
      out.push({ kind: 'login-pair', snippet: `use ${m[1]} and ${mask(pass, 1)}`, start: at, end: at + pass.length });
    }
    for (const m of text.matchAll(QUOTED_PAIR)) {
      const pass = m[3]!;
      if (!loginLine(lineAround(text, m.index, m.index + m[0].length)) || isPlaceholder(pass) || !(shapesOf(pass, true) || pass.trim().split(/\s+/).length >= 3)) continue;
      const at = m.index + m[0].length - pass.length - 1;
      out.push({ kind: 'login-pair', snippet: `${m[1]} / "${mask(pass, 1)}"`, start: at, end: at + pass.length });
    }
    if (/"user(?:name)?"[ \t]*:/.test(text)) {
      for (const m of text.matchAll(JSON_KEY)) {
        const key = m[1]!;
        if (!shapesOf(key)?.random || isPlaceholder(key)) continue;
        const at = m.index + m[0].length - key.length - 1;
        out.push({ kind: 'login-pair', snippet: `"key": "${mask(key, 2)}"`, start: at, end: at + key.length });
      }
    }
  }
  for (const m of text.matchAll(SQL_IDENTIFIED)) {
    const pass = m[2]!;
    if (isPlaceholder(pass) || isReference(pass) || /^\*[0-9A-F]{40}$/i.test(pass)) continue;
    const at = m.index + m[0].length - pass.length - 1;
    out.push({ kind: 'login-pair', snippet: `IDENTIFIED BY ${mask(pass, 1)}`, start: at, end: at + pass.length });
  }
  const ok = (pass: string) => pairPassword(pass) || (policy === 'team' && !isPlaceholder(pass) && !isReference(pass) && shapesOf(pass) !== null);
  // A user and a password as two string literals in a call: each match ends with the password's closing quote.
  for (const m of [...text.matchAll(CONNECT_CALL), ...text.matchAll(CODE_PAIR)]) {
    const pass = m[4]!;
    if (!ok(pass)) continue;
    const at = m.index + m[0].length - pass.length - 1;
    out.push({ kind: 'login-pair', snippet: `${m[0].slice(0, at - m.index).slice(0, 60)}${mask(pass, 1)}`, start: at, end: at + pass.length });
  }
  for (const m of text.matchAll(USER_THEN_PASS)) {
    const pass = m[3]!.replace(/[.!?)\]}>]+$/, '');
    if (!ok(pass) || /^(?:is|was|for|of|in|to|the|and|or|with)$/i.test(pass) || DEFAULT_OFF.test(lineAround(text, m.index, m.index + m[0].length))) continue;
    const at = m.index + m[0].length - m[3]!.length - m[2]!.length;
    out.push({ kind: 'login-pair', snippet: `${m[0].slice(0, m[0].length - m[3]!.length - m[2]!.length).slice(0, 60)}${mask(pass, 1)}`, start: at, end: at + pass.length });
  }
  return out;
}

/** Login pairs under the store's policy; the team store adds default credentials. */
export function detectCredentialPairs(text: string, policy: Policy): PairFinding[] {
  const all = [...slashPairs(text, policy), ...colonPairs(text, policy), ...pgpassLines(text), ...otherPairs(text), ...accountPairs(text), ...proseLogins(text), ...namedPairs(text, policy), ...(policy === 'team' ? [...defaultPairs(text), ...seasonalPasswords(text)] : [])];
  return all.filter((f) => !isFixture(text, f.start, f.end, text.slice(f.start, f.end)) && !exampleOnLine(text, f.start, f.end));
}

const Q = `(["']?)([^\\s"'\`]+)\\1`;
// The tools that take a password on the command line, and the flag each takes it with.
const CLI_RULES: { tool: RegExp; flag: RegExp }[] = [
  { tool: /\bsshpass\b/, flag: new RegExp(`(?<=\\s)-p[ \\t]*${Q}`, 'g') },
  { tool: /\bredis-cli\b/, flag: new RegExp(`(?<=\\s)-a[ \\t]+${Q}`, 'g') },
  { tool: /\b(?:zip|unzip|7z|7za|7zz|sqlcmd|bcp|osql)\b/, flag: new RegExp(`(?<=\\s)-P[ \\t]*${Q}`, 'g') },
  { tool: /\b(?:7z|7za|7zz)\b/, flag: new RegExp(`(?<=\\s)-p${Q}`, 'g') },
  { tool: /\b(?:mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|rdesktop)\b|\b(?:docker|podman|nerdctl|buildah)\s+login\b/, flag: new RegExp(`(?<=\\s)-p[ \\t]+${Q}`, 'g') },
  { tool: /\bldap[a-z]*\b/, flag: new RegExp(`(?<=\\s)-w[ \\t]+${Q}`, 'g') },
  { tool: /\b(?:keytool|jarsigner)\b/, flag: new RegExp(`(?<=\\s)-(?:src|dest|new)?(?:storepass|keypass)[ \\t]+${Q}`, 'g') },
  { tool: /\bopenssl\b/, flag: new RegExp(`(?<=\\s)-pass(?:in|out)?[ \\t]+(["']?)pass:([^\\s"'\`]+)\\1`, 'g') },
  { tool: /\b(?:smbclient|rpcclient|smbmap|crackmapexec|netexec)\b/, flag: new RegExp(`(?<=\\s)(?:-U|--user(?:name)?)[ \\t=]+(["']?)[^\\s%"']+%([^\\s"'\`]+)\\1`, 'g') },
  { tool: /\b(?:xfreerdp|wlfreerdp)\b/, flag: new RegExp(`(?<=\\s)\\/p:${Q}`, 'g') },
  // `net use \\srv\share /user:DOMAIN\name PASSWORD` and `net use \\srv\share PASSWORD /user:...`
  { tool: /\bnet\s+use\b/i, flag: /(?<=\s)\/user:\S+[ \t]+(["']?)([^\s"'`/*][^\s"'`]*)\1/gi },
  { tool: /\bnet\s+use\b/i, flag: /(?<=\s)\\\\\S+[ \t]+(["']?)([^\s"'`/*][^\s"'`]*)\1(?=[ \t]+\/user:)/gi },
  { tool: /\bnet\s+user\b/i, flag: new RegExp(`\\bnet\\s+user\\s+[^\\s/]+\\s+(["']?)([^\\s"'\`/*]+)\\1`, 'gi') },
  { tool: /\bmosquitto_(?:pub|sub|rr)\b/, flag: new RegExp(`(?<=\\s)(?:-P|--pw)[ \\t]+${Q}`, 'g') },
  { tool: /\blftp\b/, flag: /(?<=\s)-u[ \t]+["']?[^\s,"']+,(["']?)([^\s"'`]+)\1/g },
  { tool: /\bhtpasswd\b/, flag: new RegExp(`\\bhtpasswd(?:\\s+-[a-zA-Z]+){0,3}?\\s+-[a-zA-Z]*b[a-zA-Z]*(?:\\s+-[a-zA-Z]+){0,3}\\s+[^\\s-]\\S*\\s+[^\\s-]\\S*\\s+${Q}`, 'g') },
  { tool: /\bwandb[ \t]+login\b/, flag: /\blogin[ \t]+(["']?)([0-9a-f]{32,})\1/g },
  { tool: /\bhuggingface-cli[ \t]+login\b/, flag: /--token[ \t=]+(["']?)([^\s"'`]+)\1/g },
  { tool: /\bconsul[ \t]+kv[ \t]+put\b/, flag: /\bput[ \t]+\S*(?:pass|pwd|secret|token|key)\S*[ \t]+(["']?)([^\s"'`]+)\1/gi },
  { tool: /\bipmitool\b/, flag: new RegExp(`(?<=\\s)-P[ \\t]+${Q}`, 'g') },
  // An SNMP community other than the defaults everyone knows.
  { tool: /\bsnmp(?:walk|get|getnext|bulkwalk|bulkget|set|trap|table)\b/, flag: /(?<=\s)-c[ \t]+(["']?)(?!(?:public|private)\b)([^\s"'`]+)\1/g },
  { tool: /\brabbitmqctl\b/, flag: /\b(?:add_user|change_password)[ \t]+[^\s'"]+[ \t]+(["']?)([^\s"'`]+)\1/g },
];

/** A password given to a command-line tool that takes it as an argument. */
export function detectCommandLinePasswords(text: string): PairFinding[] {
  const out: PairFinding[] = [];
  const rules = CLI_RULES.filter((r) => r.tool.test(text));
  if (rules.length === 0) return out;
  for (const line of linesOf(text)) {
    for (const rule of rules) {
      if (!rule.tool.test(line.text)) continue;
      for (const m of line.text.matchAll(rule.flag)) {
        const value = m[2]!;
        if (value.length < 3 || isPlaceholder(value) || isReference(value) || value.startsWith('-')) continue;
        const at = line.start + m.index + m[0].length - value.length - m[1]!.length;
        out.push({ kind: 'password-flag', snippet: `${m[0].slice(0, m[0].length - value.length - m[1]!.length * 2)}${m[1]}${mask(value, 1)}`, start: at, end: at + value.length });
      }
    }
  }
  return out;
}
