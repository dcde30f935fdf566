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
  /** other words a later search may use: a field of its own, weighted below the body */
  aliases?: readonly string[];
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

// Scratch for analyzeDoc: term id x 4 + field (0 body, 1 scope, 2 alias) as they come, and the
// output pairs.
let ids = new Int32Array(512);
let out = new Int32Array(1024);

/**
 * Forward lists for a bulk load (SearchIndex.load), carved from a few 4 MB buffers: one buffer of
 * its own per document (an allocation outside V8's heap each, freed together once the lists are
 * built) left the C heap fragmented, ~70 MB of resident memory at 200k memories that a start
 * from the cache never had. Views of a chunk keep it alive: for transient lists only.
 */
export class Int32Arena {
  private chunk = new Int32Array(0);
  private used = 0;
  constructor(private readonly chunkInts = 1 << 20) {}

  take(n: number): Int32Array {
    if (this.used + n > this.chunk.length) {
      this.chunk = new Int32Array(Math.max(this.chunkInts, n));
      this.used = 0;
    }
    const view = this.chunk.subarray(this.used, this.used + n);
    this.used += n;
    return view;
  }
}

export function analyzeDoc(doc: IndexDoc, p: Postings, arena?: Int32Arena): Analyzed {
  let n = 0;
  let field = 0;
  const push = (term: string, _s: string, _p: number, _a: number, _b: number, _w: boolean, stop: boolean): void => {
    if (stop) return;
    if (n === ids.length) {
      const next = new Int32Array(ids.length * 2);
      next.set(ids);
      ids = next;
    }
    ids[n++] = p.intern(term) * 4 + field;
  };
  const bodyLen = scanTokens(doc.body, push);
  field = 1;
  let scopeLen = 0;
  for (const sc of doc.scopes) scopeLen += scanTokens(sc, push);
  field = 2;
  if (doc.aliases) for (const a of doc.aliases) scanTokens(a, push);
  // One sort groups each term's occurrences (by field within a term): one pair per term.
  const all = ids.subarray(0, n).sort();
  if (out.length < n * 2) out = new Int32Array(n * 2);
  let o = 0;
  let i = 0;
  while (i < n) {
    const t = all[i]! >> 2;
    let tb = 0;
    let ts = 0;
    let ta = 0;
    for (; i < n && all[i]! >> 2 === t; i++) {
      const f = all[i]! & 3;
      if (f === 0) tb++;
      else if (f === 1) ts++;
      else ta++;
    }
    out[o++] = t;
    out[o++] = packTf(tb, ts, ta);
  }
  let fwd: Int32Array;
  if (arena) {
    fwd = arena.take(o);
    fwd.set(out.subarray(0, o));
  } else fwd = out.slice(0, o);
  return { fwd, bodyLen, scopeLen };
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The decimal number in s[i, i+n), NaN if any of it is not a digit. */
function digitsAt(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) {
    const c = s.charCodeAt(k) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar, as Date.UTC counts them
 * (the days-from-civil algorithm: whole 400-year eras, then the year and day within one). A
 * third faster than Date.UTC, which a start calls twice per memory.
 */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * Epoch ms of an ISO time; the format.md shape (2026-03-14T10:23:00.000Z) without Date.parse,
 * and without a Date per call (a start reads two per memory). Anything else, or a field out of
 * range (Feb 30, month 13), or a year below 100 (which Date.UTC would read as 19xx), goes to
 * Date.parse, which decides.
 */
export function isoMs(iso: string): number {
  if (iso.length === 24 && iso.charCodeAt(23) === 90 /* Z */ && iso.charCodeAt(10) === 84 /* T */) {
    const y = digitsAt(iso, 0, 4);
    const mo = digitsAt(iso, 5, 2);
    const day = digitsAt(iso, 8, 2);
    const h = digitsAt(iso, 11, 2);
    const mi = digitsAt(iso, 14, 2);
    const sec = digitsAt(iso, 17, 2);
    const ms = digitsAt(iso, 20, 3);
    if (y >= 100 && mo >= 1 && mo <= 12 && day >= 1 && h <= 23 && mi <= 59 && sec <= 59 && ms >= 0) {
      const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
      if (day <= (mo === 2 && leap ? 29 : MONTH_DAYS[mo - 1]!)) return daysFromCivil(y, mo, day) * 86_400_000 + h * 3_600_000 + mi * 60_000 + sec * 1000 + ms;
    }
  }
  return Date.parse(iso);
}

/** max(created, updated) in epoch ms; an unparsable time counts as very old, never as an error. */
export function recencyOf(doc: IndexDoc): number {
  const c = isoMs(doc.created);
  const u = doc.updated === doc.created ? c : isoMs(doc.updated);
  return Math.max(Number.isFinite(c) ? c : 0, Number.isFinite(u) ? u : 0);
}

/** Expiry in epoch ms; +Infinity when none. An unparsable time never expires (the file is kept visible). */
export function expiresOf(doc: IndexDoc): number {
  if (doc.expires === null || doc.expires === undefined) return Infinity;
  const t = isoMs(doc.expires);
  return Number.isFinite(t) ? t : Infinity;
}
