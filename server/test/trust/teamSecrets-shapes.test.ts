// The team gate on credentials written without the usual anchors (a password alone in a sentence,
// a compound key, a login in code or in prose, hex after an API key) and on ordinary notes whose
// values only look like credentials (an empty .env template, ciphertext, base64 of readable text,
// a public key, a URL's query, a test card). Each case holds a shape the rules used to get wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectTeamSecrets } from '../../src/core/trust/gates/teamSecrets.ts';
import { detectSecrets } from '../../src/core/trust/gates/secrets.ts';
import { passwordShaped } from '../../src/core/trust/gates/passwordShapes.ts';
import { secretSpans } from '../../src/core/trust/gates/secrets.ts';
import { randomString } from './fakeSecrets.ts';

const team = (t: string) => [...detectSecrets(t), ...detectTeamSecrets(t)].map((f) => f.kind);
const HEX = '0123456789abcdef';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

test('refused from the team store: credentials with no key word before them, or one the rules did not read', () => {
  const cases = [
    'After the deploy, ssh in as ops with Quartz!lake7 and restart the queue worker.',
    'het beheerderswachtwoord van de testomgeving is Molen!Wiek44.',
    'ldap bind dn cn=svc-ci,dc=corp,dc=io  bindpw=Fjord-Bind-51q',
    '운영 서버 admin 비밀번호는 Bibimbap#4410 입니다',
    'mosquitto_sub -h broker.plant.lan -u gw -P "Mq5-Line!x" -t line/#',
    'lftp -u partner,Tr4de!Xch9 sftp://files.partner.example.net',
    `Facebook app — app secret ${randomString(HEX, 32, 11)}`,
    `maps API key ${randomString(HEX, 16, 12)} (paid tier)`,
    `the ADMIN key ${randomString(HEX, 32, 13)} is for the indexer only`,
    `curl -H 'X-Api-Key: ${randomString(HEX, 32, 14)}' https://api.rates.example/v2`,
    'requests.get(url, auth=("scraper", "Scr4pe-Pull-2x"), timeout=5)',
    'reception kiosk: user frontdesk, pass marigold',
    'the preview site has basic auth — use preview / Juniper-Kettle-9 to get in',
    'use jo.b@acme.io / Pelikan#31 to get into the label printer portal',
    'SNMP v3 community for the edge routers is r0ut3-mon-Zq (read-only)',
    'Alarmanlage im Keller: Code 7391, danach AUS drücken.',
    `Notion sync integration: secret_${randomString(ALNUM, 43, 15)}`,
    `sops age key: AGE-SECRET-KEY-1${randomString(BASE32.replace(/[a-z]/g, ''), 58, 16)}`,
  ];
  for (const t of cases) assert.notDeepEqual(team(t), [], t);
});

test('stored in the team store: notes whose values only look like credentials', () => {
  const cases = [
    '# .env.example\nDATABASE_URL=\nSESSION_SECRET=\nSENTRY_DSN=',
    'The URI format is otpauth://totp/ISSUER:ACCOUNT?secret=BASE32SECRET&issuer=ISSUER; the QR encodes that.',
    'vault kv get -field=password secret/prod/orders-db | pbcopy',
    'secrets.enc.yaml keeps password: ENC[AES256_GCM,data:Zm9vYmFy,iv:Rk7mQ2vLx9Tp3WzB8nYc1A==,tag:d9f2==,type:str]; decrypt with sops -d.',
    `Algolia search-only API key (public, used by the storefront): ${randomString(HEX, 32, 21)}`,
    '401 with error=invalid_token means the refresh token is older than 30 days; redirect to login.',
    `The header ${Buffer.from('{"alg":"RS256","kid":"2026-01"}').toString('base64url')} at the start of the token decodes to its algorithm.`,
    `The DLQ payload is base64: ${Buffer.from('{"orderId":"981","status":"paid"}').toString('base64')} (an order event).`,
    `The ConfigMap value ${Buffer.from('feature_fast_checkout=true').toString('base64')} is a feature flag.`,
    'For checkout tests use card 4242 4242 4242 4242 with any future expiry.',
    'go.sum: github.com/google/uuid v1.6.0 h1:NIvaJDMOsjHA8n1jAhLSgzrAzy1Hgr+hNrb57e+94F0=',
    'Billing runs with -XX:MaxRAMPercentage=75 -XX:+UseG1GC; NODE_OPTIONS=--max-old-space-size=1536.',
    'Weak passwords like Summer2024! are blocked by the policy since the audit.',
    'See Issue#4412 and the symbol mach_print@GLIBC_2.21; needs Node@20 and lodash@^4.17.21.',
  ];
  for (const t of cases) assert.deepEqual(team(t), [], t);
});

test('a password standing alone: both cases, a digit and a symbol, and none of the shapes of code, paths or references', () => {
  for (const t of ['Gr4nite!river', 'Kimchi#7723', 'Summer2024!', 'Adm1n@2024']) assert.ok(passwordShaped(t), t);
  for (const t of ['user.Name2@corp.io', 'src/App2!.tsx', '!isReady2X', 'obj.Value2!', 'Issue#4412', 's390X*-linux', 'fn_Complete2@Base', 'KEY=Value2!', 'sk_live_****9xQa']) {
    assert.ok(!passwordShaped(t), t);
  }
});

test('refused: the password word in more languages and scripts, SQL logins, a value alone on the line after its label', () => {
  const cases = [
    '\u03ba\u03c9\u03b4\u03b9\u03ba\u03cc\u03c2 \u03c0\u03c1\u03cc\u03c3\u03b2\u03b1\u03c3\u03b7\u03c2: Taverna-Ouzo-4',
    '\u05e1\u05d9\u05e1\u05de\u05d4: Falafel-Port-62',
    '\u0643\u0644\u0645\u0629 \u0627\u0644\u0645\u0631\u0648\u0631: Oasis-Camel-15',
    '\u092a\u093e\u0938\u0935\u0930\u094d\u0921: Lassi-Mango-23',
    'm\u1eadt kh\u1ea9u wifi l\u00e0 Banhmi5521',
    'kata sandi server: Sambal-Ijo-8',
    '\u0e23\u0e2b\u0e31\u0e2a\u0e1c\u0e48\u0e32\u0e19: PadThai-Krob-2',
    'parola serverului este Sibiu-Deal-9',
    '\u043f\u0430\u0440\u043e\u043b\u0430: Plovdiv-Tepe-5',
    'contrasenya: Girona-Mar-71',
    '\ud328\uc2a4\uc6cc\ub4dc: Busan-Port-33',
    'ALTER USER reporting IDENTIFIED BY "Cobalt77";',
    'guest wifi password\n  Harbor-Gull-5',
    'the signing key passphrase is\n"copper meadow lantern"',
  ];
  for (const t of cases) assert.notDeepEqual(team(t), [], t);
  for (const t of [
    'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        key: password',
    '## Password\nReset flow is in the wiki',
    '## Token\n`GITHUB_TOKEN`',
    "ALTER USER legacy IDENTIFIED BY PASSWORD '*0D3CED9BEC10A777AEC23CCC353A8C08A633045E';",
    'The password on the old NAS is rotated by the vault job.',
  ]) assert.deepEqual(team(t), [], t);
});

test('refused: random tokens whatever runs of one case they hold, a cookie, a meeting passcode, a grouped seed, hex in a fish export', () => {
  const cases = [
    `key for the s3 bucket: ${randomString(ALNUM, 12, 31)}ABCDEFG${randomString(ALNUM, 21, 32)}`,
    `Cookie: session=${randomString(ALNUM, 40, 33)}`,
    'Zoom passcode 734019 for the weekly sync',
    'TOTP seed for the shared ops account: JBSW Y3DP EHPK 3PXP QRST UV27',
    `set -x MY_TOKEN ${randomString(HEX, 32, 34)}`,
  ];
  for (const t of cases) assert.notDeepEqual(team(t), [], t);
  for (const t of [
    'The ssh host key fingerprint is SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8.',
    'orders-api-7d9f8c6b5-x2kqp keeps OOMing; bump the limit to 1Gi.',
    `JWKS for the IdP: {"kty":"RSA","kid":"k1","n":"${randomString(ALNUM, 120, 35)}","e":"AQAB"}`,
    `Old key AKIA${randomString(BASE32.replace(/[2-7]/g, ''), 12, 36)}2345 was deactivated in IAM last week.`,
    'Default logins to change after install: admin/admin on Grafana, ubnt/ubnt on the switches.',
  ]) assert.deepEqual(team(t), [], t);
});

test('refused: a password near a word of logging in, a labelled random value, webhooks whose path is the secret, pairs the team store reads wider', () => {
  const cases = [
    'Guest wifi this week: Heron-Bridge-47',
    'mysql root on the old billing vm is still walrus2018, nobody touched it',
    'Heslo k serveru na stagingu je Trdelnik-Brno-27.',
    '- [ ] move the smtp relay password away from Pastrami2023 before the audit',
    'Q: what is the nexus admin pw?\nA: it is `tR7vK2pLm9Qx` - keep it in the team',
    `Encryption key used for the nightly dumps: ${randomString(HEX, 64, 41)}`,
    `Teams incoming webhook: https://acme.webhook.office.com/webhookb2/${randomString(HEX, 8, 42)}-1111-2222-3333-${randomString(HEX, 12, 43)}/IncomingWebhook/${randomString(HEX, 32, 44)}`,
    'the signup form posts to https://hooks.zapier.com/hooks/catch/2203344/ab12cd/',
    `curl https://api.telegram.org/bot7712345678:AA${randomString(ALNUM, 33, 45)}/sendMessage`,
    `grafana db: app / ${randomString(ALNUM, 6, 46)}7Qa${randomString(ALNUM, 4, 47)}`,
    'build agent account: ci-runner / brave-copper-tundra-mango',
    'BMC on rack C2 still has root / calvin7 - really',
    'Shared 2FA for the registrar: TOTP secret GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
    'Cold wallet seed (write it down, then delete this): velvet orbit canyon lunar pistol harvest echo timber sugar ripple fossil amber',
    'Org owner recovery codes:\nab3d6-2ff6c  3f630-481da\n22b71-b47d8  cd797-aa20f',
    `We sign session JWTs with HS256 and the secret "${randomString(ALNUM, 28, 48)}9Aa".`,
    `paste this cookie to reproduce: _app_session=${randomString(HEX, 32, 49)}`,
    '      test: ["CMD", "mysqladmin", "ping", "-uroot", "-pWq8vK2mRx7Lt"]',
    "echo 'deploy:Kh7vK2qRm9Lx' | sudo chpasswd",
    'registry -> deploy:Rg9!kQ2vRm4L',
  ];
  for (const t of cases) assert.notDeepEqual(team(t), [], t);
  for (const t of [
    `DKIM TXT for s1._domainkey: v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${randomString(ALNUM, 60, 51)}`,
    `Callback was /oauth/callback?state=${randomString(ALNUM, 24, 52)} and failed on the SameSite cookie.`,
    '    environment:\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set in .env}',
    "mysql -u root -p'tu-contrase\u00f1a-aqu\u00ed' (sustituir por la real)",
    `kind: ConfigMap\nbinaryData:\n  logo.png: iVBORw0KGgoAAAANSUhEUgAAA${randomString(ALNUM, 40, 53)}`,
    'Checklist for new switches: change default creds (admin/admin, ubnt/ubnt) before racking.',
    'Per avviare il backend: `pnpm dev`, la porta \u00e8 5173.',
    '\u8fde\u63a5\u4e32\u683c\u5f0f\uff1amysql://\u7528\u6237\u540d:\u5bc6\u7801@\u4e3b\u673a:3306/db',
    'Last green build: #48213, artifact build-7aa365ae790e.tar.gz',
    "db_password: \"{{ lookup('hashi_vault', 'secret=secret/data/db:password') }}\"",
    'def create_user(email: str, password: str) -> User: hash before save',
    "ERROR 1045 (28000): Access denied for user 'backup'@'10.0.3.12' (using password: YES)",
    `Spec: https://docs.google.com/document/d/${randomString(ALNUM, 44, 54)}/edit`,
    "CREATE USER reporting WITH PASSWORD :'reporting_pw';  -- psql -v reporting_pw=... from the vault",
    'Branch renovate/lock-file-maintenance-23086133 keeps failing on e2e.',
    'If dbus-user-session and pinentry-gnome3 are installed, the agent prompts for passwords.',
    'Password123 is a terrible password, never use it.',
    'admin / 2024-roadmap is the page to read first',
  ]) assert.deepEqual(team(t), [], t);
});

test('refused: more command lines, API keys in a query, code tables and phone codes; stored: inventories, references, ids and code', () => {
  const cases = [
    `curl "https://api.weather.example/v1/forecast?lat=52.5&appid=${randomString(HEX, 32, 61)}"`,
    "lftp -u partner_in,'Lftp-Partner-Q4' sftp://sftp.acme.io -e 'mirror -R out/ /in/; bye'",
    `HMAC secret shared with the partner for request signing: ${randomString(ALNUM, 20, 62)}/${randomString(ALNUM, 20, 63)}`,
    'htpasswd -b -c /etc/nginx/.htpasswd metrics Mtr1cs-Basic-72',
    '| Room | Code |\n| Server room | 6620 |\n| Storage | 1945 |',
    'The on-call test iPhone unlocks with 170623.',
    '2FA backup codes for the shared account:\n4829 1037  \u00b7  7730 5521  \u00b7  9018 6644',
    '# /etc/nginx/.htpasswd_plain (before hashing)\ngrafana:Gr4f-Plain-2031',
    'ipmitool -I lanplus -H 10.20.0.31 -U ADMIN -P Ipm1-Bmc-Adm9 chassis power cycle',
    'snmpwalk -v2c -c Acm3-Snmp-R7 10.20.0.1 system',
    'rabbitmqctl add_user billing Rbt-Billing-4471',
  ];
  for (const t of cases) assert.notDeepEqual(team(t), [], t);
  for (const t of [
    'CSP uses a per-request nonce like `nonce-r4nd0mB4se64==`; never reuse a static nonce.',
    `Restore the config from S3 version id ${randomString(ALNUM, 32, 64)} (before the bad deploy).`,
    'Golden AMI is ami-0c9f8e7d6b5a43210; the broken instance was i-04d7e2a9b1c3f5e68, vpc-0a1b2c3d4e5f67890.',
    `-----BEGIN CERTIFICATE REQUEST-----\n${randomString(ALNUM, 64, 65)}\n-----END CERTIFICATE REQUEST-----`,
    `Design file: https://www.figma.com/design/${randomString(ALNUM, 22, 66)}/Checkout-v3`,
    'first delivery id: whd_01JD3R2C7W0N6Z5A1K9XHQ4MBT',
    'Has\u0142o do Keycloak admina trzymamy w Vault: secret/dev/keycloak/admin',
    'token=ghp_****************************3k9X  (masked by the CI log filter)',
    '| Secret | Where |\n|---|---|\n| Stripe live key | Vault `kv/payments/stripe` |',
    `Browser Sentry DSN (public by design): https://${randomString(HEX, 32, 67)}@o44182.ingest.sentry.io/6642`,
    'postgres://reader@pg-stg.internal:5432/analytics  (auth via IAM token, no static password)',
    '{"user": "acme", "passwordSecret": "supplier-sftp"}',
    'From the vendor docs (example only, not ours): `curl -u demo:demo https://api.example.com/ping`',
    'FATAL:  password authentication failed for user "reader" on pg-stg.internal (10.0.2.9)',
    "const encode = (name: string) => name.replace(/[^a-zA-Z0-9]/g, '-');",
    "t.equal(uri.serialize({ path: 'foo%40Bar1' }), 'x')",
  ]) assert.deepEqual(team(t), [], t);
});

test('refused: raw # in URL passwords, keys in C strings, other Authorization schemes, key words and seed words in more forms; stored: ciphertext, cmdlets, test output, client ids', () => {
  const cases = [
    'db, err := sql.Open("pgx", "postgres://orders_svc:Or8#kQz2Lm7x@orders-db.internal:5432/orders")',
    `static const char KEY[] =\n"-----BEGIN RSA PRIVATE KEY-----\\n"\n"${randomString(ALNUM, 64, 71)}\\n"\n"-----END RSA PRIVATE KEY-----\\n";`,
    `$ curl -H "Authorization: ServiceAccount ${randomString(HEX, 32, 72)}" https://horde.studio.lan/api/v1/jobs`,
    `Alertmanager to PagerDuty uses routing key ${randomString(HEX, 32, 73)} (service Platform)`,
    'Service mode over BLE uses a static passkey 731905 on all units.',
    'Office alarm (panel by the back door): disarm with 7316 then OK.',
    'Unlock with the debug authentication key 0x5A3C91E7 0x0B2D48F6 0xC1A9E37D 0x64F02B85.',
    'Frase de recuperaci\u00f3n de la wallet de pruebas: lemon orbit tackle fiscal window genre drastic humble raven cupboard mixed vessel',
    '\u039a\u03c9\u03b4\u03b9\u03ba\u03cc\u03c2 VPN: \u03c7\u03c1\u03ae\u03c3\u03c4\u03b7\u03c2 ext_dev, \u03ba\u03c9\u03b4\u03b9\u03ba\u03cc\u03c2 Elia-Thalassa-72.',
    `Joost: global key for ops@example.net: ${randomString(HEX, 37, 74)}, I will swap it`,
    'Tom: what is the new pw for the router?\nAiko: first half dcmR0ut3r- second half Xq92!kp',
    'Vocera DB (sa): Vq2LmP8xTz4r  (rotate monthly)',
    '\u96c6\u7fa4\u516c\u5171\u8d26\u53f7 labshare \u7684\u5bc6\u7801\u6539\u6210\u4e86 Qiu-Feng-7396\uff0c\u767b\u5f55\u8282\u70b9 login01',
    'Figma owner login meanwhile is design@studio.example.org / "paper crane moves at dawn"',
    `Kaggle: {"username":"labvision","key":"${randomString(HEX, 32, 75)}"}`,
    'TSO-User DWHNACHT, Passwort K8Z4QW1N \u2014 RACF erlaubt nur 8 Zeichen.',
  ];
  for (const t of cases) assert.notDeepEqual(team(t), [], t);
  for (const t of [
    `CI cache key resolves to deps-${randomString(HEX, 64, 76)}.`,
    '\uac1c\ubc1c \uc11c\ubc84 \ube44\ubc00\ubc88\ud638\ub294 \ubd84\uae30\ub9c8\ub2e4 \ubcc0\uacbd\ud558\uba70, \ube44\ubc00\ubc88\ud638 \uad00\ub9ac\uc790(Passbolt)\uc5d0\uc11c\ub9cc \uacf5\uc720\ud569\ub2c8\ub2e4.',
    `kind: SealedSecret\nspec:\n  encryptedData:\n    STRIPE_SECRET_KEY: AgB${randomString(ALNUM, 90, 77)}`,
    '| System | User | Password |\n|---|---|---|\n| OneSign | impadmin | (KeePass: Imprivata/admin) |',
    `Figma file key ${randomString(ALNUM, 22, 78)} is the booking widget.`,
    '+Artifacts=(ArtifactName="Live",ClientId="xyza7891zq4k2m3n5p6r",ClientSecret="<set by build machine>")',
    "To get the initial ArgoCD admin password: `kubectl -n argocd get secret argocd-initial-admin-secret -o jsonpath='{.data.password}' | base64 -d`.",
    'Keys in the docs like sk_test_4eC39HqLyjWDarjtT1zdp7dc are Stripe\'s public documentation examples.',
    'DD_API_KEY=ENC[k8s_secret@datadog/datadog-secret/api-key]',
    '$cred = Get-Credential -UserName "CORP\\svc_print" -Message "Print migration"',
    'bootcmd=run distro_bootcmd\nserial#=SNGW3-2611-004417',
    '| DevEUI | AppKey |\n|---|---|\n| 70B3D57ED005A1F2 | (in TTN console only) |',
    '--- PASS: TestOrderTotals (0.00s)\n--- FAIL: TestOrderTotals/rounding (0.00s)',
    'Staging Jenkins: agent win-msbuild-02 has only 60 GB free. Pin cook jobs to win-msbuild-01.',
    'Okta app client id 0oa8zq2mxv7LpRk4W697 (public), group push every 40 min.',
    `Vercel: team_8qZ2mXvLp4, project prj_${randomString(ALNUM, 28, 79)} (storefront).`,
    'function rotationFor(dim) { const seed = mulberry32(dim); }',
  ]) assert.deepEqual(team(t), [], t);
});

test('refused: codes in other languages and forms, dotted passphrases, logins told as use X and Y or in a table headed by a login word; stored: accessors, fixtures named fake, ARNs, dead keys, jasypt, audit hashes, examples in German', () => {
  const cases = [
    '\ud68c\uc758\uc2e4 \ub3c4\uc5b4\ub77d \ubc88\ud638 2468*',
    'Digicode immeuble Lyon : B4727, puis interphone',
    '\ucc3d\uace0 \uc640\uc774\ud30c\uc774 \ube44\ubc88\uc740 pallet2026forklift \uc785\ub2c8\ub2e4',
    'Adgangskoden til alarmpanelet i lageret er 2581, husk at taste # bagefter',
    'Tresor im B\u00fcro Hamburg: 18 \u2013 43 \u2013 07, darin die Notfall-Yubikeys',
    "consul kv put config/mailer/smtp_pass 'Orchid.Basin.41'",
    "PGPASSWORD='river.candle.ninety' psql -h pg-ro.internal -U reporting",
    'heslo k VPN pro externisty: Knedlik.Praha.20',
    'lobby kiosk unlock: sunshine4418',
    'inloggegevens voor de printer-admin: gebruiker beheer, ww Tulp8Dijk',
    'for the old CMS backend just use redaktion and Zitrone-Heft-39',
    '| box | how to get in |\n|---|---|\n| nas-archive | beheerder / Molen-Kaas-78 |',
    'entra con soporte_tec / Marea.Alta.20 en el panel del proveedor',
    `klucz API do InPost: ${randomString(HEX, 48, 81)}`,
    "req.basic_auth 'reports', 'Amber-Sloth-917'",
    'pour le cadenas du local v\u00e9lo, le code c\'est 0-7-3-6',
    'Oracle EBS read access: jdbc:oracle:thin:apps_ro/Saffron_Keel_34@ebs-db:1521/EBSPROD',
    'if the alarm goes off on weekend: disarm with 60419 on the panel by the kitchen',
    "echo 'Tq8-vLz2-Km9y' > /etc/rsyncd.secret  # password for backup@nas",
  ];
  for (const t of cases) assert.notDeepEqual(team(t), [], t);
  for (const t of [
    'req=7f3c9e1a2b4d8e0c span=00f067aa0ba902b7 user=u_01HF3K9Q7VLM2XZ9KPT4 latency=412ms',
    'GitHub webhook posts to https://ci.acme.io/github-webhook/ and is verified with the shared secret from Vault (X-Hub-Signature-256)',
    'customer order ids 01JCQ8ZT2LMVX9KPZ4WRC8NBYS failed the webhook',
    'token accessor for the CI role: 0e2c4a7f-1e9d-3b5a-6c2e-8f0d1b4a7c9e, accessors cannot authenticate',
    'con <- dbConnect(Postgres(), user = "stats", password = keyring::key_get("pg-ro", "stats"))',
    '# FAKE values for the mock server\nFAKE_API_KEY = "psp_test_0000000000000000"',
    'encrypt with arn:aws:kms:eu-west-1:412398765012:key/7c1e9a04-b2d8-45f6-83e0-a1b7c4d92f08 (alias/ledger)',
    `credential report shows AKIA${randomString(BASE32.replace(/[2-7]/g, ''), 16, 82)} last used 400+ days ago, scheduling deletion`,
    `spring.datasource.password=ENC(${randomString(ALNUM, 32, 83)}) # jasypt`,
    `vault audit log: {"auth":{"client_token":"hmac-sha256:${randomString(HEX, 64, 84)}"}}`,
    'Beispiel aus der Doku (kein echter Wert): `export API_KEY=1234567890abcdef`',
  ]) assert.deepEqual(team(t), [], t);
});

test('refused: build flags and C defines, typed codes, logins after admin and rcon, quoted passphrases, HCL defaults, labelled keys in other languages; stored: op:// references, Firebase web keys, a spec example, defaults changed', () => {
  const cases = [
    '[env:esp32dev]\nbuild_flags =\n  -DWIFI_SSID=\\"LumenLab\\"\n  -DWIFI_PASS=\\"lab-solder-iron-43\\"',
    'Office alarm: if it beeps when you come in early, type 5522 then OFF.',
    `\`wandb login ${randomString(HEX, 40, 91)}\``,
    'LTE failover router: web UI 192.168.1.1, admin pass ZTE-wh-6622',
    '// secrets.h\n#define MQTT_USER "sensor-gw"\n#define MQTT_PASS "Mq-Gw-7721xz"',
    'GPG key for signing the packages: 0x8F3A21C7, passphrase "obsidian rowing nebula tangerine"',
    `For the geocoding fallback hit the v2 endpoint with key \`${randomString(HEX, 32, 92)}\`, it is whitelisted.`,
    'Mateo said the Grafana viewer login is "viewer" / "p4nda-Sunset-20" until SSO.',
    'stg rabbit: guest/Gst-Stg-92',
    'test server: rcon port 25575, rcon pass "blocky-otter-553"',
    'variable "db_password" {\n  type    = string\n  default = "Tf-Db-9qLm2xVy"\n}',
    `Kargo entegrasyonu i\u00e7in API anahtar\u0131 \`${randomString(HEX, 32, 93)}\`, sadece sunucu taraf\u0131nda.`,
    'Guest wifi is "Lumen-Guest", key: `orbit-walrus-6613`',
    `Retro: the Sentry auth token ${randomString(HEX, 64, 94)} had expired scopes.`,
    'warehouse scanners: ssh pi@10.20.4.x, we changed the default to `scanPi-4491`',
    'La rete ospiti a Milano: LumenOspiti, chiave Risotto-Milanese-34',
    'pasword for the test store front is `frontstore\ud83d\ude43 2027x`',
    'Side door to the server closet: code 4718#, alarm disarm 0833.',
    "prod Django SECRET_KEY is still the one from the first commit: 'k#8v!q2z@m^w0x)e7r4t_y1u(i9o-p3a&s6d5g'",
  ];
  for (const t of cases) assert.notDeepEqual(team(t), [], t);
  for (const t of [
    '.env.tpl:\nDATABASE_URL=op://Dev/pg-local/url\nSTRIPE_SECRET_KEY=op://Dev/Stripe test/secret key',
    'RFC 7617 example: `Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==` (Aladdin:open sesame) in the parser test.',
    `Firebase web config apiKey AIza${randomString(ALNUM, 35, 95)} is a public identifier, restricted by HTTP referrer.`,
    'Warning: the LTE router ships with admin/admin. We changed it on setup; the new one is in 1Password.',
    `Adding Rui:\n- user: rui\n- key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${randomString(ALNUM, 43, 96)} rui@laptop`,
    '# FAKE values for the mock server\nFAKE_WEBHOOK_SECRET = "whsec_test_fixture_not_real_at_all"',
  ]) assert.deepEqual(team(t), [], t);
});

test('refused: codes with a qualifier, keypad codes with a letter, name/value tables, PDO logins, Spring defaults, keys after a parenthesis; stored: Twilio account SIDs alone, data URIs, Bitwarden commands, camelCase product names, host numbers', () => {
  const cases = [
    `Farm\u00e1cia pipelines: PAT do Azure DevOps (validade 90 dias) ${randomString('abcdefghijklmnopqrstuvwxyz0123456789', 52, 101)}`,
    'Piekarnia konta POS:\nsklep1,kasjer1,Drozdzowka12',
    'Grupo m\u00f3vil de guardia: PIN de desbloqueo 271095',
    `API de Holded: cabecera key: ${randomString(HEX, 32, 102)} (producci\u00f3n)`,
    'si\u00e8ge rue Oberkampf : digicode 48B22, puis interphone',
    'Trattoria magazzino: codice porta sul retro 4472, allarme 0929',
    "booking.php: $pdo = new PDO($dsn, 'bellini_app', 'Ravioli_Burro_64');",
    '@Value("${iyzico.secret:live-Rt5WKw5McRLJ0WZLBT3Q}") private String secret;',
    `MobilePay subscription key (prod) ${randomString(HEX, 32, 103)}`,
    'Hanbit \uc131\uc218 \uc0ac\ubb34\uc2e4 \ucd9c\uc785 \ube44\ubc00\ubc88\ud638 2581*',
    'Galil \u05de\u05e9\u05e8\u05d3: \u05e7\u05d5\u05d3 \u05db\u05e0\u05d9\u05e1\u05d4: 1949#',
    '| name | value |\n|---|---|\n| SQL_ADMIN | nordlys_sa |\n| SQL_PASSWORD | Laks-Fjord-Nordlys-2026 |',
    'Hamburg office: T\u00fcrcode Haupteingang 7392#',
    'code superviseur du TPE Ingenico 7318 (pour les remboursements)',
    'the NAS password is just the street + year, i.e. Sveavagen1998',
    `client = Twilio::REST::Client.new("AC${randomString(HEX, 32, 104)}", "${randomString(HEX, 32, 105)}")`,
  ];
  for (const t of cases) assert.notDeepEqual(team(t), [], t);
  for (const t of [
    'Van Dijk: bw get password vdt-legacy | sshpass -d 0 ssh beheer@192.168.40.7',
    'Nusantara Kopi: kata sandi cPanel disimpan di Bitwarden organisasi.',
    `email footer logo is inlined as data:image/png;base64,iVBO${randomString(ALNUM, 30, 106)}/${randomString(ALNUM, 40, 107)}`,
    'legacy01 still has SHA-512 crypt hashes for local users; plan is to disable password login.',
    `Twilio account SID AC${randomString(HEX, 32, 108)}, messaging service MG${randomString(HEX, 32, 109)}; auth token in SSM.`,
    `truck 24 (VIN WMA0BMMGH54TSHP63) has the old telematics box.`,
    `Mux asset id ${randomString(ALNUM, 20, 110)}; retrigger via admin.`,
    '\u05d4\u05e1\u05d9\u05e1\u05de\u05d4 \u05e9\u05dc staging \u05de\u05d2\u05d9\u05e2\u05d4 \u05de\u05de\u05e9\u05ea\u05e0\u05d4 \u05d4\u05e1\u05d1\u05d9\u05d1\u05d4 STAGING_ADMIN_PASSWORD \u05d1-GitHub Actions.',
  ]) assert.deepEqual(team(t), [], t);
});

test('a login in code is blanked exactly where its password is, in a call with or without parentheses', () => {
  for (const [t, pass] of [
    ['requests.get(url, auth=("scraper", "Scr4pe-Pull-2x"), timeout=5)', 'Scr4pe-Pull-2x'],
    ["req.basic_auth 'reports', 'Amber-Sloth-918'", 'Amber-Sloth-918'],
    ["$pdo = new PDO($dsn, 'bellini_app', 'Ravioli_Burro_65');", 'Ravioli_Burro_65'],
  ] as const) {
    const at = t.indexOf(pass);
    assert.ok(secretSpans(t).some((sp) => sp.start === at && sp.end === at + pass.length), `${t}: ${JSON.stringify(secretSpans(t))}`);
  }
});

