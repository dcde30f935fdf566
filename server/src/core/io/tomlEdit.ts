// A targeted edit of one TOML table, for `cairn init --client codex` (~/.codex/config.toml).
// smol-toml parses TOML but cannot write it back with the user's comments and layout, so this
// edits text: inside the `[a.b]` table only the lines of the keys being set are replaced (or
// added right after the header); a file without the table gets it appended. Everything else —
// comments, blank lines, key order, other tables — stays byte for byte. The caller re-parses
// the result and compares it with what it meant (init.ts), so an edit this cannot do safely is
// refused, never written.

export type TomlValue = string | number | boolean | TomlValue[] | { [key: string]: TomlValue };

export class TomlEditError extends Error {
  override name = 'TomlEditError' as const;
}

/** A TOML value as text: strings as basic strings (JSON escapes are valid TOML escapes). */
export function tomlValue(v: TomlValue): string {
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  if (typeof v === 'string') return JSON.stringify(v);
  // An inline table, on one line as TOML 1.0 wants it.
  if (typeof v === 'object') return `{ ${Object.entries(v).map(([k, x]) => `${keyText(k)} = ${tomlValue(x)}`).join(', ')} }`;
  if (typeof v === 'number' && !Number.isFinite(v)) throw new TomlEditError('TOML numbers must be finite');
  return String(v);
}

const BARE = /^[A-Za-z0-9_-]+$/;
const keyText = (k: string) => (BARE.test(k) ? k : JSON.stringify(k));

/** `[a.b]` for a table path (quoted parts where a bare key would not do). */
export function tableHeader(path: string[]): string {
  return `[${path.map(keyText).join('.')}]`;
}

/** One dotted key as written in a header: `a . "b"` -> ['a', 'b'] (null when it is not simple). */
function headerPath(inner: string): string[] | null {
  const parts: string[] = [];
  let i = 0;
  const s = inner.trim();
  while (i < s.length) {
    while (s[i] === ' ' || s[i] === '\t') i++;
    let m: RegExpExecArray | null;
    if ((m = /^[A-Za-z0-9_-]+/.exec(s.slice(i)))) {
      parts.push(m[0]);
      i += m[0].length;
    } else if ((m = /^"((?:[^"\\]|\\.)*)"/.exec(s.slice(i)))) {
      try {
        parts.push(JSON.parse(m[0]) as string);
      } catch {
        return null;
      }
      i += m[0].length;
    } else if ((m = /^'([^']*)'/.exec(s.slice(i)))) {
      parts.push(m[1]!);
      i += m[0].length;
    } else return null;
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (i < s.length) {
      if (s[i] !== '.') return null;
      i++;
    }
  }
  return parts;
}

interface Line {
  start: number;
  /** Offset of the line break ending it (text.length for the last line). */
  end: number;
  text: string;
}

/** Lines that begin a TOML statement (multi-line strings and arrays are skipped as one). */
function statements(text: string): Line[] {
  const out: Line[] = [];
  let i = 0;
  while (i < text.length) {
    const start = i;
    // Scan one logical line: brackets and strings may run over line breaks.
    let depth = 0;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '#') {
        while (i < text.length && text[i] !== '\n') i++;
        if (depth === 0) break;
        continue;
      }
      if (c === '"' || c === "'") {
        const triple = text.startsWith(c.repeat(3), i);
        if (triple) {
          const close = text.indexOf(c.repeat(3), i + 3);
          if (close < 0) throw new TomlEditError('unclosed multi-line string');
          i = close + 3;
          while (text[i] === c) i++; // up to two quotes may close a multi-line string
          continue;
        }
        i++;
        while (i < text.length && text[i] !== c && text[i] !== '\n') i += c === '"' && text[i] === '\\' ? 2 : 1;
        i++;
        continue;
      }
      if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
      else if (c === '\n' && depth <= 0) break;
      i++;
    }
    out.push({ start, end: i, text: text.slice(start, i) });
    i++; // the line break
  }
  return out;
}

const tableOf = (line: string): string[] | null => {
  const m = /^\s*\[(?!\[)(.*)\]\s*(?:#.*)?$/.exec(line.replace(/\r$/, ''));
  return m ? headerPath(m[1]!) : null;
};
const isHeader = (line: string) => /^\s*\[/.test(line);
const keyOf = (line: string): string[] | null => {
  const m = /^\s*((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)\s*=/.exec(line);
  return m ? headerPath(m[1]!) : null;
};

/** Whether the text has a `[header]` for the table at `path`. */
export function hasTomlTable(text: string, path: string[]): boolean {
  return statements(text).some((l) => {
    const p = tableOf(l.text);
    return p !== null && p.length === path.length && p.every((x, k) => x === path[k]);
  });
}

/**
 * The text with the table at `path` holding `values` (keys not named keep their lines). The
 * table is found by its `[header]`; when it is missing it is appended at the end of the file.
 */
export function setTomlTable(text: string, path: string[], values: Record<string, TomlValue>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = statements(text);
  const same = (a: string[] | null) => a !== null && a.length === path.length && a.every((p, k) => p === path[k]);
  const at = lines.findIndex((l) => same(tableOf(l.text)));
  const entries = Object.entries(values);
  if (at < 0) {
    const body = [tableHeader(path), ...entries.map(([k, v]) => `${keyText(k)} = ${tomlValue(v)}`)].join(eol);
    if (text.trim() === '') return `${body}${eol}`;
    // One blank line between the file's last line and the new table.
    const pad = !text.endsWith('\n') ? `${eol}${eol}` : text.endsWith(`${eol}${eol}`) ? '' : eol;
    return `${text}${pad}${body}${eol}`;
  }
  let endIdx = lines.length;
  for (let k = at + 1; k < lines.length; k++) if (isHeader(lines[k]!.text)) { endIdx = k; break; }
  const edits: Array<{ at: number; end: number; text: string }> = [];
  const missing: string[] = [];
  for (const [k, v] of entries) {
    const line = lines.slice(at + 1, endIdx).find((l) => {
      const key = keyOf(l.text);
      return key !== null && key.length === 1 && key[0] === k;
    });
    const stmt = `${keyText(k)} = ${tomlValue(v)}`;
    if (line) {
      // Keep the line's indentation and a trailing comment.
      const indent = /^\s*/.exec(line.text)![0];
      const comment = /(\s+#[^"'\n]*)$/.exec(line.text.replace(/\r$/, ''));
      edits.push({ at: line.start, end: line.end - (line.text.endsWith('\r') ? 1 : 0), text: `${indent}${stmt}${comment ? comment[1] : ''}` });
    } else missing.push(stmt);
  }
  if (missing.length) {
    const header = lines[at]!;
    const insertAt = header.end;
    edits.push({ at: insertAt, end: insertAt, text: missing.map((m) => `${eol}${m}`).join('') });
  }
  return edits.sort((a, b) => b.at - a.at).reduce((t, e) => t.slice(0, e.at) + e.text + t.slice(e.end), text);
}
