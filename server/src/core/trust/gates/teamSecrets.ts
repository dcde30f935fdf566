// The team store's stricter secret gate (README "Team memory"). A team store is committed and
// pushed with the code: everyone with the repository reads it, and git history keeps it for good.
// So on top of the personal gate (secrets.ts, which anchors on provider prefixes and explicit
// assignments for precision), a team write is refused on weaker evidence: a private address or an
// internal host name next to a credential word, an email address with a stated password, and a
// bare high-entropy token of 16+ characters, any value stated after a credential word (whatever
// its shape: `password: blue-otter-garden-19`, `DB_PASSWORD=mossy-river-lantern-42`), and a
// `user / password` login pair. Notes that only say where credentials live ("its credentials are
// stored in Vault") pass. A false refusal costs a rewording; a leak into a shared history costs a
// credential rotation.
import { isPlaceholder, mask, shannonEntropy } from './entropy.ts';
import { detectLoginPairs, detectStatedCredentials } from './statedCredentials.ts';

export const TEAM_SECRET_KINDS = ['private-host-credential', 'email-password', 'high-entropy-token', 'stated-credential', 'login-pair'] as const;
export type TeamSecretKind = (typeof TEAM_SECRET_KINDS)[number];

export interface TeamSecretFinding {
  kind: TeamSecretKind;
  snippet: string;
}

const PRIVATE_IP = /(?<![\d.])(?:10\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])|192\.168)\.\d{1,3}\.\d{1,3}(?![\d.])/g;
const INTERNAL_HOST = /(?<![a-z0-9.-])[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:internal|local|lan|corp|intranet|home\.arpa)\b/gi;
const CREDENTIAL_WORD = /\b(?:pass(?:word|wd|phrase)?|pwd|secret|token|credentials?|api[_ -]?key|login)\b/i;
// An account named next to the host: `login deploy`, `user admin`, `as root`, `deploy@10.0.0.4`.
const ACCOUNT_NAMED = /\bas\s+(?:root|admin|administrator)\b|\b(?:login|log in|user(?:name)?|account)\s+[`'"]?(?!the\b|a\b|an\b|its\b|their\b|our\b|your\b|that\b|this\b|described\b|explained\b|documented\b)[a-z_][\w.-]*|(?<![\w.-])[\w.-]+@(?:\d|[a-z0-9-]+\.(?:internal|local|lan|corp|intranet))/i;
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g;
const STATED_PASSWORD = /\b(?:pass(?:word|wd|phrase)?|pwd)\b\s*(?:[:=]|is|was)\s*["'`]?([^\s"'`]{4,})/gi;
const TOKEN = /(?<![A-Za-z0-9_+=-])[A-Za-z0-9_+=-]{16,}(?![A-Za-z0-9_+=-])/g;

/** A stated password value, not a word of prose ("the password is stored in Vault"). */
function valueLike(v: string): boolean {
  if (isPlaceholder(v)) return false;
  return /[0-9]/.test(v) || /[^A-Za-z]/.test(v) || /[a-z][A-Z]/.test(v);
}

/** A random-looking token: letters and at least two digits, high entropy, no id or word shape. */
function tokenLike(t: string): boolean {
  if (/^[0-9a-f-]+$/i.test(t)) return false; // git SHAs, UUIDs, hex ids
  if (/^[0-9A-HJKMNP-TV-Z]{26}$/.test(t)) return false; // ULIDs (memory ids)
  if (/^p_[0-9A-HJKMNP-TV-Z]{26}$/.test(t)) return false; // pending ids
  if ((t.match(/[0-9]/g) ?? []).length < 2 || !/[A-Za-z]/.test(t)) return false;
  if (/[a-z]{6,}|[A-Z]{6,}/.test(t)) return false; // identifiers and words (handleRequestV2Async)
  if (/^[a-z0-9]+(?:[-_][a-z0-9]+)+$/.test(t) && t.split(/[-_]/).every((p) => p.length <= 8)) return false; // kebab/snake names
  return shannonEntropy(t) >= 3.5;
}

/** What the team gate refuses beyond the personal gate; empty when nothing fires. */
export function detectTeamSecrets(text: string): TeamSecretFinding[] {
  const out: TeamSecretFinding[] = [...detectStatedCredentials(text), ...detectLoginPairs(text)].map((f) => ({ kind: f.kind, snippet: f.snippet }));
  // A host with a credential word is refused when the note also names the account; a note that
  // only says where credentials live ("the staging database at 10.0.4.20 keeps its credentials in
  // Vault", "the wiki at wiki.corp explains how to request them") passes.
  if (CREDENTIAL_WORD.test(text) && ACCOUNT_NAMED.test(text)) {
    const hosts = [...text.matchAll(PRIVATE_IP), ...text.matchAll(INTERNAL_HOST)].map((m) => m[0]);
    if (hosts.length > 0) out.push({ kind: 'private-host-credential', snippet: `${mask(hosts[0]!, 4)} with a credential word` });
  }
  const emails = [...text.matchAll(EMAIL)].map((m) => m[0]);
  if (emails.length > 0) {
    for (const m of text.matchAll(STATED_PASSWORD)) {
      if (!valueLike(m[1]!)) continue;
      out.push({ kind: 'email-password', snippet: `${mask(emails[0]!, 3)} ... ${m[0].slice(0, m[0].length - m[1]!.length)}${mask(m[1]!, 1)}` });
      break;
    }
  }
  for (const m of text.matchAll(TOKEN)) {
    if (!tokenLike(m[0])) continue;
    out.push({ kind: 'high-entropy-token', snippet: mask(m[0], 3) });
    break;
  }
  return out;
}
