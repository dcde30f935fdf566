// The consolidation index: its groups are the ones an all-pairs judge finds on a small store; it
// follows changes one memory at a time (an edit, a removal, a copy standing in for a removed
// text); a store that repeats itself gets its copies clustered; the rewording check groups two
// wordings of one fact through the embedder and leaves ordinary distinct notes alone; memories
// are compared only where they apply together; a snapshot is taken back without judging again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupsOf, judgePair, type ConsolidateGroup, type ConsolidateMemory } from '../../src/core/curation/consolidate.ts';
import { ConsolidationIndex, type SemanticSource } from '../../src/core/curation/consolidationIndex.ts';
import { encodeSnapshot, readSnapshot, writeSnapshot } from '../../src/core/curation/consolidationSnapshot.ts';

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

// ---- where memories apply (consolidationContext.ts) -------------------------------------------

const FIVE = 'The billing API caches responses in redis for 5 minutes; invalidate the keys after a schema change.';
const TEN = 'The billing API caches responses in redis for 10 minutes; invalidate the keys after a schema change.';
const REPO_A = 'github.com/acme/alpha';
const REPO_B = 'github.com/acme/beta';

async function kindsOf(a: Omit<ConsolidateMemory, 'id'>, b: Omit<ConsolidateMemory, 'id'>, globalScopes = ['tools', 'preferences']): Promise<string[]> {
  const ix = new ConsolidationIndex({ globalScopes });
  ix.upsert({ id: ID(1), ...a });
  ix.upsert({ id: ID(2), ...b });
  await ix.settle();
  const counted = ix.counts(everyone);
  const kinds = ix.groups(everyone).map((g) => g.kind);
  assert.deepEqual(counted, { contradiction: kinds.filter((k) => k === 'contradiction').length, superseded: kinds.filter((k) => k === 'superseded').length, duplicates: kinds.filter((k) => k === 'duplicates').length });
  return kinds;
}

test('two memories are compared only when one view shows both and they share a scope', async () => {
  const at = (scopes: string[], repo: string | null, body = TEN) => ({ body, scopes, repo });
  // The same place: a contradiction, whatever the order of the scopes.
  assert.deepEqual(await kindsOf({ body: FIVE, scopes: ['caching', 'projects:alpha'], repo: REPO_A }, at(['projects:alpha', 'caching'], REPO_A)), ['contradiction']);
  // The same note for two projects is two facts: not a contradiction, whether the repos differ or not.
  assert.deepEqual(await kindsOf({ body: FIVE, scopes: ['projects:alpha'], repo: REPO_A }, at(['projects:beta'], REPO_B)), []);
  assert.deepEqual(await kindsOf({ body: FIVE, scopes: ['projects:alpha'], repo: REPO_A }, at(['projects:beta'], REPO_A)), []);
  // A shared scope in two repos: two repos' own facts, unless the scope is global (the view outside a repo shows both).
  assert.deepEqual(await kindsOf({ body: FIVE, scopes: ['caching'], repo: REPO_A }, at(['caching'], REPO_B)), []);
  assert.deepEqual(await kindsOf({ body: FIVE, scopes: ['tools'], repo: REPO_A }, at(['tools'], REPO_B)), ['contradiction']);
  assert.deepEqual(await kindsOf({ body: FIVE, scopes: ['caching'], repo: REPO_A }, at(['caching'], REPO_B), ['caching']), ['contradiction']);
  // A memory from no repo is in every repo's view; a nested scope is shared with its parent.
  assert.deepEqual(await kindsOf({ body: FIVE, scopes: ['projects:alpha'], repo: null }, at(['projects:alpha'], REPO_A)), ['contradiction']);
  assert.deepEqual(await kindsOf({ body: FIVE, scopes: ['preferences'], repo: REPO_A }, at(['preferences:editor'], REPO_A)), ['contradiction']);
  // Copies of one text: one cluster in one place, none across two projects.
  assert.deepEqual(await kindsOf({ body: FIVE, scopes: ['projects:alpha'], repo: REPO_A }, at(['projects:alpha'], REPO_A, FIVE)), ['duplicates']);
  assert.deepEqual(await kindsOf({ body: FIVE, scopes: ['projects:alpha'], repo: REPO_A }, at(['projects:beta'], REPO_B, FIVE)), []);
  // A memory given without scopes is compared with every other.
  assert.deepEqual(await kindsOf({ body: FIVE }, at(['projects:beta'], REPO_B)), ['contradiction']);
});

test('re-scoping a memory follows it: its pairs go when it leaves the place and come back when it returns', async () => {
  const ix = new ConsolidationIndex();
  ix.upsert({ id: ID(1), body: FIVE, scopes: ['projects:alpha'], repo: REPO_A });
  ix.upsert({ id: ID(2), body: TEN, scopes: ['projects:alpha'], repo: REPO_A });
  await ix.settle();
  assert.deepEqual(ix.groups(everyone).map((g) => g.kind), ['contradiction']);
  ix.upsert({ id: ID(2), body: TEN, scopes: ['projects:beta'], repo: REPO_A });
  assert.equal(ix.pending, 1, 'the same text in another place is judged again');
  await ix.settle();
  assert.deepEqual(ix.groups(everyone), []);
  ix.upsert({ id: ID(2), body: TEN, scopes: ['projects:alpha'], repo: REPO_A });
  await ix.settle();
  assert.deepEqual(ix.groups(everyone).map((g) => g.kind), ['contradiction']);
});

// ---- what a snapshot keeps (consolidationSnapshot.ts) -----------------------------------------

const placed = (list: ConsolidateMemory[]) => list.map((m, i) => ({ ...m, scopes: [i % 2 === 0 ? 'ops' : 'ops:deploy'], repo: REPO_A }));

test('a snapshot taken back judges nothing again and reports the same groups', async () => {
  const list = placed(mems(BODIES));
  const first = new ConsolidationIndex({ globalScopes: ['tools'] });
  first.addLater(list);
  await first.settle();
  const snap = first.snapshot()!;
  assert.ok(snap.pairs.length > 0);
  const again = new ConsolidationIndex({ globalScopes: ['tools'] });
  again.addLater(list, snap);
  await again.settle();
  assert.equal(again.changes, 0, 'nothing judged, nothing new to save');
  assert.deepEqual(again.groups(everyone), first.groups(everyone));
  // Through the file: the same.
  const dir = mkdtempSync(join(tmpdir(), 'cairn-snap-'));
  try {
    await writeSnapshot(dir, encodeSnapshot(dir, snap));
    assert.deepEqual(readSnapshot(dir), snap);
    // Another store's file, a damaged one: no snapshot.
    assert.equal(readSnapshot(join(dir, 'elsewhere')), null);
    const file = join(dir, '.cache', 'consolidation.json');
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, -10));
    assert.equal(readSnapshot(dir), null);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(encodeSnapshot(dir, snap)), pairs: [0, 99999, 1, 0, 0] }));
    assert.equal(readSnapshot(dir), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a snapshot keeps the pairs of the memories unchanged since; an edited, re-scoped, removed or added memory is judged again', async () => {
  const list = placed(mems(BODIES));
  const first = new ConsolidationIndex();
  first.addLater(list);
  await first.settle();
  const snap = first.snapshot()!;
  // Changed while no process held the index (another tool, a sync, a hand edit).
  const now = list
    .filter((m) => m.id !== ID(5)) // removed: its pairs go
    .map((m) => (m.id === ID(1) ? { ...m, body: 'The session cache TTL is 5 minutes in the api gateway service.' } : m)) // edited: the contradiction becomes a duplicate
    .map((m) => (m.id === ID(9) ? { ...m, scopes: ['infra'] } : m)); // re-scoped: the Grafana pair leaves
  now.push({ id: ID(60), body: 'The office wifi password rotates every month.', scopes: ['ops'], repo: REPO_A }); // added
  const fresh = new ConsolidationIndex();
  fresh.addLater(now);
  await fresh.settle();
  const taken = new ConsolidationIndex();
  taken.addLater(now, snap);
  let judged = 0;
  await taken.settle({ progress: (d) => (judged = d) });
  assert.deepEqual(taken.groups(everyone), fresh.groups(everyone));
  assert.ok(!taken.groups(everyone).some((g) => g.kind === 'contradiction'));
  assert.ok(!taken.groups(everyone).some((g) => g.ids.includes(ID(9))));
  assert.ok(taken.changes > 0 && taken.changes < fresh.changes / 2, `${taken.changes} changes against ${fresh.changes} from scratch`);
  assert.ok(judged >= now.length);
  // A snapshot made under other rules is not taken: everything is judged.
  const other = new ConsolidationIndex({ globalScopes: ['tools'] });
  other.addLater(now, snap);
  await other.settle();
  assert.equal(other.changes, fresh.changes);
  assert.deepEqual(other.groups(everyone), fresh.groups(everyone));
});
