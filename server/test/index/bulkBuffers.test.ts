// Bulk paths hand out views of one buffer instead of a typed array of their own per memory: at
// 200k memories, 200,000 small buffers outside V8's heap per pass (a first start's analysis, a
// cache save's forward lists, the embedding pass) left the C heap fragmented (peak RSS of a first
// start 571-576 MB before, 530 MB after). These tests fail if a path goes back to one per item.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Int32Arena, analyzeDoc, type IndexDoc } from '../../src/core/index/analyze.ts';
import { Postings } from '../../src/core/index/postings.ts';
import { builtinEmbedder } from '../../src/core/embed/builtin.ts';

const at = '2026-01-01T00:00:00.000Z';
const docs: IndexDoc[] = Array.from({ length: 40 }, (_, i) => ({
  id: `M${i}`,
  body: `Deploy note ${i}: the staging cluster rotates its signing key every ${i + 2} days; backups run nightly.`,
  scopes: ['ops', `team:${i % 3}`],
  created: at,
  updated: at,
}));

test('analyzeDoc with an arena: the same forward lists, as views of a shared chunk', () => {
  const p1 = new Postings();
  const p2 = new Postings();
  const arena = new Int32Arena(256);
  const own = docs.map((d) => analyzeDoc(d, p1));
  const viewed = docs.map((d) => analyzeDoc(d, p2, arena));
  own.forEach((a, i) => assert.deepEqual([...viewed[i]!.fwd], [...a.fwd], docs[i]!.id));
  const buffers = new Set(viewed.map((a) => a.fwd.buffer));
  assert.ok(buffers.size < docs.length / 4, `${buffers.size} buffers for ${docs.length} documents`);
  // a chunk never hands out overlapping views
  const spans = viewed.map((a) => [a.fwd.buffer, a.fwd.byteOffset, a.fwd.byteOffset + a.fwd.byteLength] as const);
  for (const [b, s, e] of spans) for (const [b2, s2, e2] of spans) if (b === b2 && s !== s2) assert.ok(e <= s2 || e2 <= s);
});

function built(): Postings {
  const p = new Postings();
  const fwd = docs.map((d) => {
    const a = analyzeDoc(d, p);
    p.addSlot(a.bodyLen, a.scopeLen, 0, Infinity);
    return a.fwd;
  });
  p.buildLists(fwd);
  return p;
}

test('forward lists of a cache save come as views of one buffer per range, equal to the analysis', () => {
  const p = built();
  const expect = docs.map((d) => [...analyzeDoc(d, new Postings()).fwd].length);
  const r = p.forwardReader();
  const part = r.read(0, 25);
  assert.equal(new Set(part.map((f) => f!.buffer)).size, 1);
  part.forEach((f, i) => assert.equal(f!.length, expect[i]));
  const all = p.forwardLists();
  assert.equal(new Set(all.map((f) => f!.buffer)).size, 1);
  all.forEach((f, i) => assert.deepEqual([...f!].filter((_, k) => k % 2 === 0).map((t) => p.terms[t]).sort(), [...new Set(analyzeDoc(docs[i]!, p).fwd.filter((_, k) => k % 2 === 0))].map((t) => p.terms[t]).sort()));
});

test('a batch of built-in embeddings is views of one buffer, each equal to the single embedding', async () => {
  const e = builtinEmbedder({ file: fileURLToPath(new URL('../../dist/cairn-embed.bin', import.meta.url)) });
  const texts = docs.slice(0, 10).map((d) => d.body);
  const batch = await e.embed(texts);
  assert.equal(new Set(batch.map((v) => v.buffer)).size, 1);
  texts.forEach((t, i) => assert.deepEqual([...batch[i]!], [...e.embedSync(t)], `text ${i}`));
});
