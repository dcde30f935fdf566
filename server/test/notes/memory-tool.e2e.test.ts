// The `memory` tool end to end through the built bundle over stdio. Every result and error text
// is pinned here against its source:
//   [docs] platform.claude.com/docs/en/agents-and-tools/tool-use/memory-tool, "Tool commands"
//   [sdk]  anthropic-sdk-typescript src/tools/memory/node.ts (BetaLocalFilesystemMemoryTool),
//          the reference implementation, for texts the docs leave open
//   [runner] anthropic-sdk-typescript src/lib/tools/BetaToolRunner.ts: a handler's thrown
//          message reaches the model as "Error: <message>" with is_error: true
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type Session } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { positiveFixtures } from '../trust/fakeSecrets.ts';

async function withServer(fn: (s: Session, store: string) => Promise<void>, config?: string) {
  const store = tempDir();
  const cwd = tempDir();
  if (config) writeFileSync(join(store, 'config.toml'), config);
  const s = await startServer({ store, cwd });
  try {
    await fn(s, store);
  } finally {
    await s.close();
    removeDir(store);
    removeDir(cwd);
  }
}

/** The text of a memory-tool call, and whether it is an error. */
async function mem(s: Session, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = await s.raw('memory', args);
  assert.equal(r.structuredContent, undefined, 'the memory tool answers in plain text');
  return { text: (r.content[0] as { text: string }).text, isError: r.isError === true };
}
async function ok(s: Session, args: Record<string, unknown>): Promise<string> {
  const r = await mem(s, args);
  assert.equal(r.isError, false, r.text);
  return r.text;
}
async function err(s: Session, args: Record<string, unknown>): Promise<string> {
  const r = await mem(s, args);
  assert.equal(r.isError, true, `expected an error, got: ${r.text}`);
  return r.text;
}
/** The file text back from a view: strip the header and the 6-wide number + tab of each line. */
function unview(out: string): string {
  const [, ...lines] = out.split('\n');
  return lines.map((l) => {
    assert.match(l, /^[ \d]{6}\t/);
    return l.slice(7);
  }).join('\n');
}

test('tools/list: `memory` with Anthropic\'s command and parameter names; the memory_guide prompt', async () => {
  await withServer(async (s) => {
    const { tools } = await s.client.listTools();
    const memory = tools.find((t) => t.name === 'memory')!;
    assert.ok(memory, 'memory tool listed');
    const props = memory.inputSchema.properties as Record<string, { enum?: string[] }>;
    // [docs] the parameters of the six commands
    assert.deepEqual(Object.keys(props).sort(), ['command', 'file_text', 'insert_line', 'insert_text', 'new_path', 'new_str', 'old_path', 'old_str', 'path', 'view_range']);
    assert.deepEqual(props.command!.enum, ['view', 'create', 'str_replace', 'insert', 'delete', 'rename']);
    assert.equal(memory.outputSchema, undefined);
    assert.ok(tools.some((t) => t.name === 'memory_related'));
    assert.ok(s.client.getServerCapabilities()?.prompts, 'the server declares prompts');
    const { prompts } = await s.client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ['memory_guide', 'memory_scope', 'memory_review']);
    const g = await s.client.getPrompt({ name: 'memory_guide' });
    const text = (g.messages[0]!.content as { text: string }).text;
    for (const want of ['/memories/user/', '/memories/projects/<name>/', 'sessions/', 'patterns/', '- [category]', '- relation_type [[', 'projects:widgets']) assert.ok(text.includes(want), want);
  });
});

test('view, create, str_replace, insert: result texts, line numbers, the byte-identical round trip', async () => {
  await withServer(async (s, store) => {
    // [docs] directory header; an empty store is an empty /memories
    assert.equal(await ok(s, { command: 'view', path: '/memories' }), 'Here\'re the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n0B\t/memories');
    const text = '# Widgets\n\n- [decision] Postgres 16 #db\n  indented\ttab  \n\nlast line without newline';
    // [docs] "File created successfully at: {path}"
    assert.equal(await ok(s, { command: 'create', path: '/memories/projects/widgets/arch.md', file_text: text }), 'File created successfully at: /memories/projects/widgets/arch.md');
    assert.equal(readFileSync(join(store, 'notes/projects/widgets/arch.md'), 'utf8'), text, 'the file is the text, nothing added');
    // [docs] file view: header, 6-wide right-aligned numbers, a tab
    const v = await ok(s, { command: 'view', path: '/memories/projects/widgets/arch.md' });
    assert.equal(v.split('\n')[0], 'Here\'s the content of /memories/projects/widgets/arch.md with line numbers:');
    assert.equal(v.split('\n')[1], '     1\t# Widgets');
    assert.equal(unview(v), text, 'create -> view is byte-identical');
    const withNl = 'a\nb\n';
    await ok(s, { command: 'create', path: '/memories/nl.txt', file_text: withNl });
    assert.equal(unview(await ok(s, { command: 'view', path: '/memories/nl.txt' })), withNl);
    // view_range, end -1 = to the end
    assert.equal(await ok(s, { command: 'view', path: '/memories/projects/widgets/arch.md', view_range: [3, 4] }), 'Here\'s the content of /memories/projects/widgets/arch.md with line numbers:\n     3\t- [decision] Postgres 16 #db\n     4\t  indented\ttab  ');
    assert.equal(unview(await ok(s, { command: 'view', path: '/memories/projects/widgets/arch.md', view_range: [6, -1] })), 'last line without newline');
    assert.match(await err(s, { command: 'view', path: '/memories/projects/widgets/arch.md', view_range: [5, 2] }), /^Error: Invalid `view_range` parameter: \[5,2\]/);
    // [docs] directory listing: size<TAB>path, 2 levels, folders with a slash, hidden excluded
    mkdirSync(join(store, 'notes/projects/widgets/deep/deeper'), { recursive: true });
    writeFileSync(join(store, 'notes/projects/widgets/deep/deeper/x.md'), 'too deep');
    writeFileSync(join(store, 'notes/.hidden'), 'h');
    const listing = (await ok(s, { command: 'view', path: '/memories' })).split('\n');
    assert.equal(listing[0], 'Here\'re the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:');
    const paths = listing.slice(1).map((l) => {
      assert.match(l, /^\d+(\.\d)?[BKMG]\t\/memories/);
      return l.split('\t')[1];
    });
    assert.deepEqual(paths, ['/memories', '/memories/nl.txt', '/memories/projects/', '/memories/projects/widgets/']);
    assert.ok(listing.includes('4B\t/memories/nl.txt'));
    // [docs] not found on view
    assert.equal(await err(s, { command: 'view', path: '/memories/nope.md' }), 'Error: The path /memories/nope.md does not exist. Please provide a valid path.');
    // [docs] create over an existing file
    assert.equal(await err(s, { command: 'create', path: '/memories/nl.txt', file_text: 'x' }), 'Error: File /memories/nl.txt already exists');

    // [docs]+[sdk] str_replace: "The memory file has been edited." and a numbered snippet
    const edited = await ok(s, { command: 'str_replace', path: '/memories/projects/widgets/arch.md', old_str: 'Postgres 16', new_str: 'Postgres 17' });
    assert.equal(edited, 'The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\t# Widgets\n     2\t\n     3\t- [decision] Postgres 17 #db\n     4\t  indented\ttab  \n     5\t');
    // a multi-line old_str is matched across lines
    await ok(s, { command: 'str_replace', path: '/memories/projects/widgets/arch.md', old_str: '#db\n  indented', new_str: '#db #storage\n  re-indented' });
    assert.ok(readFileSync(join(store, 'notes/projects/widgets/arch.md'), 'utf8').includes('#db #storage\n  re-indented\ttab'));
    // new_str omitted: the text is deleted
    await ok(s, { command: 'str_replace', path: '/memories/projects/widgets/arch.md', old_str: ' #storage' });
    assert.ok(!readFileSync(join(store, 'notes/projects/widgets/arch.md'), 'utf8').includes('#storage'));
    // [docs] not found / multiple occurrences with their lines
    assert.equal(await err(s, { command: 'str_replace', path: '/memories/projects/widgets/arch.md', old_str: 'MySQL', new_str: 'x' }), 'Error: No replacement was performed, old_str `MySQL` did not appear verbatim in /memories/projects/widgets/arch.md.');
    await ok(s, { command: 'create', path: '/memories/dup.md', file_text: 'alpha\nbeta\nalpha beta\ngamma\nalpha' });
    assert.equal(await err(s, { command: 'str_replace', path: '/memories/dup.md', old_str: 'alpha', new_str: 'x' }), 'Error: No replacement was performed. Multiple occurrences of old_str `alpha` in lines: 1, 3, 5. Please ensure it is unique');
    assert.equal(readFileSync(join(store, 'notes/dup.md'), 'utf8'), 'alpha\nbeta\nalpha beta\ngamma\nalpha', 'a refused edit changes nothing');
    // [docs] str_replace on a missing file or a folder: the not-found text
    assert.equal(await err(s, { command: 'str_replace', path: '/memories/none.md', old_str: 'a', new_str: 'b' }), 'Error: The path /memories/none.md does not exist. Please provide a valid path.');
    assert.equal(await err(s, { command: 'str_replace', path: '/memories/projects', old_str: 'a', new_str: 'b' }), 'Error: The path /memories/projects does not exist. Please provide a valid path.');

    // [docs] insert
    assert.equal(await ok(s, { command: 'insert', path: '/memories/dup.md', insert_line: 0, insert_text: 'top\n' }), 'The file /memories/dup.md has been edited.');
    await ok(s, { command: 'insert', path: '/memories/dup.md', insert_line: 6, insert_text: 'end' });
    assert.equal(readFileSync(join(store, 'notes/dup.md'), 'utf8'), 'top\nalpha\nbeta\nalpha beta\ngamma\nalpha\nend');
    assert.equal(await err(s, { command: 'insert', path: '/memories/dup.md', insert_line: 9, insert_text: 'x' }), 'Error: Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 7]');
    assert.equal(await err(s, { command: 'insert', path: '/memories/dup.md', insert_line: -1, insert_text: 'x' }), 'Error: Invalid `insert_line` parameter: -1. It should be within the range of lines of the file: [0, 7]');
    assert.equal(await err(s, { command: 'insert', path: '/memories/none.md', insert_line: 0, insert_text: 'x' }), 'Error: The path /memories/none.md does not exist');
    // a parameter the command needs, missing
    assert.equal(await err(s, { command: 'create', path: '/memories/x.md' }), 'Error: Parameter `file_text` is required for command: create');
  });
});

test('delete -> tombstone ("deleted via memory tool") -> memory_restore gives the exact text back; rename never overwrites', async () => {
  await withServer(async (s, store) => {
    const text = '---\ntitle: Prefs\n---\n- [style] terse #tone\n\n\n';
    await ok(s, { command: 'create', path: '/memories/user/prefs.md', file_text: text });
    // [docs] "Successfully deleted {path}"
    assert.equal(await ok(s, { command: 'delete', path: '/memories/user/prefs.md' }), 'Successfully deleted /memories/user/prefs.md');
    assert.equal(existsSync(join(store, 'notes/user/prefs.md')), false);
    assert.equal(await err(s, { command: 'view', path: '/memories/user/prefs.md' }), 'Error: The path /memories/user/prefs.md does not exist. Please provide a valid path.');
    const { items } = await s.call('memory_list_tombstones', {});
    assert.equal(items.length, 1);
    assert.equal(items[0].removed_reason, 'deleted via memory tool');
    const restored = await s.call('memory_restore', { id: items[0].id });
    assert.equal(restored.status, 'committed');
    assert.equal(readFileSync(join(store, 'notes/user/prefs.md'), 'utf8'), text, 'restored byte for byte');
    assert.equal(unview(await ok(s, { command: 'view', path: '/memories/user/prefs.md' })), text);
    assert.deepEqual((await s.call('memory_list_tombstones', {})).items, []);
    // [docs] delete errors; [sdk] /memories itself
    assert.equal(await err(s, { command: 'delete', path: '/memories/none.md' }), 'Error: The path /memories/none.md does not exist');
    assert.equal(await err(s, { command: 'delete', path: '/memories' }), 'Error: Cannot delete the /memories directory itself');
    // a folder: every note in it becomes a tombstone
    await ok(s, { command: 'create', path: '/memories/sessions/a.md', file_text: 'a' });
    await ok(s, { command: 'create', path: '/memories/sessions/b/c.md', file_text: 'c' });
    await ok(s, { command: 'delete', path: '/memories/sessions' });
    assert.equal(existsSync(join(store, 'notes/sessions')), false);
    assert.equal((await s.call('memory_list_tombstones', {})).items.length, 2);

    // [docs] rename
    assert.equal(await ok(s, { command: 'rename', old_path: '/memories/user/prefs.md', new_path: '/memories/user/preferences.md' }), 'Successfully renamed /memories/user/prefs.md to /memories/user/preferences.md');
    assert.equal(readFileSync(join(store, 'notes/user/preferences.md'), 'utf8'), text);
    await ok(s, { command: 'create', path: '/memories/other.md', file_text: 'legacy widget flags' });
    assert.equal(await err(s, { command: 'rename', old_path: '/memories/other.md', new_path: '/memories/user/preferences.md' }), 'Error: The destination /memories/user/preferences.md already exists');
    assert.equal(readFileSync(join(store, 'notes/user/preferences.md'), 'utf8'), text, 'never overwritten');
    assert.equal(await err(s, { command: 'rename', old_path: '/memories/gone.md', new_path: '/memories/new.md' }), 'Error: The path /memories/gone.md does not exist');
    // a folder moves whole
    await ok(s, { command: 'rename', old_path: '/memories/user', new_path: '/memories/people/me' });
    assert.equal(readFileSync(join(store, 'notes/people/me/preferences.md'), 'utf8'), text);
    // memory_remove on a note's id tombstones it the same way
    const hit = (await s.call('memory_search', { query: 'legacy widget flags', auto_scope: false })).hits.find((h: { path?: string }) => h.path === '/memories/other.md');
    assert.ok(hit, 'the note is found by memory_search');
    await s.call('memory_remove', { id: hit.id, reason: 'obsolete' });
    assert.equal(existsSync(join(store, 'notes/other.md')), false);
    assert.match(await s.fail('memory_update', { id: (await s.call('memory_search', { query: 'terse', auto_scope: false })).hits[0].id, content: 'x' }), /is the note \/memories\/people\/me\/preferences\.md: change it with the memory tool/);
  });
});

test('every traversal form is refused with the documented message, and nothing is written', async () => {
  await withServer(async (s, store) => {
    const outside = tempDir();
    try {
      mkdirSync(join(store, 'notes'), { recursive: true });
      symlinkSync(outside, join(store, 'notes/link'));
      // [sdk] validatePath
      assert.equal(await err(s, { command: 'view', path: '/etc/passwd' }), 'Error: Path must start with /memories, got: /etc/passwd');
      assert.equal(await err(s, { command: 'view', path: '/memoriesx/a' }), 'Error: Path must start with /memories, got: /memoriesx/a');
      assert.equal(await err(s, { command: 'create', path: 'memories/a.md', file_text: 'x' }), 'Error: Path must start with /memories, got: memories/a.md');
      for (const p of ['/memories/../etc/passwd', '/memories/a/../../x.md', '/memories/..\\..\\x.md', '/memories/%2e%2e/x.md', '/memories/%2e%2e%2fx.md', '/memories/..%5cx.md', '/memories/%252e%252e%252fx.md', '/memories/a\u0000b.md']) {
        assert.equal(await err(s, { command: 'create', path: p, file_text: 'x' }), `Error: Path ${p} would escape /memories directory`, p);
      }
      assert.equal(await err(s, { command: 'rename', old_path: '/memories/x.md', new_path: '/memories/../x.md' }), 'Error: Path /memories/../x.md would escape /memories directory');
      // [sdk] validateNoSymlinkEscape
      assert.equal(await err(s, { command: 'create', path: '/memories/link/x.md', file_text: 'x' }), 'Error: Path would escape /memories directory via symlink');
      assert.equal(await err(s, { command: 'view', path: '/memories/link' }), 'Error: Path would escape /memories directory via symlink');
      assert.equal(await err(s, { command: 'delete', path: '/memories/link' }), 'Error: Path would escape /memories directory via symlink');
      assert.equal(existsSync(join(outside, 'x.md')), false);
      assert.equal(existsSync(join(store, 'x.md')), false);
      assert.equal(existsSync(join(store, '..', 'x.md')), false);
    } finally {
      removeDir(outside);
    }
  });
});

test('gates: a secret is refused with memory_write\'s message; the size limit is behavior.max_body_chars; CRLF files keep their endings', async () => {
  await withServer(async (s, store) => {
    const fx = positiveFixtures()[0]!;
    const e = await err(s, { command: 'create', path: '/memories/keys.md', file_text: `deploy: ${fx.text}` });
    assert.match(e, /^Error: file_text contains a secret: /);
    assert.ok(e.endsWith('Nothing was stored: memories are plaintext files. Remove the secret and say where it lives instead (e.g. "the deploy key is in 1Password under Infra"). There is no override.'), e);
    assert.equal(existsSync(join(store, 'notes/keys.md')), false);
    await ok(s, { command: 'create', path: '/memories/n.md', file_text: 'safe' });
    assert.match(await err(s, { command: 'str_replace', path: '/memories/n.md', old_str: 'safe', new_str: fx.text }), /^Error: new_str contains a secret/);
    assert.match(await err(s, { command: 'insert', path: '/memories/n.md', insert_line: 1, insert_text: fx.text }), /^Error: insert_text contains a secret/);
    assert.equal(readFileSync(join(store, 'notes/n.md'), 'utf8'), 'safe');
    assert.equal(await err(s, { command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(201) }), 'Error: file_text is 201 characters, over the limit of 200 (behavior.max_body_chars): keep notes shorter, split them by topic');
    assert.match(await err(s, { command: 'insert', path: '/memories/n.md', insert_line: 1, insert_text: 'y'.repeat(199) }), /^Error: the edited note is 204 characters, over the limit of 200/);
    // CRLF
    writeFileSync(join(store, 'notes/win.md'), 'one\r\ntwo\r\nthree\r\n');
    assert.equal(unview(await ok(s, { command: 'view', path: '/memories/win.md' })), 'one\ntwo\nthree\n');
    await ok(s, { command: 'str_replace', path: '/memories/win.md', old_str: 'one\ntwo', new_str: 'uno\ndos' });
    await ok(s, { command: 'insert', path: '/memories/win.md', insert_line: 3, insert_text: 'four' });
    assert.equal(readFileSync(join(store, 'notes/win.md'), 'utf8'), 'uno\r\ndos\r\nthree\r\nfour\r\n');
  }, '[behavior]\nmax_body_chars = 200\n');
});

test('notes are indexed: memory_search finds them (kind, path, folder scope, tags, category); hand edits are seen live', async () => {
  await withServer(async (s, store) => {
    await ok(s, { command: 'create', path: '/memories/projects/widgets/db.md', file_text: '# Widgets database\n- [decision] Postgres for storage #db #ops\n- [gotcha] migrations rerun in CI #db' });
    await s.call('memory_write', { content: 'The widgets deploy uses blue-green releases #ops', scopes: ['projects:widgets'] });
    const r = await s.call('memory_search', { query: 'postgres storage', auto_scope: false });
    assert.equal(r.hits[0].kind, 'note');
    assert.equal(r.hits[0].path, '/memories/projects/widgets/db.md');
    assert.deepEqual(r.hits[0].scopes, ['projects:widgets']);
    const both = await s.call('memory_search', { query: 'widgets', scopes: ['projects:widgets'], auto_scope: false });
    assert.equal(both.hits.length, 2, 'notes and memories together');
    assert.ok(both.hits.some((h: { kind?: string }) => h.kind === undefined), 'a memory hit is unchanged');
    assert.equal((await s.call('memory_search', { query: 'widgets', tags: ['ops'], auto_scope: false })).hits.length, 2);
    assert.equal((await s.call('memory_search', { query: 'widgets', tags: ['ops', 'db'], auto_scope: false })).hits.length, 1, 'tags AND');
    assert.equal((await s.call('memory_search', { query: 'widgets', category: 'gotcha', auto_scope: false })).hits[0].path, '/memories/projects/widgets/db.md');
    assert.equal((await s.call('memory_search', { query: 'widgets', category: 'nope', auto_scope: false })).hits.length, 0);
    // staleness signals on a note
    assert.ok(['fresh', 'spot_check_recommended', 'spot_check_required'].includes(r.hits[0].staleness_verdict));
    // a hand edit and a hand-made note, picked up without a restart
    writeFileSync(join(store, 'notes/projects/widgets/db.md'), '# Widgets database\n- [decision] CockroachDB now #db');
    mkdirSync(join(store, 'notes/patterns'), { recursive: true });
    writeFileSync(join(store, 'notes/patterns/retries.md'), 'Exponential backoff with jitter for flaky upstreams');
    await new Promise((res) => setTimeout(res, 300));
    assert.equal((await s.call('memory_search', { query: 'cockroachdb', auto_scope: false })).hits[0]?.path, '/memories/projects/widgets/db.md');
    assert.equal((await s.call('memory_search', { query: 'postgres', auto_scope: false })).hits.length, 0);
    const j = await s.call('memory_search', { query: 'jitter backoff', auto_scope: false });
    assert.equal(j.hits[0]?.path, '/memories/patterns/retries.md');
    assert.deepEqual(j.hits[0].scopes, ['patterns']);
  });
});

test('relations, backlinks and dangling links: memory_related, memory_show, memory_health; a rename keeps title links', async () => {
  await withServer(async (s) => {
    await ok(s, { command: 'create', path: '/memories/projects/widgets/arch.md', file_text: '# Widgets architecture\n- depends_on [[Billing service]]\n- documented_in [[Widgets runbook]]\nSee also [[user/prefs]].' });
    await ok(s, { command: 'create', path: '/memories/projects/billing.md', file_text: '# Billing service\n- [fact] Stripe behind a queue #payments\n- owned_by [[Payments team]]' });
    await ok(s, { command: 'create', path: '/memories/user/prefs.md', file_text: 'Short answers' });
    const m = await s.call('memory_write', { content: 'Widgets ship weekly; see [[Widgets architecture]]', scopes: ['projects:widgets'] });
    const r = await s.call('memory_related', { path: '/memories/projects/widgets/arch.md' });
    assert.equal(r.root.title, 'Widgets architecture');
    assert.equal(r.root.kind, 'note');
    assert.deepEqual(r.outgoing.map((o: { relation: string; target: string; id?: string }) => [o.relation, o.target, o.id !== undefined]), [
      ['depends_on', 'Billing service', true],
      ['documented_in', 'Widgets runbook', false],
      ['links_to', 'user/prefs', true],
    ]);
    assert.deepEqual(r.backlinks.map((b: { id: string }) => b.id), [m.id]);
    assert.deepEqual(r.unresolved, [{ from: r.root.id, relation: 'documented_in', target: 'Widgets runbook' }]);
    assert.equal(r.root.body, undefined, 'no bodies unless asked');
    const deep = await s.call('memory_related', { path: 'Widgets architecture', depth: 2, with_bodies: true });
    assert.ok(deep.nodes.some((n: { title: string; depth: number }) => n.title === 'Billing service' && n.depth === 1));
    assert.ok(deep.edges.some((e: { relation: string }) => e.relation === 'depends_on'));
    assert.ok(deep.nodes.every((n: { body?: string }) => typeof n.body === 'string'));
    const only = await s.call('memory_related', { path: '/memories/projects/widgets/arch.md', relation_types: ['depends_on'] });
    assert.deepEqual(only.outgoing.map((o: { relation: string }) => o.relation), ['depends_on']);
    assert.match(await s.fail('memory_related', { path: '/memories/none.md' }), /nothing is at/);
    assert.match(await s.fail('memory_related', { path: '/memories/projects/billing.md', depth: 4 }), /depth/);
    // memory_show lists backlinks
    const billing = (await s.call('memory_related', { path: '/memories/projects/billing.md' })).root;
    const shown = await s.call('memory_show', { id: billing.id });
    assert.deepEqual(shown.memories[0].backlinks.map((b: { relation: string; path?: string }) => [b.relation, b.path]), [['depends_on', '/memories/projects/widgets/arch.md']]);
    // memory_health reports dangling links
    const h = await s.call('memory_health', {});
    assert.deepEqual(h.dangling_links.items.map((d: { target: string }) => d.target).sort(), ['Payments team', 'Widgets runbook']);
    // a rename keeps links by title resolvable
    await ok(s, { command: 'rename', old_path: '/memories/projects/billing.md', new_path: '/memories/projects/payments/billing-svc.md' });
    const after = await s.call('memory_related', { path: 'Widgets architecture' });
    assert.equal(after.outgoing.find((o: { relation: string }) => o.relation === 'depends_on').id !== undefined, true);
    // creating a dangling target resolves it
    await ok(s, { command: 'create', path: '/memories/projects/widgets/runbook.md', file_text: '# Widgets runbook\nSteps.' });
    assert.deepEqual((await s.call('memory_health', {})).dangling_links.items.map((d: { target: string }) => d.target), ['Payments team']);
  });
});

test('[memory_tool] enabled = false: the tool is not offered', async () => {
  await withServer(async (s) => {
    const { tools } = await s.client.listTools();
    assert.equal(tools.some((t) => t.name === 'memory'), false);
    assert.ok(tools.some((t) => t.name === 'memory_search'));
  }, '[memory_tool]\nenabled = false\n');
});
