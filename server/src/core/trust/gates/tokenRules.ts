// Provider tokens: a fixed prefix or a fixed layout, so a match is almost surely real. Order
// matters: a span claimed by an earlier rule is not reported again by a later, vaguer one.
import { shannonEntropy } from './entropy.ts';
import type { SecretKind } from './findings.ts';

export interface TokenRule {
  kind: SecretKind;
  re: RegExp;
  /** Leading characters shown in the masked snippet (the fixed prefix plus a couple). */
  keep: number | ((token: string) => number);
  /** Extra check on the whole match; false drops it. */
  accept?: (token: string) => boolean;
}

/** A documented stand-in: EXAMPLE in it, or Stripe's key printed throughout its documentation. */
export const notExample = (t: string) => !/EXAMPLE|4eC39HqLyjWDarjtT1zdp7dc/i.test(t);
/** The part after a fixed prefix is random: letters and digits, no run of X or * (a documented stand-in). */
export const randomTail = (prefix: RegExp) => (t: string) => {
  const tail = t.replace(prefix, '');
  return /[0-9]/.test(tail) && /[A-Za-z]/.test(tail) && shannonEntropy(tail) >= 3.2 && notExample(t) && !/([xX*0])\1{5}/.test(tail);
};

export const TOKEN_RULES: TokenRule[] = [
  { kind: 'gcp-api-key', re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g, keep: 6, accept: notExample },
  { kind: 'aws-access-key-id', re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, keep: 6, accept: notExample },
  { kind: 'github-token', re: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/g, keep: 6, accept: randomTail(/^gh._/) },
  { kind: 'github-token', re: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,}(?![A-Za-z0-9_])/g, keep: 13, accept: randomTail(/^github_pat_/) },
  {
    kind: 'gitlab-token',
    re: /(?<![A-Za-z0-9_-])gl(?:pat|dt|rt|ptt|cbt|ft|imt|oas|soat)-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
    keep: 8,
    accept: randomTail(/^gl[a-z]+-/),
  },
  // A runner registration token of the older kind: a fixed prefix, then 20 random characters.
  { kind: 'gitlab-token', re: /(?<![A-Za-z0-9_-])GR1348941[A-Za-z0-9_-]{20}(?![A-Za-z0-9_-])/g, keep: 11, accept: randomTail(/^GR1348941/) },
  { kind: 'slack-token', re: /(?<![A-Za-z0-9_-])(?:xox[bpars]|xapp)-[A-Za-z0-9-]{10,}(?![A-Za-z0-9_-])/g, keep: 7, accept: (t) => /[0-9]/.test(t) && notExample(t) },
  {
    kind: 'slack-webhook',
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]{8,}/g,
    keep: 33,
    accept: (t) => !/X{6,}|EXAMPLE/i.test(t),
  },
  {
    kind: 'discord-webhook',
    re: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{15,22}\/[A-Za-z0-9_-]{40,}/g,
    keep: 36,
    accept: randomTail(/^.*\//),
  },
  { kind: 'stripe-key', re: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}(?![A-Za-z0-9_])/g, keep: 10, accept: randomTail(/^[a-z]{2}_[a-z]+_/) },
  { kind: 'stripe-key', re: /(?<![A-Za-z0-9_])whsec_[A-Za-z0-9]{24,}(?![A-Za-z0-9_])/g, keep: 8, accept: randomTail(/^whsec_/) },
  { kind: 'anthropic-key', re: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{24,}(?![A-Za-z0-9_-])/g, keep: 14, accept: randomTail(/^sk-ant-(?:[a-z]+\d*-)?/) },
  {
    kind: 'openai-key',
    re: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
    keep: (t) => (/^sk-[a-zA-Z]+-/.exec(t)?.[0].length ?? 3) + 2,
    accept: randomTail(/^sk-(?:proj-|svcacct-|admin-|None-)?/),
  },
  { kind: 'gcp-oauth-secret', re: /(?<![A-Za-z0-9_-])GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g, keep: 9, accept: randomTail(/^GOCSPX-/) },
  { kind: 'gcp-access-token', re: /(?<![A-Za-z0-9_.-])ya29\.[A-Za-z0-9_-]{30,}(?![A-Za-z0-9_-])/g, keep: 7, accept: randomTail(/^ya29\./) },
  { kind: 'npm-token', re: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g, keep: 6, accept: randomTail(/^npm_/) },
  { kind: 'docker-hub-token', re: /(?<![A-Za-z0-9_])dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g, keep: 11, accept: randomTail(/^dckr_[a-z]+_/) },
  // A PyPI token is a base64url macaroon whose first bytes always encode to "AgE".
  { kind: 'pypi-token', re: /(?<![A-Za-z0-9_-])pypi-AgE[A-Za-z0-9_-]{50,}(?![A-Za-z0-9_-])/g, keep: 9 },
  // Hugging Face tokens are letters only: demand a random-looking mix of cases, which a
  // snake_case identifier starting with hf_ (`hf_hub_download`) never has.
  {
    kind: 'huggingface-token',
    re: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{26,40}(?![A-Za-z0-9_])/g,
    keep: 5,
    accept: (t) => {
      const tail = t.slice(3);
      return (tail.match(/[A-Z]/g)?.length ?? 0) >= 4 && (tail.match(/[a-z]/g)?.length ?? 0) >= 4 && shannonEntropy(tail) >= 3.5 && notExample(t);
    },
  },
  { kind: 'sendgrid-key', re: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, keep: 5, accept: randomTail(/^SG\./) },
  // Mailchimp API keys: 32 hex digits and the data center (`-us21`).
  { kind: 'mailchimp-key', re: /(?<![A-Za-z0-9_-])[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9_-])/g, keep: 2, accept: randomTail(/-us\d+$/) },
  { kind: 'sentry-token', re: /(?<![A-Za-z0-9_])sntry[sua]_[A-Za-z0-9+/=_-]{30,}(?![A-Za-z0-9+/=_-])/g, keep: 8, accept: randomTail(/^sntry._/) },
  { kind: 'atlassian-token', re: /(?<![A-Za-z0-9_-])AT(?:ATT|CTT)3[A-Za-z0-9_=-]{20,}(?![A-Za-z0-9_=-])/g, keep: 7, accept: randomTail(/^AT[A-Z]{3}3/) },
  { kind: 'tailscale-key', re: /(?<![A-Za-z0-9_-])tskey-[a-z]{3,8}-[A-Za-z0-9]{4,}-[A-Za-z0-9]{8,}(?![A-Za-z0-9_-])/g, keep: 11, accept: randomTail(/^tskey-[a-z]+-/) },
  { kind: 'vault-token', re: /(?<![A-Za-z0-9_.-])hv[sbr]\.[A-Za-z0-9_-]{24,}(?![A-Za-z0-9_-])/g, keep: 5, accept: randomTail(/^hv.\./) },
  // The older Vault service tokens: `s.` and 24 random characters (mixed case, digits).
  { kind: 'vault-token', re: /(?<![A-Za-z0-9_.$-])s\.[A-Za-z0-9]{24}(?![A-Za-z0-9_.(-])/g, keep: 3, accept: (t) => /[a-z]/.test(t.slice(2)) && /[A-Z]/.test(t) && randomTail(/^s\./)(t) },
  { kind: 'age-secret-key', re: /(?<![A-Za-z0-9_-])AGE-SECRET-KEY-1[0-9A-Z]{40,70}(?![A-Za-z0-9])/g, keep: 16, accept: randomTail(/^AGE-SECRET-KEY-1/) },
  { kind: 'digitalocean-token', re: /(?<![A-Za-z0-9_])do[por]_v1_[a-f0-9]{64}(?![A-Za-z0-9_])/g, keep: 8, accept: randomTail(/^do._v1_/) },
  { kind: 'shopify-token', re: /(?<![A-Za-z0-9_])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9_])/g, keep: 7, accept: randomTail(/^shp[a-z]{2}_/) },
  { kind: 'databricks-token', re: /(?<![A-Za-z0-9_])dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9_])/g, keep: 6, accept: randomTail(/^dapi/) },
  { kind: 'grafana-token', re: /(?<![A-Za-z0-9_])(?:glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}|glc_[A-Za-z0-9+/=]{32,})(?![A-Za-z0-9_+/=])/g, keep: 6, accept: randomTail(/^gl[a-z]+_/) },
  // A Telegram bot token: the bot's numeric id, a colon, then 35 characters starting with AA.
  { kind: 'telegram-bot-token', re: /(?:(?<=\/bot)|(?<![A-Za-z0-9_:]))\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g, keep: 4, accept: randomTail(/^\d+:AA/) },
  // Other services' API tokens, each with its own fixed prefix (Linear, Postman, New Relic, Doppler,
  // Pulumi, Terraform Cloud, Notion (ntn_ and the older secret_), Mapbox secret tokens, Supabase, Fly.io, Groq, Replicate,
  // Perplexity, Buildkite, Figma, Square, 1Password service accounts, Heroku, Google refresh tokens).
  {
    kind: 'service-token',
    re: /(?<![A-Za-z0-9_.-])(?:lin_api_[A-Za-z0-9]{32,}|PMAK-[a-f0-9]{24}-[a-f0-9]{30,}|NRAK-[A-Z0-9]{27}|dp\.(?:st|pt|ct|sa|scim|audit)\.[A-Za-z0-9_.-]{30,}|pul-[a-f0-9]{40}|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_-]{60,}|ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}|sk\.eyJ[A-Za-z0-9_-]{30,}\.[A-Za-z0-9_-]{16,}|sbp_[a-f0-9]{40}|fo1_[A-Za-z0-9_-]{30,}|gsk_[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{30,}|pplx-[A-Za-z0-9]{40,}|bkua_[a-f0-9]{40}|figd_[A-Za-z0-9_-]{30,}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|ops_eyJ[A-Za-z0-9_-]{30,}|HRKU-[A-Za-z0-9_-]{30,}|1\/\/0[A-Za-z0-9_-]{30,})(?![A-Za-z0-9_-])/g,
    keep: (t) => (/^[A-Za-z0-9]+?[._-](?:[a-z]+[._-])?|^1\/\/0/.exec(t)?.[0].length ?? 3) + 1,
    accept: (t) => randomTail(/^(?:[A-Za-z]+[._-](?:[a-z]+[._-])?|1\/\/0)/)(t),
  },
  // Webhook URLs whose path is the secret: Microsoft Teams incoming webhooks, Zapier catch hooks, Make and IFTTT.
  {
    kind: 'service-token',
    re: /https:\/\/(?:[\w-]+\.webhook\.office\.com\/webhookb2\/|outlook\.office(?:365)?\.com\/webhook\/|hooks\.zapier\.com\/hooks\/catch\/\d+\/|hook\.[a-z0-9]+\.make\.com\/|maker\.ifttt\.com\/trigger\/[\w-]+\/with\/key\/)[A-Za-z0-9@\/_-]{6,}/g,
    keep: 30,
    accept: (t) => /\d/.test(t) && notExample(t),
  },
  // A Mailgun API key: `key-` and 32 lowercase hex digits.
  { kind: 'service-token', re: /(?<![A-Za-z0-9_-])key-[0-9a-f]{32}(?![A-Za-z0-9_-])/g, keep: 5, accept: randomTail(/^key-/) },
  // A Firebase Cloud Messaging legacy server key: an 11-character key id, a colon, then `APA91b` and its body.
  { kind: 'service-token', re: /(?<![A-Za-z0-9_-])AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{60,}(?![A-Za-z0-9_-])/g, keep: 4, accept: randomTail(/^AAAA[A-Za-z0-9_-]{7}:APA91b/) },
  // Twilio account and API-key SIDs: AC / SK and exactly 32 lowercase hex digits.
  // An account SID with its auth token beside it (`Client.new("AC...", "<32 hex>")`, `AC...:<32 hex>`): the token is the secret.
  { kind: 'twilio-key', re: /(?<![A-Za-z0-9_])AC[0-9a-f]{32}["']?[ \t]*[,:][ \t]*["']?[0-9a-f]{32}(?![A-Za-z0-9_])/g, keep: 4 },
  // An API key's SID (SK...). An account SID (AC...) names the account in every API URL: an id, not a key.
  { kind: 'twilio-key', re: /(?<![A-Za-z0-9_])SK[0-9a-f]{32}(?![A-Za-z0-9_])/g, keep: 4, accept: (t) => /[0-9]/.test(t.slice(2)) && /[a-f]/.test(t.slice(2)) },
  // BitLocker recovery keys: eight groups of six digits.
  { kind: 'bitlocker-recovery-key', re: /(?<![\d-])\d{6}(?:-\d{6}){7}(?![\d-])/g, keep: 0 },
  // header.payload.signature, header and payload both base64url of `{"`.
  { kind: 'jwt', re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?![A-Za-z0-9_-])/g, keep: 8 },
];
