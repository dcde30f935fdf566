// Credentials stated in words, pairs, commands and tables (statedCredentials.ts, loginPairs.ts,
// structuredCredentials.ts and the newer provider formats): each rule refuses its kind of secret
// from the team store, the personal store refuses what its stricter policy says, the value never
// appears in the answer, and notes that only talk about credentials pass both gates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileNameFor } from '../../src/core/store/memfile.ts';
import { detectSecrets, withoutSecrets } from '../../src/core/trust/gates/secrets.ts';
import { detectTeamSecrets } from '../../src/core/trust/gates/teamSecrets.ts';
import { statedPositiveFixtures } from './fakeSecrets.ts';

const team = (t: string) => [...detectSecrets(t), ...detectTeamSecrets(t)];

/** [text, the secret in it, refused by the personal gate too] */
type Case = [string, string, boolean];

const RULES: Record<string, Case[]> = {
  'a value after a password word, in any phrasing': [
    ['the root pw on the build box is Tangerine#77', 'Tangerine#77', true],
    ['MYSQL_ROOT_PASSWORD=orchid-falcon-318', 'orchid-falcon-318', true],
    ['API_SECRET=walnut-harbor-quill', 'walnut-harbor-quill', true],
    ['export DEPLOY_TOKEN=kestrel-amber-fox', 'kestrel-amber-fox', true],
    ['SMTP pass = kV8!wq2Lr', 'kV8!wq2Lr', true],
    ['password -> Lighthouse_41', 'Lighthouse_41', true],
    ['password\tVelvet-Trout-9', 'Velvet-Trout-9', true],
    ['the vpn user is jdoe, password Marble$Sky4', 'Marble$Sky4', true],
    ['BIOS supervisor password = Granite7', 'Granite7', true],
    ["Here's the staging DB password: Quokka!Plains9", 'Quokka!Plains9', true],
    ['passwd for svc_backup -> Tundra_Lynx_44', 'Tundra_Lynx_44', true],
    ['the wifi password\'s Lavender77', 'Lavender77', true],
    ['ops note: the grafana admin pass got reset to Plumtree!19', 'Plumtree!19', true],
    ['const dbPass = "Orbit-Lemon-8"; // staging', 'Orbit-Lemon-8', true],
    ['The admin password for the kiosk is marigold', 'marigold', false],
    ['POSTGRES_PASSWORD: walnut99', 'walnut99', false],
    ['"password": "Gr8-Expectations-1861"', 'Gr8-Expectations-1861', true],
    ['SNMP community string: s3cr3tC0mm', 's3cr3tC0mm', true],
    ['**Password:** Quill-Ferry-31', 'Quill-Ferry-31', true],
    ['- *pw*: Quill-Ferry-31', 'Quill-Ferry-31', true],
    ['wifi password \u2014 Lighthouse77', 'Lighthouse77', true],
    ['password was: Quill-Ferry-31', 'Quill-Ferry-31', true],
  ],
  'a qualifier between the word and its value': [
    ['PIN for the pager phone: 4417', '4417', true],
    ['Router password (printed nowhere else): Heron-Fjord-12', 'Heron-Fjord-12', true],
    ['the password of the admin account: Kiwi2024!', 'Kiwi2024!', true],
    ['OAuth client_secret in the yaml is 8c1f2e3d4c5b6a79880706f5e4d3c2b1', '8c1f2e3d4c5b6a79880706f5e4d3c2b1', true],
    ['Keybox at the cabin: 0815', '0815', true],
  ],
  'other languages': [
    ['Das Kennwort für den Server ist Apfelbaum99', 'Apfelbaum99', true],
    ['Der WLAN-Schlüssel lautet Birke2020', 'Birke2020', true],
    ['mot de passe wifi : soleil-bleu-77', 'soleil-bleu-77', true],
    ['Le digicode de l\'immeuble est 45B21', '45B21', false],
    ['Contraseña del wifi de la oficina: naranja2020', 'naranja2020', true],
    ['La clave del wifi es perro-verde-33', 'perro-verde-33', true],
    ['A senha do wifi é abacaxi2024', 'abacaxi2024', true],
    ['Het wachtwoord is Fietsbel88', 'Fietsbel88', true],
    ['Lösenordet är Kanelbulle7', 'Kanelbulle7', true],
    ['La password del wifi è Girasole99', 'Girasole99', true],
    ['hasło do wifi: Kotek2020!', 'Kotek2020!', true],
    ['пароль от wifi: ромашка2021', 'ромашка2021', true],
    ['密码是 Tiger2024!', 'Tiger2024!', true],
  ],
  'passphrases of words': [
    ['admin_password: "pebble quartz anchor"', 'pebble quartz anchor', true],
    ['The passphrase for the backup key is "velvet thunder cactus ribbon"', 'velvet thunder cactus ribbon', true],
    ['backup encryption password: kettle river amber 42 crane', 'kettle river amber 42 crane', true],
    ['wifi passphrase: maple-orbit-tundra-canyon', 'maple-orbit-tundra-canyon', true],
    ['password = "correct battery staple horse"', 'correct battery staple horse', true],
    ['Guest network password: sunflowerjamboree', 'sunflowerjamboree', false],
    ['seed phrase: abandon ability able about above absent absorb abstract absurd abuse access accident', 'abandon ability able', true],
    ["Keep this safe: recovery phrase 'apple banana cherry dolphin eagle falcon grape harbor island jungle kettle lemon'", 'apple banana cherry', true],
    ["gpg --batch --passphrase 'Moonlit-Harbor-5' -d secrets.gpg", 'Moonlit-Harbor-5', true],
  ],
  'the value before the word': [
    ['Spring2025! is the password for the conference room tablet', 'Spring2025!', true],
    ['Winter2023x is still the guest password', 'Winter2023x', true],
    ['use Lavender77 as the password for the kiosk', 'Lavender77', true],
    ['marmaladeskyline is the keystore passphrase', 'marmaladeskyline', true],
  ],
  'PINs, door codes, combinations, recovery codes': [
    ['Front door code: 0418', '0418', true],
    ['gate code is 7731#', '7731#', true],
    ['The alarm code for the warehouse is 6 2 9 1', '6 2 9 1', true],
    ['my phone PIN is 482913', '482913', true],
    ['PIN 4821', '4821', true],
    ['Luggage lock combination is 5-0-8', '5-0-8', true],
    ['The code to open the bike locker is 3345', '3345', true],
    ['2FA backup codes: 8391-2271 5520-9931 1184-6620', '8391-2271', true],
    ['scratch codes: 88213344 99120011', '88213344', true],
    ['pin: 4821 for the door', '4821', true],
    ['pin 4821 for the lockbox', '4821', false],
    ['Alarm: code 4455 to disarm', '4455', true],
    ['Tresor-Kombination: 12-24-36', '12-24-36', true],
    ['PIN-Code der EC-Karte: 4711', '4711', true],
  ],
  'OTP seeds and keys': [
    ['TOTP secret for the shared mailbox: NB2HI4DTHIXS6ZDPMNXWY2LMPFXXI43N', 'NB2HI4DTHIXS6ZDPMNXWY2LMPFXXI43N', true],
    ['VPN PSK: t7Hq-9vLm-2xRw-5zKp', 't7Hq-9vLm-2xRw-5zKp', true],
    ['Recovery key: 4F2A-9C3D-B7E6-21FA', '4F2A-9C3D-B7E6-21FA', true],
    ['encryption key: 7Q2x9LmVt4Kp8Rw1Sn5Zb3Fh6Jc0Yd2P', '7Q2x9LmVt4Kp8Rw1Sn5Zb3Fh6Jc0Yd2P', true],
    ['SECRET_KEY_BASE=4f1c9b7e5d2a4c6e8f0b1d3a5c7e9f2b6a8c0e2d4f6b8a0c', '4f1c9b7e5d2a4c6e8f0b1d3a5c7e9f2b6a8c0e2d4f6b8a0c', true],
    ['x-api-key: 9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d', '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d', true],
    ['export VAULT_TOKEN=s.Xy7Lq2Vt9Kp4Rw8SnZ3bF6hJ', 's.Xy7Lq2Vt9Kp4Rw8SnZ3bF6hJ', true],
  ],
  'login pairs and default credentials': [
    ['ftp login: deployer / Kestrel-73', 'Kestrel-73', true],
    ['Zugangsdaten: admin / Kiwi2024', 'Kiwi2024', true],
    ['curl --user deploy:Qx7!mmRt https://ci.example.org/api', 'Qx7!mmRt', true],
    ['deploy:Quartz#991@10.0.3.7 is how the old script logs in', 'Quartz#991', true],
    ['basic auth for staging is admin:Qw3rty!55', 'Qw3rty!55', true],
    ['sqlplus system/Oracle2024@//db.example.org:1521/XE', 'Oracle2024', true],
    ['db.internal:5432:billing:billing_app:Lemon8Drop', 'Lemon8Drop', true],
    ['machine ftp.example.org login uploader password Cobalt-Rain-66', 'Cobalt-Rain-66', true],
    ['WIFI:S:AcmeGuest;T:WPA;P:Kiwi2024;;', 'Kiwi2024', true],
    ["wifi: HomeNet / 'sunny-day-42'", 'sunny-day-42', true],
    ['u/p: admin/Secret#12', 'Secret#12', true],
    ['iDRAC login root / calvin still works on the old R720', 'calvin', false],
    ['the demo VM still takes pi:raspberry', 'raspberry', false],
    ['login with Autumn2023! on the demo box', 'Autumn2023!', false],
  ],
  'command lines': [
    ["connect with sshpass -p 'Rook&Pawn12' ssh ops@10.1.2.3", 'Rook&Pawn12', true],
    ['redis-cli -h cache.prod -a Wq9xLp2Zt7 ping', 'Wq9xLp2Zt7', true],
    ['ldapsearch -x -D "cn=admin,dc=acme,dc=org" -w L3dger!pass -b dc=acme,dc=org', 'L3dger!pass', true],
    ['keytool -list -keystore release.jks -storepass Falcon2023', 'Falcon2023', true],
    ['openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:Bramble77', 'Bramble77', true],
  ],
  'tables, name/value pairs, XML, headers and URLs': [
    ['| env | user | password |\n|-----|------|----------|\n| staging | admin | Kiwi!2024 |', 'Kiwi!2024', true],
    ['user,password,host\ndeploy,Tundra88!,db1.example.org', 'Tundra88!', true],
    ['env:\n  - name: DB_PASSWORD\n    value: "Hx82kLpqZ!"', 'Hx82kLpqZ!', true],
    ['<server><id>nexus</id><password>Kiwi2024!</password></server>', 'Kiwi2024!', true],
    ['<add key="SmtpPassword" value="Kiwi2024!" />', 'Kiwi2024!', true],
    ['{"auths": {"registry.example.com": {"auth": "cm9ib3Q6VG9wU2VjcmV0OTk="}}}', 'cm9ib3Q6VG9wU2VjcmV0OTk=', true],
    ['_auth=ZGVwbG95OlN1bm55RGF5NDI=', 'ZGVwbG95OlN1bm55RGF5NDI=', true],
    ['Authorization: Basic YWRtaW46UGFzc3dvcmQxMjM=', 'YWRtaW46UGFzc3dvcmQxMjM=', true],
    ['git clone https://9f8e7d6c5b4a39281706f5e4d3c2b1a0aa11bb22@github.com/acme/app.git', '9f8e7d6c5b4a39281706f5e4d3c2b1a0aa11bb22', true],
    ['database url: Server=db.example.org;Uid=app;Pwd=Kiwi2024!;', 'Kiwi2024!', true],
  ],
};

describe('stated credentials: each rule refuses its kind, and never repeats the value', () => {
  for (const [rule, cases] of Object.entries(RULES)) {
    it(rule, () => {
      for (const [text, secret, personal] of cases) {
        const found = team(text);
        assert.ok(found.length > 0, `the team gate lets through: ${text}`);
        assert.equal(detectSecrets(text).length > 0, personal, `the personal gate ${personal ? 'lets through' : 'refuses'}: ${text}`);
        for (const f of found) assert.ok(!f.snippet.includes(secret.slice(1)), `${f.kind} repeats the value: ${f.snippet}`);
      }
    });
  }
});

describe('stated credentials: notes about credentials pass both gates', () => {
  const ordinary = [
    // Where a secret lives, how it is handled, what it is called.
    'Password: see the "Prod DB" item in 1Password.',
    'The wifi password changes every Monday; ask reception.',
    'Door codes are managed by facilities and printed on your badge letter.',
    'Credentials: ask #platform-access in Slack.',
    'credentials: stored in the k8s secret billing-db-credentials',
    'token: short-lived, minted by the OIDC provider per job',
    'The admin user is admin; the password comes from ADMIN_PASSWORD.',
    'Password for the staging DB: in Vault at secret/staging/db',
    'wifi password: on the fridge',
    'Door code: ask the office manager',
    'The alarm code was changed after the break-in; ask Anna for the new one.',
    'STRIPE_SECRET_KEY is injected at runtime from AWS Secrets Manager.',
    'Passphrase: the one on the printed recovery sheet in the safe.',
    // Policies and prose with the words in them.
    'The password must be at least 14 characters and include a symbol.',
    'Password reset tokens expire in 15 minutes.',
    'PIN entry is locked after 3 wrong attempts.',
    'Never reuse a password across environments.',
    'Rotate the SSH key passphrase when someone leaves.',
    'the passcode screen appears after 5 minutes idle',
    'password: min 12 chars, 1 digit',
    'Password123 is a terrible password, never use it.',
    'Reject passwords like Password1 or Qwerty123 at signup.',
    'Passwords like Spring2024! are rejected by the policy check.',
    'e.g. password: Tr0ub4dor&3 is weaker than a passphrase',
    'password: hunter2 (example from the famous IRC log, never real)',
    'The Spring2024 campaign landing page goes live on Monday.',
    // Placeholders, templates, variables, settings.
    'password: <to be provided by ops>',
    'DB_PASSWORD=${DB_PASSWORD}',
    'export API_TOKEN=$(vault kv get -field=token secret/ci)',
    'API_KEY=your-api-key-here',
    'token: ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'password: ${{ secrets.DEPLOY_PASSWORD }}',
    'Password: *see vault*',
    'PIN: ****',
    'door code: XXXX',
    'password_min_length: 12',
    'token_ttl: 3600',
    'TOKEN_URL=https://auth.example.com/oauth/token',
    'PASSWORD_PATTERN = /^(?=.*\\d).{12,}$/',
    'secret: tls-wildcard-2025',
    'api_key: test-key-123',
    'pin: 3.11 in .python-version',
    'Set pin_memory: true in the DataLoader.',
    'token_type: Bearer',
    'nextPageToken: abc-def-ghi',
    // Codes that open nothing.
    'Exit code 137 means the container was OOM-killed.',
    'Error code 1045 from MySQL means access denied; check the user grants.',
    // Public material, digests and ids.
    'Host key fingerprint SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU',
    'sha256 of the secret: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    'The password hash: $2b$12$KIXQJ8hNc2GkR6k1k1k1k.abcdefghijklmnopqrstuv',
    'The token 8f14e45fceea167a5a36dedd4bea2543 in the log is a request hash, not a credential.',
    'Image digest sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    // Names that look like passphrases, hosts with credential words.
    'The feature branch is called blue-otter-garden-19 after the sprint name.',
    'Container is named mossy-river-lantern-42 by docker compose',
    'secret-manager.internal.example.com hosts the secrets UI.',
    'vault.secret.example.com is the new hostname for Vault.',
    // Pairs and paths that are no logins.
    'git push -u origin feature/login-page',
    'docker run -u 1000:1000 -v $PWD:/src builder',
    'chown deploy:deploy /srv/app',
    'Pin the action to a commit SHA, e.g. actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11.',
    'See RFC 7617 for Basic authentication; credentials are base64 of user:password.',
    'Grafana default login admin/admin is disabled by our provisioning.',
    'curl -u "$CI_USER:$CI_TOKEN" https://ci.example.com/api',
    'Authorization: Basic <base64 of user:pass>',
    // Tables and entries without values.
    '| field | type | notes |\n|---|---|---|\n| password | string | hashed with argon2id |',
    'name,type,required\npassword,string,yes',
    'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n        key: password',
    '<password>${env.NEXUS_PASSWORD}</password>',
    'Test card 4242 4242 4242 4242 with any future expiry works in Stripe test mode.',
    // Examples, adjectives and the other senses of the words.
    'Example JWT from jwt.io: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    'The staging password is identical.',
    'The admin password is personal; each admin has their own.',
    'The password is hidden in the UI and never logged.',
    'Password: same as Jira',
    'PasswordAuthentication no',
    'Set `password_authentication no` in sshd_config.',
    'auth: password',
    'api_key_header: X-API-Key',
    'password_file=/run/secrets/db',
    'Error code E1234 shows when the disk is full.',
    'The pass rate of the test suite is 97%.',
    'Boarding pass: gate B12, seat 14C.',
    'pass it the --dry-run flag first',
    'Node version pin: 20.11.1',
    'API key (prod, publishable): pk_live_51HcAbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
    'Secrets for the billing service are in SSM under /billing/prod/*.',
    'DB_PASSWORD, DB_USER and DB_HOST must be set before `make migrate`.',
    "`kubectl get secret db -o jsonpath='{.data.password}' | base64 -d` prints the password.",
    'The admin account is admin@example.com; its password is in the vault.',
    'Git tag v2.3.1-secret-fix was a mistake; renamed.',
    'gpg --list-secret-keys shows the signing key 4AEE18F83AFDEB23.',
    'Vault AppRole role_id is public; the secret_id is not and is issued per deploy.',
    'The API returns `{"token": "<jwt>"}` on login.',
    'password123 and letmein top the breached-password list again.',
    'Pass the --token flag only in CI; locally the CLI reads the keychain.',
    'export GITHUB_TOKEN=$(gh auth token)',
    'The session secret is 64 bytes from /dev/urandom, generated at deploy.',
    'Password - see the vault entry',
  ];
  it('no finding from either gate', () => {
    const hits = ordinary.map((t) => ({ t, found: team(t).map((f) => f.kind) })).filter((x) => x.found.length > 0);
    assert.deepEqual(hits, []);
  });
});

describe('the newer kinds: runtime-built fixtures', () => {
  for (const f of statedPositiveFixtures()) {
    it(`finds ${f.kind} (${f.name}) and masks it; a file name never repeats it`, () => {
      const found = detectSecrets(f.text);
      assert.equal(found[0]?.kind, f.kind, JSON.stringify(found));
      for (const x of found) assert.ok(!x.snippet.includes(f.secret), `snippet reveals the secret: ${x.snippet}`);
      const name = fileNameFor({ id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H', created: '2026-03-14T10:23:00.000Z', body: f.text }, withoutSecrets);
      const s = f.secret.toLowerCase().replace(/[^a-z0-9]+/g, '');
      for (let i = 0; i + 6 <= s.length; i++) assert.ok(!name.includes(s.slice(i, i + 6)), `${name} repeats ${s.slice(i, i + 6)}`);
    });
  }
});
