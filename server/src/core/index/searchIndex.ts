// SearchIndex: an in-memory inverted index over active memories, updated incrementally.
//
//   const ix = new SearchIndex<StoredMemory>({ synonyms: config.search.synonyms });
//   ix.load(store.active(), cachedSnapshot);      // bulk build, reusing cached analysis
//   ix.upsert(mem); ix.remove(id);                 // on every store change
//   ix.search('pg dump', { limit: 5, filter });    // ranked hits with relevance and snippets
//   ix.candidatesFor(text, 20);                    // near-duplicate candidates (rare shared terms)
import type { Analyzed, IndexDoc } from './analyze.ts';
import { Int32Arena, analyzeDoc, expiresOf, recencyOf } from './analyze.ts';
import { Postings } from './postings.ts';
import { parseQuery } from './query.ts';
import type { Candidate } from './rank.ts';
import { Ranker } from './rank.ts';
import type { SearchHit } from './rerank.ts';
import { rerank } from './rerank.ts';
import type { SynonymTable } from './synonyms.ts';
import { buildSynonyms } from './synonyms.ts';
import { tokenize } from './tokenize.ts';
import { candidates } from './candidates.ts';
import { Backlog } from '../store/slices.ts';

export type { IndexDoc } from './analyze.ts';
export type { Relevance, SearchHit } from './rerank.ts';

export interface SearchOptions<D> {
  /** hits to return (the caller validates 1..50) */
  limit: number;
  /** "now" for the recency boost, epoch ms (default Date.now()) */
  now?: number;
  /** recency half-life in days (config behavior.recency_half_life_days; default 30) */
  halfLifeDays?: number;
  /**
   * Keep only documents for which this returns true. Expired documents (`expires` <= now) are
   * excluded by the index itself; the filter covers the rest (scopes, repo, disabled scopes).
   */
  filter?: (doc: D) => boolean;
  /**
   * Names the filter: while successive searches pass the same key, each document's answer is
   * remembered (a changed document gets a new slot and is asked again). Without a key the filter
   * is asked at most once per document per search. The key must change whenever the filter's
   * answer for an unchanged document could (different scopes, disabled scopes, caller repo).
   */
  filterKey?: string;
  /** score every matching document instead of pruning (same hits, slower): for tests and benches */
  exhaustive?: boolean;
}

/** The analysis of every indexed document, for the persisted cache (see cache.ts). */
export interface IndexSnapshot<D> {
  terms: string[];
  docs: Array<{ doc: D } & Analyzed>;
}

/** Documents beyond `limit` that get the second pass, so adjacency can still reorder the top. */
const RERANK_EXTRA = 5;

export class SearchIndex<D extends IndexDoc> {
  private p = new Postings();
  private ranker = new Ranker(this.p);
  private docs: Array<D | undefined> = [];
  /** id -> slot; after a load of unique ids, made from `docs` later (mapIds) or when first needed */
  private slotMap = new Map<string, number>();
  /** the slots not yet in slotMap */
  private unmapped: Backlog | null = null;
  readonly synonyms: SynonymTable;

  constructor(opts: { synonyms?: Record<string, string[]> } = {}) {
    this.synonyms = buildSynonyms(opts.synonyms);
  }

  /**
   * A load of a store's records (unique ids) makes no map by id: the first search needs none, and
   * at 200k memories it is ~80 ms of the start. mapIds() makes it in the background; the first
   * upsert, removal or lookup by id before that makes the rest at once.
   */
  private get slotOf(): Map<string, number> {
    if (this.unmapped !== null) {
      this.unmapped.finish();
      this.unmapped = null;
    }
    return this.slotMap;
  }

  /** Makes the map by id a slice at a time, pausing between slices (a server, after its start). */
  async mapIds(pause: () => Promise<void>, slice = 4096): Promise<void> {
    await this.unmapped?.drain(pause, slice);
  }

  /** A fresh map of the current docs, made now or (`later`) by mapIds or the first lookup. */
  private remap(later: boolean): void {
    const map = (this.slotMap = new Map());
    const docs = this.docs;
    const backlog = new Backlog(docs.length, (s) => {
      const d = docs[s];
      if (d !== undefined) map.set(d.id, s);
    });
    if (!later) backlog.finish();
    this.unmapped = later ? backlog : null;
  }

  get size(): number {
    return this.slotOf.size;
  }
  has(id: string): boolean {
    return this.slotOf.has(id);
  }
  get(id: string): D | undefined {
    const s = this.slotOf.get(id);
    return s === undefined ? undefined : this.docs[s];
  }
  *values(): IterableIterator<D> {
    for (const s of this.slotOf.values()) yield this.docs[s]!;
  }

  /**
   * Adds or replaces a document (by id). `isNew`: the caller knows the index holds no document
   * with this id (the store had no record for it). While the map by id is still being made, such
   * a document goes into it directly, without finishing it first (the rest of the map covers the
   * slots before this one, none of them with this id): a memory created right after a big store's
   * start does not wait for the map of every other one.
   */
  upsert(doc: D, isNew = false): void {
    const direct = isNew && this.unmapped !== null;
    if (!direct) this.removeSlot(doc.id);
    if (this.p.needsCompaction()) this.compact();
    const a = analyzeDoc(doc, this.p);
    const slot = this.p.addSlot(a.bodyLen, a.scopeLen, recencyOf(doc), expiresOf(doc));
    this.p.append(slot, a.fwd);
    this.docs[slot] = doc;
    // after a compaction the map is whole again (remap), and slotMap is it
    (direct ? this.slotMap : this.slotOf).set(doc.id, slot);
  }

  remove(id: string): boolean {
    const had = this.removeSlot(id);
    if (had && this.p.needsCompaction()) this.compact();
    return had;
  }

  private removeSlot(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    // Its terms (for df) come from its text again: documents are immutable records.
    this.p.kill(slot, analyzeDoc(this.docs[slot]!, this.p).fwd);
    this.docs[slot] = undefined;
    this.slotOf.delete(id);
    return true;
  }

  private compact(): void {
    const remap = this.p.compact();
    const docs: Array<D | undefined> = new Array(this.p.slots);
    for (let s = 0; s < remap.length; s++) if (remap[s]! >= 0) docs[remap[s]!] = this.docs[s];
    this.docs = docs;
    this.remap(false);
  }

  /**
   * Replaces the whole content with `current`. A snapshot entry whose document has the same body
   * and scopes as the current one (`same`) lends its analysis instead of re-tokenizing; anything
   * else is analyzed afresh, and snapshot entries for documents gone from `current` are dropped.
   * A snapshot that fails validation throws (the caller rebuilds without it).
   */
  load(current: Iterable<D>, snapshot?: IndexSnapshot<D>, opts: { uniqueIds?: boolean } = {}): void {
    const p = new Postings();
    const snap = snapshot?.docs ?? [];
    if (snapshot) {
      p.reserve(snap.length, snapshot.terms.length);
      for (const t of snapshot.terms) p.intern(t);
      const nt = snapshot.terms.length;
      for (const e of snap) validateFwd(e.fwd, nt, e.doc.id);
    }
    // A start from the cache loads the very records the snapshot holds, in its order: each
    // document is then the next snapshot entry's, and no map by id is built. Any other order
    // (a partial reuse) looks entries up by id, the map made on the first miss.
    let cached: Map<string, { doc: D } & Analyzed> | null = null;
    let next = 0;
    const entryFor = (doc: D): ({ doc: D } & Analyzed) | undefined => {
      const e = snap[next];
      if (e !== undefined && e.doc === doc) {
        next++;
        return e;
      }
      if (cached === null) {
        cached = new Map();
        for (const x of snap) cached.set(x.doc.id, x);
      }
      return cached.get(doc.id);
    };
    const docs: D[] = [];
    const fwd: Int32Array[] = [];
    const arena = new Int32Arena();
    // one slot per id: the first copy wins, like the store (unique ids: nothing to check)
    const slotOf = opts.uniqueIds ? null : new Map<string, number>();
    for (const doc of current) {
      if (slotOf !== null && slotOf.has(doc.id)) continue;
      const c = snap.length > 0 ? entryFor(doc) : undefined;
      const a = c && sameContent(c.doc, doc) ? c : analyzeDoc(doc, p, arena);
      const slot = p.addSlot(a.bodyLen, a.scopeLen, recencyOf(doc), expiresOf(doc));
      fwd[slot] = a.fwd;
      docs[slot] = doc;
      slotOf?.set(doc.id, slot);
    }
    p.buildLists(fwd);
    this.p = p;
    this.ranker = new Ranker(p);
    this.docs = docs;
    if (slotOf) {
      this.slotMap = slotOf;
      this.unmapped = null;
    } else this.remap(true);
  }

  snapshot(): IndexSnapshot<D> {
    const fwd = this.p.forwardLists();
    const docs: IndexSnapshot<D>['docs'] = [];
    for (const [, slot] of this.slotOf) {
      docs.push({ doc: this.docs[slot]!, fwd: fwd[slot]!, bodyLen: this.p.bodyLen[slot]!, scopeLen: this.p.scopeLen[slot]! });
    }
    return { terms: this.p.terms.slice(), docs };
  }

  /**
   * The snapshot streamed: the vocabulary now, and the documents (in slot order, the order of
   * values()) with their analysis `chunk` slots at a time, as the index is at this call.
   */
  snapshotStream(chunk: number): { terms: string[]; docs: () => Generator<IndexSnapshot<D>['docs']> } {
    const r = this.p.forwardReader();
    const docs = this.docs.slice(0, r.slots);
    const bodyLen = this.p.bodyLen.slice(0, r.slots);
    const scopeLen = this.p.scopeLen.slice(0, r.slots);
    const terms = this.p.terms.slice();
    function* gen(): Generator<IndexSnapshot<D>['docs']> {
      for (let from = 0; from < r.slots; from += chunk) {
        const to = Math.min(r.slots, from + chunk);
        const fwd = r.read(from, to);
        const part: IndexSnapshot<D>['docs'] = [];
        for (let s = from; s < to; s++) {
          const doc = docs[s];
          const f = fwd[s - from];
          if (doc !== undefined && f !== undefined && r.alive[s]) part.push({ doc, fwd: f, bodyLen: bodyLen[s]!, scopeLen: scopeLen[s]! });
        }
        yield part;
      }
    }
    return { terms, docs: gen };
  }

  search(query: string, opts: SearchOptions<D>): SearchHit<D>[] {
    const terms = parseQuery(query, this.p, this.synonyms);
    if (terms.length === 0 || opts.limit <= 0) return [];
    const filter = opts.filter;
    const docs = this.docs;
    const cands: Candidate[] = this.ranker.run(terms, {
      pool: opts.limit + RERANK_EXTRA,
      now: opts.now ?? Date.now(),
      halfLifeDays: opts.halfLifeDays ?? 30,
      allow: filter ? (slot) => filter(docs[slot]!) : undefined,
      allowKey: filter ? opts.filterKey : undefined,
      idOf: (slot) => docs[slot]!.id,
      exhaustive: opts.exhaustive,
    });
    const ranked = cands.map((c) => ({ doc: docs[c.slot]!, score: c.score, mask: c.mask, recency: this.p.recency[c.slot]! }));
    return rerank(ranked, terms, opts.limit);
  }

  /**
   * Ids of indexed memories sharing the rarest content terms of `text`, best first (at most
   * `limit`). For near-duplicate checks: bounded work, never a scan of every memory.
   */
  candidatesFor(text: string, limit: number): string[] {
    return this.candidateDocsFor(text, limit).map((d) => d.id);
  }

  /** The documents candidatesFor names (the write gates read them without a lookup by id). */
  candidateDocsFor(text: string, limit: number): D[] {
    const terms = new Set<string>();
    for (const t of tokenize(text)) if (!t.stop) terms.add(t.term);
    return candidates(this.p, terms, limit).map((slot) => this.docs[slot]!);
  }
}

export function sameContent(a: IndexDoc, b: IndexDoc): boolean {
  if (a === b) return true;
  if (a.body !== b.body || a.scopes.length !== b.scopes.length) return false;
  if (!a.scopes.every((s, i) => s === b.scopes[i])) return false;
  const x = a.aliases ?? [];
  const y = b.aliases ?? [];
  return x.length === y.length && x.every((s, i) => s === y[i]);
}

/** A cached forward list must be pairs of in-range, strictly increasing term ids with tf > 0. */
function validateFwd(fwd: Int32Array, nTerms: number, id: string): void {
  if (fwd.length % 2 !== 0) throw new Error(`cached index entry for ${id} has an odd length`);
  let prev = -1;
  for (let i = 0; i < fwd.length; i += 2) {
    const t = fwd[i]!;
    if (t <= prev || t >= nTerms || fwd[i + 1]! <= 0) throw new Error(`cached index entry for ${id} is malformed`);
    prev = t;
  }
}
