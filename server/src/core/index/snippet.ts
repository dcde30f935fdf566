// Snippets: at most SNIPPET_MAX characters of the body, whitespace collapsed, cut at word
// boundaries, centred on the first matching passage (not always the opening), with an ellipsis
// on each side that was cut.

export const SNIPPET_MAX = 200;
const ELLIPSIS = '…';

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * @param matchStart UTF-16 offset in `body` of the first matching token, or -1 for the opening
 * @param matchEnd   its end offset
 */
export function makeSnippet(body: string, matchStart: number, matchEnd: number, max = SNIPPET_MAX): string {
  const whole = collapse(body);
  if (whole.length <= max) return whole;
  const budget = max - 2; // an ellipsis may be needed on both sides
  let start = 0;
  if (matchStart > 0) {
    const centre = (matchStart + Math.max(matchEnd, matchStart)) >> 1;
    start = Math.max(0, Math.min(centre - (budget >> 1), body.length - budget));
    // Never cut a word in half on the left: skip forward to the next word, or, if that would
    // skip the match itself, back up to the beginning of the word we landed in.
    if (start > 0 && !/\s/.test(body[start - 1]!)) {
      let fwd = start;
      while (fwd < body.length && !/\s/.test(body[fwd]!)) fwd++;
      while (fwd < body.length && /\s/.test(body[fwd]!)) fwd++;
      if (fwd <= matchStart) start = fwd;
      else while (start > 0 && !/\s/.test(body[start - 1]!)) start--;
    }
  }
  const prefix = start > 0 && collapse(body.slice(0, start)) !== '' ? ELLIPSIS : '';
  let text = collapse(body.slice(start, start + max * 4));
  const room = max - prefix.length;
  if (text.length > room || start + max * 4 < body.length) {
    const limit = room - 1; // keep one character for the closing ellipsis
    if (text.length > limit) {
      let cut = text.lastIndexOf(' ', limit);
      if (cut <= 0) cut = limit; // a single giant word: hard cut is the only option
      text = text.slice(0, cut).trimEnd();
    }
    text += ELLIPSIS;
  }
  return prefix + text;
}
