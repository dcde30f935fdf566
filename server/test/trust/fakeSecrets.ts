// Positive fixtures for the secret detector, built at test time from parts and a seeded PRNG.
// Nothing here is a literal, realistic credential in the repository: push-protection scanners
// look at committed text, and these strings exist only in memory while the tests run.

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;

/** Deterministic random string from `alphabet` (mulberry32), so failures reproduce. */
export function randomString(alphabet: string, n: number, seed: number): string {
  let a = seed >>> 0;
  let out = '';
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    out += alphabet[Math.floor(r * alphabet.length)];
  }
  return out;
}

const j = (...parts: string[]) => parts.join('');

function pem(label: string, seed: number): string {
  const lines = Array.from({ length: 5 }, (_, i) => randomString(B64, 64, seed + i));
  return j('-----BEGIN ', label, '-----\n', lines.join('\n'), '\n-----END ', label, '-----');
}

function jwtPart(obj: unknown): string {
  return Buffer.from(JSON.stringify(obj)).toString('base64url');
}

/** One example note per kind (some kinds have several shapes), keyed by a readable name. */
export function positiveFixtures(): { name: string; kind: string; text: string; secret: string }[] {
  const ghp = j('gh', 'p_', randomString(ALNUM, 36, 1));
  const gho = j('gh', 'o_', randomString(ALNUM, 36, 2));
  const ghs = j('gh', 's_', randomString(ALNUM, 36, 3));
  const ghPat = j('github', '_pat_', randomString(ALNUM, 22, 4), '_', randomString(ALNUM, 59, 5));
  const glpat = j('gl', 'pat-', randomString(ALNUM, 20, 6));
  const xoxb = j('xo', 'xb-', '2', randomString('0123456789', 11, 7), '-', randomString('0123456789', 13, 8), '-', randomString(ALNUM, 24, 9));
  const xoxp = j('xo', 'xp-', randomString('0123456789', 12, 10), '-', randomString(ALNUM, 32, 11));
  const slackHook = j('https://hooks.', 'slack.com/services/T', randomString(UPPER_DIGITS, 8, 12), '/B', randomString(UPPER_DIGITS, 8, 13), '/', randomString(ALNUM, 24, 14));
  const skLive = j('sk', '_live_', randomString(ALNUM, 24, 15));
  const rkLive = j('rk', '_live_', randomString(ALNUM, 24, 16));
  const whsec = j('wh', 'sec_', randomString(ALNUM, 32, 17));
  const skProj = j('sk', '-proj-', randomString(B64URL, 48, 18), randomString(ALNUM, 20, 19));
  const skLegacy = j('sk', '-', randomString(ALNUM, 20, 20), 'T3Blbk', 'FJ', randomString(ALNUM, 20, 21));
  const skAnt = j('sk', '-ant-', 'api03-', randomString(B64URL, 93, 22), 'AA');
  const akia = j('AK', 'IA', randomString(UPPER_DIGITS, 16, 23));
  const asia = j('AS', 'IA', randomString(UPPER_DIGITS, 16, 24));
  const awsSecret = randomString(B64, 40, 25);
  const gcpApi = j('AI', 'za', randomString(B64URL, 35, 26));
  const jwt = j(jwtPart({ alg: 'HS256', typ: 'JWT' }), '.', jwtPart({ sub: '1234567890', name: 'Jo', iat: 1516239022 }), '.', randomString(B64URL, 43, 27));
  const bearer = randomString(ALNUM, 40, 28);
  const urlPass = j(randomString(ALNUM, 14, 29), '9!');
  const dbPass = j('Tr0', randomString(ALNUM, 14, 30), '#x');
  const apiKey = randomString(ALNUM, 32, 31);
  const clientSecret = randomString(B64URL, 40, 32);
  const gcpKeyId = randomString('0123456789abcdef', 40, 33);
  const rsa = pem('RSA PRIVATE KEY', 100);
  const openssh = pem('OPENSSH PRIVATE KEY', 200);
  const pkcs8 = pem('PRIVATE KEY', 300);
  const encrypted = pem('ENCRYPTED PRIVATE KEY', 400);
  const pgp = pem('PGP PRIVATE KEY BLOCK', 500);
  const gcpJson = JSON.stringify(
    { type: 'service_account', project_id: 'acme-prod', private_key_id: gcpKeyId, private_key: `${pkcs8}\n`, client_email: 'ci@acme-prod.iam.gserviceaccount.com' },
    null,
    2,
  );
  return [
    { name: 'rsa pem', kind: 'private-key', text: `deploy key:\n${rsa}\n`, secret: rsa.split('\n')[1]! },
    { name: 'openssh pem', kind: 'private-key', text: openssh, secret: openssh.split('\n')[1]! },
    { name: 'pkcs8 pem', kind: 'private-key', text: `key: ${pkcs8}`, secret: pkcs8.split('\n')[1]! },
    { name: 'encrypted pem', kind: 'private-key', text: encrypted, secret: encrypted.split('\n')[1]! },
    { name: 'pgp block', kind: 'private-key', text: pgp, secret: pgp.split('\n')[1]! },
    { name: 'gcp service account json', kind: 'gcp-service-account', text: `the CI key:\n${gcpJson}`, secret: gcpKeyId },
    { name: 'gcp api key', kind: 'gcp-api-key', text: `maps key ${gcpApi} for the web app`, secret: gcpApi },
    { name: 'aws akia', kind: 'aws-access-key-id', text: `aws_access_key_id = ${akia}`, secret: akia },
    { name: 'aws asia', kind: 'aws-access-key-id', text: `temporary creds ${asia} from sts`, secret: asia },
    { name: 'aws secret', kind: 'aws-secret-access-key', text: `aws_secret_access_key = ${awsSecret}`, secret: awsSecret },
    { name: 'aws secret env', kind: 'aws-secret-access-key', text: `export AWS_SECRET_ACCESS_KEY="${awsSecret}"`, secret: awsSecret },
    { name: 'github ghp', kind: 'github-token', text: `use ${ghp} for the release bot`, secret: ghp },
    { name: 'github gho', kind: 'github-token', text: `oauth token ${gho}`, secret: gho },
    { name: 'github ghs', kind: 'github-token', text: `app token: ${ghs}.`, secret: ghs },
    { name: 'github fine-grained', kind: 'github-token', text: `PAT is ${ghPat}`, secret: ghPat },
    { name: 'gitlab pat', kind: 'gitlab-token', text: `gitlab token ${glpat} for the mirror`, secret: glpat },
    { name: 'slack bot', kind: 'slack-token', text: `bot: ${xoxb}`, secret: xoxb },
    { name: 'slack user', kind: 'slack-token', text: `SLACK_TOKEN=${xoxp}`, secret: xoxp },
    { name: 'slack webhook', kind: 'slack-webhook', text: `alerts go to ${slackHook}`, secret: slackHook.slice(-24) },
    { name: 'stripe sk_live', kind: 'stripe-key', text: `stripe key ${skLive}`, secret: skLive },
    { name: 'stripe rk_live', kind: 'stripe-key', text: `restricted ${rkLive}`, secret: rkLive },
    { name: 'stripe whsec', kind: 'stripe-key', text: `endpoint secret ${whsec}`, secret: whsec },
    { name: 'openai project', kind: 'openai-key', text: `OPENAI_API_KEY=${skProj}`, secret: skProj },
    { name: 'openai legacy', kind: 'openai-key', text: `old key ${skLegacy} was revoked`, secret: skLegacy },
    { name: 'anthropic', kind: 'anthropic-key', text: `ANTHROPIC_API_KEY=${skAnt}`, secret: skAnt },
    { name: 'jwt', kind: 'jwt', text: `test with token ${jwt}`, secret: jwt },
    { name: 'bearer', kind: 'bearer-token', text: `curl -H "Authorization: Bearer ${bearer}" https://api.acme.dev`, secret: bearer },
    { name: 'url password', kind: 'url-password', text: `db at postgres://app:${urlPass}@db.internal:5432/app`, secret: urlPass },
    { name: 'url password empty user', kind: 'url-password', text: `redis://:${urlPass}@cache.internal:6379`, secret: urlPass },
    { name: 'password assignment', kind: 'secret-assignment', text: `DB_PASSWORD=${dbPass}`, secret: dbPass },
    { name: 'api_key yaml', kind: 'secret-assignment', text: `weather:\n  api_key: ${apiKey}\n`, secret: apiKey },
    { name: 'json secret', kind: 'secret-assignment', text: `{"client_secret": "${clientSecret}"}`, secret: clientSecret },
    { name: 'token colon', kind: 'secret-assignment', text: `the token: ${apiKey} works for staging`, secret: apiKey },
    { name: 'cli flag', kind: 'secret-assignment', text: `mysql --password=${dbPass} -h db`, secret: dbPass },
  ];
}

const HEX = '0123456789abcdef';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Positive fixtures for the kinds and shapes added after the first detector: package-registry
 * and SaaS tokens, passwords on command lines and in prose, DSNs of every common scheme. Built
 * from parts at run time like the ones above.
 */
export function morePositiveFixtures(): { name: string; kind: string; text: string; secret: string }[] {
  const npm = j('np', 'm_', randomString(ALNUM, 36, 41));
  const dckr = j('dckr', '_pat_', randomString(B64URL, 27, 42));
  const pypi = j('py', 'pi-', 'AgEIcHlwaS5vcmc', randomString(B64URL, 70, 43));
  const hf = j('h', 'f_', randomString(LETTERS, 34, 44));
  const azKey = j(randomString(B64, 86, 45), '==');
  const azSig = j(randomString(ALNUM, 43, 46), '%3D');
  const twSk = j('S', 'K', randomString(HEX, 32, 48));
  const twAuth = randomString(HEX, 32, 49);
  const sg = j('S', 'G.', randomString(B64URL, 22, 50), '.', randomString(B64URL, 43, 51));
  const gocspx = j('GOC', 'SPX-', randomString(B64URL, 28, 52));
  const ya29 = j('ya', '29.', randomString(B64URL, 60, 53));
  const pw = j('Qz', randomString(ALNUM, 9, 54), '7!');
  const pwShort = j('k', randomString(ALNUM, 6, 55), '9');
  return [
    { name: 'npm token', kind: 'npm-token', text: `publish with ${npm} from CI`, secret: npm },
    { name: 'npmrc', kind: 'npm-token', text: `//registry.npmjs.org/:_authToken=${npm}`, secret: npm },
    { name: 'docker hub pat', kind: 'docker-hub-token', text: `docker login -u acme -p ${dckr}`, secret: dckr },
    { name: 'pypi token', kind: 'pypi-token', text: `twine upload with password ${pypi}`, secret: pypi },
    { name: 'hugging face', kind: 'huggingface-token', text: `HF token ${hf} for the gated model`, secret: hf },
    { name: 'azure connection string', kind: 'azure-storage-key', text: `DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=${azKey};EndpointSuffix=core.windows.net`, secret: azKey },
    { name: 'azure service bus', kind: 'azure-storage-key', text: `Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${azKey}`, secret: azKey },
    { name: 'azure sas', kind: 'azure-sas-token', text: `blob url https://acme.blob.core.windows.net/c/x.zip?sv=2022-11-02&ss=b&srt=o&sp=r&se=2027-01-01T00:00:00Z&sig=${azSig}`, secret: azSig },
    { name: 'twilio api key', kind: 'twilio-key', text: `api key sid ${twSk} for SMS`, secret: twSk },
    { name: 'twilio auth token', kind: 'twilio-key', text: `the Twilio auth token ${twAuth} lives in prod`, secret: twAuth },
    { name: 'sendgrid', kind: 'sendgrid-key', text: `SENDGRID ${sg}`, secret: sg },
    { name: 'gcp oauth client secret', kind: 'gcp-oauth-secret', text: `client secret ${gocspx}`, secret: gocspx },
    { name: 'gcp access token', kind: 'gcp-access-token', text: `curl -H "x-goog-token: ${ya29}"`, secret: ya29 },
    { name: 'mysql -p glued', kind: 'password-flag', text: `mysql -u root -p${pw} shop`, secret: pw },
    { name: 'mysql -p glued short', kind: 'password-flag', text: `mysqldump -uroot -p${pwShort} shop > dump.sql`, secret: pwShort },
    { name: '--password value', kind: 'password-flag', text: `psql-admin --password ${pw} --host db`, secret: pw },
    { name: '--password=value', kind: 'secret-assignment', text: `redis-cli --password=${pw} ping`, secret: pw },
    { name: 'PGPASSWORD', kind: 'secret-assignment', text: `PGPASSWORD=${pw} psql -h db -U app`, secret: pw },
    { name: 'MYSQL_PWD', kind: 'secret-assignment', text: `export MYSQL_PWD=${pw}`, secret: pw },
    { name: 'postgres dsn', kind: 'url-password', text: `postgres://app:${pw}@db.internal:5432/app`, secret: pw },
    { name: 'mysql dsn', kind: 'url-password', text: `DATABASE_URL=mysql://root:${pw}@127.0.0.1/shop`, secret: pw },
    { name: 'mongodb+srv dsn', kind: 'url-password', text: `mongodb+srv://svc:${pw}@cluster0.ab1cd.mongodb.net/app?retryWrites=true`, secret: pw },
    { name: 'redis dsn', kind: 'url-password', text: `redis://default:${pw}@cache:6379/0`, secret: pw },
    { name: 'amqp dsn', kind: 'url-password', text: `amqp://worker:${pw}@mq.internal:5672/`, secret: pw },
    { name: 'prose staging password', kind: 'password-prose', text: `the staging password is ${pw} for the admin user`, secret: pw },
    { name: 'prose password for X is Y', kind: 'password-prose', text: `The password for the grafana admin is ${pw}.`, secret: pw },
    { name: 'prose pw:', kind: 'password-prose', text: `vpn: user jdoe pw: ${pwShort}`, secret: pwShort },
    { name: 'prose passphrase', kind: 'password-prose', text: `the GPG passphrase is "${pw}"`, secret: pw },
    { name: 'prose short password', kind: 'password-prose', text: `wifi password is ${pwShort}`, secret: pwShort },
    { name: 'env passphrase', kind: 'env-credential', text: `DB_PASSWORD=mossy-river-lantern-${pwShort.length}2`, secret: `mossy-river-lantern-${pwShort.length}2` },
    { name: 'login pair', kind: 'login-pair', text: `Jenkins admin / Summer${pwShort.length}24! is the staging login`, secret: `Summer${pwShort.length}24!` },
  ];
}

/** The Luhn check digit that makes `body` a valid card number. */
function luhnComplete(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

const base64 = (s: string) => Buffer.from(s).toString('base64');

/**
 * Positive fixtures for the kinds added with the stated-credential rules: more services' tokens,
 * Basic auth, Kubernetes Secret data, card numbers, PINs and codes, OTP seeds. Built like the
 * ones above.
 */
export function statedPositiveFixtures(): { name: string; kind: string; text: string; secret: string }[] {
  const mailchimp = j(randomString(HEX, 32, 61), '-us', '14');
  const sentry = j('sntr', 'ys_', randomString(B64URL, 48, 62));
  const atlassian = j('ATA', 'TT3', randomString(B64URL, 60, 63));
  const tailscale = j('tskey', '-auth-', randomString(ALNUM, 12, 64), '-', randomString(ALNUM, 28, 65));
  const vault = j('hv', 's.', randomString(B64URL, 40, 66));
  const age = j('AGE-SECRET', '-KEY-1', randomString('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58, 67));
  const doToken = j('do', 'p_v1_', randomString(HEX, 64, 68));
  const shopify = j('shp', 'at_', randomString(HEX, 32, 69));
  const databricks = j('da', 'pi', randomString(HEX, 32, 70));
  const grafana = j('gl', 'sa_', randomString(ALNUM, 32, 71), '_', randomString(HEX, 8, 72));
  const telegram = j(randomString('123456789', 9, 73), ':AA', randomString(B64URL, 33, 74));
  const discord = j('https://discord.com/api/', 'webhooks/', randomString('0123456789', 18, 75), '/', randomString(B64URL, 68, 76));
  const linear = j('lin', '_api_', randomString(ALNUM, 40, 77));
  const bitlocker = Array.from({ length: 8 }, (_, i) => randomString('0123456789', 6, 78 + i)).join('-');
  const basicPass = j('Lb', randomString(ALNUM, 10, 90), '4!');
  const basic = base64(`deploy:${basicPass}`);
  const k8sValue = base64(j('s3', randomString(ALNUM, 14, 91)));
  const card = luhnComplete(j('4', randomString('0123456789', 14, 92)));
  const pin = randomString('123456789', 4, 93);
  const door = j(randomString('123456789', 4, 94), '#');
  const seed = randomString(UPPER_DIGITS, 32, 95);
  const pw = j('Fj', randomString(ALNUM, 8, 96), '3!');
  const phrase = 'quill-ember-harbor-73';
  const sshpass = j('Rk', randomString(ALNUM, 8, 97), '7%');
  return [
    { name: 'mailchimp key', kind: 'mailchimp-key', text: `newsletter key ${mailchimp}`, secret: mailchimp },
    { name: 'sentry org token', kind: 'sentry-token', text: `SENTRY_AUTH_TOKEN=${sentry}`, secret: sentry },
    { name: 'atlassian api token', kind: 'atlassian-token', text: `jira sync uses ${atlassian}`, secret: atlassian },
    { name: 'tailscale auth key', kind: 'tailscale-key', text: `join nodes with ${tailscale}`, secret: tailscale },
    { name: 'vault token', kind: 'vault-token', text: `VAULT_TOKEN=${vault}`, secret: vault },
    { name: 'age secret key', kind: 'age-secret-key', text: `sops key: ${age}`, secret: age },
    { name: 'digitalocean token', kind: 'digitalocean-token', text: `doctl auth init -t ${doToken}`, secret: doToken },
    { name: 'shopify token', kind: 'shopify-token', text: `admin api ${shopify}`, secret: shopify },
    { name: 'databricks token', kind: 'databricks-token', text: `DATABRICKS_TOKEN=${databricks}`, secret: databricks },
    { name: 'grafana service account', kind: 'grafana-token', text: `grafana sa ${grafana}`, secret: grafana },
    { name: 'telegram bot token', kind: 'telegram-bot-token', text: `alerts bot ${telegram}`, secret: telegram },
    { name: 'discord webhook', kind: 'discord-webhook', text: `post to ${discord}`, secret: discord.slice(-68) },
    { name: 'linear api key', kind: 'service-token', text: `LINEAR_KEY=${linear}`, secret: linear },
    { name: 'bitlocker recovery key', kind: 'bitlocker-recovery-key', text: `laptop recovery: ${bitlocker}`, secret: bitlocker },
    { name: 'basic auth header', kind: 'basic-auth', text: `curl -H "Authorization: Basic ${basic}" https://ci.acme.dev`, secret: basic },
    { name: 'kubernetes secret data', kind: 'kubernetes-secret', text: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: reports\ndata:\n  DB_URL: ${k8sValue}\n`, secret: k8sValue },
    { name: 'card number', kind: 'payment-card', text: `company card ${card.replace(/(\d{4})(?=\d)/g, '$1 ')} for the cloud bill`, secret: card.slice(4, 12) },
    { name: 'pin', kind: 'access-code', text: `SIM PIN for the pager phone: ${pin}`, secret: pin },
    { name: 'door code', kind: 'access-code', text: `The back door code is ${door}`, secret: door },
    { name: 'otp seed', kind: 'otp-seed', text: `TOTP seed for the ops mailbox: ${seed}`, secret: seed },
    { name: 'password qualified', kind: 'password-prose', text: `Passwort vom Build-Server: ${pw}`, secret: pw },
    { name: 'password reversed', kind: 'password-prose', text: `${pw} is the keystore password for the release build`, secret: pw },
    { name: 'passphrase assignment', kind: 'secret-assignment', text: `backup passphrase: ${phrase}`, secret: phrase },
    { name: 'curl -u', kind: 'login-pair', text: `curl -u deploy:${pw} https://ci.acme.dev/api`, secret: pw },
    { name: 'sshpass', kind: 'password-flag', text: `sshpass -p '${sshpass}' ssh ops@bastion`, secret: sshpass },
  ];
}
