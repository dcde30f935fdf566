// YAML for client config files (Continue's block files) and for import sources' frontmatter.
//
// Reading goes through gray-matter's YAML engine (js-yaml's safe schema), the same reader that
// parses every memory's frontmatter, so a value means the same thing wherever cairn reads it;
// the safe schema has no custom tags, so nothing in a file can construct functions or run code.
//
// Writing uses the maintained `yaml` package in the style js-yaml wrote, so a file cairn rewrites
// keeps its look: block style, two-space indentation, sequences indented under their key, a date
// as its full ISO time, and a string quoted (single quotes) wherever js-yaml quoted it: when it
// holds `:` `#` `,` or a bracket, starts with an indicator (`-` `?` `&` `*` `!` `|` `>` `'` `"`
// `%` `@` a backquote) or a space, or ends with one. YAML 1.1 rules add quotes around anything a
// YAML 1.1 reader would take for another type (`yes`, `no`, `on`, `0123`, `1:20`, `null`, `~`),
// so js-yaml, and any other reader, reads back the string that was written. Long strings are
// not folded (js-yaml folded them at 80 columns with `>-`; one line reads back the same).
import matter from 'gray-matter';
import { Scalar, stringify, type Tags } from 'yaml';

interface YamlEngine {
  parse: (text: string) => unknown;
}

const engine = (matter as unknown as { engines: { yaml: YamlEngine } }).engines.yaml;

export function yamlLoad(text: string): unknown {
  return engine.parse(text);
}

const UNSAFE = new Set([...',[]{}:#'].map((c) => c.charCodeAt(0)));
const UNSAFE_FIRST = new Set([...'-?:,[]{}#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)));
const isSpace = (c: number) => c === 32 || c === 9;

/** True when js-yaml wrote this one-line, printable string in single quotes. */
function jsYamlQuoted(s: string): boolean {
  if (s.length === 0) return false; // '' is quoted by the YAML rules anyway
  if (s === '<<' || s === '=') return true; // YAML 1.1's merge key and value indicator
  const first = s.charCodeAt(0);
  if (UNSAFE_FIRST.has(first) || isSpace(first) || isSpace(s.charCodeAt(s.length - 1))) return true;
  for (let i = 0; i < s.length; i++) if (UNSAFE.has(s.charCodeAt(i))) return true;
  return false;
}

/** Printable on one line: no line break, no control character, no BOM. */
const oneLinePrintable = (s: string) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(s);

function quoted(v: string, type: Scalar.Type): Scalar {
  const node = new Scalar(v);
  node.type = type;
  return node;
}

function styled(v: unknown): unknown {
  if (typeof v === 'string') {
    if (oneLinePrintable(v)) return jsYamlQuoted(v) ? quoted(v, Scalar.QUOTE_SINGLE) : v;
    // A control character, a BOM or a line separator on one line: escaped in double quotes.
    return v.includes('\n') ? v : quoted(v, Scalar.QUOTE_DOUBLE);
  }
  if (Array.isArray(v)) return v.map(styled);
  if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: styled(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

/**
 * YAML 1.1's tags as js-yaml wrote them: a timestamp as the full ISO time (the default drops
 * `.000Z`), and no merge tag (it would write the string `<<` bare).
 */
const jsYamlTags = (tags: Tags): Tags =>
  tags
    .filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:merge')
    .map((t) => (typeof t !== 'string' && t.tag === 'tag:yaml.org,2002:timestamp' ? { ...t, stringify: (item: { value: unknown }) => (item.value as Date).toISOString() } : t)) as Tags;

export function yamlDump(value: unknown): string {
  return stringify(styled(value), { version: '1.1', customTags: jsYamlTags, indent: 2, indentSeq: true, lineWidth: 0, minContentWidth: 0, singleQuote: true, aliasDuplicateObjects: false, merge: false });
}
