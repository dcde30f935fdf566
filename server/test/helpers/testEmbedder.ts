// A small deterministic embedder for tests and the eval: hashed word and character-trigram
// features folded into DIM buckets, unit length. Words sharing letters land near each other
// (deploy/deploying), nothing else: it stands in for a real model where only the plumbing is
// under test, and as the "test embedder" row of the eval.
export const TEST_DIM = 128;

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function testEmbed(text: string, dim = TEST_DIM): Float32Array {
  const v = new Float32Array(dim);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    if (w.length < 2) continue;
    const h = hash(w);
    v[h % dim]! += (h & 0x100) === 0 ? 1 : -1;
    const p = `^${w}$`;
    for (let i = 0; i + 3 <= p.length; i++) {
      const g = hash(p.slice(i, i + 3));
      v[g % dim]! += (g & 0x100) === 0 ? 0.4 : -0.4;
    }
  }
  let s = 0;
  for (let i = 0; i < dim; i++) s += v[i]! * v[i]!;
  if (s > 0) for (let i = 0; i < dim; i++) v[i] = v[i]! / Math.sqrt(s);
  return v;
}

export function testEmbedder(id = 'test:hash-v1', dim = TEST_DIM) {
  return {
    id,
    dim,
    embedSync: (text: string) => testEmbed(text, dim),
    embed: async (texts: readonly string[]) => texts.map((t) => testEmbed(t, dim)),
  };
}
