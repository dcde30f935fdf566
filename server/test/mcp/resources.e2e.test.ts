// MCP resources, subscriptions, prompts with arguments and completions, through the built bundle
// over stdio with the SDK client: the listing puts the current repo's memories first and leaves
// other repos' out (auto_scope), a read serves memory_show's body under the frontmatter and is
// logged as a show, pages join up, a subscribed client hears of a hand edit and of another server
// process's write within 2 s, list_changed follows the set, completions rank by use.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { populate, readEventLogs } from '../helpers/disk.ts';
import { session } from './session.ts';

let root: string;
let store: string;
let plain: string;
let widgets: string;
let gadgets: string;
const ids: Record<string, string> = {};
const files: Record<string, string> = {};

const WIDGETS = [
  'Widgets stores its data in Postgres 16; SQLite only in tests.',
  'Widgets API handlers live in src/api/<resource>.ts, one file per resource.',
  '# Release process\n\nWidgets releases are cut from main with the Makefile target dist-images.',
];
const NOTE = '# Widgets architecture\n\n- [decision] Postgres for storage #db\n- depends_on [[Billing service]]\n';

before(async () => {
  root = tempDir('cairn-mcp-res-');
  store = join(root, 'store');
  plain = join(root, 'plain');
  mkdirSync(plain);
  widgets = tempRepo('git@github.com:acme/widgets.git');
  gadgets = tempRepo('https://gitlab.com/acme/gadgets.git');
  const g = await session({ store, cwd: gadgets });
  ids.gadgets = (await g.call('memory_write', { content: 'Gadgets deploys through the staging cluster before production.', scopes: ['projects:gadgets'] })).id;
  await g.close();
  const p = await session({ store, cwd: plain });
  ids.router = (await p.call('memory_write', { content: 'The household router admin page is at the address printed under the device.', scopes: ['home-network'] })).id;
  await p.close();
  const w = await session({ store, cwd: widgets });
  for (const [i, content] of WIDGETS.entries()) {
    const r = await w.call('memory_write', { content, scopes: ['projects:widgets'] });
    ids[`w${i}`] = r.id;
    files[`w${i}`] = r.file;
  }
  await w.call('memory', { command: 'create', path: '/memories/projects/widgets/arch.md', file_text: NOTE });
  await w.close();
});
after(() => {
  removeDir(root);
  removeDir(widgets);
  removeDir(gadgets);
});

test('resources/list: the current repo\'s memories first, then repo-less ones, notes, the views; other repos left out', async () => {
  const s = await session({ store, cwd: widgets });
  const { resources, nextCursor } = await s.client.listResources();
  assert.equal(nextCursor, undefined);
  assert.deepEqual(
    resources.map((r) => r.uri),
    [
      `cairn://memory/${ids.w2}`,
      `cairn://memory/${ids.w1}`,
      `cairn://memory/${ids.w0}`,
      `cairn://memory/${ids.router}`,
      'cairn://notes/projects/widgets/arch.md',
      'cairn://overview',
      'cairn://health',
    ],
  );
  const first = resources[0]!;
  assert.equal(first.name, 'Release process', 'name: the first line, heading marks dropped');
  assert.equal(first.mimeType, 'text/markdown');
  assert.equal(resources[1]!.name, WIDGETS[1]);
  assert.equal(resources[4]!.name, 'Widgets architecture');
  assert.equal((first.annotations as { priority: number }).priority, 1);
  // A scope disabled for the session leaves the listing, as it leaves search and list.
  await s.call('memory_scope_disable', { scope: 'home-network' });
  assert.ok(!(await s.client.listResources()).resources.some((r) => r.uri === `cairn://memory/${ids.router}`), 'disabled scope left out');
  await s.call('memory_scope_enable', { scope: 'home-network' });
  const { resourceTemplates } = await s.client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['cairn://memory/{id}', 'cairn://notes/{+path}', 'cairn://scope/{scope}', 'cairn://overview', 'cairn://health']);
});

test('resources/list outside a repo: repo-less memories and global scopes only, as auto_scope shows them', async () => {
  const w = await session({ store, cwd: widgets });
  const pref = (await w.call('memory_write', { content: 'The user prefers tabs over spaces for indentation everywhere.', scopes: ['preferences:editor'] })).id;
  const s = await session({ store, cwd: plain });
  const uris = (await s.client.listResources()).resources.map((r) => r.uri);
  assert.deepEqual(uris, [`cairn://memory/${pref}`, `cairn://memory/${ids.router}`, 'cairn://notes/projects/widgets/arch.md', 'cairn://overview', 'cairn://health']);
  await w.call('memory_remove', { id: pref, reason: 'test fixture' });
});

test('resources/read: the frontmatter, then exactly memory_show\'s body; a note byte for byte; reads logged as shows', async () => {
  const s = await session({ store, cwd: widgets });
  for (const key of ['w0', 'w1', 'w2', 'router', 'gadgets']) {
    const id = ids[key]!;
    const r = await s.client.readResource({ uri: `cairn://memory/${id}` });
    const c = r.contents[0] as { uri: string; mimeType: string; text: string };
    assert.equal(c.mimeType, 'text/markdown');
    const shown = await s.call('memory_show', { id });
    const body = shown.memories[0].body as string;
    assert.ok(c.text.endsWith(body), `${key}: the text ends with memory_show's body`);
    const head = c.text.slice(0, c.text.length - body.length);
    assert.match(head, new RegExp(`^---\\nschema_version: 1\\nid: ${id}\\n[\\s\\S]*\\nscopes: \\[[^\\]]+\\]\\n[\\s\\S]*\\n---\\n$`), `${key}: frontmatter`);
    // The file on disk is the same record: its frontmatter, the body without trailing blanks.
    if (files[key]) assert.equal(readFileSync(files[key]!, 'utf8').trimEnd(), c.text.trimEnd());
  }
  const n = await s.client.readResource({ uri: 'cairn://notes/projects/widgets/arch.md' });
  assert.equal((n.contents[0] as { text: string }).text, NOTE);
  assert.equal(readFileSync(join(store, 'notes/projects/widgets/arch.md'), 'utf8'), NOTE);
  // The same note through the percent-encoded spelling a {path} expansion gives.
  assert.equal(((await s.client.readResource({ uri: 'cairn://notes/projects%2Fwidgets%2Farch.md' })).contents[0] as { text: string }).text, NOTE);
  const scope = ((await s.client.readResource({ uri: 'cairn://scope/projects:widgets' })).contents[0] as { text: string }).text;
  assert.match(scope, /^# Memories in scope projects:widgets\n\n3 memories/);
  for (const k of ['w0', 'w1', 'w2']) assert.ok(scope.includes(`id ${ids[k]}`), k);
  const overview = JSON.parse(((await s.client.readResource({ uri: 'cairn://overview' })).contents[0] as { text: string }).text);
  assert.equal(overview.view, 'repo');
  assert.equal(overview.elsewhere.total, 1);
  const health = JSON.parse(((await s.client.readResource({ uri: 'cairn://health' })).contents[0] as { text: string }).text);
  assert.equal(typeof health, 'object');
  const shows = readEventLogs(store).events.filter((e) => e.kind === 'show' && e.via === 'resource');
  for (const k of ['w0', 'router', 'gadgets']) assert.ok(shows.some((e) => (e.ids as string[]).includes(ids[k]!)), `read of ${k} logged`);
  // Bad and unknown URIs: a clear error, nothing read.
  await assert.rejects(s.client.readResource({ uri: 'cairn://memory/01JQ3Z8V7M2K4T6Y9B1C3D5F7H' }), /no memory with id 01JQ3Z8V7M2K4T6Y9B1C3D5F7H/);
  await assert.rejects(s.client.readResource({ uri: 'cairn://memory/nope' }), /is not a memory id/);
  await assert.rejects(s.client.readResource({ uri: 'cairn://elsewhere/x' }), /cairn serves cairn:\/\/memory\/\{id\}/);
  await assert.rejects(s.client.readResource({ uri: 'https://example.com/' }), /is not a cairn:\/\/ URI/);
  await assert.rejects(s.client.readResource({ uri: 'cairn://notes/projects/nope.md' }), /no note at \/memories\/projects\/nope\.md/);
  await assert.rejects(s.client.readResource({ uri: 'cairn://notes/../secrets' }), /not a file path inside \/memories/);
});

test('resources/list pages: every memory once, in order, across pages; a made-up cursor is refused', async () => {
  const big = join(root, 'big');
  const made = populate(big, 230, (i) => `Bulk memory number ${i} about paging through resources.`);
  const s = await session({ store: big, cwd: widgets });
  const uris: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await s.client.listResources(cursor === undefined ? {} : { cursor });
    uris.push(...page.resources.map((r) => r.uri));
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  assert.equal(pages, 3);
  const mems = uris.filter((u) => u.startsWith('cairn://memory/'));
  assert.equal(mems.length, 230);
  assert.equal(new Set(mems).size, 230);
  assert.deepEqual(mems, [...made.keys()].sort().reverse().map((id) => `cairn://memory/${id}`), 'newest first, no gap or repeat at page edges');
  assert.deepEqual(uris.slice(-2), ['cairn://overview', 'cairn://health']);
  await assert.rejects(s.client.listResources({ cursor: 'not-a-cursor' }), /cursor "not-a-cursor" is not one resources\/list gave/);
});

test('subscriptions: a hand edit and another server process\'s write reach a subscribed client within 2 s; list_changed follows the set', async () => {
  const s = await session({ store, cwd: widgets });
  const uri = `cairn://memory/${ids.w0}`;
  await s.client.subscribeResource({ uri });
  await s.client.subscribeResource({ uri: 'cairn://notes/projects/widgets/arch.md' });
  const file = files.w0!;

  // A hand edit in an editor.
  let t0 = Date.now();
  writeFileSync(file, readFileSync(file, 'utf8').replace('Postgres 16', 'Postgres 17'));
  const hand = await s.waitFor((h) => h.uri === uri && h.at >= t0, 2000);
  assert.ok(hand, 'updated after a hand edit within 2 s');
  const handMs = hand.at - t0;
  assert.match(((await s.client.readResource({ uri })).contents[0] as { text: string }).text, /Postgres 17/);

  // Another server process on the same store.
  const other = await session({ store, cwd: widgets });
  t0 = Date.now();
  await other.call('memory_update', { id: ids.w0, content: 'Widgets stores its data in Postgres 17; SQLite only in tests and local demos.' });
  const proc = await s.waitFor((h) => h.uri === uri && h.at >= t0, 2000);
  assert.ok(proc, 'updated after another process\'s write within 2 s');
  const procMs = proc.at - t0;
  t0 = Date.now();
  await other.call('memory', { command: 'str_replace', path: '/memories/projects/widgets/arch.md', old_str: 'Postgres for storage', new_str: 'Postgres 17 for storage' });
  assert.ok(await s.waitFor((h) => h.uri === 'cairn://notes/projects/widgets/arch.md' && h.at >= t0, 2000), 'a note\'s subscriber hears of its edit');

  // The set changes: a new memory, then its removal.
  t0 = Date.now();
  const added = (await other.call('memory_write', { content: 'Widgets pins Node 20 in its engines field and CI matrix.', scopes: ['projects:widgets'] })).id;
  assert.ok(await s.waitFor((h) => h.uri === null && h.at >= t0, 2000), 'list_changed after another process wrote a memory');
  t0 = Date.now();
  await other.call('memory_remove', { id: added, reason: 'test' });
  assert.ok(await s.waitFor((h) => h.uri === null && h.at >= t0, 2000), 'list_changed after a removal');
  // A memory file deleted by hand: the watcher sees only the old path go.
  t0 = Date.now();
  const doomed = await other.call('memory_write', { content: 'Widgets keeps a changelog in CHANGELOG.md, updated per release.', scopes: ['projects:widgets'] });
  assert.ok(await s.waitFor((h) => h.uri === null && h.at >= t0, 2000), 'list_changed after another write');
  await new Promise((r) => setTimeout(r, 300));
  t0 = Date.now();
  unlinkSync(doomed.file);
  assert.ok(await s.waitFor((h) => h.uri === null && h.at >= t0, 2000), 'list_changed after a memory file was deleted by hand');
  assert.ok(!s.heard.some((h) => h.uri === `cairn://memory/${added}`), 'no update for a memory nobody subscribed to');

  // Unsubscribed: no more updates for it.
  await s.client.unsubscribeResource({ uri });
  t0 = Date.now();
  writeFileSync(file, readFileSync(file, 'utf8').replace('local demos', 'local demo runs'));
  assert.equal(await s.waitFor((h) => h.uri === uri && h.at >= t0, 1200), null, 'no update after unsubscribe');
  console.log(`# update latency: hand edit ${handMs} ms, other process ${procMs} ms`);
});

test('prompts with arguments: memory_scope and memory_review embed the resource they name', async () => {
  const s = await session({ store, cwd: widgets });
  const { prompts } = await s.client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name), ['memory_guide', 'memory_scope', 'memory_review']);
  assert.deepEqual(prompts[1]!.arguments?.map((a) => [a.name, a.required]), [['scope', true]]);
  const r = await s.client.getPrompt({ name: 'memory_review', arguments: { id: ids.w1! } });
  const embedded = r.messages[1]!.content as { type: string; resource: { uri: string; text: string } };
  assert.equal(embedded.type, 'resource');
  assert.equal(embedded.resource.uri, `cairn://memory/${ids.w1}`);
  assert.equal(embedded.resource.text, ((await s.client.readResource({ uri: `cairn://memory/${ids.w1}` })).contents[0] as { text: string }).text);
  const sc = await s.client.getPrompt({ name: 'memory_scope', arguments: { scope: 'projects:widgets' } });
  assert.match((sc.messages[1]!.content as { resource: { text: string } }).resource.text, /Memories in scope projects:widgets/);
  await assert.rejects(s.client.getPrompt({ name: 'memory_review', arguments: {} }), /needs the argument id/);
});

test('completions: scopes, ids and note paths from the store, ranked by use', async () => {
  const s = await session({ store, cwd: widgets });
  // Uses first: the router memory read more often than all the others together in the tests above.
  await s.call('memory_show', { id: ids.router });
  for (let i = 0; i < 30; i++) await s.client.readResource({ uri: `cairn://memory/${ids.router}` });
  const complete = async (ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }, name: string, value: string) =>
    (await s.client.complete({ ref, argument: { name, value } })).completion;
  const scopes = await complete({ type: 'ref/resource', uri: 'cairn://scope/{scope}' }, 'scope', '');
  assert.equal(scopes.values[0], 'home-network', 'the most used scope first');
  assert.deepEqual(new Set(scopes.values), new Set(['home-network', 'projects:widgets', 'projects:gadgets']));
  assert.deepEqual((await complete({ type: 'ref/prompt', name: 'memory_scope' }, 'scope', 'proj')).values.sort(), ['projects:gadgets', 'projects:widgets']);
  const idsDone = await complete({ type: 'ref/prompt', name: 'memory_review' }, 'id', '');
  assert.equal(idsDone.values[0], ids.router, 'the most used memory first');
  assert.equal(idsDone.total, 5);
  assert.deepEqual((await complete({ type: 'ref/resource', uri: 'cairn://memory/{id}' }, 'id', ids.w1!.slice(0, 20).toLowerCase())).values, [ids.w1]);
  assert.deepEqual((await complete({ type: 'ref/prompt', name: 'memory_review' }, 'id', 'makefile')).values, [ids.w2], 'a word of the first lines finds the id');
  assert.deepEqual((await complete({ type: 'ref/resource', uri: 'cairn://notes/{+path}' }, 'path', 'proj')).values, ['projects/widgets/arch.md']);
  assert.deepEqual((await complete({ type: 'ref/resource', uri: 'cairn://notes/{+path}' }, '+path', 'arch')).values, ['projects/widgets/arch.md']);
  assert.deepEqual((await complete({ type: 'ref/resource', uri: 'cairn://notes/{path}' }, 'path', 'projects/w')).values, ['projects/widgets/arch.md']);
  assert.deepEqual((await complete({ type: 'ref/prompt', name: 'memory_guide' }, 'topic', 'x')).values, []);
  await assert.rejects(complete({ type: 'ref/prompt', name: 'nope' }, 'x', ''), /unknown prompt "nope"/);
});
