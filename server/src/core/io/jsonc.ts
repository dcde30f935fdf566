// JSON with comments (JSONC), as VS Code's mcp.json and many Claude Desktop configs are written:
// `//` and `/* */` comments and trailing commas. Read and edited with jsonc-parser (VS Code's own
// parser): setJsonc() changes one value through modify() + applyEdits(), so comments, key order,
// line endings and every other entry stay as they are, byte for byte; the new text takes the
// file's own indentation wherever that touches nothing else.
import { applyEdits, findNodeAtLocation, modify, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

export class JsoncError extends Error {
  override name = 'JsoncError' as const;
}

const MESSAGES: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'bad number',
  PropertyNameExpected: 'expected a "key"',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "," or "}"',
  CloseBracketExpected: 'expected "," or "]"',
  EndOfFileExpected: 'unexpected text after the end of the document',
  InvalidCommentToken: 'bad comment',
  UnexpectedEndOfComment: 'unclosed /* comment',
  UnexpectedEndOfString: 'unclosed string',
  UnexpectedEndOfNumber: 'bad number',
  InvalidUnicode: 'bad \\u escape in string',
  InvalidEscapeCharacter: 'bad escape in string',
  InvalidCharacter: 'line break or control character inside a string',
};

function where(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line} column ${offset - before.lastIndexOf('\n')}`;
}

/** A byte-order mark read as a space: same offsets, and jsonc-parser does not skip one. */
const noBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text);

function tree(text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(noBom(text), errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  const first = errors[0];
  if (first) {
    const code = printParseErrorCode(first.error);
    throw new JsoncError(`${MESSAGES[code] ?? code} at ${where(text, first.offset)}`);
  }
  if (!root) throw new JsoncError('the file holds no JSON value');
  return root;
}

/** The plain value of a tree (a duplicated key: the last wins, as in JSON.parse; `__proto__` is an own key). */
function valueOf(n: Node): JsonValue {
  if (n.type === 'array') return (n.children ?? []).map(valueOf);
  if (n.type === 'object') {
    const out: { [k: string]: JsonValue } = {};
    for (const p of n.children ?? []) {
      const [k, v] = p.children ?? [];
      if (!k || !v) continue;
      Object.defineProperty(out, String(k.value), { value: valueOf(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return n.value as JsonValue;
}

/** Parses JSONC into plain values. Throws JsoncError naming what was wrong and the line and column. */
export function parseJsonc(text: string): JsonValue {
  return valueOf(tree(text));
}

/** Where the member at `path` is (its key through its value), or null when there is none. */
export function memberSpan(text: string, path: readonly string[]): { start: number; end: number } | null {
  const prop = findNodeAtLocation(tree(text), [...path])?.parent;
  return prop && prop.type === 'property' ? { start: prop.offset, end: prop.offset + prop.length } : null;
}

/** Formatting read from the file: its indent unit and line ending. */
function styleOf(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const m = /\n([ \t]+)["{[\]}]/.exec(text);
  const unit = m ? m[1]! : '  ';
  return { insertSpaces: !unit.startsWith('\t'), tabSize: unit.startsWith('\t') ? 1 : unit.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/**
 * True when `after` differs from `before` only inside the member at `path`: with the member
 * already in `before`, everything before and after it is the same; with a new member, `after` is
 * `before` with one stretch inserted, inside the member widened over the whitespace and the comma
 * next to it.
 */
export function changedOnlyAt(before: string, after: string, path: readonly string[]): boolean {
  if (before === after) return true;
  const now = memberSpan(after, path);
  if (!now) return false;
  const was = memberSpan(before, path);
  if (was) return before.slice(0, was.start) === after.slice(0, now.start) && before.slice(was.end) === after.slice(now.end);
  const d = after.length - before.length;
  if (d <= 0) return false;
  const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  let lo = now.start;
  while (lo > 0 && isSpace(after[lo - 1])) lo--;
  if (after[lo - 1] === ',') lo--;
  let hi = now.end;
  while (hi < after.length && isSpace(after[hi])) hi++;
  if (after[hi] === ',') hi++;
  while (hi < after.length && isSpace(after[hi])) hi++;
  // An insertion at `a` exists when the first `a` characters and the last `before.length - a` agree.
  let p = 0;
  while (p < before.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  return Math.max(lo, before.length - s) <= Math.min(p, hi - d);
}

/**
 * The text with the value at `path` set (the member added when missing), in the file's own
 * indentation when that leaves everything outside the member as it was. jsonc-parser formats the
 * whole lines around an insertion, so a new member is tried last in its object, then first
 * (where the only line touched is the one that opens the object); when both would reformat a
 * neighbour (a one-line object), it goes in last, unformatted, on the same line.
 */
export function setJsonc(text: string, path: readonly string[], value: JsonValue): string {
  if (text.charCodeAt(0) === 0xfeff) return `\ufeff${setJsonc(text.slice(1), path, value)}`;
  tree(text); // refuse a file that does not parse before editing it
  const formattingOptions = styleOf(text);
  for (const opts of [{ formattingOptions }, { formattingOptions, getInsertionIndex: () => 0 }]) {
    const out = applyEdits(text, modify(text, [...path], value, opts));
    if (changedOnlyAt(text, out, path)) return out;
  }
  const edits = modify(text, [...path], value, {});
  return applyEdits(text, edits.map((e) => ({ ...e, content: e.content.replace(JSON.stringify(value), () => compact(value)).replace(/^,(?=")/, ', ') })));
}

/** One-line JSON with a space after each comma and colon, like `{"a": [1, 2]}`. */
function compact(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.map(compact).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${compact(x)}`).join(', ')}}`;
  return JSON.stringify(v);
}
