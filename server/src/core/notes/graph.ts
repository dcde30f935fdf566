// The link graph over every active memory and note: relations and wikilinks (structure.ts)
// resolved to records by title or path, their backlinks, and the links whose target does not
// exist (yet). Derived data: built from the store's records on first use, then kept up to date
// from the store's change feed (store.onChange): a change re-links the changed record and
// re-resolves only the links whose target keys it claimed or gave up, so reads (backlinks of one
// record, outgoing links) cost the links involved, never a walk over the store.
//
// A target resolves, first match wins, against: a note's /memories path or its path inside
// /memories (with or without the extension), a record's title (frontmatter `title:`, else the
// first `# heading`), a note's file name without extension, a memory's aliases, a memory id.
// So a link by title survives the note's rename; a link by path follows the path. When two
// records claim one key, the stronger kind of key wins (a path beats someone else's title), then
// the record that sorts first (notes by path, then memories by id).
import type { Store, StoreChange } from '../store/store.ts';
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

/** One link as the graph keeps it: ids, so a record's new version needs no edge rewrite. */
interface LinkEdge {
  from: string;
  /** Position in the source's links (body order). */
  pos: number;
  relation: string;
  target: string;
  /** The keys the target is looked up by, in order. */
  keys: string[];
  to: string | null;
}

const sortKey = (m: StoredMemory) => m.note ?? `~${m.id}`;

function targetKeys(target: string): string[] {
  const t = norm(target);
  const bare = t.startsWith(`${MEMORIES_ROOT}/`) ? t.slice(MEMORIES_ROOT.length + 1) : t;
  return [...new Set([t, bare, noExt(bare)])];
}

export class LinkGraph {
  private built = false;
  /** The active records the graph holds, by id. */
  private recs = new Map<string, StoredMemory>();
  /** key -> (id -> rank of the key among that record's keys: lower is stronger). */
  private claims = new Map<string, Map<string, number>>();
  /** key -> the id that holds it. */
  private owner = new Map<string, string>();
  /** The keys each record claims (as claimed, so a removal gives back exactly these). */
  private claimed = new Map<string, Map<string, number>>();
  private out = new Map<string, LinkEdge[]>();
  private inc = new Map<string, Set<LinkEdge>>();
  private unresolved = new Set<LinkEdge>();
  /** key -> the links whose target is looked up by it. */
  private watch = new Map<string, Set<LinkEdge>>();
  private readonly off: () => void;

  constructor(private readonly store: Store) {
    this.off = store.onChange((c) => {
      if (!this.built) return;
      try {
        this.apply(c);
      } catch {
        this.built = false; // rebuilt from the records on next use
      }
    });
  }

  close(): void {
    this.off();
  }

  private keysOf(m: StoredMemory): Map<string, number> {
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
    const ranked = new Map<string, number>();
    keys.forEach((k, i) => {
      const n = norm(k);
      if (!ranked.has(n)) ranked.set(n, i);
    });
    return ranked;
  }

  /** Whether claim (id, rank) beats the key's current holder. */
  private beats(key: string, id: string, rank: number, holder: string | undefined): boolean {
    if (holder === undefined) return true;
    const hr = this.claims.get(key)!.get(holder)!;
    if (rank !== hr) return rank < hr;
    return sortKey(this.recs.get(id)!).localeCompare(sortKey(this.recs.get(holder)!)) < 0;
  }

  private claim(m: StoredMemory, changed: Set<string>): void {
    const keys = this.keysOf(m);
    this.claimed.set(m.id, keys);
    for (const [k, rank] of keys) {
      let c = this.claims.get(k);
      if (!c) this.claims.set(k, (c = new Map()));
      c.set(m.id, rank);
      if (this.beats(k, m.id, rank, this.owner.get(k))) {
        this.owner.set(k, m.id);
        changed.add(k);
      }
    }
  }

  private unclaim(id: string, changed: Set<string>): void {
    for (const k of this.claimed.get(id)?.keys() ?? []) {
      const c = this.claims.get(k)!;
      c.delete(id);
      if (this.owner.get(k) !== id) continue;
      changed.add(k);
      this.owner.delete(k);
      if (c.size === 0) {
        this.claims.delete(k);
        continue;
      }
      let best: string | undefined;
      for (const [other, rank] of c) if (this.beats(k, other, rank, best)) best = other;
      this.owner.set(k, best!);
    }
    this.claimed.delete(id);
  }

  private resolveKeys(keys: string[]): string | null {
    for (const k of keys) {
      const o = this.owner.get(k);
      if (o !== undefined) return o;
    }
    return null;
  }

  private attach(e: LinkEdge): void {
    if (e.to === null) this.unresolved.add(e);
    else {
      let s = this.inc.get(e.to);
      if (!s) this.inc.set(e.to, (s = new Set()));
      s.add(e);
    }
  }
  private detach(e: LinkEdge): void {
    if (e.to === null) this.unresolved.delete(e);
    else {
      const s = this.inc.get(e.to);
      s?.delete(e);
      if (s?.size === 0) this.inc.delete(e.to);
    }
  }

  private link(m: StoredMemory): void {
    const edges = structureOf(m).links.map((l, pos): LinkEdge => {
      const keys = targetKeys(l.target);
      return { from: m.id, pos, relation: l.relation, target: l.target, keys, to: this.resolveKeys(keys) };
    });
    if (edges.length === 0) return;
    this.out.set(m.id, edges);
    for (const e of edges) {
      this.attach(e);
      for (const k of e.keys) {
        let w = this.watch.get(k);
        if (!w) this.watch.set(k, (w = new Set()));
        w.add(e);
      }
    }
  }

  private unlink(id: string): void {
    for (const e of this.out.get(id) ?? []) {
      this.detach(e);
      for (const k of e.keys) {
        const w = this.watch.get(k);
        w?.delete(e);
        if (w?.size === 0) this.watch.delete(k);
      }
    }
    this.out.delete(id);
  }

  /** Links whose lookup keys changed hands: resolved again. */
  private reresolve(changed: Set<string>): void {
    for (const k of changed) {
      for (const e of this.watch.get(k) ?? []) {
        const to = this.resolveKeys(e.keys);
        if (to === e.to) continue;
        this.detach(e);
        e.to = to;
        this.attach(e);
      }
    }
  }

  private apply(c: StoreChange): void {
    const id = c.kind === 'upsert' ? c.mem.id : c.prev.id;
    const changed = new Set<string>();
    if (this.recs.has(id)) {
      this.unlink(id);
      this.unclaim(id, changed);
      this.recs.delete(id);
    }
    const m = c.kind === 'upsert' && !c.mem.tombstoned ? c.mem : null;
    if (m) {
      this.recs.set(id, m);
      this.claim(m, changed);
    }
    this.reresolve(changed);
    if (m) this.link(m);
  }

  /** Bumped by every build: a build in slices stops when another one ran meanwhile. */
  private epoch = 0;

  /**
   * Builds the graph in slices of `sliceMs`, `pause` between them (a server's memory_health: the
   * build is ~0.1 s of work at 20,000 memories, which held up every other call). A store change
   * meanwhile leaves it unbuilt: the next use builds it at once, from the records then.
   */
  async buildSliced(pause: () => Promise<void>, sliceMs: number): Promise<void> {
    if (this.built) return;
    const epoch = ++this.epoch;
    let changed = false;
    const off = this.store.onChange(() => {
      changed = true;
    });
    try {
      this.reset();
      const all = [...this.store.active()];
      const ignored = new Set<string>();
      const passes: ((m: StoredMemory) => void)[] = [(m) => this.recs.set(m.id, m), (m) => this.claim(m, ignored), (m) => this.link(m)];
      let t0 = performance.now();
      for (const pass of passes) {
        for (const m of all) {
          pass(m);
          if (performance.now() - t0 < sliceMs) continue;
          await pause();
          if (this.epoch !== epoch || this.built) return; // built at once by a use meanwhile
          t0 = performance.now();
        }
      }
      this.built = !changed;
    } finally {
      off();
    }
  }

  private reset(): void {
    this.recs = new Map();
    this.claims = new Map();
    this.owner = new Map();
    this.claimed = new Map();
    this.out = new Map();
    this.inc = new Map();
    this.unresolved = new Set();
    this.watch = new Map();
  }

  private build(): void {
    if (this.built) return;
    this.built = true;
    this.epoch++;
    this.reset();
    const all = [...this.store.active()];
    for (const m of all) this.recs.set(m.id, m);
    const ignored = new Set<string>();
    for (const m of all) this.claim(m, ignored);
    for (const m of all) this.link(m);
  }

  private edge(e: LinkEdge): Edge {
    return { from: this.recs.get(e.from)!, relation: e.relation, target: e.target, to: e.to === null ? null : this.recs.get(e.to)! };
  }
  /** Links in a stable order: by source (notes by path, then memories by id), then body order. */
  private ordered(edges: Iterable<LinkEdge>): Edge[] {
    return [...edges]
      .map((e) => ({ e, k: sortKey(this.recs.get(e.from)!) }))
      .sort((a, b) => (a.k === b.k ? a.e.pos - b.e.pos : a.k.localeCompare(b.k)))
      .map((x) => this.edge(x.e));
  }

  /** The record a link target names, if any. */
  resolve(target: string): StoredMemory | undefined {
    this.build();
    const id = this.resolveKeys(targetKeys(target));
    return id === null ? undefined : this.recs.get(id);
  }

  outgoing(id: string): Edge[] {
    this.build();
    return (this.out.get(id) ?? []).map((e) => this.edge(e));
  }
  backlinks(id: string): Edge[] {
    this.build();
    return this.ordered(this.inc.get(id) ?? []);
  }
  /** Every link whose target resolves to nothing. */
  dangling(): Edge[] {
    this.build();
    return this.ordered(this.unresolved);
  }
}
