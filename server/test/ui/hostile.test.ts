// `cairn ui` against the built bundle with memories and pending writes whose bodies broke the
// hand-written renderer: a heading followed by a long run of spaces (froze every request for
// seconds) and thousands of nested quotes (overflowed the stack; /pending answered 500). Each page
// must be rendered by the server within 50 ms (its own Server-Timing, the least of seven runs), and
// a request made at the same time must not wait behind it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { startUi, type UiProcess } from './harness.ts';
import { startServer } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

export const HOSTILE_BODIES: Record<string, string> = {
  heading: `# a${' '.repeat(2_500)}word about the deploy checklist`,
  quotes: `${'>'.repeat(4_000)} the deploy checklist`,
};

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}
function get(ui: UiProcess, path: string, cookie = '', post?: string): Promise<Res> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${ui.port}`, ...(cookie ? { Cookie: cookie } : {}) };
    if (post !== undefined) Object.assign(headers, { Origin: `http://127.0.0.1:${ui.port}`, 'Content-Type': 'application/x-www-form-urlencoded' });
    const req = request({ host: '127.0.0.1', port: ui.port, path, method: post === undefined ? 'GET' : 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end(post);
  });
}
const serverMs = (r: Res) => Number(/app;dur=([\d.]+)/.exec(String(r.headers['server-timing']))![1]);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const root = tempDir('cairn-ui-hostile-');
const store = join(root, 'store');
let ui: UiProcess;
let cookie = '';
const ids: Record<string, string> = {};
const pending: Record<string, string> = {};
let ordinary = '';

test.before(async () => {
  const s = await startServer({ store, cwd: root });
  ordinary = (await s.call('memory_write', { content: 'The deploy checklist lives in docs/deploy.md and is read before every release.', scopes: ['ops'] })).id;
  for (const [k, body] of Object.entries(HOSTILE_BODIES)) {
    const w = await s.call('memory_write', { content: body, scopes: ['ops'], force: true });
    assert.ok(w.id, `stored: ${JSON.stringify(w).slice(0, 200)}`);
    ids[k] = w.id;
    const p = await s.call('memory_write', { content: `${body} (pending)`, scopes: ['ops'], category: 'user-inference', force: true });
    assert.ok(p.pending_id, `pending: ${JSON.stringify(p).slice(0, 200)}`);
    pending[k] = p.pending_id;
  }
  await s.close();
  ui = await startUi({ store, cwd: root });
  const u = new URL(ui.url);
  const auth = await get(ui, `${u.pathname}${u.search}`);
  cookie = String(auth.headers['set-cookie']).split(';')[0]!;
});
test.after(async () => {
  await ui.stop();
  removeDir(root);
});

/**
 * The server's own time for a page: the least of seven, after three that warm it up. The least,
 * not the median: on a busy machine the other runs measure the machine; the least is what the
 * page itself costs, and a render that takes seconds has no fast run.
 */
async function pageMs(path: string): Promise<number> {
  for (let i = 0; i < 3; i++) await get(ui, path, cookie);
  const runs: Res[] = [];
  for (let i = 0; i < 7; i++) runs.push(await get(ui, path, cookie));
  for (const r of runs) assert.equal(r.status, 200, path);
  return Math.min(...runs.map(serverMs));
}

for (const k of Object.keys(HOSTILE_BODIES)) {
  test(`the memory page of the ${k} body renders within 50 ms`, async () => {
    const page = await get(ui, `/m/${ids[k]}`, cookie);
    assert.match(page.body, /id="body"/);
    const ms = await pageMs(`/m/${ids[k]}`);
    assert.ok(ms <= 50, `server time ${ms} ms (an ordinary memory's page: ${await pageMs(`/m/${ordinary}`)} ms)`);
  });
}

test('the pending page with both bodies answers 200 within 50 ms and offers both to confirm', async () => {
  const page = await get(ui, '/pending', cookie);
  assert.equal(page.status, 200);
  for (const id of Object.values(pending)) assert.match(page.body, new RegExp(`action="/pending/${id}/confirm"`));
  const ms = await pageMs('/pending');
  assert.ok(ms <= 50, `server time ${ms} ms`);
});

test('a request made while hostile pages render is not held behind them', async () => {
  const baseline = median(await Promise.all([0, 1, 2].map(() => get(ui, '/assets/app.css', cookie).then((r) => r.ms))));
  // Several hostile renders in flight, and one small request sent right after them.
  const hostile = [...Object.values(ids).map((id) => `/m/${id}`), '/pending'].flatMap((p) => [p, p]).map((p) => get(ui, p, cookie));
  const other = await get(ui, '/assets/app.css', cookie);
  const done = await Promise.all(hostile);
  for (const r of done) assert.equal(r.status, 200);
  assert.equal(other.status, 200);
  // The old renderer held it for 15 s; a bounded render for a few milliseconds each.
  assert.ok(other.ms <= Math.max(500, baseline * 10), `the other request took ${other.ms.toFixed(0)} ms (alone: ${baseline.toFixed(0)} ms)`);
});

test('a pending write with either body is confirmed from the page', async () => {
  const page = (await get(ui, '/pending', cookie)).body;
  const csrf = /name="csrf" value="([\w-]+)"/.exec(page)![1]!;
  for (const [k, pid] of Object.entries(pending)) {
    const r = await get(ui, `/pending/${pid}/confirm`, cookie, new URLSearchParams({ csrf }).toString());
    assert.equal(r.status, 303, `${k}: ${r.body}`);
    const to = String(r.headers.location);
    assert.match(to, /^\/m\/[0-9A-Z]{26}$/);
    const shown = await get(ui, to, cookie);
    assert.equal(shown.status, 200);
    assert.match(shown.body, /Stored as/);
    assert.match(shown.body, /the deploy checklist \(pending\)/);
  }
  assert.doesNotMatch((await get(ui, '/pending', cookie)).body, /action="\/pending\/p_/);
});
