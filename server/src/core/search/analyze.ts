// A document as index data: its forward list ([termId, packedTf] pairs sorted by term id) and
// field lengths. Body and scopes are tokenized alike; scopes form their own BM25F field.
import type { Postings } from './postings.ts';
import { packTf } from './postings.ts';
import { termCounts } from './tokenize.ts';

/** What the index needs of a memory. StoredMemory satisfies it. */
export interface IndexDoc {
  id: string;
  body: string;
  scopes: readonly string[];
  created: string;
  updated: string;
}

export interface Analyzed {
  fwd: Int32Array;
  bodyLen: number;
  scopeLen: number;
}

export function analyzeDoc(doc: IndexDoc, p: Postings): Analyzed {
  const body = termCounts(doc.body);
  const scope = termCounts(doc.scopes.join(' '));
  const merged = new Map<number, [number, number]>();
  for (const [term, n] of body.counts) merged.set(p.intern(term), [n, 0]);
  for (const [term, n] of scope.counts) {
    const id = p.intern(term);
    const e = merged.get(id);
    if (e) e[1] = n;
    else merged.set(id, [0, n]);
  }
  const ids = [...merged.keys()].sort((a, b) => a - b);
  const fwd = new Int32Array(ids.length * 2);
  ids.forEach((id, i) => {
    const [b, s] = merged.get(id)!;
    fwd[i * 2] = id;
    fwd[i * 2 + 1] = packTf(b, s);
  });
  return { fwd, bodyLen: body.length, scopeLen: scope.length };
}

/** max(created, updated) in epoch ms; an unparsable time counts as very old, never as an error. */
export function recencyOf(doc: IndexDoc): number {
  const c = Date.parse(doc.created);
  const u = Date.parse(doc.updated);
  return Math.max(Number.isFinite(c) ? c : 0, Number.isFinite(u) ? u : 0);
}
