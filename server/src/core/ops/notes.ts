// The notes tool group: Anthropic's `memory` tool over the store's notes area (core/notes), the
// link graph around a memory or note (memory_related), backlinks for memory_show, dangling links
// for memory_health, and what memory_remove / memory_restore do when the id is a note's.
import type { ReadContext, RoutedContext, StoreContext, WriteContext } from './context.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { newId } from '../ids.ts';
import { stripStored, summarize } from '../memory.ts';
import type { MemoryRecord, StoredMemory } from '../types.ts';
import { runMemoryCommand, type MemoryCommand, type NotesEnv } from '../notes/commands.ts';
import { resolveMemoryPath } from '../notes/paths.ts';
import { titleOf, type Edge } from '../notes/graph.ts';
import { relationName, structureOf } from '../notes/structure.ts';
import { MEMORIES_ROOT, noteOfTombstone } from '../store/notes.ts';
import { requireActive } from './common.ts';

export type { MemoryCommand } from '../notes/commands.ts';
export const NOTE_DELETE_REASON = 'deleted via memory tool';

function tombstoneOf(c: Pick<WriteContext, 'now' | 'session'>, note: StoredMemory, reason: string): MemoryRecord {
  const rec = stripStored(note);
  const body = note.body.trim() === '' ? `(empty note ${note.note})` : note.body;
  return { ...rec, id: newId(), body, removed: c.now().toISOString(), removed_reason: reason, removed_session: c.session };
}

function notesEnv(c: WriteContext, reason = NOTE_DELETE_REASON): NotesEnv {
  return { store: c.store, maxChars: c.config.behavior.max_body_chars, tombstone: (n) => tombstoneOf(c, n, reason) };
}

/** One memory-tool command; the result text, or a MemoryToolError whose message is the error text. */
export async function memoryTool(c: WriteContext, cmd: MemoryCommand): Promise<string> {
  await c.store.ensureFresh();
  const out = await runMemoryCommand(notesEnv(c), cmd);
  if (cmd.command !== 'view') c.log('memory_tool', { command: cmd.command, path: cmd.command === 'rename' ? [cmd.old_path, cmd.new_path] : cmd.path });
  return out;
}

/** memory_remove of a note: the same tombstone the memory tool's delete makes, with the given reason. */
export async function removeNote(c: WriteContext, note: StoredMemory, reason: string) {
  const [t] = await c.store.removeNotes([note.file], (n) => tombstoneOf(c, n, reason));
  if (!t) throw new NotFoundError(`no memory with id ${note.id}`);
  c.log('remove', { id: t.id, note: note.note, reason });
  return { removed: t.id, tombstone: t.file };
}

/** memory_restore of a deleted note: written back to its path (which must be free), byte for byte. */
export async function restoreNote(c: StoreContext, t: StoredMemory): Promise<StoredMemory | null> {
  const n = noteOfTombstone(t);
  if (n === null) return null;
  const p = resolveMemoryPath(c.store.notesDir, n.path);
  const note = await c.store.restoreNote(t.id, p.abs, n.text);
  c.log('restore', { id: t.id, note: n.path });
  return note;
}

function someBodyLinks(c: Pick<ReadContext, 'store'>): boolean {
  for (const m of c.store.active()) if (m.body.includes('[[')) return true;
  return false;
}

/** Builds the link graph in slices unless it is built (a server's memory_health, before danglingLinks). */
export async function linksReady(c: Pick<ReadContext, 'store' | 'links' | 'linksMade'>, pause: () => Promise<void>, sliceMs: number): Promise<void> {
  if (c.linksMade || someBodyLinks(c)) await c.links.buildSliced(pause, sliceMs);
}

const ref = (m: StoredMemory) => ({ id: m.id, title: titleOf(m), ...(m.note !== undefined ? { kind: 'note' as const, path: m.note } : { kind: 'memory' as const }) });

/** Who links to `m` (memory_show), from the link graph: the cost of `m`'s backlinks, not of the store. */
export function backlinksOf(c: Pick<ReadContext, 'links'>, m: StoredMemory): { id: string; title: string; kind: 'memory' | 'note'; path?: string; relation: string }[] {
  return c.links
    .backlinks(m.id)
    .filter((e) => e.from.id !== m.id)
    .map((e) => ({ ...ref(e.from), relation: e.relation }));
}

export interface RelatedInput {
  id?: string;
  path?: string;
  depth?: number;
  relation_types?: string[];
  with_bodies?: boolean;
}

export async function related(c: RoutedContext, input: RelatedInput) {
  await c.store.ensureFresh();
  const hasId = input.id !== undefined && input.id !== null;
  const hasPath = input.path !== undefined && input.path !== null;
  if (hasId === hasPath) throw new ValidationError('pass exactly one of id (a memory or note id) or path (a /memories path or a title)');
  const depth = input.depth ?? 1;
  if (!Number.isInteger(depth) || depth < 1 || depth > 3) throw new ValidationError(`depth must be 1, 2 or 3, got ${JSON.stringify(input.depth)}`);
  const types = input.relation_types?.map(relationName);
  const g = c.links;
  let root: StoredMemory;
  if (hasId) {
    await c.stores.settle([input.id]);
    root = requireActive(c, input.id);
  } else {
    const p = String(input.path);
    const found = g.resolve(p);
    if (!found) throw new NotFoundError(`nothing is at ${JSON.stringify(p.slice(0, 200))}: pass a /memories path (${MEMORIES_ROOT}/...), a title, or an id`);
    root = found;
  }
  const keep = (e: Edge) => types === undefined || types.includes(e.relation);
  const seen = new Map<string, { m: StoredMemory; depth: number }>([[root.id, { m: root, depth: 0 }]]);
  const edges: { from: string; to: string; relation: string }[] = [];
  const unresolved: { from: string; relation: string; target: string }[] = [];
  const edgeKeys = new Set<string>();
  let frontier = [root];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next: StoredMemory[] = [];
    for (const m of frontier) {
      for (const e of [...g.outgoing(m.id), ...g.backlinks(m.id)].filter(keep)) {
        if (e.to === null) {
          if (e.from.id === m.id) unresolved.push({ from: m.id, relation: e.relation, target: e.target });
          continue;
        }
        const k = `${e.from.id} ${e.relation} ${e.to.id}`;
        if (!edgeKeys.has(k)) {
          edgeKeys.add(k);
          edges.push({ from: e.from.id, to: e.to.id, relation: e.relation });
        }
        const other = e.from.id === m.id ? e.to : e.from;
        if (!seen.has(other.id)) {
          seen.set(other.id, { m: other, depth: d });
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  const node = (m: StoredMemory, d: number) => ({ ...ref(m), depth: d, summary: summarize(m.body), ...(input.with_bodies ? { body: m.body } : {}) });
  const outgoing = g.outgoing(root.id).filter(keep).map((e) => ({ relation: e.relation, target: e.target, ...(e.to ? { id: e.to.id } : {}) }));
  const backlinks = g.backlinks(root.id).filter(keep).map((e) => ({ relation: e.relation, id: e.from.id }));
  c.log('related', { id: root.id, depth, nodes: seen.size });
  return {
    root: node(root, 0),
    outgoing,
    backlinks,
    nodes: [...seen.values()].filter((x) => x.depth > 0).map((x) => node(x.m, x.depth)),
    edges,
    unresolved,
  };
}

/** Links whose target exists nowhere (memory_health), at most `limit`, with the total. */
export function danglingLinks(c: Pick<ReadContext, 'store' | 'links' | 'linksMade'>, limit: number) {
  // Every link is written with `[[` (notes/structure.ts): a store without one has none to check,
  // and no graph to build (a build is ~0.1 s at 20,000 memories).
  if (!c.linksMade && !someBodyLinks(c)) return { count: 0, items: [] };
  const all = c.links.dangling();
  return {
    count: all.length,
    items: all.slice(0, limit).map((e) => ({ from: e.from.id, ...(e.from.note !== undefined ? { path: e.from.note } : {}), relation: e.relation, target: e.target })),
  };
}

/** memory_search's tag and category filters: every tag (AND) and the category, when given. */
export function structureFilter(tags: readonly string[], category: string | null): ((m: StoredMemory) => boolean) | null {
  if (tags.length === 0 && category === null) return null;
  const want = tags.map((t) => t.replace(/^#/, '').toLowerCase());
  const cat = category?.toLowerCase() ?? null;
  return (m) => {
    const s = structureOf(m);
    return want.every((t) => s.tags.includes(t)) && (cat === null || s.categories.includes(cat));
  };
}
