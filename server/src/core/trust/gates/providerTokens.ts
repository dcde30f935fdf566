// Credentials recognised by their own shape, wherever they stand: provider tokens (tokenRules.ts),
// private keys, a GCP service-account file, Azure connection strings and SAS signatures, AWS and
// Twilio secrets next to their names, Authorization headers, Kubernetes Secret data and payment
// card numbers.
import { EXAMPLE_AFTER, EXAMPLE_BEFORE } from './credentialValues.ts';
import { isPlaceholder, mask, shannonEntropy } from './entropy.ts';
import { type Findings, lineAround, linesOf } from './findings.ts';
import { looksLikeSecretValue } from './passwordRules.ts';
import { TOKEN_RULES, notExample } from './tokenRules.ts';

export function detectPrivateKeys(text: string, out: Findings): void {
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
    const runs = material.split(/[\s"',;]+/).filter((r) => /^[A-Za-z0-9+/=]{32,}$/.test(r) && /[0-9+/]/.test(r)); // also in a string literal per line
    if (runs.length === 0) continue;
    const end = start + m[0].length + (endAt >= 0 ? endAt : Math.min(after.length, 600));
    out.claim('private-key', `${m[0]} ********`, start, end);
  }
  // A PuTTY key file: its private half follows `Private-Lines:`.
  for (const m of text.matchAll(/^Private-Lines:[ \t]*\d+[ \t]*\r?\n([A-Za-z0-9+/=]{32,})/gm)) {
    if (!/PuTTY-User-Key-File-\d/.test(text)) break;
    const start = m.index + m[0].length - m[1]!.length;
    out.claim('private-key', 'PuTTY Private-Lines: ********', start, start + m[1]!.length);
  }
}

export function detectGcpServiceAccount(text: string, out: Findings): void {
  if (!/"type"\s*:\s*"service_account"/.test(text)) return;
  const re = /"(private_key_id|private_key)"\s*:\s*"([^"]{8,})"/g;
  for (const m of text.matchAll(re)) {
    const value = m[2]!;
    if (isPlaceholder(value)) continue;
    const valueStart = m.index + m[0].length - value.length - 1;
    out.add('gcp-service-account', `"type": "service_account", "${m[1]}": "${mask(value, m[1] === 'private_key' ? 0 : 2)}"`, valueStart, valueStart + value.length);
  }
}

const DEAD_KEY = /\b(?:deactivated|revoked|deleted|disabled|inactive|rotated out|scheduled for deletion|scheduling deletion|last used \d+\+? days ago)\b/i;

export function detectTokens(text: string, out: Findings): void {
  for (const rule of TOKEN_RULES) {
    for (const m of text.matchAll(rule.re)) {
      const token = m[0];
      if (rule.accept && !rule.accept(token)) continue;
      if (exampleOnLine(text, m.index, m.index + token.length)) continue;
      // An access key's id alone opens nothing once the key is gone ("AKIA... was deactivated").
      if (rule.kind === 'aws-access-key-id' && DEAD_KEY.test(lineAround(text, m.index, m.index + token.length))) continue;
      // A Firebase web config's apiKey is public by design (restricted by referrer in the console).
      if (rule.kind === 'gcp-api-key' && /\bpublic\b|referr?er|firebase web/i.test(lineAround(text, m.index, m.index + token.length))) continue;
      const keep = typeof rule.keep === 'number' ? rule.keep : rule.keep(token);
      out.claim(rule.kind, mask(token, keep), m.index, m.index + token.length);
    }
  }
}

/** A token shown as an example ("Example JWT from jwt.io: eyJ...", "a sample key: ..."): documentation, not a leak. */
export function exampleOnLine(text: string, start: number, end: number): boolean {
  const line = lineAround(text, start, end);
  return EXAMPLE_BEFORE.test(line) || EXAMPLE_AFTER.test(line);
}

export function detectAwsSecretKeys(text: string, out: Findings): void {
  const re = /aws_?secret_?(?:access_?)?key["']?\s*(?:=|:=|=>|:)\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi;
  for (const m of text.matchAll(re)) {
    const value = m[1]!;
    if (!notExample(value) || isPlaceholder(value)) continue;
    const start = m.index + m[0].length - value.length;
    out.claim('aws-secret-access-key', `${m[0].slice(0, m[0].length - value.length)}${mask(value, 2)}`, start, start + value.length);
  }
}

export function detectAzure(text: string, out: Findings): void {
  // Connection strings: storage accounts (AccountKey=) and Service Bus / Event Hubs (SharedAccessKey=).
  for (const m of text.matchAll(/\b(AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{30,}={0,2})(?![A-Za-z0-9+/=])/g)) {
    const value = m[2]!;
    if (isPlaceholder(value) || !notExample(value) || shannonEntropy(value) < 4) continue;
    const start = m.index + m[1]!.length + 1;
    out.claim('azure-storage-key', `${m[1]}=${mask(value, 2)}`, start, start + value.length);
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
    out.claim('azure-sas-token', `sig=${mask(value, 2)}`, start, start + value.length);
  }
}

/** Twilio auth tokens are 32 hex digits with no prefix: only next to the words that name them. */
export function detectTwilioAuthTokens(text: string, out: Findings): void {
  const re = /\b(?:twilio[\w ]{0,30}?)?auth[_ -]?token\b["']?\s*(?:[:=]|\bis\b)?\s*["']?([0-9a-f]{32})(?![0-9A-Za-z])/gi;
  for (const m of text.matchAll(re)) {
    const value = m[1]!;
    if (!/[0-9]/.test(value) || !/[a-f]/i.test(value)) continue;
    const start = m.index + m[0].length - value.length;
    out.claim('twilio-key', `auth token ${mask(value, 2)}`, start, start + value.length);
  }
}

/**
 * Authorization headers: `Bearer <token>`, `Token <token>` and the like, and `Basic <base64>`,
 * whose base64 decodes to `user:password`.
 */
export function detectAuthorization(text: string, out: Findings): void {
  for (const m of text.matchAll(/\b(Bearer|Token|token|Bot|Key|ApiKey|SSWS|Splunk|GenieKey)\s+([A-Za-z0-9._~+/-]{16,}=*)/g)) {
    const value = m[2]!;
    // The other schemes only in a header: `Authorization: Token ...`.
    if (m[1] !== 'Bearer' && !/Authorization["']?[ \t]*[:=][ \t]*["']?$/i.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
    const start = m.index + m[0].length - value.length;
    if (!looksLikeSecretValue(value)) continue;
    out.claim('bearer-token', `${m[1]} ${mask(value, 4)}`, start, start + value.length);
  }
  // Any other scheme in an Authorization header (`Authorization: ServiceAccount 94e1...`).
  for (const m of text.matchAll(/\bAuthorization["']?[ \t]*[:=][ \t]*["']?(?!Bearer|Basic|Token|token|Bot|Key|ApiKey|SSWS|Splunk|GenieKey)([A-Za-z][\w-]{1,30})[ \t]+([A-Za-z0-9._~+/-]{16,}=*)/g)) {
    const value = m[2]!;
    const start = m.index + m[0].length - value.length;
    if (!looksLikeSecretValue(value) || out.overlaps(start, start + value.length)) continue;
    out.claim('bearer-token', `${m[1]} ${mask(value, 4)}`, start, start + value.length);
  }
  for (const m of text.matchAll(/\bBasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g)) {
    const value = m[1]!;
    if (value.length % 4 !== 0) continue;
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // A user name, a colon, then a password: printable, and not a stand-in.
    if (colon < 1 || colon === decoded.length - 1 || !/^[\x20-\x7e]+$/.test(decoded) || isPlaceholder(decoded.slice(colon + 1))) continue;
    if (exampleOnLine(text, m.index, m.index + m[0].length)) continue; // RFC 7617's `Aladdin:open sesame`
    const start = m.index + m[0].length - value.length;
    out.claim('basic-auth', `Basic ${mask(value, 2)}`, start, start + value.length);
  }
}

/**
 * The `data:` / `stringData:` entries of a Kubernetes Secret manifest: every value there is part
 * of the secret, whatever its key (base64 hides its shape, so no value test can tell).
 */
export function detectKubernetesSecretData(text: string, out: Findings): void {
  if (!/^[ \t]*kind:[ \t]*["']?Secret["']?[ \t]*\r?$/m.test(text)) return;
  let dataIndent = -1;
  for (const line of linesOf(text)) {
    const indent = /^[ \t]*/.exec(line.text)![0].length;
    if (/^[ \t]*(?:data|stringData):[ \t]*$/.test(line.text)) {
      dataIndent = indent;
      continue;
    }
    if (dataIndent < 0 || line.text.trim() === '') continue;
    if (indent <= dataIndent) {
      dataIndent = -1;
      continue;
    }
    const m = /^[ \t]*["']?([\w.-]{1,100})["']?:[ \t]*["']?([^\s"']{4,})["']?[ \t]*$/.exec(line.text);
    if (!m) continue;
    const value = m[2]!;
    if (isPlaceholder(value) || /^[A-Z][A-Z0-9_]*$/.test(value)) continue;
    const start = line.start + line.text.lastIndexOf(value);
    out.claim('kubernetes-secret', `kind: Secret ... ${m[1]}: ${mask(value, 0)}`, start, start + value.length);
  }
}

const CARD_WORDS = /\b(?:card|visa|mastercard|master card|amex|american express|maestro|kreditkarte|karte|carte|tarjeta|cart[a\u00e3]o|credit|debit|cc)\b/i;

/** A payment card number (13 to 19 digits passing the Luhn check) on a line that speaks of a card. */
export function detectPaymentCards(text: string, out: Findings): void {
  if (!CARD_WORDS.test(text)) return;
  for (const line of linesOf(text)) {
    // Test cards (Stripe's 4242..., 4111...) are documented everywhere: not on a line about testing.
    if (!CARD_WORDS.test(line.text) || /\b(?:tests?|testing|example|sample|dummy|fake|sandbox)\b/i.test(line.text)) continue;
    for (const m of line.text.matchAll(/(?<![\d.-])\d(?:[ -]?\d){12,18}(?![\d.-])/g)) {
      const digits = m[0].replace(/[ -]/g, '');
      if (/^(\d)\1+$/.test(digits) || !luhn(digits)) continue;
      out.claim('payment-card', `card ${mask(digits, 0)}`, line.start + m.index, line.start + m.index + m[0].length);
    }
  }
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
