// The link graph over every active memory and note: relations and wikilinks (structure.ts)
// resolved to records by title or path, their backlinks, and the links whose target does not
// exist (yet). Derived data: rebuilt from the store's records after any change, on first use;
// each body is parsed once per record object (structureOf), so a rebuild after one change costs
// a walk over the records, not a parse of every body.
//
// A target resolves, first match wins, against: a note's /memories path or its path inside
// /memories (with or without the extension), a record's title (frontmatter `title:`, else the
// first `# heading`), a note's file name without extension, a memory's aliases, a memory id.
// So a link by title survives the note's rename; a link by path follows the path.
import type { Store } from '../store/store.ts';
import type { StoredMemory } from '../types.ts';
import { MEMORIES_ROOT } from '../store/notes.ts';
import { structureOf } from './structure.ts';

export interface Edge {
  from: StoredMemory;
  relation: string;
  target: string;
  to: StoredMemory | null;
}

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
const noExt = (s: string) => s.replace(/\.[A-Za-z0-9]{1,8}$/, '');

/** The title a record is shown and linked by. */
export function titleOf(m: StoredMemory): string {
  const t = structureOf(m).title;
  if (t !== null) return t;
  if (m.note !== undefined) return noExt(m.note.slice(m.note.lastIndexOf('/') + 1));
  const first = m.body.split('\n').find((l) => l.trim() !== '') ?? m.id;
  return first.length > 80 ? `${first.slice(0, 79)}…` : first.trim();
}

export class LinkGraph {
  private dirty = true;
  private byKey = new Map<string, StoredMemory>();
  private out = new Map<string, Edge[]>();
  private inc = new Map<string, Edge[]>();
  private unresolved: Edge[] = [];
  private readonly off: () => void;

  constructor(private readonly store: Store) {
    this.off = store.onChange(() => {
      this.dirty = true;
    });
  }

  close(): void {
    this.off();
  }

  private keysOf(m: StoredMemory): string[] {
    const keys: string[] = [];
    if (m.note !== undefined) {
      const rel = m.note.slice(MEMORIES_ROOT.length + 1);
      keys.push(m.note, rel, noExt(rel));
    }
    const t = structureOf(m).title;
    if (t !== null) keys.push(t);
    if (m.note !== undefined) keys.push(noExt(m.note.slice(m.note.lastIndexOf('/') + 1)));
    for (const a of m.aliases ?? []) keys.push(a);
    keys.push(m.id);
    return keys.map(norm);
  }

  private build(): void {
    if (!this.dirty) return;
    this.dirty = false;
    // Deterministic: notes by path, then memories by id; the first record to claim a key keeps it.
    const all = [...this.store.active()].sort((a, b) => (a.note ?? `~${a.id}`).localeCompare(b.note ?? `~${b.id}`));
    const byKey = new Map<string, StoredMemory>();
    // Strongest keys first across every record (a path beats someone else's title), then the rest.
    const keyed = all.map((m) => this.keysOf(m));
    const longest = Math.max(0, ...keyed.map((k) => k.length));
    for (let i = 0; i < longest; i++) {
      for (let j = 0; j < all.length; j++) {
        const k = keyed[j]![i];
        if (k !== undefined && !byKey.has(k)) byKey.set(k, all[j]!);
      }
    }
    this.byKey = byKey;
    this.out = new Map();
    this.inc = new Map();
    this.unresolved = [];
    for (const m of all) {
      const edges: Edge[] = [];
      for (const l of structureOf(m).links) {
        const to = this.resolve(l.target);
        const e: Edge = { from: m, relation: l.relation, target: l.target, to: to ?? null };
        edges.push(e);
        if (to) {
          const list = this.inc.get(to.id);
          if (list) list.push(e);
          else this.inc.set(to.id, [e]);
        } else this.unresolved.push(e);
      }
      if (edges.length > 0) this.out.set(m.id, edges);
    }
  }

  /** The record a link target names, if any. */
  resolve(target: string): StoredMemory | undefined {
    this.build();
    const t = norm(target);
    const bare = t.startsWith(`${MEMORIES_ROOT}/`) ? t.slice(MEMORIES_ROOT.length + 1) : t;
    return this.byKey.get(t) ?? this.byKey.get(bare) ?? this.byKey.get(noExt(bare));
  }

  outgoing(id: string): Edge[] {
    this.build();
    return this.out.get(id) ?? [];
  }
  backlinks(id: string): Edge[] {
    this.build();
    return this.inc.get(id) ?? [];
  }
  /** Every link whose target resolves to nothing. */
  dangling(): Edge[] {
    this.build();
    return this.unresolved;
  }
}
