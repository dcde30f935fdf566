// Secret detection for the write gate. The store is plaintext markdown that people sync, grep and
// commit, so a credential must never reach it: there is no override. The other side of that
// contract is precision — a gate that fires on ordinary notes (git SHAs, ULIDs, UUIDs, paths,
// prose about tokens) teaches users to work around it — so every rule anchors on a provider's
// fixed prefix or layout (providerTokens.ts), on a URL, a command line or an explicit
// `key = value` assignment (passwordRules.ts), or on a credential word with a value stated after
// it (statedCredentials.ts), never on "a random-looking string" alone. The team store adds
// weaker evidence on top (teamSecrets.ts).
import { withoutCiphertext } from './disowned.ts';
import { Findings, type SecretFinding, type SecretKind } from './findings.ts';
import { detectCommandLinePasswords, detectCredentialPairs } from './loginPairs.ts';
import { detectAssignments, detectPasswordFlags, detectPasswordProse, detectUrlPasswords } from './passwordRules.ts';
import {
  detectAuthorization,
  detectAwsSecretKeys,
  detectAzure,
  detectGcpServiceAccount,
  detectKubernetesSecretData,
  detectPaymentCards,
  detectPrivateKeys,
  detectTokens,
  detectTwilioAuthTokens,
} from './providerTokens.ts';
import { detectStatedCredentials, type StatedCredential } from './statedCredentials.ts';
import { detectStructuredCredentials } from './structuredCredentials.ts';

export { SECRET_KINDS, type SecretFinding, type SecretKind } from './findings.ts';
export { ASSIGNMENT_MIN_ENTROPY, ASSIGNMENT_MIN_LENGTH, looksLikeSecretValue, looksLikeStatedPassword } from './passwordRules.ts';

/** The personal gate's kind for a credential stated after a word: by the word and the phrasing. */
function statedKind(f: StatedCredential): SecretKind {
  if (f.keyClass === 'code') return 'access-code';
  if (f.keyClass === 'seed') return 'otp-seed';
  if (f.op === '=' && /^[A-Z][A-Z0-9_]*(?:PASSWORD|PASSWD|PWD|SECRET|TOKEN|PASS)$/.test(f.key)) return 'env-credential';
  return f.sep === ':' ? 'secret-assignment' : 'password-prose';
}

function detectAll(written: string): Findings {
  const text = withoutCiphertext(written);
  const out = new Findings();
  detectGcpServiceAccount(text, out); // before private keys: the JSON's embedded PEM is one finding
  detectPrivateKeys(text, out);
  detectTokens(text, out);
  detectAzure(text, out);
  detectTwilioAuthTokens(text, out);
  detectAwsSecretKeys(text, out);
  detectUrlPasswords(text, out);
  detectAuthorization(text, out);
  detectAssignments(text, out);
  detectPasswordFlags(text, out);
  detectPasswordProse(text, out);
  const claimed = (at: number) => out.overlaps(at, at + 1);
  for (const f of [...detectStatedCredentials(text, 'personal', true, claimed), ...detectStructuredCredentials(text, 'personal')]) out.claim(statedKind(f), f.snippet, f.start, f.end);
  for (const f of [...detectCredentialPairs(text, 'personal'), ...detectCommandLinePasswords(text)]) {
    out.claim(f.kind === 'password-flag' || f.kind === 'url-password' ? f.kind : 'login-pair', f.snippet, f.start, f.end);
  }
  detectKubernetesSecretData(text, out);
  detectPaymentCards(text, out);
  return out;
}

/**
 * Where the secrets are: [start, end) of every span a finding covers, in text order. Used where
 * text is copied somewhere a finding cannot stop it (a file name built from the body).
 */
export function secretSpans(text: string): { start: number; end: number }[] {
  return detectAll(text).spanList();
}

/**
 * The text with every span the detector flags blanked out (one space each). A body with a secret
 * normally never reaches a file, but an import, a pending write confirmed after a rule was added
 * or a hand edit can bring one in; a file name built from the body must not repeat it (names show
 * up in `ls`, git and sync logs even where contents do not).
 */
export function withoutSecrets(text: string): string {
  const spans = secretSpans(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    if (s.start > at) out += text.slice(at, s.start);
    out += ' ';
    at = Math.max(at, s.end);
  }
  return out + text.slice(at);
}

/** Every secret in `text`, most specific kind first; an empty array means the text is clean. */
export function detectSecrets(text: string): SecretFinding[] {
  return detectAll(text).list;
}
