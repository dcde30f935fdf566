// What the secret detectors report and how they share a text: the kinds a refusal names, the list
// of findings, and the spans already claimed (a span claimed by an earlier, more specific rule is
// not reported again by a later, vaguer one).

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
  'mailchimp-key',
  'sentry-token',
  'atlassian-token',
  'tailscale-key',
  'vault-token',
  'age-secret-key',
  'digitalocean-token',
  'shopify-token',
  'databricks-token',
  'grafana-token',
  'telegram-bot-token',
  'discord-webhook',
  'service-token',
  'bitlocker-recovery-key',
  'jwt',
  'bearer-token',
  'basic-auth',
  'url-password',
  'password-flag',
  'password-prose',
  'secret-assignment',
  'env-credential',
  'login-pair',
  'access-code',
  'otp-seed',
  'kubernetes-secret',
  'payment-card',
] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

export interface SecretFinding {
  kind: SecretKind;
  /** The offending text with the secret itself masked (a few leading characters kept). */
  snippet: string;
}

export interface Span {
  start: number;
  end: number;
}

export class Findings {
  readonly list: SecretFinding[] = [];
  /** Sorted by start, so a text with thousands of findings is still checked in linear time. */
  private readonly spans: Span[] = [];
  private longest = 0;
  private readonly seen = new Set<string>();

  /** The index of the first span starting at or after `at`. */
  private firstFrom(at: number): number {
    let lo = 0;
    let hi = this.spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.spans[mid]!.start < at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  overlaps(start: number, end: number): boolean {
    // Only spans starting before `end`, and no earlier than the longest span could reach back.
    for (let j = this.firstFrom(end) - 1; j >= 0 && this.spans[j]!.start + this.longest > start; j--) {
      if (this.spans[j]!.end > start) return true;
    }
    return false;
  }

  spanList(): Span[] {
    return [...this.spans];
  }

  add(kind: SecretKind, snippet: string, start: number, end: number): void {
    this.spans.splice(this.firstFrom(start), 0, { start, end });
    this.longest = Math.max(this.longest, end - start);
    const key = `${kind}\0${snippet}`;
    if (this.seen.has(key)) return; // the same secret pasted twice is one finding
    this.seen.add(key);
    this.list.push({ kind, snippet });
  }

  /** Adds unless an earlier finding already covers the span. */
  claim(kind: SecretKind, snippet: string, start: number, end: number): void {
    if (!this.overlaps(start, end)) this.add(kind, snippet, start, end);
  }
}

/** A value without trailing sentence punctuation (a loop: /[.,;:!?)\]]+$/ is quadratic in a long value). */
export function trimPunctuation(v: string): string {
  let end = v.length;
  while (end > 0 && '.,;:!?)]'.includes(v[end - 1]!)) end--;
  return v.slice(0, end);
}

/**
 * The part of the line around [start, end), at most `reach` characters to either side. Bounded,
 * so that a rule asking about the line of each of many matches on one long line stays linear.
 */
export function lineAround(text: string, start: number, end: number, reach = 200): string {
  const from = Math.max(0, start - reach);
  const before = text.slice(from, start);
  const after = text.slice(end, end + reach);
  const nl = after.indexOf('\n');
  return before.slice(before.lastIndexOf('\n') + 1) + text.slice(start, end) + (nl === -1 ? after : after.slice(0, nl));
}

/** The text of the line before `at`, at most `reach` characters. */
export function lineBefore(text: string, at: number, reach = 200): string {
  const before = text.slice(Math.max(0, at - reach), at);
  return before.slice(before.lastIndexOf('\n') + 1);
}

/** The text of the line after `at`, at most `reach` characters. */
export function lineAfter(text: string, at: number, reach = 200): string {
  const after = text.slice(at, at + reach);
  const nl = after.indexOf('\n');
  return nl === -1 ? after : after.slice(0, nl);
}

export function* linesOf(text: string): Generator<{ text: string; start: number }> {
  let start = 0;
  while (start <= text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    yield { text: text.slice(start, end), start };
    if (nl === -1) return;
    start = nl + 1;
  }
}
