// The tokenizer shared by documents, queries and near-duplicate checks.
//
// A "group" is a run of letters/digits (any script) joined by single `-`, `_`, `:`, `.` or `/`
// characters: `pg-dump-nightly`, `requestId`, `projects:foo:api`, `src/core/store.ts`. Each group
// yields its parts (split on joiners and camelCase) as positional tokens, and, when it has more
// than one part, the whole group (lowercase, joiners dropped: `pgdumpnightly`, `requestid`) as an
// extra token at the position of its first part. Han, Hiragana and Katakana characters carry no
// spaces between words, so each character is its own positional token.
//
// Parts are stemmed (stem.ts); wholes are identifiers and are kept verbatim.
import { stem } from './stem.ts';
import { isStopword } from './stopwords.ts';

export const TOKENIZER_VERSION = 2;

/** Tokens longer than this (base64 blobs, hashes of hashes) are skipped: nobody searches them. */
const MAX_TOKEN = 64;

// A group: word chars with optional inner apostrophes, joined by single joiner characters.
const GROUP_RE = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*(?:[-_:./][\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*)*/gu;
const JOINER_RE = /[-_:./]/;
const APOSTROPHE_RE = /['’]/g;
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
// camelCase boundaries: aB, a1B (lower or digit before upper), and an acronym before a word of
// 2+ lowercase letters (HTTPServer); a plural acronym stays whole (JWTs, APIs, IDs).
const CAMEL_RE = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll}{2})/u;

export interface Token {
  /** The index term: stemmed part, or verbatim whole. */
  term: string;
  /** Lowercase surface form, before stemming (what a user typed). */
  surface: string;
  /** Position among positional tokens; a whole shares its first part's position. */
  pos: number;
  /** UTF-16 offsets in the source text. */
  start: number;
  end: number;
  /** true for the joined whole of a multi-part group (not positional). */
  whole: boolean;
  stop: boolean;
}

function splitParts(group: string, base: number, out: Array<{ text: string; start: number }>): void {
  let offset = 0;
  for (const seg of group.split(JOINER_RE)) {
    let segOffset = 0;
    for (const piece of seg.split(CAMEL_RE)) {
      if (piece !== '') out.push({ text: piece, start: base + offset + segOffset });
      segOffset += piece.length;
    }
    offset += seg.length + 1;
  }
}

function pushCjkAware(text: string, start: number, parts: Array<{ text: string; start: number }>): void {
  if (!CJK_RE.test(text)) {
    parts.push({ text, start });
    return;
  }
  // Split into CJK single characters and runs of everything else.
  let run = '';
  let runStart = start;
  let i = 0;
  for (const ch of text) {
    if (CJK_RE.test(ch)) {
      if (run !== '') parts.push({ text: run, start: runStart });
      parts.push({ text: ch, start: start + i });
      run = '';
      runStart = start + i + ch.length;
    } else {
      if (run === '') runStart = start + i;
      run += ch;
    }
    i += ch.length;
  }
  if (run !== '') parts.push({ text: run, start: runStart });
}

/**
 * Tokenizes text. Positional tokens come in text order; a group's whole (if any) follows its parts.
 * Stopwords are returned (flagged) so positions and lengths stay true to the text.
 */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let pos = 0;
  const raw: Array<{ text: string; start: number }> = [];
  const parts: Array<{ text: string; start: number }> = [];
  for (const m of text.matchAll(GROUP_RE)) {
    const group = m[0];
    const base = m.index;
    raw.length = 0;
    parts.length = 0;
    splitParts(group, base, raw);
    for (const r of raw) pushCjkAware(r.text, r.start, parts);
    const firstPos = pos;
    const kept: string[] = [];
    for (const p of parts) {
      const surface = p.text.toLowerCase().replace(APOSTROPHE_RE, '');
      if (surface === '' || surface.length > MAX_TOKEN) continue;
      const stop = isStopword(surface);
      out.push({ term: stop ? surface : stem(surface), surface, pos, start: p.start, end: p.start + p.text.length, whole: false, stop });
      kept.push(surface);
      pos++;
    }
    if (kept.length > 1 && !CJK_RE.test(group)) {
      const whole = kept.join('');
      if (whole.length <= MAX_TOKEN) {
        out.push({ term: whole, surface: whole, pos: firstPos, start: base, end: base + group.length, whole: true, stop: false });
      }
    }
  }
  return out;
}

/** Index terms of a text with their counts, stopwords left out; `length` counts positional tokens. */
export function termCounts(text: string): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  let length = 0;
  for (const t of tokenize(text)) {
    if (!t.whole) length++;
    if (t.stop) continue;
    counts.set(t.term, (counts.get(t.term) ?? 0) + 1);
  }
  return { counts, length };
}

/**
 * The set of distinct content terms of a text (stopwords out, compound parts expanded, wholes
 * kept): what near-duplicate checks compare with Jaccard.
 */
export function termSet(text: string): Set<string> {
  const s = new Set<string>();
  for (const t of tokenize(text)) if (!t.stop) s.add(t.term);
  return s;
}
