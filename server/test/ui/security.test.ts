// The refusals of `cairn ui`, with raw HTTP so every header is ours to choose: no token, a wrong
// token, a spent token, no session, a foreign Host (DNS rebinding), a cross-origin POST, a POST
// without the form token; and the headers every page carries (CSP, cookie flags).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { startUi, type UiProcess } from './harness.ts';
import { startServer } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
function http(ui: UiProcess, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: ui.port, path, method: opts.method ?? 'GET', headers: { Host: `127.0.0.1:${ui.port}`, ...opts.headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const root = tempDir('cairn-ui-sec-');
const store = join(root, 'store');
let ui: UiProcess;
let cookie = '';
let csrf = '';
let id = '';

test.before(async () => {
  const s = await startServer({ store, cwd: root });
  id = (await s.call('memory_write', { content: 'The build uses esbuild to bundle the server into one file.', scopes: ['tools'] })).id;
  await s.close();
  ui = await startUi({ store, cwd: root });
});
test.after(async () => {
  await ui.stop();
  removeDir(root);
});

test('cairn ui prints a loopback URL with a token, on a free port', () => {
  assert.match(ui.url, /^http:\/\/127\.0\.0\.1:\d+\/auth\?token=[\w-]{20,}$/);
  assert.ok(ui.port > 0);
});

test('no token and a wrong token are refused; the right one gives an HttpOnly SameSite=Strict cookie once', async () => {
  const none = await http(ui, '/');
  assert.equal(none.status, 401);
  assert.match(none.body, /no session/);
  const noTok = await http(ui, '/auth');
  assert.equal(noTok.status, 401);
  const wrong = await http(ui, '/auth?token=not-the-token');
  assert.equal(wrong.status, 401);
  assert.match(wrong.body, /wrong token/);
  const u = new URL(ui.url);
  const ok = await http(ui, `${u.pathname}${u.search}`);
  assert.equal(ok.status, 303);
  const set = String(ok.headers['set-cookie']);
  assert.match(set, new RegExp(`^cairn_ui_${ui.port}=[\\w-]+; HttpOnly; SameSite=Strict; Path=/$`));
  cookie = set.split(';')[0]!;
  const again = await http(ui, `${u.pathname}${u.search}`);
  assert.equal(again.status, 401, 'the token works once');
  assert.match(again.body, /already used/);
  const page = await http(ui, '/', { headers: { Cookie: cookie } });
  assert.equal(page.status, 200);
  csrf = /name="csrf" value="([\w-]+)"/.exec((await http(ui, `/m/${id}`, { headers: { Cookie: cookie } })).body)![1]!;
  const forged = await http(ui, '/', { headers: { Cookie: `cairn_ui_${ui.port}=forged` } });
  assert.equal(forged.status, 401);
});

test('every response carries the strict CSP and no inline script or style', async () => {
  const page = await http(ui, '/', { headers: { Cookie: cookie } });
  const csp = String(page.headers['content-security-policy']);
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal(page.headers['x-content-type-options'], 'nosniff');
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(page.body, /<script(?![^>]*\bsrc=)/, 'no inline script');
  assert.doesNotMatch(page.body, /<style|\sstyle=|\son[a-z]+=/i, 'no inline style or handlers');
  const refused = await http(ui, '/');
  assert.match(String(refused.headers['content-security-policy']), /default-src 'self'/);
});

test('a foreign Host is refused even with a valid session (DNS rebinding)', async () => {
  for (const host of ['evil.example:' + ui.port, `localhost:${ui.port}`, '127.0.0.1', `127.0.0.1:${ui.port + 1}`]) {
    const r = await http(ui, '/', { headers: { Host: host, Cookie: cookie } });
    assert.equal(r.status, 403, host);
    assert.match(r.body, /Host/);
  }
  const auth = await http(ui, '/auth?token=x', { headers: { Host: 'evil.example' } });
  assert.equal(auth.status, 403);
});

test('a cross-origin POST, a POST without Origin, and a POST without the form token change nothing', async () => {
  const body = new URLSearchParams({ csrf, reason: 'attack' }).toString();
  const form = { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' };
  const cross = await http(ui, `/m/${id}/remove`, { method: 'POST', headers: { ...form, Origin: 'http://evil.example' }, body });
  assert.equal(cross.status, 403);
  assert.match(cross.body, /Origin/);
  const noOrigin = await http(ui, `/m/${id}/remove`, { method: 'POST', headers: form, body });
  assert.equal(noOrigin.status, 403);
  const noCsrf = await http(ui, `/m/${id}/remove`, { method: 'POST', headers: { ...form, Origin: ui.origin }, body: 'reason=attack' });
  assert.equal(noCsrf.status, 403);
  assert.match(noCsrf.body, /form token/);
  const noCookie = await http(ui, `/m/${id}/remove`, { method: 'POST', headers: { 'Content-Type': form['Content-Type'], Origin: ui.origin }, body });
  assert.equal(noCookie.status, 401);
  const still = await http(ui, `/m/${id}`, { headers: { Cookie: cookie } });
  assert.doesNotMatch(still.body, /id="removed-note"/, 'the memory is still active');
  // The same request from our own origin works: the refusals above were the checks, not a broken route.
  const ok = await http(ui, `/m/${id}/verify`, { method: 'POST', headers: { ...form, Origin: ui.origin }, body: new URLSearchParams({ csrf }).toString() });
  assert.equal(ok.status, 303);
});

test('a memory body is rendered without raw HTML, and links only for http(s)', async () => {
  const s = await startServer({ store, cwd: root });
  const bad = (await s.call('memory_write', {
    content: 'Danger <script>alert(1)</script> <img src=x onerror=alert(2)> [click](javascript:alert(3)) and [docs](https://example.com/a?b=1&c=2) `<b>code</b>`',
    scopes: ['tools'],
    force: true,
  })).id;
  await s.close();
  const page = await http(ui, `/m/${bad}`, { headers: { Cookie: cookie } });
  assert.equal(page.status, 200);
  assert.doesNotMatch(page.body, /<script>alert|<img src=x/);
  assert.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.doesNotMatch(page.body, /href="javascript:/);
  assert.match(page.body, /<a href="https:\/\/example\.com\/a\?b=1&amp;c=2" rel="noopener noreferrer"/);
  assert.match(page.body, /<code>&lt;b&gt;code&lt;\/b&gt;<\/code>/);
});

test('cairn ui refuses a bad --port with a usage error', async () => {
  const { cli } = await import('../helpers/mcp.ts');
  const r = cli(['ui', '--no-open', '--port', 'abc'], { store, cwd: root });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--port must be a whole number from 0 to 65535/);
});
