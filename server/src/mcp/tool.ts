// A tool definition: zod input and output schemas (the contract), annotations, and a handler
// over the core facade. The boundary (server.ts) parses input once and turns any throw into an
// isError result; handlers receive typed input and return the structured object.
import { z } from 'zod';
import type { Cairn } from '../core/cairn.ts';

export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  /** Absent for a tool whose result is plain text (the `memory` tool): no structured content. */
  output?: O;
  annotations: Annotations;
  /** Put before an error's message in the isError result (the `memory` tool: "Error: "). */
  errorPrefix?: string;
  /**
   * Returns the structured result (its shape is checked against `output` by the e2e tests: the
   * client validates it), or the text of a text tool.
   */
  run: (c: Cairn, args: z.output<I>) => Promise<O extends z.ZodObject ? object : string>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef;
export function defineTool<I extends z.ZodObject>(def: Omit<ToolDef<I>, 'output' | 'run'> & { run: (c: Cairn, args: z.output<I>) => Promise<string> }): ToolDef;
export function defineTool(def: unknown): ToolDef {
  return def as ToolDef;
}

export const READ_ONLY: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const WRITES: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const IDEMPOTENT_WRITE: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const DESTRUCTIVE: Annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

/** JSON Schema for tools/list: draft-07 (what MCP clients validate with), no $schema key. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  // Outputs may gain fields in later versions: clients must not reject an unknown field.
  if (io === 'output') relax(js);
  return js;
}

function relax(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(relax);
  if (typeof node !== 'object' || node === null) return;
  const o = node as Record<string, unknown>;
  if (o.additionalProperties === false) delete o.additionalProperties;
  for (const v of Object.values(o)) relax(v);
}

/** One clause per bad argument, naming it and what is accepted (the caller knows which tool it called). */
export function describeIssues(tool: { name: string; input: z.ZodObject }, issues: readonly z.core.$ZodIssue[], args: unknown): string {
  const parts = issues.slice(0, 5).map((i) => {
    const where = i.path.length ? i.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[') : '';
    switch (i.code) {
      case 'unrecognized_keys': {
        // Bounded: a call with thousands of made-up keys (or one huge key) must still get one sentence back.
        const shown = i.keys.slice(0, 5).map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}...` : k));
        const more = i.keys.length > 5 ? ` and ${i.keys.length - 5} more` : '';
        const takes = where ? '' : `: it takes ${Object.keys(tool.input.shape).join(', ')}`;
        return `unknown argument${i.keys.length > 1 ? 's' : ''} ${shown.join(', ')}${more}${where ? ` in ${where}` : ''} for ${tool.name}${takes}`;
      }
      case 'invalid_type':
        return `${where || 'arguments'}: expected ${i.expected === 'int' ? 'a whole number' : i.expected}, ${valueAt(args, i.path) === undefined ? 'but it is missing' : `got ${kindOf(valueAt(args, i.path))}`}`;
      case 'too_big':
      case 'too_small': {
        // Same wording as the core's own limit errors: the argument, its size, the limit.
        const v = valueAt(args, i.path);
        const bound = i.code === 'too_big' ? `at most ${i.maximum}` : `at least ${i.minimum}`;
        if (typeof v === 'string') return `${where} is ${v.length} characters: ${bound}`;
        if (Array.isArray(v)) return `${where} has ${v.length} entries: ${bound}`;
        if (typeof v === 'number') return `${where} is ${v}: ${bound}`;
        return `${where || 'arguments'}: ${i.message}`;
      }
      default:
        return `${where || 'arguments'}: ${i.message}`;
    }
  });
  const more = issues.length > 5 ? `; and ${issues.length - 5} more` : '';
  return `${parts.join('; ')}${more}`;
}

function valueAt(v: unknown, path: readonly PropertyKey[]): unknown {
  let cur = v;
  for (const k of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number' && !Number.isInteger(v)) return `the fraction ${v}`;
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * Checks a structured answer against the tool's own output schema. A mismatch is a bug in cairn,
 * not in the call: in production it is reported once per tool on stderr (the answer still goes out,
 * since a client that validates will say so itself and one that does not can still use it); with
 * CAIRN_STRICT_SCHEMAS=1 (set by the test runner) the call fails with the mismatch, so no test can
 * pass over an answer that breaks its contract. Returns the error text in strict mode, else null.
 */
export function checkAnswer(tool: ToolDef, out: object, env: NodeJS.ProcessEnv = process.env, report: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): string | null {
  if (!tool.output) return null;
  const r = tool.output.safeParse(out);
  if (r.success) return null;
  const where = r.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(answer)'}: ${i.message}`)
    .join('; ');
  const text = `${tool.name} answered outside its output schema (${where})`;
  if (env.CAIRN_STRICT_SCHEMAS === '1') return text;
  if (!reported.has(tool.name)) {
    reported.add(tool.name);
    report(`cairn: bug: ${text}; the answer was sent as is. Please report this with the tool call that caused it.`);
  }
  return null;
}
const reported = new Set<string>();
