// Imports point one way (ARCHITECTURE): adapters (cli | mcp | ui) -> core facade -> core/ops ->
// helper folders (index, trust, curation, io, embed, notes, sync) -> store -> core root modules
// (types, errors, ids, config, scopes, origin, memory, limits). Nothing below the facade imports
// it, core never imports an adapter, and helpers never reach up into ops. Type-only imports count
// too: a cycle through types is still a cycle a reader has to untangle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const HELPERS = ['index', 'trust', 'curation', 'io', 'embed', 'notes', 'sync'];
/** What an adapter may import from core besides the facade: values and formats, no machinery. */
const ADAPTER_MAY_IMPORT = [/^core\/(cairn|errors|limits|scopes|types)\.ts$/, /^core\/io\//, /^core\/curation\/(doctor|health)\.ts$/, /^core\/notes\/api\.ts$/];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*'(\.[^']+)'/g)) out.push(m[1]!);
  for (const m of src.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g)) out.push(m[1]!);
  return out.map((s) => relative(SRC, resolve(dirname(file), s)).split('\\').join('/'));
}

type Layer = { rank: number; room: string };
function layerOf(p: string): Layer {
  if (/^(cli|mcp|ui|lib|boot)\//.test(p) || p === 'main.ts') return { rank: 5, room: p.split('/')[0]! };
  if (p === 'core/cairn.ts') return { rank: 4, room: 'facade' };
  const [, top, rest] = /^core\/([^/]+)(\/.*)?$/.exec(p) ?? [];
  if (top === undefined) throw new Error(`unexpected source path ${p}`);
  if (top === 'ops') return { rank: 3, room: 'ops' };
  if (HELPERS.includes(top)) return { rank: 2, room: top };
  if (top === 'store') return { rank: 1, room: 'store' };
  if (rest === undefined) return { rank: 0, room: 'root' };
  throw new Error(`core/${top}/ is not a known room: add it to the layers in this test and to ARCHITECTURE`);
}

const files = walk(SRC).map((f) => relative(SRC, f).split('\\').join('/'));
const graph = new Map(files.map((f) => [f, importsOf(join(SRC, f))]));

test('every import points down the layers, and adapters use only the facade and plain values', () => {
  const bad: string[] = [];
  for (const [from, tos] of graph) {
    const a = layerOf(from);
    for (const to of tos) {
      const b = layerOf(to);
      if (a.rank === 5) {
        if (b.rank === 5) {
          if (a.room === 'mcp' && b.room !== 'mcp') bad.push(`${from} -> ${to}: mcp imports no other adapter`);
          continue;
        }
        if (!ADAPTER_MAY_IMPORT.some((re) => re.test(to))) bad.push(`${from} -> ${to}: adapters go through core/cairn.ts`);
        continue;
      }
      if (b.rank === 5) bad.push(`${from} -> ${to}: core never imports an adapter`);
      else if (b.rank > a.rank) bad.push(`${from} -> ${to}: imports up the layers (${a.room} -> ${b.room})`);
      else if (b.rank === a.rank && a.room !== b.room && a.rank !== 2) bad.push(`${from} -> ${to}: sideways between ${a.room} and ${b.room}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('no import cycles between modules', () => {
  const state = new Map<string, 0 | 1 | 2>();
  const cycles: string[] = [];
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 1);
    stack.push(f);
    for (const to of graph.get(f) ?? []) {
      const s = state.get(to) ?? 0;
      if (s === 1) cycles.push([...stack.slice(stack.indexOf(to)), to].join(' -> '));
      else if (s === 0 && graph.has(to)) visit(to);
    }
    stack.pop();
    state.set(f, 2);
  };
  for (const f of files) if (!state.get(f)) visit(f);
  assert.deepEqual(cycles, []);
});

test('the layer test sees the real tree (it would pass vacuously on an empty one)', () => {
  assert.ok(files.includes('core/cairn.ts') && files.some((f) => f.startsWith('core/ops/')) && files.some((f) => f.startsWith('mcp/')));
  assert.ok([...graph.values()].flat().length > 100);
});

// Issue 12's rooms: the store and the ranking loop each read in one sitting. A file that grows past
// this is split by what its parts hold (store.ts into its floors: table, reading, writing, merges).
const ROOM_FILES_UNDER_400_LINES = ['core/store/store.ts', 'core/store/table.ts', 'core/store/reading.ts', 'core/store/writing.ts', 'core/index/maxscore.ts'];
test('the store and the ranking loop stay under 400 lines a file', () => {
  for (const f of ROOM_FILES_UNDER_400_LINES) {
    const lines = readFileSync(join(SRC, f), 'utf8').split('\n').length;
    assert.ok(lines < 400, `${f} has ${lines} lines: split it by what its parts hold`);
  }
});
