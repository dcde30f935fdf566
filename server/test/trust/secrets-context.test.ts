// Credentials the gates read by shape and context (lexicon.ts, disowned.ts and the rules that use
// them): a lock's code in any language, a credential word of another language with its qualifier,
// key material named as such, a value on the line after its label, a labelled row, a login pair
// after a non-Latin label or an administrator account, a file locked with a password; and the
// look-alikes each rule must let through, including the values their context disowns (an ARN, a
// request id, a fixture's login, a throwaway container's default password).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectSecrets } from '../../src/core/trust/gates/secrets.ts';
import { detectTeamSecrets } from '../../src/core/trust/gates/teamSecrets.ts';

const team = (t: string) => [...detectSecrets(t), ...detectTeamSecrets(t)];

/** [text, the secret in it, refused by the personal gate too] */
type Case = [string, string, boolean];

const REFUSED: Record<string, Case[]> = {
  'a credential word of another language, its qualifier and its copula': [
    ['La password del server di posta è Rosmarino!58', 'Rosmarino!58', true],
    ["La password dell'account di backup: Quercia#2031", 'Quercia#2031', true],
    ['Il PIN della carta carburante è 6604', '6604', true],
    ['La contraseña del servidor de correo de la sede de Sevilla es Naranjo#77', 'Naranjo#77', true],
    ['A senha do roteador da sala de reuniões: Jabuticaba-63', 'Jabuticaba-63', true],
    ['Hasło do konta serwisowego to Jodla!4820', 'Jodla!4820', true],
    ['Hasło użytkownika: Bocian_2291', 'Bocian_2291', true],
    ['Пароль сервера почты — Volna!3391', 'Volna!3391', true],
    ['Het wachtwoord van de printerbeheerder is Zeehond#12', 'Zeehond#12', true],
    ['Lösenordet för skrivaren är Lingon-Sylt-44', 'Lingon-Sylt-44', true],
  ],
  "a lock's code, in many languages": [
    ['The padlock on the roof hatch is 4127', '4127', true],
    ['The gun safe in the armoury opens with 8-2-6-4', '8-2-6-4', true],
    ['Key safe next to the loading bay: 5093', '5093', true],
    ['The lockbox at the rental uses 2718', '2718', true],
    ['Der Tresor in der Buchhaltung geht mit 14-92-30 auf.', '14-92-30', true],
    ["Le cadenas du garage à vélos s'ouvre avec 6631", '6631', true],
    ['El candado de la taquilla abre con 9120', '9120', true],
    ['La cassaforte della reception si apre con 7745', '7745', true],
    ['Het hangslot van de schuur is 3390', '3390', true],
    ['Kod do sejfu w serwerowni to 55128', '55128', true],
    ['Код сейфа в бухгалтерии — 603917', '603917', true],
    ['Koden till kassaskåpet är 9932', '9932', true],
    ['金庫の暗証番号は 7340', '7340', true],
    ['The side gate opens with 4410#', '4410#', true],
    ['Warehouse alarm is disarmed with 2291', '2291', true],
    ['Le code de la porte du parking est 4471A', '4471A', true],
    ['Gatecode 8812', '8812', true],
    ['Warehouse alarm: 4821 (disarm within 30 s)', '4821', true],
    ['Die Alarmanlage im Lager wird mit 5927 entschärft.', '5927', true],
    ['De code van de achterdeur is 6605', '6605', true],
    ['Kod do alarmu: 4107', '4107', true],
    ['Code WiFi de la salle de réunion : myrtille-soleil-31', 'myrtille-soleil-31', true],
    ['Use 6194 for the back door after hours', '6194', true],
    ['5518 opens the padlock on the bike shed', '5518', true],
    ['2231 is the alarm code', '2231', true],
    ['Voicemail code for the hotline: 3318', '3318', true],
    ["Il codice dell'allarme è 9051", '9051', true],
    ['ПИН-код карты: 5512', '5512', true],
  ],
  'key material named as such': [
    ['config/master.key for the billing app is 9e1c44a7d02b6f3850c1a9e7b4d2f6a0', '9e1c44a7d02b6f3850c1a9e7b4d2f6a0', true],
    ['The HMAC key for the webhook signatures: c3f1a9e27b5d08c6e4a2f0b9d7c5e3a1f9b7d5c3', 'c3f1a9e27b5d08c6e4a2f0b9d7c5e3a1f9b7d5c3', true],
    ['AES-256 key for the archive export: 0f9e8d7c6b5a49382716a5b4c3d2e1f00f9e8d7c6b5a49382716a5b4c3d2e1f0', '0f9e8d7c6b5a49382716a5b4c3d2e1f00f9e8d7c6b5a49382716a5b4c3d2e1f0', true],
    ['FCM server key: AAAAq7Lk2Zp:APA91bH4sKd9Lq2Zx7Vb1Nm8Rt5Yc3Wf6Gh0Jk4Pl9Qs2Dx7Cv1Bn5Mz8Ar3Te6Yu0Io4Pa9Sd2Fg7Hj1Kl5', 'APA91bH4sKd9Lq2Zx7Vb1Nm8Rt5Yc3Wf6', true],
    ['PagerDuty routing key for checkout: Q7b2c9d4e1f6a3b8c5d0e7f2a9b4c1d6', 'Q7b2c9d4e1f6a3b8c5d0e7f2a9b4c1d6', true],
    ['Mailgun sending key: key-3c9b1e7f5d2a8c4e6b0f9d1a7c3e5b2f', 'key-3c9b1e7f5d2a8c4e6b0f9d1a7c3e5b2f', true],
    ['Webex host key for the quarterly review: 902144', '902144', true],
    ['Vault unseal key 1: 4c1d9e7a2b8f3c6d0e5a9b1c7d3e8f2a4b6c0d9e1f7a3b5c8d2e6f0a9b4c1d7e3f', '4c1d9e7a2b8f3c6d0e5a9b1c7d3e8f2a4b6c0d9e1f7a3b5c8d2e6f0a9b4c1d7e3f', true],
    ['HMAC secret for the callbacks = 7c4a8d09ca3762af61e59520943dc26494f8941b', '7c4a8d09ca3762af61e59520943dc26494f8941b', true],
  ],
  'a value on the line after its label': [
    ['Slack recovery codes for the workspace owner:\n7c2e1-40b9a\n91f0d-c3a27\n2b8e4-d6f10', '7c2e1-40b9a', true],
    ['Backup codes:\n  - 6620-1937\n  - 4405-8812', '6620-1937', true],
    ['Password for the kiosk:\nMaple!Tundra-7', 'Maple!Tundra-7', true],
  ],
  'a row of cells labelled by a credential word or an account': [
    ['VPN creds\tjsmith\tOrca!Bay-2291', 'Orca!Bay-2291', true],
    ['guest wifi\tCafe-Guest\ttangerinepilot88', 'tangerinepilot88', false],
    ['prod replica\tdbadmin\tKelp#Drift-55', 'Kelp#Drift-55', true],
    ['Grafana login | ops | Falcon!Moss-19', 'Falcon!Moss-19', true],
  ],
  'login pairs after a non-Latin label or an administrator account, and on command lines': [
    ['管理画面ログイン: root / Hinoki_5521', 'Hinoki_5521', true],
    ['登录账号 ops / Songshu#2290', 'Songshu#2290', true],
    ['Учётная запись: admin / Klyon2024!', 'Klyon2024!', true],
    ['root / Pine!Ridge-8 on the lab hypervisor', 'Pine!Ridge-8', true],
    ['jdoe:Kelvin!Mist-3 for the FTP', 'Kelvin!Mist-3', true],
    ['SFTP: uploader / Gull-Creek-31', 'Gull-Creek-31', true],
    ['Grafana: admin / Pelican-Moon-22', 'Pelican-Moon-22', true],
    ['log in as deploy with Kestrel-Night-4', 'Kestrel-Night-4', true],
    ['Login to the router with admin and Osprey2021', 'Osprey2021', true],
    ['SSID Lab-5G / WPA key Plover!Dune8', 'Plover!Dune8', true],
    ['Service account svc-etl, secret Vole!Hill-2024', 'Vole!Hill-2024', false],
    ['ssh pi@10.0.0.5, password raspberry', 'raspberry', false],
    ["Parola d'ordine del server: Olmo!Verde-3", 'Olmo!Verde-3', true],
    ['The ESXi host still has root/vmware', 'vmware', false],
    ['サーバーのパスワードは Tsubaki-8812です', 'Tsubaki-8812', true],
    ['Nexus admin - Heron!Quay-58', 'Heron!Quay-58', true],
    ['Portainer: admin -> Cobalt#Reed-4', 'Cobalt#Reed-4', true],
    ['root -- Larch!Fen-73 on the jump host', 'Larch!Fen-73', true],
    ['.pgpass for the warehouse: dw.internal:5432:sales:loader:Tern!Glen-9', 'Tern!Glen-9', true],
    ['net use S: \\\\files01\\scans /user:CORP\\scanner Pike7-Harbor!', 'Pike7-Harbor!', true],
    ['net use \\\\files01\\ipc$ Wren-Lake-81 /user:backup', 'Wren-Lake-81', true],
  ],
  'a file locked with a password': [
    ['The export zip is protected with Quill!Moor-26', 'Quill!Moor-26', false],
    ['Encrypted the HR archive with Birch#Lantern-3 before upload', 'Birch#Lantern-3', false],
  ],
  'the same values where the context does not disown them': [
    ['POSTGRES_PASSWORD=postgres on the shared staging host', 'postgres', false],
    ['mysql -u root -pLarkspur91 -h 127.0.0.1 crm', 'Larkspur91', true],
    ['The staging login qa@example.com / Fixture-Strong-9 is shared with the vendor', 'Fixture-Strong-9', true],
  ],
};

describe('credentials read by shape and context: each kind is refused, its value never repeated', () => {
  for (const [kind, cases] of Object.entries(REFUSED)) {
    it(kind, () => {
      for (const [text, secret, personal] of cases) {
        const found = team(text);
        assert.ok(found.length > 0, `the team gate lets through: ${text}`);
        assert.equal(detectSecrets(text).length > 0, personal, `the personal gate ${personal ? 'lets through' : 'refuses'}: ${text}`);
        for (const f of found) assert.ok(!f.snippet.includes(secret.slice(1)), `${f.kind} repeats the value: ${f.snippet}`);
      }
    });
  }
});

const PASSED: Record<string, string[]> = {
  'prose of other languages about where a password is': [
    'La password è nel gestore delle password del team.',
    'La password del wifi è scritta sulla lavagna.',
    'La contraseña del router está en la etiqueta.',
    'A senha do cofre fica com o gerente.',
    'Het wachtwoord van de kluis staat in 1Password.',
    'Hasło jest w menedżerze haseł.',
    'Пароль лежит в Vault.',
    'Lösenordet finns i 1Password.',
    '門のパスワードは総務に聞いてください',
    '保险柜密码由财务保管',
    'Das Passwort ist im Passwort-Manager hinterlegt.',
    'Le mot de passe est stocké dans le coffre.',
    'Das WLAN-Passwort ist ausgehängt.',
    'Das Passwort ist geheim.',
    'La contraseña es temporal.',
    'La password è segreta.',
    'A senha é temporária.',
    'Het wachtwoord is tijdelijk.',
    'Hasło jest tymczasowe.',
    'Lösenordet är hemligt.',
    'Пароль временный.',
    'Der PIN ist vierstellig.',
  ],
  'locks, doors and codes that state no code': [
    'The safe in the finance office is bolted to the floor.',
    'The safe is 1200 mm deep.',
    'The safe is 120.',
    'It is safe to retry the job: 3 attempts max.',
    'The padlock is a 40 mm brass one; facilities has the spare key.',
    'Locker 1043 is mine; my locker is 1043.',
    'Gate 4 opens with a 20 min delay.',
    'The garage opens with the remote on the key ring.',
    'The build uses 4096 MB of memory.',
    'Door 4 of the warehouse opens at 0800.',
    'Der Tresor steht im Keller.',
    'Le code de la porte a changé hier.',
    'Il codice di errore è 5120.',
    'El código de error es 4040.',
    'Kod błędu 5531 oznacza brak uprawnień.',
    'Код ошибки 3317 — нет доступа.',
    'エラーコード 4821 はタイムアウトです',
    'lock_timeout = 3000',
    'Advisory lock id: 72931',
    'Ticket 4471 for the garage door repair is closed.',
    'Alarm: 0630, every weekday.',
    'Entry: 2024 cohort only.',
    'Environment: NODE_ENV=production, PORT=8080, ALARM=5000.',
    'Use 1080p for the door camera.',
    'Room 2204 opens the floor plan review.',
    'Backup codes: 10 per user.',
    'Recovery codes:\nstored in 1Password',
    'Token:\nrotated monthly',
  ],
  'key words that name no key value': [
    'Server key rotation happens every 90 days.',
    'AES key size: 256',
    'AES-256 key: stored in KMS',
    'config/master.key lives only in 1Password.',
    'host key: ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY=',
    'The Zoom host key is set in the admin console.',
    'SSH host key: 7c:3a:91:4e:22:aa:0f:13:9b:5d:e8:41:c6:07:b2:f9',
    'routing key: orders.created.v2',
    'Routing key for payment events is payments.*',
    'Server key: id_ed25519 on the build box',
    'HMAC of the signing secret: 7c4a8d09ca3762af61e59520943dc26494f8941b',
    'PublicKey = 4Gx9yZ2cV8nB5mK1qW7eR3tY6uI0oP2aS4dF8gH1jK0=',
  ],
  'rows, pairs and locked files that hold no password': [
    'ci\tgithub-actions\tubuntu-22.04',
    'login\tbuild-42\tpassed',
    'wifi\tOffice-5G\tsee the poster',
    'admin => AdminController#index',
    'admin - 2 seats left on the plan',
    'The bucket is locked by deploy@ci-42 until the job ends.',
    'The backup is encrypted with ChaCha20-Poly1305.',
    'Data is protected with AES-256-GCM at rest.',
    'pgpass format is host:port:database:username:password',
    'Build 2024:05:01:12:30:55 passed',
    'Schedule: mon:09:00:standup:team-a:room-4',
    '1200 opens the flood gate log rotation window.',
    'Use 3000 for the dev server and 9229 for the debugger.',
    'Team\tLead\tChannel\nPayments\tAnna\t#payments-dev',
    'Admin - Priya, Finance - Omar, Ops - Lena',
    'net use Z: \\\\nas01\\share /persistent:yes',
    'admin/admin is the default for fresh installs; provisioning changes it.',
    'admin / 2024-roadmap is the page to read first',
    'connected with Docker and Kubernetes-1.29',
    'log in as admin with the YubiKey',
    'Log in as root using ssh-ed25519 keys only',
  ],
  'values the context disowns: resource names, ids, fixtures, throwaway defaults': [
    'The lambda reads arn:aws:secretsmanager:us-east-1:111122223333:secret:prod/payments-Ab12Cd only.',
    'Support ticket mentions request id req_8Hq2Lm9Xp4Vt7Kz.',
    'Stripe customer cus_Nf8Zk2Lm9Xp4Vt was charged twice.',
    'span_id=a1b2c3d4e5f60718 parent=0000000000000000',
    'correlation id: c0rr-9f8e7d6c5b4a shows up in the gateway log',
    'In the mock server, users log in as demo@example.com / demo1234',
    'fixtures/users.json has bob@example.com / test-pass-456 for the login spec',
    'MYSQL_ROOT_PASSWORD=root in docker-compose.dev.yml, a throwaway container on localhost',
    'RABBITMQ_DEFAULT_PASS=guest for local dev only',
  ],
};

describe('look-alikes of the kinds read by shape and context pass both gates', () => {
  for (const [kind, notes] of Object.entries(PASSED)) {
    it(kind, () => {
      const hits = notes.map((t) => ({ t, found: team(t).map((f) => f.kind) })).filter((x) => x.found.length > 0);
      assert.deepEqual(hits, []);
    });
  }
});
