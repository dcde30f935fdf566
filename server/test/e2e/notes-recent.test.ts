// memory_list over the notes (files of the `memory` tool) by recent activity, through the built
// bundle: `kind: "note"` keeps only notes, `sort: "recent"` puts the latest edit or verification
// first, and the cursor pages in that order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { removeDir, tempDir } from '../helpers/env.ts';
import { startServer } from '../helpers/mcp.ts';

const pause = () => new Promise((r) => setTimeout(r, 15));

test('notes listed by recent activity: kind note, sort recent, paged', async () => {
  const store = tempDir('cairn-notes-recent-');
  const s = await startServer({ store, cwd: store });
  try {
    for (const name of ['alpha', 'bravo', 'charlie']) {
      const r = await s.raw('memory', { command: 'create', path: `/memories/${name}.md`, file_text: `# ${name}\nThe ${name} service owns the ${name} queue.\n` });
      assert.equal(r.isError, undefined, JSON.stringify(r.content));
      await pause();
    }
    await s.call('memory_write', { content: 'A plain memory, not a note: the release train leaves on Tuesdays.', scopes: ['release'] });
    await pause();
    // alpha, the oldest note, is edited last: it has the most recent activity
    const edit = await s.raw('memory', { command: 'str_replace', path: '/memories/alpha.md', old_str: 'owns the alpha queue', new_str: 'owns the alpha and delta queues' });
    assert.equal(edit.isError, undefined, JSON.stringify(edit.content));

    const paths = (items: { path?: string }[]) => items.map((i) => i.path);
    const created = await s.call('memory_list', { kind: 'note' });
    assert.deepEqual(paths(created.items).sort(), ['/memories/alpha.md', '/memories/bravo.md', '/memories/charlie.md'], 'only the notes');
    const recent = await s.call('memory_list', { kind: 'note', sort: 'recent' });
    assert.deepEqual(paths(recent.items), ['/memories/alpha.md', '/memories/charlie.md', '/memories/bravo.md']);
    assert.equal(recent.next_cursor, null);
    // one by one through the cursor: the same order, nothing twice
    const walked: (string | undefined)[] = [];
    let cursor: string | null | undefined;
    do {
      const p = await s.call('memory_list', { kind: 'note', sort: 'recent', limit: 1, ...(cursor ? { cursor } : {}) });
      walked.push(...paths(p.items));
      cursor = p.next_cursor;
    } while (cursor);
    assert.deepEqual(walked, paths(recent.items));
    // kind memory leaves the notes out
    const plain = await s.call('memory_list', { kind: 'memory' });
    assert.equal(plain.items.length, 1);
    assert.equal(plain.items[0].path, undefined);
    // a cursor of the other sort is refused with the reason
    const first = await s.call('memory_list', { kind: 'note', limit: 1 });
    const wrong = await s.raw('memory_list', { kind: 'note', sort: 'recent', cursor: first.next_cursor });
    assert.equal(wrong.isError, true);
    assert.match((wrong.content as { text: string }[])[0]!.text, /was not issued for sort "recent"/);
  } finally {
    await s.close();
    removeDir(store);
  }
});
