// Credentials laid out as data rather than written as a sentence: a table with a column headed by
// a credential word (markdown `| user | password |`, CSV, TSV), and a name/value pair whose name
// is a credential (a Kubernetes or ECS environment entry: `- name: DB_PASSWORD` then
// `value: ...`). The value is judged as if it had been written `password: value`.
import { mask } from './entropy.ts';
import { isResourceName, shapesOf, type Value } from './credentialValues.ts';
import { linesOf } from './findings.ts';
import { acceptValue, keyClassOf, type KeyClass, type Policy, type StatedCredential } from './statedCredentials.ts';

interface Cell {
  text: string;
  start: number;
}

/** The cells of a table row: split on `|`, a tab, or a comma; null when the line is no row. */
function cellsOf(line: string, start: number, delimiter: string): Cell[] | null {
  if (!line.includes(delimiter)) return null;
  const out: Cell[] = [];
  let at = 0;
  const body = delimiter === '|' ? line.replace(/^\s*\|/, (m) => ' '.repeat(m.length)) : line;
  for (const part of body.split(delimiter)) {
    const lead = part.length - part.trimStart().length;
    out.push({ text: part.trim(), start: start + at + lead });
    at += part.length + 1;
  }
  if (delimiter === '|' && out.length > 0 && out[out.length - 1]!.text === '') out.pop();
  return out.length >= 2 ? out : null;
}

/** A column header: a label of up to three words, not a sentence. */
const HEADER_CELL = /^[\p{L}\d_./-]+(?: [\p{L}\d_./-]+){0,2}$/u;

const INVENTORY_COLUMN = /^(?:where|location|stored(?: in)?|kept in|lives in|vault(?: path)?|source of truth)$/i;
const PLACE_COLUMN = /^(?:rooms?|doors?|gates?|locks?|lockers?|safes?|entrances?|buildings?|offices?|sites?|areas?|cabinets?|storage|floors?|sheds?|garages?|raum|t\u00fcr|salle|porte|sala|puerta)$/i;
const CODE_COLUMN = /^(?:codes?|pin|combination|combo|keypad|code d'acc\u00e8s|c\u00f3digo|codice)$/i;

/** Rows under a header whose column names a credential. */
function tables(text: string, policy: Policy): StatedCredential[] {
  const out: StatedCredential[] = [];
  let header: { delimiter: string; columns: { index: number; cls: KeyClass; name: string }[] } | null = null;
  let pairs: { delimiter: string; nameAt: number; valueAt: number } | null = null;
  for (const line of linesOf(text)) {
    if (pairs) {
      const row = cellsOf(line.text, line.start, pairs.delimiter);
      if (!row) {
        pairs = null;
      } else {
        const name = row[pairs.nameAt]?.text ?? '';
        const cell = row[pairs.valueAt];
        const cls = keyClassOf(name);
        if (cls && cell && cell.text !== '') {
          const value = cell.text.replace(/^[`"']|[`"']$/g, '');
          const at = cell.start + cell.text.indexOf(value);
          const v: Value = { text: value, start: at, end: at + value.length, quoted: true, clauseEnd: true, words: value.split(/\s+/).length };
          if (acceptValue(cls, ':', v, policy, name)) out.push({ keyClass: cls, key: name, sep: ':', op: '|', snippet: `${name}: ${mask(value, 1)}`, start: v.start, end: v.end });
        }
        continue;
      }
    }
    if (header) {
      const row = cellsOf(line.text, line.start, header.delimiter);
      if (!row) {
        header = null;
      } else if (!/^[\s|:-]+$/.test(line.text)) {
        for (const col of header.columns) {
          const cell = row[col.index];
          if (!cell) continue;
          const value = cell.text.replace(/^[`"']|[`"']$/g, '');
          if (value === '') continue;
          const at = cell.start + cell.text.indexOf(value);
          const v: Value = { text: value, start: at, end: at + value.length, quoted: true, clauseEnd: true, words: value.split(/\s+/).length };
          if (!acceptValue(col.cls, ':', v, policy, col.name)) continue;
          out.push({ keyClass: col.cls, key: col.name, sep: ':', op: '|', snippet: `${col.name} column: ${mask(value, 1)}`, start: v.start, end: v.end });
        }
        continue;
      }
    }
    for (const delimiter of ['|', '\t', ',']) {
      if (line.text.split(delimiter, 41).length > 40) continue; // a header of a few columns, not a line split into thousands
      const cells = cellsOf(line.text, line.start, delimiter);
      // A CSV or TSV header is labels only; a markdown header may hold other words.
      if (!cells || (delimiter !== '|' && !cells.every((c) => HEADER_CELL.test(c.text) && c.text.length <= 30))) continue;
      // An inventory of where secrets are kept (`| Secret | Where |`) names them; it holds none.
      if (cells.some((c) => INVENTORY_COLUMN.test(c.text))) continue;
      // `| name | value |`: each row's name says what its value is.
      const nameAt = cells.findIndex((c) => /^(?:name|key|variable|var|setting|env|secret)$/i.test(c.text));
      const valueAt = cells.findIndex((c) => /^(?:value|wert|valeur|valor|waarde|warto\u015b\u0107)$/i.test(c.text));
      if (nameAt !== -1 && valueAt !== -1) {
        pairs = { delimiter, nameAt, valueAt };
        break;
      }
      // "Code" alone heads exit codes as often as door codes: a code when another column names what it opens.
      const opens = cells.some((c) => PLACE_COLUMN.test(c.text));
      const columns = cells.flatMap((c, index) => {
        // The credential word ends the label ("Password", "DB password"); "credentials refused" heads a count.
        const last = c.text.split(/\s+/).pop() ?? '';
        const cls = HEADER_CELL.test(c.text) && c.text.length <= 30 && keyClassOf(last) ? keyClassOf(c.text) : opens && CODE_COLUMN.test(c.text) ? 'code' : null;
        return cls ? [{ index, cls, name: c.text }] : [];
      });
      if (columns.length > 0) {
        header = { delimiter, columns };
        break;
      }
    }
  }
  return out;
}

const NAME_FIELD = /\b(?:name["']?[ \t]*[:=][ \t]*|variable[ \t]+)["']?([A-Za-z][A-Za-z0-9_.-]{1,80})["']?/g;
const VALUE_FIELD = /\b(?:value|default)["']?[ \t]*[:=][ \t]*(["']?)([^\s"'`,}]{1,200})\1/y;

/** `name: DB_PASSWORD` followed (on its line or within the next two) by `value: ...`. */
function nameValuePairs(text: string, policy: Policy): StatedCredential[] {
  const out: StatedCredential[] = [];
  for (const m of text.matchAll(NAME_FIELD)) {
    const cls = keyClassOf(m[1]!);
    if (!cls) continue;
    const after = m.index + m[0].length;
    const window = text.slice(after, after + 200);
    const lines = window.split('\n').slice(0, 3).join('\n');
    const at = lines.search(/\b(?:value|default)["']?[ \t]*[:=]/); // a Terraform `variable` block's `default`
    if (at === -1) continue;
    VALUE_FIELD.lastIndex = after + at;
    const f = VALUE_FIELD.exec(text);
    if (!f) continue;
    const value = f[2]!;
    const start = f.index + f[0].length - value.length - f[1]!.length;
    const v: Value = { text: value, start, end: start + value.length, quoted: f[1] !== '', clauseEnd: true, words: 1 };
    if (!acceptValue(cls, ':', v, policy, m[1]!)) continue;
    out.push({ keyClass: cls, key: m[1]!, sep: ':', op: 'value:', snippet: `name: ${m[1]} ... value: ${mask(value, 1)}`, start: v.start, end: v.end });
  }
  return out;
}

/** A cell naming an account: a default or service account (`admin`, `svc-jira`, `orders_ro`, `dbadmin`). */
const ACCOUNT_CELL = /^(?:[a-z][\w.-]*admin|admin[\w.-]*|root|svc[-_.][\w.-]+|[\w-]+_(?:ro|rw|user|svc)|deploy|ops|ci|sa|postgres|elastic)$/i;
/** A label cell speaking of a login: "creds for the staging UI", "wifi", "VPN login". */
const LOGIN_CELL = /\b(?:creds?|credentials?|login|logon|sign-?in|account|user(?:name)?|wifi|wi-fi|wlan|ssid|vpn)\b/i;

/**
 * A password in a row's last cell: a token, or 8+ letters and digits with a symbol other than
 * those of names and versions (`ubuntu-22.04`, `build-42`) or a case change; after a credential
 * word in the team store, also letters and digits alone (`pumpkinseed42`).
 */
function cellPassword(v: string, loose: boolean): boolean {
  if (v.length < 8 || /[\s/]/.test(v) || /^[#@]/.test(v) || isResourceName(v)) return false;
  if (!shapesOf(v) || !/\p{L}/u.test(v) || !/\d/.test(v) || /\d\.\d/.test(v)) return false; // a version, an image tag
  if (v.length >= 16 && /[A-Z]/.test(v) && /[a-z]/.test(v)) return true; // a token
  return /[^\p{L}\d_.+-]/u.test(v) || (/\p{Lu}/u.test(v) && /\p{Ll}/u.test(v) && /-|_/.test(v)) || (loose && /^[\p{L}\d]+$/u.test(v));
}

/**
 * A row of tab- or `|`-separated cells without a header, one of which names a credential or an
 * account ("creds for the staging UI<TAB>ops<TAB>X"): a later cell holding a password's shape is one.
 */
function labelledRows(text: string, policy: Policy, taken: Set<number>): StatedCredential[] {
  const out: StatedCredential[] = [];
  for (const line of linesOf(text)) {
    const delimiter = line.text.includes('\t') ? '\t' : / \| /.test(line.text) ? '|' : null;
    if (!delimiter) continue;
    // A row of a few cells (a label, a user, a password...): a line split into thousands is no such row.
    if (line.text.split(delimiter, 13).length > 12) continue;
    const cells = cellsOf(line.text, line.start, delimiter);
    if (!cells || cells.length < 3) continue;
    const label = cells.findIndex((c) => LOGIN_CELL.test(c.text) || keyClassOf(c.text) !== null);
    const account = cells.findIndex((c) => ACCOUNT_CELL.test(c.text));
    const from = label === -1 ? account : account === -1 ? label : Math.min(label, account);
    if (from === -1) continue;
    // The password ends the row ("label, user, password"); a later cell of prose is a note, not it.
    const cell = cells[cells.length - 1]!;
    if (cells.length - 1 <= from || taken.has(cell.start) || !cellPassword(cell.text, label !== -1 && policy === 'team')) continue;
    out.push({ keyClass: 'pw', key: cells[from]!.text, sep: ':', op: delimiter, snippet: `${cells[from]!.text.slice(0, 40)} ${delimiter === '\t' ? '<TAB>' : '|'} ... ${mask(cell.text, 1)}`, start: cell.start, end: cell.start + cell.text.length });
  }
  return out;
}

/** Credentials in tables, labelled rows and name/value pairs, under the store's policy. */
export function detectStructuredCredentials(text: string, policy: Policy): StatedCredential[] {
  const found = [...tables(text, policy), ...nameValuePairs(text, policy)];
  return [...found, ...labelledRows(text, policy, new Set(found.map((f) => f.start)))];
}
