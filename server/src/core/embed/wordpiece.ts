// The tokenizer of BERT-family sentence encoders (uncased): the reference tokenizer's
// BertNormalizer (clean text, space around CJK ideographs, strip accents, lowercase), its
// BertPreTokenizer (split on whitespace and on every punctuation character) and greedy
// longest-match-first WordPiece over the model's vocabulary. Linear in the text's length: each
// word is matched against at most `MAX_WORD_CHARS` prefixes, and a longer word is one [UNK], as
// in the reference. Token ids are checked against the reference tokenizer's in
// server/test/embed/wordpiece.test.ts.

/** A word longer than this (in code points) becomes one [UNK] (the reference's max_input_chars_per_word). */
const MAX_WORD_CHARS = 100;

/** The special tokens, matched in the raw text before normalisation (the reference's added tokens). */
const SPECIAL = /(\[PAD\]|\[UNK\]|\[CLS\]|\[SEP\]|\[MASK\])/;
/** Characters normalised at a time (then up to the next whitespace). */
const SLICE = 4096;
const CONTROL = /\p{C}/u;
const WHITESPACE = /[\s\p{Zs}]/u;
const PUNCT = /\p{P}/u;
const MARK = /\p{Mn}/u;

function isAsciiPunct(cp: number): boolean {
  return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126);
}

function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b920 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

/** The normalised text (BertNormalizer with lowercase and accent stripping). */
export function bertNormalize(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0 || cp === 0xfffd) continue;
    if (ch === '\t' || ch === '\n' || ch === '\r' || WHITESPACE.test(ch)) {
      out += ' ';
      continue;
    }
    if (CONTROL.test(ch)) continue;
    out += isCjk(cp) ? ` ${ch} ` : ch;
  }
  let stripped = '';
  for (const ch of out.normalize('NFD')) if (!MARK.test(ch)) stripped += ch;
  return stripped.toLowerCase();
}

/** Words and punctuation marks of normalised text (BertPreTokenizer). */
export function bertPreTokenize(normalized: string): string[] {
  const words: string[] = [];
  let cur = '';
  for (const ch of normalized) {
    if (WHITESPACE.test(ch)) {
      if (cur) words.push(cur);
      cur = '';
    } else if (isAsciiPunct(ch.codePointAt(0)!) || PUNCT.test(ch)) {
      if (cur) words.push(cur);
      words.push(ch);
      cur = '';
    } else cur += ch;
  }
  if (cur) words.push(cur);
  return words;
}

export class WordPiece {
  private readonly ids = new Map<string, number>();
  readonly unk: number;
  readonly cls: number;
  readonly sep: number;

  /** `vocab`: the model's tokens in id order. */
  constructor(vocab: readonly string[]) {
    vocab.forEach((t, i) => {
      if (!this.ids.has(t)) this.ids.set(t, i);
    });
    const need = (t: string): number => {
      const id = this.ids.get(t);
      if (id === undefined) throw new Error(`the vocabulary has no ${t} token`);
      return id;
    };
    this.unk = need('[UNK]');
    this.cls = need('[CLS]');
    this.sep = need('[SEP]');
  }

  /** WordPiece ids of one pre-token. */
  private word(w: string, out: number[]): void {
    const chars = Array.from(w);
    if (chars.length > MAX_WORD_CHARS) {
      out.push(this.unk);
      return;
    }
    const start = out.length;
    let i = 0;
    while (i < chars.length) {
      let end = chars.length;
      let found = -1;
      while (end > i) {
        const piece = (i > 0 ? '##' : '') + chars.slice(i, end).join('');
        const id = this.ids.get(piece);
        if (id !== undefined) {
          found = id;
          break;
        }
        end--;
      }
      if (found < 0) {
        out.length = start;
        out.push(this.unk);
        return;
      }
      out.push(found);
      i = end;
    }
  }

  /**
   * Token ids without [CLS]/[SEP], at most `limit` of them (the rest of the text is not looked
   * at). A special token written out in the text ("[SEP]") is that token, as in the reference.
   */
  tokenize(text: string, limit = Infinity): number[] {
    const out: number[] = [];
    const parts = text.split(SPECIAL);
    for (let p = 0; p < parts.length && out.length < limit; p++) {
      if (p % 2 === 1) {
        out.push(this.ids.get(parts[p]!) ?? this.unk);
        continue;
      }
      // Normalised a slice at a time, so a huge text past the limit costs nothing.
      const part = parts[p]!;
      for (let at = 0; at < part.length && out.length < limit; ) {
        let end = Math.min(part.length, at + SLICE);
        // cut at whitespace (a word is never split), else take the rest
        while (end < part.length && !/\s/.test(part[end]!)) end++;
        for (const w of bertPreTokenize(bertNormalize(part.slice(at, end)))) {
          this.word(w, out);
          if (out.length >= limit) break;
        }
        at = end;
      }
    }
    if (out.length > limit) out.length = limit;
    return out;
  }

  /** [CLS] ids [SEP], cut to at most `maxTokens` in all (the reference's truncation). */
  encode(text: string, maxTokens: number): number[] {
    const ids = this.tokenize(text, Math.max(0, maxTokens - 2));
    return [this.cls, ...ids, this.sep];
  }
}
