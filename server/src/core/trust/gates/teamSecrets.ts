// The team store's stricter secret gate (README "Team memory"). A team store is committed and
// pushed with the code: everyone with the repository reads it, and git history keeps it for good.
// So on top of the personal gate (secrets.ts), a team write is refused on weaker evidence: any
// value stated after a credential word that is no word of a sentence (`password: blue-otter-garden`,
// "the wifi password is tulpenfeld", `pin: 4821`), a `user / password` login pair, a product's
// default credentials (`admin/admin`), an email address with a stated password, a bare
// high-entropy token of 16+ characters, a random value after a labelled credential word, and a
// password-shaped token alone or near a word of logging in (passwordShapes.ts). Every rule needs
// a value: notes that only say where credentials live ("its credentials are stored in Vault",
// "the staging db at 10.0.4.20 takes the login deploy, password in the vault") pass. A false
// refusal costs a rewording; a leak into a shared history costs a credential rotation.
import { isFixture, isIdentifier, withoutCiphertext } from './disowned.ts';
import { decodedText, isPlaceholder, mask, shannonEntropy } from './entropy.ts';
import { lineAround } from './findings.ts';
import { detectCredentialPairs } from './loginPairs.ts';
import { loosePassword, passwordNearCredentialWord } from './passwordShapes.ts';
import { exampleOnLine } from './providerTokens.ts';
import { shapesOf } from './credentialValues.ts';
import { keyClassOf } from './credentialWords.ts';
import { detectStatedCredentials } from './statedCredentials.ts';
import { detectSecrets } from './secrets.ts';
import { detectStructuredCredentials } from './structuredCredentials.ts';

export const TEAM_SECRET_KINDS = [
  'email-password',
  'high-entropy-token',
  'stated-credential',
  'login-pair',
  'default-credential',
  'weak-password',
  'password-shaped',
] as const;
export type TeamSecretKind = (typeof TEAM_SECRET_KINDS)[number];

export interface TeamSecretFinding {
  kind: TeamSecretKind;
  snippet: string;
}

const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g;
const STATED_PASSWORD = /\b(?:pass(?:word|wd|phrase)?|pwd)\b\s*(?:[:=]|is|was)\s*["'`]?([^\s"'`]{4,})/gi;
const TOKEN = /(?<![A-Za-z0-9_+=-])[A-Za-z0-9_+=-]{16,}(?![A-Za-z0-9_+=-])/g;
// A line about public material: what follows is meant to be shared.
const PUBLIC_LINE = /\b(?:public(?:[ _-]?key)?|pubkey|fingerprint|checksum|digest|integrity|sha-?\d+|md5|hash|recipient|jwks?|kty|modulus|dkim1?|domainkey|binarydata)\b|ssh-(?:rsa|ed25519)|ecdsa-sha2/i;
const PUBLIC_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*(?:PUBLIC KEY|CERTIFICATE|CERTIFICATE REQUEST|PUBLIC KEY BLOCK|X509 CRL|PKCS7)-----/g;

/** A stated password value, not a word of prose ("the password is stored in Vault"). */
function valueLike(v: string): boolean {
  if (isPlaceholder(v)) return false;
  return /[0-9]/.test(v) || /[^A-Za-z]/.test(v) || /[a-z][A-Z]/.test(v);
}

/** A random-looking token: letters and at least two digits, high entropy, no id, word, path or encoded-text shape. */
function tokenLike(t: string): boolean {
  if (/^[0-9a-f-]+$/i.test(t) || /^0x[0-9a-f]+$/i.test(t)) return false; // git SHAs, UUIDs, hex ids
  if (/^[0-7][0-9A-Z]{25}$/.test(t) && /[A-Z]/.test(t)) return false; // ULIDs (memory ids, order ids)
  if (/^(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}$/.test(t)) return false; // an AWS access key's id: the personal rule's, which knows when it is dead
  if (/^(?:AC|MG|SK|PN|CA|SM|MM|IS|CH|VA)[0-9a-f]{32}$/.test(t)) return false; // a Twilio SID: an id (its own rule judges account SIDs)
  if (/^[a-z]+(?:-[a-z]+)*-[0-9a-f]{16,}$/.test(t)) return false; // a name and a content hash (`deps-5b8e2f...`, a cache key or an image tag)
  // A public key in DER (`MIIBIjANBgkqhkiG9w0BAQEFAAOC...`, SubjectPublicKeyInfo) and files by their magic: PNG, JPEG, GIF, PDF, ZIP, gzip, XML.
  if (/^(?:MII[BC]IjANBgkqhkiG9w0BAQEFAAO|MFkwEwYHKoZIzj0CAQ|MCowBQYDK2Vw|iVBORw0KGgo|\/9j\/|R0lGOD|JVBERi0|UEsDB|H4sI|PD94bWwg)/.test(t)) return false;
  if (/^p_[0-9A-HJKMNP-TV-Z]{26}$/.test(t)) return false; // pending ids
  if (/^(?:sha\d+-|age1|npub1|pk_(?:live|test)_)/i.test(t)) return false; // digests and public keys
  if ((t.match(/[0-9]/g) ?? []).length < 2 || !/[A-Za-z]/.test(t)) return false;
  // Identifiers and words (handleRequestV2Async): a run of one case, and few changes of class. A
  // random string has runs too (a third of 40-character ones hold six letters of one case) but
  // changes between lower, upper and digit at most characters.
  // Names joined by - or _ (`orders-api-7d9f8c6b5-x2kqp`, `MiniLM-L6-H384-uncased`) keep the stricter test.
  // Lowercase and digits only (an Azure DevOps PAT) change class less often than a mix of cases: a lower bar, with four digits at least.
  const changeBar = /[A-Z]/.test(t) ? 0.45 : (t.match(/\d/g) ?? []).length >= 4 && t.length >= 32 ? 0.25 : 0.45;
  if (/[a-z]{6,}|[A-Z]{6,}/.test(t) && (/[-_]/.test(t) || classChanges(t) < changeBar * (t.length - 1))) return false;
  if (/^[a-z0-9]+(?:[-_][a-z0-9]+)+$/.test(t) && t.split(/[-_]/).every((p) => p.length <= 8)) return false; // kebab/snake names
  if (t.split('-').length >= 2 && t.split('-').every((p) => /^[A-Z]?[a-z]+(?:[A-Z][a-z]+)*\d{0,5}$/.test(p))) return false; // ChaCha20-Poly1305: names of algorithms and products
  if (encodedText(t)) return false;
  return shannonEntropy(t) >= 3.5;
}

/** How many neighbours differ in class (lower, upper, digit, other). */
function classChanges(t: string): number {
  const cls = (c: string) => (c >= 'a' && c <= 'z' ? 0 : c >= 'A' && c <= 'Z' ? 1 : c >= '0' && c <= '9' ? 2 : 3);
  let n = 0;
  for (let i = 1; i < t.length; i++) if (cls(t[i]!) !== cls(t[i - 1]!)) n++;
  return n;
}

/**
 * Base64 of readable text that holds no secret: words ("aGVsbG8gd29ybGQ=" is "hello world"), a
 * JWT's header, a JSON payload, a config line (`feature_new_checkout=true`). A single word or
 * password alone (`Gr4nite!river` encoded) stays a secret: that is how Kubernetes keeps one.
 */
function encodedText(t: string): boolean {
  const d = decodedText(t, true);
  if (d === null || d.length < 6 || !/[A-Za-z]{2}/.test(d)) return false;
  if (!/[\s{}=:,]/.test(d)) return false; // one word or password alone
  return detectSecrets(d).length === 0 && detectTeamSecrets(d).length === 0;
}

/** Is `at` inside the path of a URL (after its host, before any query)? Not a webhook's or a key's path, whose ids are the secret. */
function inUrlPath(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 300), at);
  const word = before.slice(Math.max(before.lastIndexOf(' '), before.lastIndexOf('\n'), before.lastIndexOf('\t'), before.lastIndexOf('(')) + 1);
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+\/[^?#\s]*$/i.test(word) && !/(?:^|[/_.-])(?:hooks?|webhooks?|webhookb2|triggers?|callback|secrets?|tokens?|keys?|sig|signature|auth|bot\d+:)(?=$|[/_.:-])/i.test(word);
}

/** Parameters whose values are public or one-shot by design: an OAuth state or nonce, a PKCE challenge, a tracking or paging value. */
const NOT_SECRET_PARAM = /^(?:state|nonce|code_challenge|code_challenge_method|utm_\w+|ref|id|trace(?:_?id)?|span(?:_?id)?|req(?:uest)?(?:_?id)?|user(?:_?id)?|uid|v|ver|version|build|page|cursor|after|before|q|query|lang|locale)=$/i;

function highEntropyToken(text: string): string | null {
  // PEM blocks of public keys and certificates: base64 lines that are meant to be shared.
  const publicSpans: (readonly [number, number])[] = [];
  PUBLIC_BEGIN.lastIndex = 0;
  for (let m = PUBLIC_BEGIN.exec(text); m; m = PUBLIC_BEGIN.exec(text)) {
    const end = text.indexOf('-----END', m.index + m[0].length);
    publicSpans.push([m.index, end === -1 ? text.length : end]);
    PUBLIC_BEGIN.lastIndex = end === -1 ? text.length : end;
  }
  for (const m of text.matchAll(TOKEN)) {
    if (isIdentifier(text, m.index, m[0])) continue;
    // `session=<value>`: the value alone (the name would make the whole read as an identifier).
    const named = /^[A-Za-z_][\w-]{0,40}=(?=[^=])/.exec(m[0]);
    const value = named ? m[0].slice(named[0].length) : m[0];
    const session = named !== null && /sess|sid|auth|token|remember|app_?id|api_?key|apikey|key=|secret|sig/i.test(named[0]) && /^[0-9a-f]{24,}$/i.test(value) && /\d/.test(value) && /[a-f]/i.test(value);
    if (!session && ((named && (/^-|=./.test(value) || NOT_SECRET_PARAM.test(named[0]))) || !tokenLike(value))) continue; // `NODE_OPTIONS=--max-old-space-size=1536`: flags
    if (/(?:^|\s)h1:[A-Za-z0-9+/]*$/.test(text.slice(Math.max(0, m.index - 60), m.index))) continue; // a Go module's hash (go.sum)
    // A document's or a resource's id in a link (docs.google.com/document/d/<id>), a data: URI's content.
    if (inUrlPath(text, m.index) || /data:[\w/+.-]+;base64,[A-Za-z0-9+/=]*$/.test(text.slice(Math.max(0, m.index - 400), m.index))) continue;
    if (/^\.(?:tar|tgz|gz|zip|jar|war|whl|deb|rpm|dmg|exe|msi|bin|img|iso|log|txt|json|csv|png|jpg|pdf)\b/.test(text.slice(m.index + m[0].length, m.index + m[0].length + 5))) continue; // a file's name
    if (publicSpans.some(([s, e]) => m.index >= s && m.index < e)) continue;
    if (PUBLIC_LINE.test(lineAround(text, m.index, m.index + m[0].length)) || exampleOnLine(text, m.index, m.index + m[0].length)) continue;
    return m[0];
  }
  return null;
}

/** "The backup zip is protected with X", "encrypted the export with X": what a file or archive is locked with. */
const PROTECTED_WITH = /\b(?:protect|encrypt|lock|secur|zipp|seal)(?:ed|s)?\b[^.\n]{0,40}?[ \t](?:with|using|by)[ \t]+(?:the[ \t]+)?(["'`]?)([^\s"'`]{8,64})\1/gi;

/** The value is a password: letters, digits and a symbol other than those of names, versions and algorithms (AES-256, TLS1.3, MFA+SSO). */
function protectedWith(text: string): string | null {
  for (const m of text.matchAll(PROTECTED_WITH)) {
    const v = m[2]!.replace(/[.,;:?)\]}>]+$/, '');
    if (isPlaceholder(v) || /^(?:arn|urn):/i.test(v) || !/\p{L}/u.test(v) || !/\d/.test(v) || !/[^\p{L}\d_./+-]/u.test(v) || exampleOnLine(text, m.index, m.index + m[0].length)) continue;
    if (/@[\w-]*[.-]/.test(v) || (/@/.test(v) && /\bby[ \t]+$/.test(m[0].slice(0, m[0].length - m[2]!.length - m[1]!.length)))) continue; // locked by deploy@ci-42: a user, not a password
    return `${m[0].slice(0, m[0].length - m[2]!.length - m[1]!.length)}${mask(v, 1)}`;
  }
  return null;
}

/** A line's label and its value: up to 100 characters, a `:`, then one token to the end of the line. */
const LABELLED = /^([^\n:=]{3,100})[:=][ \t]*["'`]?([A-Za-z0-9+/_=-]{20,200})["'`]?[ \t]*[.;,)]?[ \t]*(?:$|[ \t](?:\(|\u2014|\u2013|-[ \t]))/gm;

/** "hit the endpoint with key `7c1f...`": the word key and a long machine-made value, not a key of data (a cache, a map, a row). */
const BARE_KEY = /(?<![\w-])((?:[\w-]+[ \t]+)?)key(?:[ \t]*\([^)\n]{1,30}\))?[ \t]*[:=]?[ \t]+[`"']?([A-Za-z0-9+/_-]{32,200})[`"']?(?![\w+/-])/gi;
const DATA_KEY = /^(?:cache|primary|partition|sort|idempotency|object|s3|map|dict|foreign|composite|row|hash|public|ssh|gpg|pgp|signing|host|registry|lookup|index|routing|dedup|dedupe|shard|bucket|the|a|this|that|storage)[ \t]+$/i;

function bareKey(text: string): string | null {
  if (!/\bkey\b/i.test(text)) return null;
  for (const m of text.matchAll(BARE_KEY)) {
    const value = m[2]!;
    if (DATA_KEY.test(m[1]!) || !shapesOf(value)?.random || isPlaceholder(value) || PUBLIC_LINE.test(lineAround(text, m.index, m.index + m[0].length)) || exampleOnLine(text, m.index, m.index + m[0].length)) continue;
    return `key ${mask(value, 3)}`;
  }
  return null;
}

/** The same with a quoted value of any characters (`SECRET_KEY ...: 'k#8v!q2z@m^w0x)e7r4t'`). */
const LABELLED_QUOTED = /^([^\n:=]{3,100}?)[:=][ \t]*["'`]([^"'`\n]{16,200})["'`]/gm;

/**
 * "AES key used to encrypt the export files: 551d8a...": a credential word anywhere in a line's
 * label, and a random value as the whole of what follows its colon.
 */
function labelledRandom(text: string): string | null {
  if (!text.includes(':') && !text.includes('=')) return null;
  for (const [m, quoted] of [...[...text.matchAll(LABELLED)].map((m) => [m, false] as const), ...[...text.matchAll(LABELLED_QUOTED)].map((m) => [m, true] as const)]) {
    const [label, value] = [m[1]!, m[2]!];
    if (!keyClassOf(label) || PUBLIC_LINE.test(label) || /\b(?:token|password|secret|key)[ \t]+(?:accessors?|ids?|names?|paths?|policy|hash(?:es)?)\b/i.test(label) || (/^[0-9a-f-]+$/i.test(value) && /\b(?:id|ids|hash|sha\d*|md5|checksum|digest|fingerprint|commit|etag|nonce|salt|iv)\b/i.test(label)) || /\b(?:hmac|bcrypt|argon2?)[ \t]+of\b/i.test(label)) continue;
    const s = shapesOf(value, quoted);
    if (!(s?.random || (s?.strong && value.length >= 20)) || isPlaceholder(value) || /(.)\1{5}/.test(value) || exampleOnLine(text, m.index, m.index + m[0].length)) continue;
    if (/\b(?:fake|mock|dummy|example|sample|fixture)/i.test(label) || /^[ \t]*(?:---[ \t]+)?(?:PASS|FAIL|ok|SKIP)\b/.test(label)) continue; // a fixture, a test runner's line
    return `${label.trim().slice(-40)}: ${mask(value, 3)}`;
  }
  return null;
}

/** What the team gate refuses beyond the personal gate; empty when nothing fires. */
export function detectTeamSecrets(written: string): TeamSecretFinding[] {
  const text = withoutCiphertext(written);
  const stated = detectStatedCredentials(text, 'team', false);
  if (stated.length === 0) stated.push(...detectStructuredCredentials(text, 'team').slice(0, 1));
  const out: TeamSecretFinding[] = stated.map((f) => ({ kind: 'stated-credential', snippet: f.snippet }));
  if (stated.length === 0) {
    const other = labelledRandom(text) ?? bareKey(text) ?? protectedWith(text);
    if (other) out.push({ kind: 'stated-credential', snippet: other });
  }
  const pairs = detectCredentialPairs(text, 'team');
  for (const kind of ['login-pair', 'default-credential', 'weak-password'] as const) {
    const p = pairs.find((f) => f.kind === kind);
    // A seasonal password is the weakest evidence: named only when nothing else already covers it.
    if (p && (kind !== 'weak-password' || out.length === 0)) out.push({ kind, snippet: p.snippet });
  }
  const emails = [...text.matchAll(EMAIL)].map((m) => m[0]);
  if (emails.length > 0) {
    for (const m of text.matchAll(STATED_PASSWORD)) {
      const at = m.index + m[0].length - m[1]!.length;
      if (!valueLike(m[1]!) || isFixture(text, at, at + m[1]!.length, m[1]!)) continue;
      out.push({ kind: 'email-password', snippet: `${mask(emails[0]!, 3)} ... ${m[0].slice(0, m[0].length - m[1]!.length)}${mask(m[1]!, 1)}` });
      break;
    }
  }
  const token = highEntropyToken(text);
  if (token) out.push({ kind: 'high-entropy-token', snippet: mask(token, 3) });
  if (out.length === 0) {
    const loose = loosePassword(text) ?? passwordNearCredentialWord(text);
    if (loose) out.push({ kind: 'password-shaped', snippet: loose });
  }
  return out;
}
