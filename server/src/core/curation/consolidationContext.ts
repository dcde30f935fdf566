// Where a memory applies, for consolidation: two memories are a duplicate, a contradiction or a
// restatement of one another only when they can be about the same thing. The same note written
// for twenty projects ("the alpha API caches for 5 minutes", "the beta API caches for 10
// minutes") is twenty facts, not one fact twenty times, nor nineteen contradictions; and merging
// them would take each out of its own repo's view.
//
// So two memories are compared only when both of these hold:
// - some view shows both (auto_scope, tools.md): they come from the same repo, or one from no
//   repo; across two repos only when both carry a global scope (config scopes.global), the view
//   outside any repo;
// - they share a scope: the same one, or one nested under the other (`preferences` and
//   `preferences:editor`); `projects:alpha` and `projects:beta` share none.
// A memory given without scopes (a caller that knows none) is compared with every other.
import { hasGlobalScope } from '../memory.ts';
import type { ConsolidateMemory } from './consolidate.ts';

interface Ctx {
  /** no scopes given: compared with everything */
  any: boolean;
  repo: string | null;
  scopes: readonly string[];
  global: boolean;
  key: string;
  digest: string;
}

/** Verdicts of one context against the others: 0 not asked yet, 1 compared, 2 not. */
type Row = Uint8Array;

const related = (a: readonly string[], b: readonly string[]) => a.some((s) => b.some((t) => s === t || t.startsWith(`${s}:`) || s.startsWith(`${t}:`)));

/** The contexts of the memories an index holds, each once, and which pairs of them are compared. */
export class Contexts {
  private ids = new Map<string, number>();
  private list: Ctx[] = [];
  private rows: Row[] = [];

  constructor(private readonly global: readonly string[] = []) {}

  /** Context ids by repo, then by scopes array (a store's records share those arrays). */
  private seen = new Map<string | null, WeakMap<readonly string[], number>>();

  /** The id of a memory's context (equal contexts share one). */
  idOf(m: ConsolidateMemory): number {
    const repo = m.repo ?? null;
    if (m.scopes === undefined) return this.idOfKey(null, repo);
    let byScopes = this.seen.get(repo);
    if (!byScopes) this.seen.set(repo, (byScopes = new WeakMap()));
    let id = byScopes.get(m.scopes);
    if (id === undefined) byScopes.set(m.scopes, (id = this.idOfKey(m.scopes, repo)));
    return id;
  }

  private idOfKey(given: readonly string[] | null, repo: string | null): number {
    const scopes = given && given.length > 0 ? [...given].sort() : null;
    const key = scopes === null ? '*' : `${repo ?? ''}\u0001${scopes.join('\u0002')}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.list.length;
      this.ids.set(key, id);
      this.list.push({ any: scopes === null, repo, scopes: scopes ?? [], global: scopes !== null && hasGlobalScope(scopes, this.global), key, digest: textKey(key) });
    }
    return id;
  }

  /** The context's text: part of a memory's copies key. */
  keyOf(id: number): string {
    return this.list[id]!.key;
  }

  /** textKey of the context's text: part of a memory's cache key (consolidationSnapshot.ts). */
  digestOf(id: number): string {
    return this.list[id]!.digest;
  }

  /** The verdicts of context `a` against every context, filled in as they are asked (comparable()). */
  rowOf(a: number): Row {
    let row = this.rows[a];
    if (!row || row.length < this.list.length) {
      const grown = new Uint8Array(Math.max(this.list.length, 8) * 2);
      if (row) grown.set(row);
      this.rows[a] = row = grown;
    }
    return row;
  }

  /** Whether memories of contexts `a` and `b` are compared (see the rule above). */
  comparable(a: number, b: number): boolean {
    const row = this.rowOf(a);
    if (row[b] === 0) row[b] = this.decide(this.list[a]!, this.list[b]!) ? 1 : 2;
    return row[b] === 1;
  }

  private decide(x: Ctx, y: Ctx): boolean {
    if (x.any || y.any) return true;
    if (!related(x.scopes, y.scopes)) return false;
    return x.repo === y.repo || x.repo === null || y.repo === null || (x.global && y.global);
  }
}

/**
 * A 64-bit digest of a text (two 32-bit lanes), as 16 hex digits: the cache key of a memory's
 * text and context. Not cryptographic: a cache may be written by anyone who can write the store.
 */
export function textKey(s: string): string {
  let h1 = 0xdeadbeef ^ s.length;
  let h2 = 0x41c6ce57 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
