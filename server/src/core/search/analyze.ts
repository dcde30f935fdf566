// A document as index data: its forward list ([termId, packedTf] pairs sorted by term id) and
// field lengths. Body and scopes are tokenized alike; scopes form their own BM25F field.
import type { Postings } from './postings.ts';
import { packTf } from './postings.ts';
import { scanTokens } from './tokenize.ts';

/** What the index needs of a memory. StoredMemory satisfies it. */
export interface IndexDoc {
  id: string;
  body: string;
  scopes: readonly string[];
  created: string;
  updated: string;
  /** ISO time after which the memory no longer matches; null/absent: never */
  expires?: string | null;
}

export interface Analyzed {
  fwd: Int32Array;
  bodyLen: number;
  scopeLen: number;
}

// Scratch for analyzeDoc: term ids as they come (body, then scopes), and the output pairs.
let ids = new Int32Array(512);
let out = new Int32Array(1024);

export function analyzeDoc(doc: IndexDoc, p: Postings): Analyzed {
  let n = 0;
  const push = (term: string, _s: string, _p: number, _a: number, _b: number, _w: boolean, stop: boolean): void => {
    if (stop) return;
    if (n === ids.length) {
      const next = new Int32Array(ids.length * 2);
      next.set(ids);
      ids = next;
    }
    ids[n++] = p.intern(term);
  };
  const bodyLen = scanTokens(doc.body, push);
  const nBody = n;
  let scopeLen = 0;
  for (const sc of doc.scopes) scopeLen += scanTokens(sc, push);
  // Sort each field's ids, then merge the two runs counting repeats: sorted, one pair per term.
  const body = ids.subarray(0, nBody).sort();
  const scope = ids.subarray(nBody, n).sort();
  if (out.length < n * 2) out = new Int32Array(n * 2);
  let o = 0;
  let i = 0;
  let j = 0;
  while (i < body.length || j < scope.length) {
    const t = j >= scope.length || (i < body.length && body[i]! <= scope[j]!) ? body[i]! : scope[j]!;
    let tb = 0;
    let ts = 0;
    while (i < body.length && body[i] === t) {
      tb++;
      i++;
    }
    while (j < scope.length && scope[j] === t) {
      ts++;
      j++;
    }
    out[o++] = t;
    out[o++] = packTf(tb, ts);
  }
  return { fwd: out.slice(0, o), bodyLen, scopeLen };
}

/** max(created, updated) in epoch ms; an unparsable time counts as very old, never as an error. */
export function recencyOf(doc: IndexDoc): number {
  const c = Date.parse(doc.created);
  const u = Date.parse(doc.updated);
  return Math.max(Number.isFinite(c) ? c : 0, Number.isFinite(u) ? u : 0);
}

/** Expiry in epoch ms; +Infinity when none. An unparsable time never expires (the file is kept visible). */
export function expiresOf(doc: IndexDoc): number {
  if (doc.expires === null || doc.expires === undefined) return Infinity;
  const t = Date.parse(doc.expires);
  return Number.isFinite(t) ? t : Infinity;
}
