// Word splitter of the built-in embedder, shared with the script that builds its table
// (scripts/embed/build.mjs): the two must cut text into the same words.
// Lowercase runs of letters and digits; camelCase / PascalCase / ACRONYMWord split into their
// parts; snake_case, kebab-case, paths and dotted names split on the punctuation. Digits stay
// attached to their letters (s3, k8s, ec2, http2) since those are names on their own.

const SPLIT = /[^\p{L}\p{N}]+/u;

/** Appends the words of `text` to `out` (and returns it). */
export function embedWords(text: string, out: string[] = []): string[] {
  for (const chunk of text.split(SPLIT)) {
    if (chunk === '') continue;
    // fast path: all lowercase (the common case)
    if (chunk === chunk.toLowerCase()) {
      out.push(chunk);
      continue;
    }
    let start = 0;
    const n = chunk.length;
    for (let i = 1; i < n; i++) {
      const c = chunk[i]!;
      const p = chunk[i - 1]!;
      const cUp = c !== c.toLowerCase();
      const pUp = p !== p.toLowerCase();
      const pLow = p !== p.toUpperCase();
      // fooBar | 3Bar : boundary before an upper letter after a digit or 2+ lower letters (iOS, eBay stay whole)
      // HTTPServer : boundary before the last upper of a 2+ run when a lower letter follows (OAuth stays whole)
      if (cUp && ((pLow && i - start >= 2) || (p >= '0' && p <= '9'))) {
        out.push(chunk.slice(start, i).toLowerCase());
        start = i;
      } else if (cUp && pUp && i + 1 < n) {
        const nx = chunk[i + 1]!;
        if (nx !== nx.toUpperCase() && i - start >= 2) {
          out.push(chunk.slice(start, i).toLowerCase());
          start = i;
        }
      }
    }
    out.push(chunk.slice(start).toLowerCase());
  }
  return out;
}
