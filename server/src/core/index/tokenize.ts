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
const GROUP_RE = /[\p{L}\p{N}\p{M}]+(?:['\u2019][\p{L}\p{N}\p{M}]+)*(?:[-_:./][\p{L}\p{N}\p{M}]+(?:['\u2019][\p{L}\p{N}\p{M}]+)*)*/gu;
const JOINER_RE = /[-_:./]/;
const APOSTROPHE_RE = /['\u2019]/g;
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

/** Receives each token (see Token for the fields); returning true ends the scan early. */
export type TokenSink = (term: string, surface: string, pos: number, start: number, end: number, whole: boolean, stop: boolean) => boolean | void;

// Most groups are one plain word (optionally capitalized): no joiner, no camelCase, no CJK.
const SIMPLE_RE = /^[A-Za-z0-9][a-z0-9]*$/;

// Stopword test and stemming of the same words again and again are most of the tokenizer's work:
// one memo answers both (a stopword maps to STOP), bounded in size.
const STOP = '\u0000';
const WORD_CACHE_MAX = 100_000;
const wordCache = new Map<string, string>();
/** The index term of a lowercase surface word, or STOP. */
function termOf(w: string): string {
  let t = wordCache.get(w);
  if (t === undefined) {
    if (wordCache.size >= WORD_CACHE_MAX) wordCache.clear();
    t = isStopword(w) ? STOP : stem(w);
    wordCache.set(w, t);
  }
  return t;
}

const GROUP_AT = new RegExp(GROUP_RE.source, 'uy'); // sticky: a group starting exactly at lastIndex
const WORD_CHAR_RE = /[\p{L}\p{N}\p{M}]/u;

export function isAsciiAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
}
/** `-_:./` and apostrophes: characters that may continue a group when a word character follows. */
function isJoiner(c: number): boolean {
  return c === 45 || c === 95 || c === 58 || c === 46 || c === 47 || c === 39 || c === 0x2019;
}
function isWordAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return isAsciiAlnum(c);
  return WORD_CHAR_RE.test(String.fromCodePoint(text.codePointAt(i)!));
}

/**
 * Streams the tokens of a text to `sink` without building token objects (the index and the
 * reranker call this for every document). Positional tokens come in text order; a group's whole
 * (if any) follows its parts. Stopwords are passed (flagged) so positions stay true to the text.
 * Returns the number of positional tokens (up to the halt, if the sink halted the scan).
 *
 * Plain ASCII words take a fast path; anything else (joiners, camelCase, other scripts) goes
 * through GROUP_RE, so both paths cut the same groups.
 */
export function scanTokens(text: string, sink: TokenSink): number {
  let pos = 0;
  const n = text.length;
  const raw: Array<{ text: string; start: number }> = [];
  const parts: Array<{ text: string; start: number }> = [];
  let halted = false;

  const complexGroup = (group: string, base: number): void => {
    raw.length = 0;
    parts.length = 0;
    splitParts(group, base, raw);
    for (const r of raw) pushCjkAware(r.text, r.start, parts);
    const firstPos = pos;
    let whole = '';
    let kept = 0;
    for (const p of parts) {
      if (halted) return;
      const surface = p.text.toLowerCase().replace(APOSTROPHE_RE, '');
      if (surface === '' || surface.length > MAX_TOKEN) continue;
      const t = termOf(surface);
      if (sink(t === STOP ? surface : t, surface, pos++, p.start, p.start + p.text.length, false, t === STOP) === true) halted = true;
      whole += surface;
      kept++;
    }
    if (kept > 1 && whole.length <= MAX_TOKEN && !CJK_RE.test(group) && sink(whole, whole, firstPos, base, base + group.length, true, false) === true) halted = true;
  };

  let i = 0;
  while (i < n && !halted) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (!isAsciiAlnum(c)) {
        i++;
        continue;
      }
      // Scan an ASCII word; `plain` = no uppercase after the first character.
      let j = i + 1;
      let plain = true;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if ((d >= 97 && d <= 122) || (d >= 48 && d <= 57)) continue;
        if (d >= 65 && d <= 90) {
          plain = false;
          continue;
        }
        break;
      }
      const d = j < n ? text.charCodeAt(j) : 32;
      const continues = d >= 128 || (isJoiner(d) && j + 1 < n && isWordAt(text, j + 1));
      if (!continues) {
        if (plain && j - i <= MAX_TOKEN) {
          const surface = text.slice(i, j).toLowerCase();
          const t = termOf(surface);
          if (sink(t === STOP ? surface : t, surface, pos++, i, j, false, t === STOP) === true) halted = true;
        } else if (!plain) complexGroup(text.slice(i, j), i);
        i = j;
        continue;
      }
    }
    GROUP_AT.lastIndex = i;
    const m = GROUP_AT.exec(text);
    if (m === null) {
      i += c >= 0xd800 && c <= 0xdbff ? 2 : 1; // not a word character (a surrogate pair is one)
      continue;
    }
    const group = m[0];
    if (SIMPLE_RE.test(group)) {
      if (group.length <= MAX_TOKEN) {
        const surface = group.toLowerCase();
        const t = termOf(surface);
        if (sink(t === STOP ? surface : t, surface, pos++, i, i + group.length, false, t === STOP) === true) halted = true;
      }
    } else complexGroup(group, i);
    i += group.length;
  }
  return pos;
}

/** All tokens of a text as objects (convenient; hot paths use scanTokens). */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  scanTokens(text, (term, surface, pos, start, end, whole, stop) => {
    out.push({ term, surface, pos, start, end, whole, stop });
  });
  return out;
}
