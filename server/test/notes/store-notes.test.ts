// The store's notes area (store/notes.ts): every file under <store>/notes/ is a record whose body
// is the file's text exactly, scoped by its folder; a deleted note is a tombstone that keeps its
// path and exact text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../src/core/store/store.ts';
import { noteOfTombstone, noteScope } from '../../src/core/store/notes.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

test('notes are listed at any depth with their folder as scope; hidden, temp and linked files are not notes', async () => {
  const dir = tempDir();
  try {
    mkdirSync(join(dir, 'notes/projects/widgets'), { recursive: true });
    mkdirSync(join(dir, 'notes/.meta'), { recursive: true });
    const text = 'line one\r\nline two\r\n\r\n  trailing  \n\n';
    writeFileSync(join(dir, 'notes/projects/widgets/api.md'), text);
    writeFileSync(join(dir, 'notes/prefs.txt'), 'plain');
    writeFileSync(join(dir, 'notes/.hidden.md'), 'no');
    writeFileSync(join(dir, 'notes/.meta/x.md'), 'no');
    symlinkSync('/etc/hostname', join(dir, 'notes/out.md'));
    const warnings: string[] = [];
    const store = new Store(dir, { warn: (m) => warnings.push(m) });
    await store.load();
    const notes = [...store.active()].filter((m) => m.note);
    assert.deepEqual(notes.map((m) => m.note).sort(), ['/memories/prefs.txt', '/memories/projects/widgets/api.md']);
    const api = notes.find((m) => m.note === '/memories/projects/widgets/api.md')!;
    assert.equal(api.body, text);
    assert.deepEqual(api.scopes, ['projects:widgets']);
    assert.deepEqual(notes.find((m) => m.note === '/memories/prefs.txt')!.scopes, ['notes']);
    assert.ok(warnings.some((w) => w.includes('out.md') && w.includes('symbolic link')));
    assert.equal(noteScope('Projects/My Widgets!/a.md'), 'projects:my-widgets');
  } finally {
    removeDir(dir);
  }
});

test('a deleted note is a tombstone with its exact text; restoring writes it back byte for byte', async () => {
  const dir = tempDir();
  try {
    const store = new Store(dir, { warn: () => {} });
    await store.load();
    const file = join(dir, 'notes/user/prefs.md');
    const text = '\n\n- [style] terse #tone\r\n\u2028odd\u007f  \n';
    const note = await store.editNote(file, (cur) => {
      assert.equal(cur, null);
      return text;
    });
    assert.equal(readFileSync(file, 'utf8'), text);
    assert.equal(note.note, '/memories/user/prefs.md');
    const [tomb] = await store.removeNotes([file], (n) => ({ ...n, id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H', body: n.body.trim(), removed: new Date().toISOString(), removed_reason: 'deleted via memory tool', removed_session: null }));
    assert.equal(existsSync(file), false);
    // A fresh store reads the tombstone back from disk.
    const again = new Store(dir, { warn: () => {} });
    await again.load();
    const t = again.getTombstone(tomb!.id)!;
    assert.deepEqual(noteOfTombstone(t), { path: '/memories/user/prefs.md', text });
    await again.restoreNote(t.id, file, text);
    assert.equal(readFileSync(file, 'utf8'), text);
    assert.equal(again.getTombstone(t.id), undefined);
  } finally {
    removeDir(dir);
  }
});
