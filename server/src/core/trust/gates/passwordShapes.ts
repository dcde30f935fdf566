// Passwords with no credential word right before them, for the team store. First, a token written
// the way password rules make people write them (letters of both cases, a digit and a symbol:
// `Gr4nite!river`, `Kimchi#7723`, `Summer2024!`), whatever words surround it ("ssh in as ops with
// Gr4nite!river"). Ordinary notes hold such tokens rarely, and in shapes the rule reads apart: an
// email address, a path or URL, code (`!isDone`, `a+b`, `obj.x`), a hashtag, an issue or PR
// reference (`Issue#42`), markdown, and a line that presents the token as an example or as a
// password a policy refuses ("passwords like Summer2024! are blocked"). Second, a password-like
// token (`Peacock-Ladder-61`, `tiger2019`, `Qw8vRk2mLx7z`) on a line, or after a line, that speaks
// of logging in or of a credential in any language the lexicon knows.
import { isResourceName, shapesOf } from './credentialValues.ts';
import { isFixture, isIdentifier } from './disowned.ts';
import { decodedText, mask, shannonEntropy } from './entropy.ts';
import { lineAround } from './findings.ts';
import { LOGIN_WORDS_INTL } from './lexicon.ts';
import { exampleOnLine } from './providerTokens.ts';

/** Runs of characters between blanks, quotes and brackets (matches never overlap: the scan is linear). */
const TOKEN = /[^\s"'`()[\]{}<>,;|]{7,}/g;
/** The symbols of a password (not the - _ . of names, the / of paths, the ' of prose, the + and = of base64 and settings). */
const SYMBOL = /[!#$%^&*?~@]/;
/** Words before `#` that make `Word#12` a reference to a record, not a password. */
const REFERENCE = /^(?:issues?|prs?|pull|bugs?|tickets?|story|task|case|items?|steps?|rooms?|builds?|runs?|jobs?|no|nr|num|number|version|release|sprint|epic|page|line|row|col|order|invoice|id|ch|chapter|section|part|slot|table|seat|gate|desk|floor|level|phase|round|week|day|team|group|rev|commit|change|mr|cl|ref)$/i;
/** What the line says of the token besides an example (exampleOnLine): a refused or banned password, a pattern. */
const DISOWNING_LINE =
  /\b(?:like|banned|blocked|rejected|refused|forbidden|not allowed|disallowed|blocklist|blacklist|denylist|policy|pattern|regex|format|weak|guessable|breached|pwned|terrible|worst|insecure|never use|don't use|do not use)\b/i;

/** Does `t` have a password's shape (see the header)? */
export function passwordShaped(t: string): boolean {
  if (!/\p{Ll}/u.test(t) || !/\p{Lu}/u.test(t) || !/\d/.test(t) || !SYMBOL.test(t)) return false;
  if (/^[#$%@!&*~+=^]/.test(t)) return false; // a hashtag, a variable, a mention, a negation, a decorator, a regex's class
  if (/a-z|A-Z|0-9|\\[dwsDWS]/.test(t)) return false; // a regular expression (`^a-zA-Z0-9`)
  if (/%[0-9A-Fa-f]{2}/.test(t)) return false; // URL-encoded text (`foo%40bar`)
  if (/[=:]|\*\*/.test(t)) return false; // a setting (`KEY=value`, `-XX:+UseG1GC`), a masked value (`sk_live_****9xQa`)
  if (/@[\w-]+\.[A-Za-z]/.test(t) || /[\\/]/.test(t) || t.includes('://')) return false; // an email address, a path, a URL
  if (/\p{L}\.\p{L}/u.test(t) || /[!=+<>]=|\+\+|&&|\?\.|=>/.test(t)) return false; // a property path, a domain, an operator
  if (/^(?:[a-z][a-z0-9._-]*|[A-Z][a-z]+)@[\^~>=<]*v?\d+(?:\.\d+)*(?:-[\w.]+)?$/.test(t)) return false; // a package and its version (`Node@20`, `react@18.2.0`)
  if (/\*[-.]|[-.]\*/.test(t)) return false; // a glob (`s390x*-linux`, `CVE-2024-9681-*.patch`)
  // A symbol's version (`mach_print@GLIBC_2.21`, `fn_complete2@Base`): an identifier, then @ and a capitalised name.
  if (/^[\w.]+@@?[A-Z][A-Za-z]*(?:_[\d.]+)?$/.test(t) && (t.includes('_') || /@[A-Z]{2,}|@Base$/.test(t))) return false;
  const ref = /^(\p{L}+)#\d+$/u.exec(t);
  if (ref && REFERENCE.test(ref[1]!)) return false;
  return (t.match(/\p{L}/gu) ?? []).length >= 3;
}

/** The part after a user name and a colon (`deploy:Nx9!kQ2vRm4L`, `grafana:Gr4f-Plain-2025`): the password. */
const afterUser = (t: string) => t.replace(/^[a-z][\w.-]{0,31}:(?=\S)/, '');

/** The first password standing alone in `text`, masked, or null. */
export function loosePassword(text: string): string | null {
  for (const m of text.matchAll(TOKEN)) {
    if (m[0].length > 80) continue; // a URL, a blob: no password (and a regex anchored at $ is quadratic on a long run)
    const t = afterUser(m[0].replace(/^[*_]+/, '').replace(/[*_.,:;]+$/, ''));
    if (t.length < 7 || t.length > 64 || !passwordShaped(t)) continue;
    const start = m.index + m[0].lastIndexOf(t);
    if (exampleOnLine(text, start, start + t.length) || DISOWNING_LINE.test(lineAround(text, start, start + t.length, 120))) continue;
    return mask(t, 1);
  }
  return null;
}

/** Words that say a line is about logging in or a credential, in English (other languages: LOGIN_WORDS_INTL). */
const CONTEXT =
  /\b(?:pass(?:word|wd|phrase|code)?s?|pw|pwd|creds?|credentials?|log(?:ged)?[ -]?in|logon|sign[ -]?in|sudo|root|admin|user(?:name)?|account|wi-?fi|ssid|secret|token|(?:api|access|secret|app)[ -]?key|key is|unlock|ssh|chiave|clave|chave|cl\u00e9|schl\u00fcssel|sleutel|klucz|nyckel|n\u00f8gle|changed the default|htpasswd\w*|pgpass)\b|\.netrc\b|\((?:sa|root|admin)\)/i;
/** Words whose digits say what they are: a product and its version, a size, a type, a place, a name with its number. */
const NAMED_NUMBER =
  /^(?:python|node|java|jdk|postgres(?:ql)?|mysql|mariadb|redis|mongo(?:db)?|ubuntu|debian|centos|rhel|fedora|alpine|windows|win|macos|ios|android|php|ruby|go|dotnet|net|gradle|maven|vue|react|angular|rails|django|spring|kotlin|swift|scala|perl|es|ecmascript|html|css|sha|md|utf|iso|rfc|http|tls|ssl|ipv|x|arm|amd|intel|gen|v|version|release|build|rc|beta|alpha|sprint|week|q|fy|office|server|ver|route|chrome|firefox|safari|edge|iphone|ipad|pixel|galaxy|macbook|surface|xbox|ed|p|secp|rsa|aes|base|int|uint|float|bigint|port|vlan|room|floor|rack|slot|gate|line|step|phase|level|tier|zone|node|pod|host|box|lab|test|demo|stage|env|dev|prod|user|team|group|region|issue|ticket|pr|item|page|case|run|job|batch|shard|replica|worker|core|cpu|gpu)\d/i;

/** A token a person uses as a password: words joined with a number, a word and a number, or a machine-made mix of cases and digits. */
function passwordLike(t: string): boolean {
  if (t.length < 7 || t.length > 64 || NAMED_NUMBER.test(t) || /^0x/i.test(t) || !/\p{Ll}/u.test(t)) return false; // all capitals: a constant's name
  if (/[\\/:@=]|^[-#$%&*!~+]|^X-/.test(t) || /^\p{L}+$/u.test(t) || shapesOf(t) === null) return false; // paths, hosts, settings, header names, words, placeholders, references
  if (/\.[a-z]{2,6}$/.test(t) && !/\d$/.test(t)) return false; // a host or a file's name (`Build.Prod.internal`, `report.csv`)
  if (/^[0-9a-f-]+$/i.test(t) || (decodedText(t)?.length ?? 0) >= 4) return false; // hex ids and UUIDs, base64 of readable text (`YWRtaW46` is "admin:")
  const parts = t.split(/[-_.]+/).filter((p) => p !== '');
  // `Peacock-Ladder-61`, `Knedlik.Praha.19`, `lab-ops-Kestrel9`: words joined, ending in a number.
  if (parts.length >= 2 && parts.every((p) => /^[\p{L}\d]+$/u.test(p))) {
    if (isResourceName(t)) return false;
    // A capital and a number: a host's or a package's name (`win-msbuild-02`, `pinentry-gnome3`) has no capital.
    const numbered = /\p{Lu}/u.test(t) && (/(?:^|[-_.])\d{2,4}$/.test(t) || /\p{L}\d{1,4}$/u.test(t));
    if (numbered && parts.filter((p) => /\p{L}{4,}/u.test(p)).length >= 1 && parts.filter((p) => /\p{L}/u.test(p)).length >= 2) return true;
    // `Tq8-vLz2-Km9x`: short random groups, both cases and digits.
    return t.length >= 10 && (t.match(/\d/g) ?? []).length >= 2 && /\p{Lu}/u.test(t) && /\p{Ll}/u.test(t) && parts.every((p) => p.length <= 6) && shannonEntropy(t) >= 3.2;
  }
  // `Brisket2024`, `tiger2019`, `Marmalade88`, `Qw8vRk2mLx7z`: letters and digits.
  if (/^[\p{L}\d]+$/u.test(t)) {
    if (/^\p{L}{3,}\d{2,}$/u.test(t) && !/\p{L}0\d$/u.test(t)) return true; // not a host's number (`legacy01`)
    if (/^\p{Lu}\p{Ll}+\d+\p{Lu}\p{Ll}+$/u.test(t)) return true; // `Tulp8Dijk`
    return t.length >= 8 && (t.match(/\d/g) ?? []).length >= 2 && /\p{Lu}/u.test(t) && /\p{Ll}/u.test(t) && shannonEntropy(t) >= 3;
  }
  return false;
}

/** Does the line, or the line before it, speak of a credential or of logging in? */
function credentialContext(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const prevStart = lineStart > 0 ? text.lastIndexOf('\n', lineStart - 2) + 1 : lineStart;
  const lineEnd = text.indexOf('\n', at);
  const window = text.slice(Math.max(prevStart, at - 300), lineEnd === -1 ? Math.min(text.length, at + 200) : Math.min(lineEnd, at + 200));
  return CONTEXT.test(window) || LOGIN_WORDS_INTL.test(window);
}

/**
 * A password-like token near a word of credentials or logging in ("Guest wifi this week:
 * Peacock-Ladder-61", "mysql root on the old vm is still tiger2019", "Heslo k databázi je
 * Knedlik-Praha-91"), for the team store. The token follows the context word; what precedes the
 * word is a name (`jenkins-prod admin`).
 */
export function passwordNearCredentialWord(text: string): string | null {
  if (!CONTEXT_ANYWHERE.test(text) && !LOGIN_WORDS_INTL.test(text)) return null;
  for (const m of text.matchAll(LIKE_TOKEN)) {
    if (m[0].length > 80) continue;
    const t = afterUser(m[0].replace(/[.,:;!?]+$/, ''));
    // Right after a label ("key: orbit-walrus-6612", "key is harbor-lights-2025", "chiave X"), lowercase words joined with a number count too.
    const labelled = LABEL_BEFORE.test(text.slice(Math.max(0, m.index - 24), m.index));
    if (!passwordLike(t) && !(labelled && /^\p{Ll}+(?:[-_.]\p{Ll}+)+[-_.]?\d{2,6}$/u.test(t) && !isResourceName(t) && shapesOf(t) !== null)) continue;
    const start = m.index + m[0].lastIndexOf(t);
    const before = text.slice(Math.max(0, start - 40), start);
    if (/\b(?:user(?:name)?|login|as|account|for|on|at|in|host|server|vm|branch|repo|project|service|team|channel|bucket|image|tag|database|db|table|queue|topic|cluster|namespace|ssid|network|called|named)[ \t:=]+["'`]?$/i.test(before)) continue; // a name, not a password
    if (!credentialContext(text, start) || exampleOnLine(text, start, start + t.length) || DISOWNING_LINE.test(lineAround(text, start, start + t.length, 120))) continue;
    if (isFixture(text, start, start + t.length, t) || isIdentifier(text, start, t) || /\bpublic\b|client[ _-]?id/i.test(lineAround(text, start, start + t.length, 60))) continue;
    return mask(t, 1);
  }
  return null;
}
const CONTEXT_ANYWHERE = new RegExp(CONTEXT.source, 'i');
const LABEL_BEFORE = /\b(?:key|pass|pw|pwd|code|passcode|password|passwort|senha|clave|chiave|chave|cl\u00e9|mdp|wachtwoord)(?:[ \t]+is|[ \t]*[:=])?[ \t]*[`"'\u00ab\u201c]?$/i;
const LIKE_TOKEN = /[^\s"'`()[\]{}<>,;|\u201e\u201c\u201d\u2018\u2019\u00ab\u00bb\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]{7,}/gu;
