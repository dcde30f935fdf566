// JSON with comments (JSONC), as VS Code's mcp.json and many Claude Desktop configs are written:
// `//` and `/* */` comments and trailing commas. A parser that keeps every value's offsets, and
// one edit, setMember(), that changes only the text of the member it sets. Everything else in
// the file (comments, indentation, key order, line endings, other servers) stays byte for byte.
// Small on purpose: cairn edits exactly one entry of one file; no dependency is needed for that.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

export interface Member {
  key: string;
  /** Offset of the key's opening quote. */
  keyStart: number;
  value: Node;
  /** Offset just past the comma that follows the member, or -1 when none does. */
  commaEnd: number;
}
export type Node =
  | { kind: 'object'; start: number; end: number; members: Member[] }
  | { kind: 'array'; start: number; end: number; items: Node[] }
  | { kind: 'scalar'; start: number; end: number; value: null | boolean | number | string };

export class JsoncError extends Error {
  override name = 'JsoncError' as const;
}

/** Parses JSONC into a tree with offsets (`end` is exclusive). Throws JsoncError with line:column. */
export function parseJsonc(text: string): Node {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (what: string): never => {
    const before = text.slice(0, i);
    const line = before.split('\n').length;
    const col = i - before.lastIndexOf('\n');
    throw new JsoncError(`${what} at line ${line} column ${col}`);
  };
  const skip = () => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (c === '/' && text[i + 1] === '/') {
        while (i < text.length && text[i] !== '\n') i++;
      } else if (c === '/' && text[i + 1] === '*') {
        const close = text.indexOf('*/', i + 2);
        if (close < 0) fail('unclosed /* comment');
        i = close + 2;
      } else return;
    }
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text[i] === '\n') fail('line break inside a string');
      i++;
    }
    if (i >= text.length) fail('unclosed string');
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      i = start;
      return fail('bad escape in string');
    }
  };
  const value = (): Node => {
    skip();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members: Member[] = [];
      for (;;) {
        skip();
        if (text[i] === '}') break;
        if (text[i] !== '"') fail(members.length ? 'expected "," or "}"' : 'expected a "key" or "}"');
        const keyStart = i;
        const key = str();
        skip();
        if (text[i] !== ':') fail(`expected ":" after "${key}"`);
        i++;
        const v = value();
        skip();
        const m: Member = { key, keyStart, value: v, commaEnd: -1 };
        members.push(m);
        if (text[i] === ',') m.commaEnd = ++i;
        else if (text[i] !== '}') fail('expected "," or "}"');
      }
      i++;
      return { kind: 'object', start, end: i, members };
    }
    if (c === '[') {
      i++;
      const items: Node[] = [];
      for (;;) {
        skip();
        if (text[i] === ']') break;
        items.push(value());
        skip();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('expected "," or "]"');
      }
      i++;
      return { kind: 'array', start, end: i, items };
    }
    if (c === '"') {
      const v = str(); // advances i past the closing quote
      return { kind: 'scalar', start, end: i, value: v };
    }
    const lit = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!lit) return fail(i >= text.length ? 'unexpected end of file' : `unexpected ${JSON.stringify(c)}`);
    i += lit[0].length;
    return { kind: 'scalar', start, end: i, value: JSON.parse(lit[0]) as null | boolean | number };
  };
  const root = value();
  skip();
  if (i < text.length) fail('unexpected text after the end of the document');
  return root;
}

/** The plain value of a node (for a duplicated key the last one wins, as in JSON.parse). */
export function toValue(n: Node): JsonValue {
  if (n.kind === 'scalar') return n.value;
  if (n.kind === 'array') return n.items.map(toValue);
  const out: { [k: string]: JsonValue } = {};
  for (const m of n.members) {
    if (m.key === '__proto__') Object.defineProperty(out, m.key, { value: toValue(m.value), enumerable: true, writable: true, configurable: true });
    else out[m.key] = toValue(m.value);
  }
  return out;
}

/** The last member with this key (the one JSON.parse would keep). */
export function memberOf(obj: Node, key: string): Member | undefined {
  if (obj.kind !== 'object') return undefined;
  for (let k = obj.members.length - 1; k >= 0; k--) if (obj.members[k]!.key === key) return obj.members[k];
  return undefined;
}

/** Formatting read from the file: its indent unit and line ending. */
export interface Style {
  unit: string;
  eol: string;
}
export function styleOf(text: string): Style {
  const m = /\n([ \t]+)["{[\]}]/.exec(text);
  return { unit: m ? m[1]! : '  ', eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

const lineStart = (text: string, at: number) => text.lastIndexOf('\n', at - 1) + 1;
const indentAt = (text: string, at: number) => /^[ \t]*/.exec(text.slice(lineStart(text, at), at))![0];

/** One-line JSON with a space after each comma and colon, like `{"a": [1, 2]}`. */
function compact(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.map(compact).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${compact(x)}`).join(', ')}}`;
  return JSON.stringify(v);
}

/** `value` as JSON text whose continuation lines start with `indent`. */
function render(value: JsonValue, indent: string, style: Style, multiline: boolean): string {
  if (!multiline) return compact(value);
  return JSON.stringify(value, null, style.unit).split('\n').join(style.eol + indent);
}

type Edit = { at: number; end: number; text: string };
const apply = (text: string, edits: Edit[]) => [...edits].sort((a, b) => b.at - a.at).reduce((t, e) => t.slice(0, e.at) + e.text + t.slice(e.end), text);

/**
 * The text with `obj[key] = value`: the member's value text is replaced when the key exists,
 * otherwise one member is appended to the object in the object's own layout (one member per
 * line, or all on one line), after any comments that close it, keeping a trailing comma style.
 */
export function setMember(text: string, obj: Node, key: string, value: JsonValue, style: Style = styleOf(text)): string {
  if (obj.kind !== 'object') throw new JsoncError('setMember needs an object');
  const cur = memberOf(obj, key);
  if (cur) {
    // A value written on one line (`"args": ["x"]`) stays on one line.
    const multiline = text.slice(cur.value.start, cur.value.end).includes('\n');
    return apply(text, [{ at: cur.value.start, end: cur.value.end, text: render(value, indentAt(text, cur.keyStart), style, multiline) }]);
  }
  const close = obj.end - 1;
  const last = obj.members[obj.members.length - 1];
  const inner = text.slice(obj.start + 1, close);
  if (!last) {
    const outer = indentAt(text, obj.start);
    const child = outer + style.unit;
    const member = `${JSON.stringify(key)}: ${render(value, child, style, true)}`;
    // An empty object opens up into one member per line; comments inside it stay before it.
    if (inner.trim() === '') return apply(text, [{ at: obj.start + 1, end: close, text: `${style.eol}${child}${member}${style.eol}${outer}` }]);
    const at = lineStart(text, close);
    const closeOnOwnLine = text.slice(at, close).trim() === '';
    return apply(text, [{ at: closeOnOwnLine ? at : close, end: close, text: `${closeOnOwnLine ? '' : style.eol}${child}${member}${style.eol}${closeOnOwnLine ? text.slice(at, close) : outer}` }]);
  }
  const multiline = text.slice(obj.start, obj.members[0]!.keyStart).includes('\n');
  const trailing = last.commaEnd >= 0;
  // A comma goes right after the last value (before any comment that follows it on its line).
  const comma: Edit[] = trailing ? [] : [{ at: last.value.end, end: last.value.end, text: ',' }];
  const after = trailing ? last.commaEnd : last.value.end;
  if (!multiline) {
    const member = ` ${JSON.stringify(key)}: ${render(value, '', style, false)}${trailing ? ',' : ''}`;
    return apply(text, [{ at: after, end: after, text: (trailing ? '' : ',') + member }]);
  }
  const child = indentAt(text, last.keyStart);
  const member = `${child}${JSON.stringify(key)}: ${render(value, child, style, true)}${trailing ? ',' : ''}`;
  const closeLine = lineStart(text, close);
  if (text.slice(closeLine, close).trim() === '' && closeLine > last.value.end) {
    // Before the line holding the closing brace: after the last member and any comments below it.
    return apply(text, [...comma, { at: closeLine, end: closeLine, text: member + style.eol }]);
  }
  // The brace shares a line with the last member (`"a": 1 }`): the new member goes on its own line.
  return apply(text, [{ at: after, end: after, text: (trailing ? '' : ',') + style.eol + member }]);
}
