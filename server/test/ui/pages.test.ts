// Page facts checked over raw HTTP against the built bundle: the printed URL opened again with a
// live session goes to the page; Overview and Health count "active" the same way (not removed,
// not expired); the search page has one search box, the header's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startUi, type UiProcess } from './harness.ts';
import { startServer } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
function get(ui: UiProcess, path: string, cookie = ''): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: ui.port, path, headers: { Host: `127.0.0.1:${ui.port}`, ...(cookie ? { Cookie: cookie } : {}) } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const root = tempDir('cairn-ui-pages-');
const store = join(root, 'store');
let ui: UiProcess;
let expiredId = '';
let cookie = '';

test.before(async () => {
  const s = await startServer({ store, cwd: root });
  await s.call('memory_write', { content: 'The release train leaves every second Tuesday.', scopes: ['process'] });
  await s.call('memory_write', { content: 'Staging runs on the blue cluster.', scopes: ['ops'] });
  expiredId = (await s.call('memory_write', { content: 'The office wifi password rotates monthly; ask IT.', scopes: ['office'], expires: '2099-01-01' })).id;
  await s.close();
  // Expired since: the file says so (a write refuses an expiry in the past).
  const file = readdirSync(store).find((f) => f.endsWith(`${expiredId.slice(-6).toLowerCase()}.md`))!;
  const path = join(store, file);
  writeFileSync(path, readFileSync(path, 'utf8').replace(/^expires: .*$/m, 'expires: 2020-01-01T00:00:00.000Z'));
  ui = await startUi({ store, cwd: root });
  const u = new URL(ui.url);
  const first = await get(ui, `${u.pathname}${u.search}`);
  assert.equal(first.status, 303);
  cookie = String(first.headers['set-cookie']).split(';')[0]!;
});
test.after(async () => {
  await ui.stop();
  removeDir(root);
});

test('the printed URL opened again with a live session goes to the page; without one it is refused', async () => {
  const u = new URL(ui.url);
  const again = await get(ui, `${u.pathname}${u.search}`, cookie);
  assert.equal(again.status, 303);
  assert.equal(again.headers.location, '/');
  assert.equal(again.headers['set-cookie'], undefined, 'no new session');
  assert.equal((await get(ui, '/', cookie)).status, 200);
  const stranger = await get(ui, `${u.pathname}${u.search}`);
  assert.equal(stranger.status, 401);
  assert.match(stranger.body, /already used/);
  const forged = await get(ui, `${u.pathname}${u.search}`, `cairn_ui_${ui.port}=forged`);
  assert.equal(forged.status, 401);
});

test('Overview and Health count active memories the same way: not removed, not expired', async () => {
  const overview = (await get(ui, '/', cookie)).body;
  const active = /id="t-active"><span class="n">(\d+)<\/span>/.exec(overview)![1];
  const expired = /id="t-expired"><span class="n">(\d+)<\/span>/.exec(overview)![1];
  assert.deepEqual([active, expired], ['2', '1']);
  const health = (await get(ui, '/health', cookie)).body;
  assert.match(health, /<p id="health-totals">2 active, 1 expired,/);
});

test('the search page has one search box, the header\'s, holding the query', async () => {
  const page = (await get(ui, '/search?q=release', cookie)).body;
  assert.equal((page.match(/<input[^>]*type="search"/g) ?? []).length, 1);
  assert.match(page, /<header[\s\S]*<input id="q" name="q" type="search" value="release"[^>]*autofocus/);
  assert.match(page, /<div id="results"[^>]*data-query="release">[\s\S]*<mark>release<\/mark> train/);
  const other = (await get(ui, '/browse', cookie)).body;
  assert.match(other, /<input id="q" name="q" type="search" value=""/);
  assert.doesNotMatch(other, /autofocus/);
});

