// The link graph follows the store's change feed: after every kind of change (write, update of
// body and aliases, remove, restore, note create / edit / rename / delete) the graph kept up to
// date incrementally answers exactly as one built from scratch, and memory_show / memory_related
// after a change never walk the store.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Cairn } from '../../src/core/cairn.ts';
import { LinkGraph, type Edge } from '../../src/core/notes/graph.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

let root: string;
let c: Cairn;

before(async () => {
  root = tempDir();
  c = await Cairn.open({ dir: join(root, 'store'), cwd: root, env: { HOME: root }, watch: false, warn: () => {} });
});
after(async () => {
  await c.close();
  removeDir(root);
});

const e = (x: Edge) => `${x.from.id} ${x.relation} ${x.target} -> ${x.to?.id ?? '-'}`;

/** Every answer of the live graph equals a fresh build's, for every record and target. */
function assertSameAsFresh(step: string): void {
  const live = c.links;
  assert.ok(live, 'the graph is open');
  const fresh = new LinkGraph(c.store);
  try {
    const ids = [...c.store.active()].map((m) => m.id);
    for (const id of ids) {
      assert.deepEqual(live.outgoing(id).map(e), fresh.outgoing(id).map(e), `${step}: outgoing of ${id}`);
      assert.deepEqual(live.backlinks(id).map(e), fresh.backlinks(id).map(e), `${step}: backlinks of ${id}`);
      // records are the store's current objects, not stale versions
      for (const x of live.backlinks(id)) assert.equal(x.from, c.store.get(x.from.id), `${step}: backlink source is current`);
    }
    assert.deepEqual(live.dangling().map(e), fresh.dangling().map(e), `${step}: dangling`);
    for (const t of ['Billing service', 'billing', '/memories/projects/billing.md', 'projects/billing', 'Widgets', 'payments', 'Runbook', 'svc-billing', ...ids]) {
      assert.equal(live.resolve(t)?.id, fresh.resolve(t)?.id, `${step}: resolve ${t}`);
    }
  } finally {
    fresh.close();
  }
}

describe('link graph, incremental', () => {
  it('matches a fresh build after every kind of change', async () => {
    await c.memoryTool({ command: 'create', path: '/memories/projects/billing.md', file_text: '# Billing service\n- depends_on [[Payments]]\n' });
    const w = (await c.write({ content: 'Widgets: the build links [[Billing service]] and [[Runbook]].', scopes: ['tools'], force: true })) as { id: string };
    const billing = c.store.get([...c.store.active()].find((m) => m.note === '/memories/projects/billing.md')!.id)!;
    // first use builds the graph; from here on it only follows changes
    const shown = await c.show({ id: billing.id });
    assert.deepEqual((shown.memories[0] as { backlinks: { id: string }[] }).backlinks.map((b) => b.id), [w.id]);
    assertSameAsFresh('start');

    const p = (await c.write({ content: 'The payments team owns refunds; see [[projects/billing]].', scopes: ['team'], aliases: ['payments'], force: true })) as { id: string };
    assertSameAsFresh('write claiming a dangling target by alias');
    assert.equal(c.links.resolve('Payments')?.id, p.id);

    await c.update({ id: p.id, aliases: ['payments-team'] });
    assertSameAsFresh('alias given up');
    assert.equal(c.links.resolve('Payments'), undefined);

    await c.update({ id: w.id, content: 'Widgets: the build links [[svc-billing]] and [[Runbook]] and [[' + p.id + ']].' });
    assertSameAsFresh('body links changed');

    await c.memoryTool({ command: 'create', path: '/memories/ops/runbook.md', file_text: '---\ntitle: Runbook\n---\n- relates_to [[Billing service]]\n' });
    assertSameAsFresh('note resolving a dangling title');

    await c.memoryTool({ command: 'create', path: '/memories/other/billing.md', file_text: '# Billing service\nA second note with the same title.\n' });
    assertSameAsFresh('a second claimant of a title (the first keeps it)');

    await c.memoryTool({ command: 'rename', old_path: '/memories/projects/billing.md', new_path: '/memories/projects/zz-billing.md' });
    assertSameAsFresh('rename: the title moves to the claimant that now sorts first');

    await c.memoryTool({ command: 'str_replace', path: '/memories/other/billing.md', old_str: '# Billing service', new_str: '# Old billing' });
    assertSameAsFresh('title edited away');

    await c.remove({ id: p.id, reason: 'graph test' });
    assertSameAsFresh('remove');
    await c.restore({ id: p.id });
    assertSameAsFresh('restore');

    await c.memoryTool({ command: 'delete', path: '/memories/ops/runbook.md' });
    assertSameAsFresh('note deleted');
  });

  it('memory_show and memory_related after a write do not walk the store', async () => {
    const target = (await c.write({ content: 'The deploy key rotates through the vault job.', scopes: ['ops'], force: true })) as { id: string };
    await c.show({ id: target.id }); // graph already built; steady state
    const store = c.store;
    const orig = store.active.bind(store);
    let walks = 0;
    store.active = () => {
      walks++;
      return orig();
    };
    try {
      const w = (await c.write({ content: `Rotation runbook: see [[${target.id}]].`, scopes: ['ops'], force: true })) as { id: string };
      walks = 0;
      const shown = await c.show({ id: target.id });
      assert.deepEqual((shown.memories[0] as { backlinks: { id: string }[] }).backlinks.map((b) => b.id), [w.id]);
      const rel = await c.related({ id: target.id, depth: 2 });
      assert.deepEqual(rel.backlinks.map((b) => b.id), [w.id]);
      assert.equal(walks, 0, 'show and related after a change read the graph, not every record');
    } finally {
      store.active = orig;
    }
  });
});

describe('link graph, built in slices', () => {
  it('answers as a graph built at once; a change made while it builds leaves it to be built at once on next use', async () => {
    const sliced = new LinkGraph(c.store);
    const atOnce = new LinkGraph(c.store);
    try {
      let pauses = 0;
      await sliced.buildSliced(async () => void pauses++, 0); // a slice of 0 ms: a pause after every record
      assert.ok(pauses > 0);
      assert.deepEqual(sliced.dangling().map(e), atOnce.dangling().map(e));
      for (const m of c.store.active()) assert.deepEqual(sliced.backlinks(m.id).map(e), atOnce.backlinks(m.id).map(e));

      const meanwhile = new LinkGraph(c.store);
      let wrote = false;
      await meanwhile.buildSliced(async () => {
        if (wrote) return;
        wrote = true;
        await c.write({ content: 'Payments escalations go to [[Nowhere yet]].', scopes: ['team'], force: true });
      }, 0);
      const fresh = new LinkGraph(c.store);
      assert.deepEqual(meanwhile.dangling().map(e), fresh.dangling().map(e));
      assert.ok(meanwhile.dangling().some((x) => x.target === 'Nowhere yet'));
      meanwhile.close();
      fresh.close();
    } finally {
      sliced.close();
      atOnce.close();
    }
  });
});
