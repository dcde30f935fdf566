// Reads a source tree's imports the way TypeScript does (the compiler's own parser, not regexes),
// and judges them against the rooms and the one-way flow of docs/architecture.md. Every form
// counts: static and side-effect imports, `import type`, re-exports, `import x = require()`,
// `import()` with a string or a template without substitutions, `require()`, and `typeof
// import('...')` types. A specifier that cannot be read statically (a template with `${}`, a
// variable) is itself a violation: the check would otherwise be blind to it.
import ts from 'typescript';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface ImportRef {
  /** The specifier as written: './x.ts', 'node:fs', or '<dynamic>' when it is not a literal. */
  spec: string;
  line: number;
}

/** Every module a TypeScript source refers to, in source order. */
export function importsOfSource(fileName: string, text: string): ImportRef[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: ImportRef[] = [];
  const add = (node: ts.Node, arg: ts.Node | undefined) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) out.push({ spec: arg.text, line });
    else out.push({ spec: '<dynamic>', line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || (ts.isExportDeclaration(node) && node.moduleSpecifier)) add(node, node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node, node.moduleReference.expression);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) add(node, node.arguments[0]);
    } else if (ts.isImportTypeNode(node)) {
      const arg = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
      add(node, arg);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

export interface SourceTree {
  /** Paths relative to the source root, '/'-separated. */
  files: string[];
  text(file: string): string;
}

export function diskTree(root: string): SourceTree {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
  return { files: walk(root).map((f) => relative(root, f).split('\\').join('/')), text: (f) => readFileSync(join(root, f), 'utf8') };
}

export function memoryTree(sources: Record<string, string>): SourceTree {
  return { files: Object.keys(sources), text: (f) => sources[f]! };
}

export interface Edge {
  from: string;
  /** Relative to the source root for project modules; the bare specifier for packages and node: modules. */
  to: string;
  line: number;
  local: boolean;
}

export function importGraph(tree: SourceTree): Edge[] {
  const edges: Edge[] = [];
  for (const from of tree.files) {
    for (const r of importsOfSource(from, tree.text(from))) {
      const local = r.spec.startsWith('.');
      const to = local ? relative('/', resolve('/', dirname(from), r.spec)).split('\\').join('/') : r.spec;
      edges.push({ from, to, line: r.line, local });
    }
  }
  return edges;
}

const HELPERS = ['index', 'trust', 'curation', 'io', 'embed', 'notes', 'sync'];
/** Core modules an adapter may name besides the facade: plain values (errors, limits, scope and record types), no machinery. */
const ADAPTER_MAY_IMPORT = /^core\/(cairn|errors|limits|scopes|types)\.ts$/;

type Layer = { rank: number; room: string };
export function layerOf(p: string): Layer {
  if (/^(cli|mcp|ui|lib|boot)\//.test(p) || p === 'main.ts') return { rank: 5, room: p.split('/')[0]! };
  if (p === 'core/cairn.ts') return { rank: 4, room: 'facade' };
  const [, top, rest] = /^core\/([^/]+)(\/.*)?$/.exec(p) ?? [];
  if (top === undefined) throw new Error(`unexpected source path ${p}`);
  if (top === 'ops') return { rank: 3, room: 'ops' };
  if (HELPERS.includes(top)) return { rank: 2, room: top };
  if (top === 'store') return { rank: 1, room: 'store' };
  if (rest === undefined) return { rank: 0, room: 'root' };
  throw new Error(`core/${top}/ is not a known room: add it to the layers in importGraph.ts and to docs/architecture.md`);
}

/** Every edge that breaks the one-way flow, as 'from:line -> to: why'. */
export function layerViolations(edges: readonly Edge[]): string[] {
  const bad: string[] = [];
  for (const e of edges) {
    const at = `${e.from}:${e.line} -> ${e.to}`;
    if (e.to === '<dynamic>') {
      bad.push(`${at}: a module named at run time cannot be checked; name it with a string`);
      continue;
    }
    if (!e.local) continue;
    const a = layerOf(e.from);
    const b = layerOf(e.to);
    if (a.rank === 5) {
      if (b.rank === 5) {
        if (a.room === 'mcp' && b.room !== 'mcp') bad.push(`${at}: mcp imports no other adapter`);
        continue;
      }
      if (!ADAPTER_MAY_IMPORT.test(e.to)) bad.push(`${at}: adapters reach core through core/cairn.ts`);
      continue;
    }
    if (b.rank === 5) bad.push(`${at}: core never imports an adapter`);
    else if (b.rank > a.rank) bad.push(`${at}: imports up the layers (${a.room} -> ${b.room})`);
    else if (b.rank === a.rank && a.room !== b.room && a.rank !== 2) bad.push(`${at}: sideways between ${a.room} and ${b.room}`);
  }
  return bad;
}

/** Import cycles between project modules, each as 'a -> b -> a'. */
export function importCycles(edges: readonly Edge[]): string[] {
  const graph = new Map<string, string[]>();
  for (const e of edges) if (e.local) graph.set(e.from, [...(graph.get(e.from) ?? []), e.to]);
  const state = new Map<string, 1 | 2>();
  const cycles: string[] = [];
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 1);
    stack.push(f);
    for (const to of graph.get(f) ?? []) {
      const s = state.get(to);
      if (s === 1) cycles.push([...stack.slice(stack.indexOf(to)), to].join(' -> '));
      else if (s === undefined && graph.has(to)) visit(to);
    }
    stack.pop();
    state.set(f, 2);
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return cycles;
}

/** Every `new X(...)` of one of `names` in a source, as 'file:line: new X'. */
export function constructionsIn(fileName: string, text: string, names: readonly string[]): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && names.includes(node.expression.text)) {
      out.push(`${fileName}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: new ${node.expression.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}
