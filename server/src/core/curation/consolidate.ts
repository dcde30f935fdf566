// memory_consolidate: candidate groups for the host model to act on, read-only.
// Pairs come from the index's rare-term candidates (bounded work per memory, never all pairs);
// each pair is judged on the write gate's dedup tokens (trust/gates/dedup.ts):
//
// - contradiction: the words that are not values overlap a lot (Jaccard >= 0.6 of the tokens left
//   after taking numbers and number words out) and both state values that differ once number
//   words are read as numbers ("TTL is 5 minutes" vs "TTL is ten minutes");
// - superseded: the newer memory contains at least 80% of the older one's tokens and adds at
//   least 20% more of its own, and at least 3 (it restates and extends it);
// - duplicates: token Jaccard >= 0.6 otherwise; pairs are joined into clusters.
import { dedupTokenSet, jaccard } from '../trust/gates/dedup.ts';

export const CONSOLIDATE_DUPLICATE = 0.6;
export const CONSOLIDATE_SUBJECT = 0.6;
export const SUPERSEDE_CONTAINMENT = 0.8;
export const SUPERSEDE_GROWTH = 1.2;
export const SUPERSEDE_MIN_NEW = 3;

export interface ConsolidateMemory {
  id: string;
  body: string;
}

export type GroupKind = 'duplicates' | 'contradiction' | 'superseded';

export interface ConsolidateGroup {
  kind: GroupKind;
  /** duplicates: every member, oldest first; contradiction: both; superseded: older, then newer. */
  ids: string[];
  reason: string;
  suggested_action: string;
}

const NUMBER_WORDS: Record<string, string> = {
  zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12', fifteen: '15', twenty: '20', thirty: '30', forty: '40', fifty: '50', sixty: '60', ninety: '90',
  hundred: '100', thousand: '1000', once: '1', twice: '2', single: '1', double: '2', half: '0.5',
};

/** A token that states a value: digits (with unit suffixes like 5m, 10gb) or a number word. */
function valueOf(tok: string): string | null {
  if (NUMBER_WORDS[tok] !== undefined) return NUMBER_WORDS[tok]!;
  const m = /^(\d+(?:\.\d+)?)([a-z]*)$/.exec(tok);
  return m ? m[1]! + (m[2] ? `:${m[2]}` : '') : null;
}

interface Parsed {
  all: Set<string>;
  words: Set<string>;
  values: Set<string>;
}

function parse(body: string): Parsed {
  const toks = dedupTokenSet(body);
  const words = new Set<string>();
  const values = new Set<string>();
  for (const t of toks) {
    const v = valueOf(t);
    if (v === null) words.add(t);
    else values.add(v);
  }
  return { all: toks, words, values };
}

const containment = (a: Set<string>, b: Set<string>) => {
  if (a.size === 0) return 0;
  let n = 0;
  for (const t of a) if (b.has(t)) n++;
  return n / a.size;
};
const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The relation of two memories (older first, by id), or null when they are unrelated. */
export function judgePair(older: ConsolidateMemory, newer: ConsolidateMemory, po = parse(older.body), pn = parse(newer.body)): ConsolidateGroup | null {
  const subject = jaccard(po.words, pn.words);
  if (subject >= CONSOLIDATE_SUBJECT && po.values.size > 0 && pn.values.size > 0 && !sameSet(po.values, pn.values)) {
    const differ = [...po.values].filter((v) => !pn.values.has(v)).concat([...pn.values].filter((v) => !po.values.has(v)));
    return {
      kind: 'contradiction',
      ids: [older.id, newer.id],
      reason: `same subject (${pct(subject)} of the other words shared) with different values (${differ.map((v) => v.replace(':', '')).join(' vs ')})`,
      suggested_action: 'ask the user which value holds; memory_update the right one and memory_remove the other (or memory_merge them)',
    };
  }
  const c = containment(po.all, pn.all);
  if (c >= SUPERSEDE_CONTAINMENT && pn.all.size >= po.all.size * SUPERSEDE_GROWTH && pn.all.size - po.all.size >= SUPERSEDE_MIN_NEW) {
    return {
      kind: 'superseded',
      ids: [older.id, newer.id],
      reason: `the newer memory restates ${pct(c)} of the older one and adds ${pn.all.size - po.all.size} more words`,
      suggested_action: `memory_remove ${older.id} (reason: superseded by ${newer.id}), or memory_merge both`,
    };
  }
  const sim = jaccard(po.all, pn.all);
  if (sim >= CONSOLIDATE_DUPLICATE) {
    return { kind: 'duplicates', ids: [older.id, newer.id], reason: `${pct(sim)} of their words shared`, suggested_action: 'memory_merge them into one memory' };
  }
  return null;
}

/**
 * Every group over `mems`: pairs from `candidates` (ids sharing rare terms with a memory's body),
 * each unordered pair judged once; duplicate pairs joined into clusters. Groups come in a stable
 * order: contradictions first, then superseded chains, then duplicate clusters, each by oldest id.
 */
export function consolidate(mems: readonly ConsolidateMemory[], candidates: (m: ConsolidateMemory) => string[]): ConsolidateGroup[] {
  const byId = new Map(mems.map((m) => [m.id, m]));
  const parsed = new Map<string, Parsed>();
  const get = (m: ConsolidateMemory) => {
    let p = parsed.get(m.id);
    if (!p) parsed.set(m.id, (p = parse(m.body)));
    return p;
  };
  const seen = new Set<string>();
  const out: ConsolidateGroup[] = [];
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  const dupReasons = new Map<string, string>();
  for (const m of mems) {
    for (const cid of candidates(m)) {
      if (cid === m.id) continue;
      const o = byId.get(cid);
      if (!o) continue;
      const [older, newer] = m.id < o.id ? [m, o] : [o, m];
      const key = `${older.id}:${newer.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const g = judgePair(older, newer, get(older), get(newer));
      if (!g) continue;
      if (g.kind !== 'duplicates') out.push(g);
      else {
        const a = find(older.id);
        const b = find(newer.id);
        if (!parent.has(a)) parent.set(a, a);
        if (!parent.has(b)) parent.set(b, b);
        if (a !== b) parent.set(a < b ? b : a, a < b ? a : b);
        dupReasons.set(older.id, g.reason);
      }
    }
  }
  const clusters = new Map<string, string[]>();
  for (const id of parent.keys()) {
    const r = find(id);
    (clusters.get(r) ?? clusters.set(r, []).get(r)!).push(id);
  }
  const dups: ConsolidateGroup[] = [...clusters.values()].map((ids) => {
    ids.sort();
    return {
      kind: 'duplicates',
      ids,
      reason: ids.length === 2 ? `near-duplicates: ${dupReasons.get(ids[0]!) ?? 'most words shared'}` : `${ids.length} near-duplicates (each shares at least ${pct(CONSOLIDATE_DUPLICATE)} of its words with another)`,
      suggested_action: 'memory_merge them into one memory',
    };
  });
  const order: Record<GroupKind, number> = { contradiction: 0, superseded: 1, duplicates: 2 };
  return [...out, ...dups].sort((a, b) => order[a.kind] - order[b.kind] || (a.ids[0]! < b.ids[0]! ? -1 : a.ids[0]! > b.ids[0]! ? 1 : 0) || (a.ids[1]! < b.ids[1]! ? -1 : 1));
}
