// The consolidation index: its groups are the ones an all-pairs judge finds on a small store; it
// follows changes one memory at a time (an edit, a removal, a copy standing in for a removed
// text); a store that repeats itself gets its copies clustered; the rewording check groups two
// wordings of one fact through the embedder and leaves ordinary distinct notes alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { groupsOf, judgePair, type ConsolidateGroup, type ConsolidateMemory } from '../../src/core/curation/consolidate.ts';
import { ConsolidationIndex, type SemanticSource } from '../../src/core/curation/consolidationIndex.ts';

const ID = (i: number) => `01JAAAAAAAAAAAAAAAAAAA${String(i).padStart(4, '0')}`;
const mems = (bodies: string[]): ConsolidateMemory[] => bodies.map((body, i) => ({ id: ID(i), body }));

const BODIES = [
  'The session cache TTL is 5 minutes in the api gateway.',
  'The session cache TTL is ten minutes in the api gateway.',
  'Deploys to staging run from the deploy-staging workflow.',
  'Deploys to staging run from the deploy-staging workflow; production deploys need a manual approval from the release manager in GitHub Actions.',
  'Use pnpm, never npm, in the web monorepo because npm breaks the pnpm lockfile.',
  'In the web monorepo use pnpm and never npm because npm breaks the lockfile of pnpm workspaces.',
  'In the web monorepo always use pnpm never npm since npm breaks the pnpm lockfile.',
  'The office wifi password rotates every quarter.',
  'Grafana dashboards live in the observability folder of the infra repo.',
  'Grafana dashboards live in the observability folder of the infra repository.',
  'Lark API responses are cached in Redis for five minutes',
  'The Lark API caches its responses in Redis with a five minute TTL',
];

/** Every pair judged: what the index must find on a store this small. */
function allPairs(list: ConsolidateMemory[]): ConsolidateGroup[] {
  const pairs: ConsolidateGroup[] = [];
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const [a, b] = list[i]!.id < list[j]!.id ? [list[i]!, list[j]!] : [list[j]!, list[i]!];
      const g = judgePair(a, b);
      if (g) pairs.push(g);
    }
  }
  return groupsOf(pairs);
}

async function indexOf(list: ConsolidateMemory[], semantic?: SemanticSource): Promise<ConsolidationIndex> {
  const ix = new ConsolidationIndex();
  for (const m of list) ix.upsert(m);
  await ix.settle(semantic ? { semantic } : {});
  return ix;
}
const everyone = () => true;

test('the index finds the groups an all-pairs judge finds', async () => {
  const list = mems(BODIES);
  const ix = await indexOf(list);
  const got = ix.groups(everyone);
  assert.deepEqual(got, allPairs(list));
  const kinds = got.map((g) => `${g.kind}:${g.ids.map((id) => list.findIndex((m) => m.id === id)).join(',')}`);
  // The Lark pair is a duplicate on its stemmed words (caches/cached, minutes/minute).
  assert.deepEqual(kinds, ['contradiction:0,1', 'superseded:2,3', 'duplicates:4,5,6', 'duplicates:8,9', 'duplicates:10,11']);
});

test('the index follows edits, removals and additions one memory at a time', async () => {
  const list = mems(BODIES);
  const ix = await indexOf(list);
  // An edit that makes the TTL agree turns the contradiction into a duplicate pair.
  ix.upsert({ id: ID(1), body: 'The session cache TTL is 5 minutes in the api gateway service.' });
  assert.equal(ix.pending, 1);
  await ix.settle();
  const after = [...list];
  after[1] = { id: ID(1), body: 'The session cache TTL is 5 minutes in the api gateway service.' };
  assert.deepEqual(ix.groups(everyone), allPairs(after));
  assert.ok(!ix.groups(everyone).some((g) => g.kind === 'contradiction'));
  // A removal takes the memory's pairs with it.
  ix.remove(ID(5));
  await ix.settle();
  const without = after.filter((m) => m.id !== ID(5));
  assert.deepEqual(ix.groups(everyone), allPairs(without));
  // A new memory is judged against the others.
  ix.upsert({ id: ID(50), body: 'The office wifi password rotates every month.' });
  await ix.settle();
  assert.deepEqual(ix.groups(everyone), allPairs([...without, { id: ID(50), body: 'The office wifi password rotates every month.' }]));
  // An unchanged text is not judged again.
  ix.upsert({ id: ID(7), body: BODIES[7]! });
  assert.equal(ix.pending, 0);
});

test('copies of one text form one cluster; removing the one that stands for them keeps the rest joined', async () => {
  const base = 'Feature flags in alpha default to off in production and are cleaned up 30 days after rollout.';
  const list = [...mems(BODIES), ...Array.from({ length: 40 }, (_, i) => ({ id: ID(100 + i), body: base }))];
  const ix = await indexOf(list);
  const cluster = ix.groups(everyone).find((g) => g.kind === 'duplicates' && g.ids.includes(ID(100)))!;
  assert.equal(cluster.kind, 'duplicates');
  assert.equal(cluster.ids.length, 40);
  // A contradicting note about the same flag is reported once, on the text, not once per copy.
  ix.upsert({ id: ID(200), body: 'Feature flags in alpha default to off in production and are cleaned up 10 days after rollout.' });
  await ix.settle();
  const contra = ix.groups(everyone).filter((g) => g.kind === 'contradiction' && g.ids.includes(ID(200)));
  assert.equal(contra.length, 1);
  assert.equal(contra[0]!.ids[0], ID(100));
  // Remove the copy that stood for the text: the next one stands for it and the pairs come back.
  ix.remove(ID(100));
  await ix.settle();
  const g2 = ix.groups(everyone);
  assert.equal(g2.find((g) => g.kind === 'duplicates' && g.ids.includes(ID(101)))!.ids.length, 39);
  assert.deepEqual(g2.filter((g) => g.kind === 'contradiction' && g.ids.includes(ID(200))).map((g) => g.ids), [[ID(101), ID(200)]]);
  // Reporting on part of the store: the copies admitted stand for the text.
  const some = new Set([ID(120), ID(121), ID(200)]);
  const part = ix.groups((id) => some.has(id));
  assert.deepEqual(part.map((g) => [g.kind, g.ids]), [['contradiction', [ID(120), ID(200)]], ['duplicates', [ID(120), ID(121)]]]);
});

test('a store that repeats itself is judged with bounded work per memory and still clusters', async () => {
  const projects = Array.from({ length: 20 }, (_, i) => `proj${String.fromCharCode(97 + i)}x`);
  const list: ConsolidateMemory[] = [];
  for (let i = 0; i < 3000; i++) {
    const p = projects[i % 20]!;
    const n = [2, 3, 5, 10][Math.floor(i / 20) % 4];
    list.push({ id: ID(1000 + i), body: `The ${p} API caches responses in redis for ${n} minutes; invalidate the keys after a schema change.` });
  }
  const t0 = performance.now();
  const ix = await indexOf(list);
  const ms = performance.now() - t0;
  const groups = ix.groups(everyone);
  // 80 texts (20 projects x 4 values), each repeated ~37 times. On words, the same note for two
  // projects is a near-duplicate (11 of 13 tokens shared): one cluster per value, every memory
  // in one; and the same note with another value is a contradiction.
  const dups = groups.filter((g) => g.kind === 'duplicates');
  assert.equal(dups.length, 4);
  assert.equal(dups.reduce((n, g) => n + g.ids.length, 0), 3000);
  assert.ok(groups.some((g) => g.kind === 'contradiction'));
  // Generous: a few hundred ms on a quiet machine; all pairs would be 4.5 million judgements.
  assert.ok(ms < 20_000, `took ${ms} ms`);
});

test('the rewording check groups two wordings of a fact through the embedder, and not ordinary distinct notes', async () => {
  // A stand-in embedder: one direction per listed fact, so the two wordings of it are close.
  const facts = ['billing', 'invoice'];
  const semantic: SemanticSource = {
    id: () => 'test:facts',
    min: () => 0.65,
    embed: async (texts) =>
      texts.map((t) => {
        const v = new Float32Array(8);
        facts.forEach((f, i) => (v[i] = t.toLowerCase().includes(f) ? 1 : 0));
        v[7] = 0.2 * (t.length % 3);
        return v;
      }),
  };
  const a = 'The billing service sends invoices as PDF attachments by email on the first day of each month';
  const b = 'On the first day of every month, billing emails customers their invoice as an attached PDF';
  const words = await indexOf(mems([a, b]));
  assert.deepEqual(words.groups(everyone), [], 'on words alone they are not duplicates');
  const ix = await indexOf(mems([a, b]), semantic);
  const got = ix.groups(everyone);
  assert.equal(got.length, 1);
  assert.equal(got[0]!.kind, 'duplicates');
  assert.match(got[0]!.reason, /the same in other words \(cosine/);
  // Without vectors the pair waits, and is judged once the embedder answers.
  const later = await indexOf(mems([a, b]));
  await later.settle({ semantic });
  assert.equal(later.groups(everyone).length, 1);

  // The ordinary distinct notes: none restates another, so nothing is grouped on words.
  const notes = readFileSync(new URL('../trust/fixtures/ordinary-notes.md', import.meta.url), 'utf8').split(/\n====\n/).slice(1).map((s) => s.trim()).filter(Boolean);
  const ordinary = await indexOf(mems(notes));
  assert.deepEqual(ordinary.groups(everyone), []);
});

test('memories added for later are taken by the next settle; a removal or edit made meanwhile wins', async () => {
  const list = mems(BODIES);
  const ix = new ConsolidationIndex();
  ix.addLater(list);
  assert.equal(ix.pending, list.length);
  ix.remove(ID(1)); // the TTL contradiction's newer half, gone before it was ever judged
  ix.upsert({ id: ID(9), body: 'The office wifi password rotates every quarter, says IT.' });
  await ix.settle();
  assert.equal(ix.pending, 0);
  const expect = list.filter((m) => m.id !== ID(1)).map((m) => (m.id === ID(9) ? { id: ID(9), body: 'The office wifi password rotates every quarter, says IT.' } : m));
  assert.deepEqual(ix.groups(everyone), allPairs(expect));
});
