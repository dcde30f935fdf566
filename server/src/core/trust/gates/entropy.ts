// Small helpers shared by the secret detector: how random a string looks, whether a value is a
// placeholder someone wrote in docs, and how to show a secret without revealing it.

/** Shannon entropy in bits per character of the string's own character distribution. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = [...s].length;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

/** How many of lower / upper / digit / symbol classes the string uses. */
export function charClasses(s: string): number {
  return (
    Number(/[a-z]/.test(s)) + Number(/[A-Z]/.test(s)) + Number(/[0-9]/.test(s)) + Number(/[^A-Za-z0-9]/.test(s))
  );
}

// Words that, anywhere in a value, mark it as a stand-in rather than a real credential.
const PLACEHOLDER_WORDS = /(example|placeholder|changeme|change[_-]me|redacted|dummy|your[_-]?|xxxx|sample|fake|todo|insert|replace)/i;

/**
 * True for values that are obviously not real credentials: `<your-key>`, `***`, `${VAR}`, `$VAR`,
 * `%VAR%`, `{{ var }}`, `changeme`, `xxxx...`, and the literal words people put in docs.
 */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v === '') return true;
  if (/^[<[{$%]/.test(v)) return true; // <key>, [key], {{key}}, ${VAR}, $VAR, %VAR%
  // (key), (none), (hashed) — but not a long random string that starts with "(" (a Django SECRET_KEY).
  if (v.startsWith('(') && (v.length < 20 || shannonEntropy(v) < 3.5 || /^\([^()]*\s[^()]*\)$/.test(v))) return true; // or a remark: "(in TTN console only)"
  if (/^[*x\u2022.#_-]+$/i.test(v)) return true; // *****, xxxxx, ....., ----
  if (/\*{4,}|\u2022{4,}/.test(v)) return true; // masked in a log (`ghp_****3k9X`)
  if (PLACEHOLDER_WORDS.test(v)) return true;
  // A name in capitals that says what goes there: BASE32SECRET, API_TOKEN_HERE, DB_PASSWORD.
  if (v.length <= 200 && /^[A-Z0-9_-]*(?:SECRET|PASSWORD|PASSWD|TOKEN|API_?KEY|_KEY(?![A-Z0-9]))[A-Z0-9_-]*$/.test(v)) return true;
  // "your password here" in other languages (tu-contraseña-aquí, votre-mot-de-passe, dein-passwort).
  if (/^(?:tu|tua|votre|dein|ihr|sua|seu|twoje|jouw|vostra)[-_ ]|[-_ ](?:aqu[i\u00ed]|ici|hier|qui|aqui|tutaj)$/i.test(v)) return true;
  // The word for a password or a user in other scripts (`mysql://用户名:密码@主机`), a type (`password: str`), a flag (`using password: YES`).
  if (/^(?:\u5bc6\u7801|\u5bc6\u78bc|\u7528\u6237\u540d|\u30d1\u30b9\u30ef\u30fc\u30c9|\ube44\ubc00\ubc88\ud638|\u043f\u0430\u0440\u043e\u043b\u044c|str|int|bool|bytes|number|boolean|secretstr|yes|no)$/i.test(v)) return true;
  if (/^(password|passwd|secret|token|none|null|nil|undefined|true|false|empty|unset|required|optional|string)$/i.test(v)) {
    return true;
  }
  return false;
}

/**
 * The printable ASCII that `t` decodes to as base64 or base64url (`YWRtaW46` is `admin:`), or null
 * when it is no such encoding or decodes to bytes: data shown in a note rather than a key.
 */
export function decodedText(t: string, lineBreaks = false): string | null {
  if (t.length > 8192 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(t) || t.length % 4 === 1 || (/[+/]/.test(t) && /[_-]/.test(t))) return null;
  const d = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
  return (lineBreaks ? /^[\x20-\x7e\t\r\n]+$/ : /^[\x20-\x7e]+$/).test(d) ? d : null;
}

/**
 * Masks a secret, keeping `keep` leading characters (never more than a third of the secret, so a
 * short secret is not half revealed) and a fixed run of asterisks: the length is not revealed either.
 */
export function mask(secret: string, keep = 4): string {
  const shown = Math.max(0, Math.min(keep, Math.floor(secret.length / 3)));
  return `${secret.slice(0, shown)}********`;
}
