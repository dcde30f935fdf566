// Values shaped like credentials that their context says are none: a keyword inside an AWS
// resource name (`arn:aws:secretsmanager:...:secret:prod/db-Xk3p9Q` says where a secret is), an
// object or request id (`req_...`, "trace id ..."), a test fixture's login (a reserved example
// domain or a value that says "test", in a note about fixtures or mocks), and a product's default
// password on a throwaway local container ("POSTGRES_PASSWORD=postgres ... only binds to
// 127.0.0.1"). Each check reads a bounded window around the value, so a text with many findings
// is still checked in linear time.
import { lineAround, lineBefore } from './findings.ts';

/** Passwords products ship with (or that people keep): public knowledge, never a secret alone. */
export const DEFAULT_PASSWORDS = new Set(
  'password passw0rd p@ssw0rd p@ssword changeme changeit toor raspberry ubnt letmein qwerty 123456 1234 12345 12345678 123456789 0000 default secret admin123 admin1234 password1 password123 welcome welcome1 vagrant minioadmin zabbix calvin s3cr3t vmware alpine dietpi openstack'.split(
    ' ',
  ),
);

/** Is `at` inside an ARN or URN (`arn:aws:secretsmanager:eu-west-1:1234:secret:name`)? */
export function inResourceName(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 200), at);
  if (!before.includes('rn:')) return false;
  const token = before.slice(Math.max(before.lastIndexOf(' '), before.lastIndexOf('\n'), before.lastIndexOf('\t'), before.lastIndexOf('"'), before.lastIndexOf("'"), before.lastIndexOf('`')) + 1);
  return /^(?:arn|urn):/i.test(token);
}

/** Prefixes of object ids (Stripe's `cus_`, `evt_`, request ids `req_`): they name a record, they open nothing. */
const ID_PREFIX = /^(?:prj|proj|team|org|ws|req|request|evt|event|cus|cust|customer|ch|pi|pm|py|po|in|inv|ii|sub|si|txn|tx|ord|order|acct|ba|src|prod|price|plan|seti|cs|re|tr|trace|span|msg|job|run|usr|user|obj|corr|cid|rid)_[A-Za-z0-9]+$/;
/**
 * An id of a record or an event named just before the value: "request id req_...", "trace id:
 * ...". Not a client's or an app's id: those pair with a secret, and the team store keeps them out.
 */
const ID_BEFORE =
  /\b(?:request|req|trace|span|correlation|transaction|txn|order|invoice|customer|event|message|msg|job|run|build|execution|invocation|incident|ticket|object|deployment|upload|batch|case|version|delivery|lease|revision|client|app|application|project|team|org|tenant|workspace|node|serial|device|vin|asset|channel|playlist|video|image)[ _-]?(?:id|ids|number|no\.?|#)(?![\p{L}\d])[^\n]{0,12}$|\bfile[ _-]?key\b[^\n]{0,12}$|\b(?:vin|playlist)\b[ \t(]*$/iu;

/** A record's or a request's id, not a token. */
export function isIdentifier(text: string, start: number, value: string): boolean {
  // `span_id=a1b2...`: a key naming an id, written together with its value.
  const key = /^([A-Za-z_-]+)[=:]/.exec(value)?.[1];
  if (key && /(?:^|[_-])(?:id|ids|uuid|guid|etag|sha|digest|checksum)$/i.test(key)) return true;
  if (/^[a-z]{1,6}_[0-9A-Z]{16,26}$/.test(value)) return true; // a prefixed id in base32 (`whd_01JD3R...`, `u_01HF3K...`)
  if (/^(?:ami|i|vpc|subnet|sg|vol|snap|eni|igw|nat|rtb|acl|eipalloc|lt|tgw|pcx|vpce|fs|fsap|r|db|cluster|ocid\d?)-[0-9a-f]{8,17}$/.test(value)) return true; // an AWS resource's id
  if (/^(?:nonce|sha256|sha384|sha512)-/.test(value)) return true; // a CSP source (`nonce-...`, `sha256-...`)
  return ID_PREFIX.test(value) || ID_BEFORE.test(lineBefore(text, start, 60));
}

/** A note about test fixtures, mocks or seed data. */
const FIXTURE_CONTEXT = /\b(?:fixtures?|in-memory|mock(?:ed|s)?|stub(?:bed|s)?|seed(?:ed)? data|factor(?:y|ies)|unit tests?|spec|specs)\b/i;
/** Domains reserved for examples and tests (RFC 2606, RFC 6761). */
const RESERVED_EMAIL = /@[\w.-]*\b(?:example\.(?:com|org|net)|\w+\.(?:test|example|invalid|localhost))\b/i;
/** A note that says the login is for a shared system after all. */
const LIVE_CONTEXT = /\b(?:staging|prod|production|live|shared|customer|real)\b/i;

/** A test fixture's login: a note about fixtures whose value says "test" or whose user is at a reserved example domain. */
export function isFixture(text: string, start: number, end: number, value: string): boolean {
  const line = lineAround(text, start, end);
  if (!FIXTURE_CONTEXT.test(line) || LIVE_CONTEXT.test(line)) return false;
  return /test|fixture|dummy|mock|fake/i.test(value) || RESERVED_EMAIL.test(line);
}

/** A container or service reachable only from the machine it runs on, or thrown away. */
const LOCAL_ONLY =
  /\b(?:localhost|127\.0\.0\.1|local dev(?:elopment)?|locally|throwaway|ephemeral|disposable|dev ?container|testcontainers?|local (?:docker|compose|container|machine|stack|setup)|never deployed)\b/i;

/**
 * A product's default password (`postgres` for POSTGRES_PASSWORD, `guest`, `changeme`) on a
 * throwaway local container: it opens nothing another machine reaches, and the image documents it.
 * The same value on a shared host ("admin:admin still works on staging") stays a credential.
 */
export function isLocalDefault(text: string, start: number, end: number, key: string, value: string): boolean {
  const v = value.toLowerCase();
  const keyWords = key.toLowerCase().split(/[^a-z0-9]+/);
  if (!DEFAULT_PASSWORDS.has(v) && !keyWords.includes(v) && !['postgres', 'root', 'guest', 'mysql', 'admin', 'dev', 'local'].includes(v)) return false;
  const line = lineAround(text, start, end);
  return LOCAL_ONLY.test(line) && !LIVE_CONTEXT.test(line);
}

/**
 * Encrypted values, which are safe to commit (sops' `ENC[AES256_GCM,data:...]`, an Ansible Vault
 * block), and template expressions, which name where a value comes from (`{{ lookup('hashi_vault',
 * 'secret=...') }}`, `${POSTGRES_PASSWORD:?set in .env}`).
 */
const CIPHERTEXT = /ENC\[[^\][\n]{1,4000}\]|ENC\([^()\n]{1,4000}\)|\$ANSIBLE_VAULT;[^\n]*(?:\r?\n[ \t]*[0-9a-f]{8,})*|\{\{[^{}\n]{1,400}\}\}|\$\{[^{}\n:]{1,200}(?::[?-][^{}\n]{0,200})?\}/g;

/** The text with every encrypted value masked by asterisks of the same length (positions unchanged). */
/** The values under `encryptedData:` (a SealedSecret): indented `name: ciphertext` lines. */
const SEALED = /(encryptedData:[ \t]*\r?\n)((?:[ \t]+[\w.-]+:[ \t]*[^\s]+[ \t]*(?:\r?\n|$)){1,50})/g;

/** A 1Password secret reference (`op://vault/item/field`, spaces allowed): where a secret is. */
const OP_REF = /op:\/\/[^\n"'`]{1,300}/g;
/** `#define MQTT_PASS "x"`: the blank between name and value, read as `=`. */
const C_DEFINE = /(#[ \t]*define[ \t]+[A-Za-z_]\w{0,60})[ \t](?=[ \t]*["'\w])/g;

export function withoutCiphertext(text: string): string {
  let t = text;
  if (t.includes('#') && /#[ \t]*define/.test(t)) t = t.replace(C_DEFINE, (_m, head: string) => `${head}=`);
  if (t.includes('\\"')) t = t.replace(/\\"/g, ' "'); // `-DWIFI_PASS=\"x\"` in a build flag: the backslash is no part of the value
  if (!t.includes('ENC[') && !t.includes('ENC(') && !t.includes('$ANSIBLE_VAULT') && !t.includes('{{') && !t.includes('${') && !t.includes('encryptedData:') && !t.includes('op://')) return t;
  return t
    .replace(OP_REF, (m) => '*'.repeat(m.length))
    .replace(CIPHERTEXT, (m) => '*'.repeat(m.length))
    .replace(SEALED, (_m, head: string, body: string) => head + body.replace(/(:[ \t]*)([^\s]+)/g, (_v, sep: string, value: string) => sep + '*'.repeat(value.length)));
}
