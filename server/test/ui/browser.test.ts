// `cairn ui` in a real browser: Debian's chromium driven by playwright-core, against the built
// bundle and a temp store. The flows: open the tokenized URL, search as you type,
// open a hit, edit and see the gate refuse, new memory with the transient warning and its
// override, remove with a reason and restore from tombstones, confirm a pending write, a change
// made through the MCP server appearing live, chart counts, keyboard-only navigation, refusals in
// the browser; screenshots of every page in light and dark, wide and narrow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, CHROMIUM, LAUNCH_ARGS, loadPlaywright, startUi, type UiProcess } from './harness.ts';
import { startServer, type Session } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { positiveFixtures } from '../trust/fakeSecrets.ts';
type Browser = any; // playwright-core is untyped here (see playwright-core.d.ts)
type BrowserContext = any;
type Page = any;

const pw = await loadPlaywright();
const skip = pw === null ? 'playwright-core or /usr/bin/chromium missing (set CAIRN_PLAYWRIGHT; CI installs both)' : false;

const root = tempDir('cairn-ui-browser-');
const store = join(root, 'store');
let ui: UiProcess;
let mcp: Session;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const ids: Record<string, string> = {};

const FACTS: [string, string, string[]][] = [
  ['deploy', 'Deploys go through `make deploy`, which runs the migrations first and then restarts the workers.', ['projects:widgets', 'ops']],
  ['lint', 'The linter is eslint with the flat config in eslint.config.js; run it with npm run lint.', ['tools']],
  ['tabs', 'Indent Go code with tabs and everything else with two spaces.', ['code-style']],
  ['review', 'Code review needs one approval; the author merges with squash.', ['process']],
  ['pager', 'The on-call pager rotation changes every Monday at 10:00 UTC.', ['ops']],
];

test.before(async () => {
  if (skip) return;
  mcp = await startServer({ store, cwd: root });
  for (const [k, text, scopes] of FACTS) ids[k] = (await mcp.call('memory_write', { content: text, scopes })).id;
  ids.pending = (await mcp.call('memory_write', { content: 'The user prefers short commit messages in the imperative mood.', scopes: ['code-style'], category: 'user-inference' })).pending_id;
  await mcp.call('memory_search', { query: 'deploy migrations', auto_scope: false });
  await mcp.call('memory_record_use', { memory_ids: [ids.deploy], outcome: 'applied' });
  await mcp.call('memory_record_use', { memory_ids: [ids.lint], outcome: 'ignored' });
  ui = await startUi({ store, cwd: root });
  // launch() gives the browser a fresh temporary --user-data-dir of its own (and refuses one in args).
  browser = await pw!.chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await ctx.newPage();
  page.on('pageerror', (e: Error) => errors.push(e.message));
  page.on('response', (r: any) => {
    if (r.status() === 404) errors.push(`404 ${r.url()}`);
  });
  page.on('console', (m: any) => {
    // A refused request (the tests provoke 400/401/403 on purpose) logs "Failed to load resource"; a script error does not.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
});
const errors: string[] = [];

test.after(async () => {
  await browser?.close();
  await mcp?.close();
  await ui?.stop();
  removeDir(root);
});

const text = async (sel: string) => ((await page.locator(sel).first().textContent()) ?? '').trim();

test('the tokenized URL opens the overview; the charts show the right counts', { skip }, async () => {
  await page.goto(ui.url);
  assert.equal(new URL(page.url()).pathname, '/');
  assert.equal(await text('#t-active .n'), '5');
  assert.equal(await text('#t-pending .n'), '1');
  const bar = (chart: string, label: string) => page.locator(`#${chart} a[data-label="${label}"]`).getAttribute('data-count');
  assert.equal(await bar('c-verification', 'never verified'), '5');
  assert.equal(await bar('c-verification', 'fresh'), '0');
  assert.equal(await bar('c-scopes', 'ops'), '2');
  assert.equal(await bar('c-scopes', 'tools'), '1');
  // This week's column: 5 created; 1 applied + 1 ignored use; the model's search hits.
  const week = page.locator('#c-created a.bar-link').last();
  assert.equal(await week.getAttribute('data-count'), '5');
  assert.equal(await page.locator('#c-outcomes a.bar-link').last().getAttribute('data-count'), '2');
  assert.ok(Number(await page.locator('#c-retrievals a.bar-link').last().getAttribute('data-count')) >= 1);
  // A bar links to the rows behind it.
  await page.locator('#c-scopes a[data-label="ops"]').click();
  await page.waitForURL(/\/browse\?scope=ops/);
  assert.equal(await text('#browse-count'), '1–2 of 2');
  assert.deepEqual(errors, []);
});

test('search updates as you type, marks the match terms, and opens a hit', { skip }, async () => {
  await page.goto(`${ui.origin}/search`);
  await page.locator('#q').pressSequentially('migrat', { delay: 30 });
  await page.waitForSelector('#results[data-query="migrat"] .hit-link');
  assert.match(await text('#results .hit-link'), /make deploy/);
  assert.match((await page.locator('#results .hit-link mark').first().textContent()) ?? '', /migrat/i);
  assert.match(await text('#results .hit .badge'), /relevance/);
  assert.match(page.url(), /\/search\?q=migrat$/);
  await page.locator('#results .hit-link').first().click();
  await page.waitForURL(new RegExp(`/m/${ids.deploy}$`));
  assert.match(await page.locator('#body code').first().innerText(), /make deploy/);
  assert.ok((await page.locator('#timeline tr[data-kind="use"]').count()) >= 1, 'the applied use is on the timeline');
});

test('the header box searches as you type from any page; it is the only search box', { skip }, async () => {
  await page.goto(`${ui.origin}/browse`);
  await page.locator('#q').pressSequentially('indent', { delay: 30 });
  await page.waitForSelector('#results[data-query="indent"] .hit-link');
  const at = new URL(page.url());
  assert.equal(`${at.pathname}${at.search}`, '/search?q=indent');
  assert.equal(await page.locator('input[type=search]').count(), 1);
  assert.match(await text('#results .hit-link'), /Indent Go code/);
  assert.equal(await page.locator('nav a[aria-current="page"]').textContent(), 'Search');
  // Back returns to the page typed over.
  await page.goBack();
  await page.waitForURL(/\/browse$/);
  await page.waitForSelector('#browse-count');
});

test('the printed URL opened again in a browser holding the session shows the page', { skip }, async () => {
  const res = await page.goto(ui.url);
  assert.equal(res.status(), 200);
  assert.equal(new URL(page.url()).pathname, '/');
  assert.ok(await page.locator('#t-active').count());
});

test('edit: the secret gate refuses and nothing changes; a plain edit saves', { skip }, async () => {
  const secret = positiveFixtures()[0]!.text;
  await page.goto(`${ui.origin}/m/${ids.lint}/edit`);
  await page.locator('#content').fill(`The linter token is ${secret}`);
  await page.locator('#edit-form button[type=submit]').click();
  await page.waitForSelector('#gate[data-status="refused"]');
  assert.match(await text('#gate'), /secret/);
  await page.goto(`${ui.origin}/m/${ids.lint}`);
  assert.match(await text('#body'), /eslint with the flat config/);
  await page.goto(`${ui.origin}/m/${ids.lint}/edit`);
  await page.locator('#content').fill('The linter is eslint 9 with the flat config in eslint.config.js; run it with npm run lint.');
  await page.locator('#edit-form button[type=submit]').click();
  await page.waitForURL(new RegExp(`/m/${ids.lint}$`));
  assert.match(await text('.flash'), /Saved/);
  assert.match(await text('#body'), /eslint 9/);
});

test('new: the transient warning is shown with its override, and the override stores it', { skip }, async () => {
  await page.goto(`${ui.origin}/new`);
  await page.locator('#content').fill('We are currently migrating the CI from Jenkins to GitHub Actions.');
  await page.locator('#scopes').fill('ci');
  await page.locator('#write-form button[type=submit]').click();
  await page.waitForSelector('#gate[data-status="transient_warning"]');
  assert.match(await text('#gate'), /currently/);
  await page.locator('#override').click();
  await page.waitForURL(/\/m\/[0-9A-Z]{26}$/);
  ids.ci = page.url().split('/').pop()!;
  assert.match(await text('.flash'), /Stored as/);
  // The same text again is a duplicate, with the other memory linked.
  await page.goto(`${ui.origin}/new`);
  await page.locator('#content').fill('We are currently migrating the CI from Jenkins to GitHub Actions.');
  await page.locator('#scopes').fill('ci');
  await page.locator('#write-form button[type=submit]').click();
  await page.waitForSelector('#gate[data-status="transient_warning"]');
  await page.locator('#override').click();
  await page.waitForSelector('#gate[data-status="duplicate"]');
  assert.equal(await page.locator(`#gate a[href="/m/${ids.ci}"]`).count(), 1);
});

test('remove with a reason, then restore it from tombstones', { skip }, async () => {
  await page.goto(`${ui.origin}/m/${ids.tabs}`);
  await page.locator('#remove-box summary').click();
  await page.locator('#reason').fill('we use gofmt defaults now');
  await page.locator('#remove').click();
  await page.waitForSelector('#removed-note');
  assert.match(await text('#removed-note'), /we use gofmt defaults now/);
  await page.goto(`${ui.origin}/tombstones`);
  const row = page.locator('#tombstones tr', { hasText: 'Indent Go code' });
  assert.match((await row.textContent()) ?? '', /we use gofmt defaults now/);
  await row.locator('button', { hasText: 'Restore' }).click();
  await page.waitForURL(/\/tombstones$/);
  assert.match(await text('.flash'), /Restored/);
  assert.equal(await page.locator('#tombstones tr', { hasText: 'Indent Go code' }).count(), 0);
  await page.goto(`${ui.origin}/m/${ids.tabs}`);
  assert.equal(await page.locator('#removed-note').count(), 0);
});

test('a pending write is confirmed from the Pending page', { skip }, async () => {
  await page.goto(`${ui.origin}/pending`);
  const card = page.locator(`#${ids.pending}`);
  assert.match((await card.textContent()) ?? '', /short commit messages/);
  await card.locator('button', { hasText: 'Confirm' }).click();
  await page.waitForURL(/\/m\/[0-9A-Z]{26}$/);
  assert.match(await text('.flash'), /Stored as/);
  assert.match(await text('#body'), /short commit messages/);
  const shown = await mcp.call('memory_show', { id: page.url().split('/').pop()! });
  assert.equal(shown.memories[0].category, 'user-inference');
});

test('a change made through the MCP server appears without a reload', { skip }, async () => {
  await page.goto(`${ui.origin}/browse`);
  await page.waitForSelector('body[data-live-ready="1"]');
  const marker = await page.evaluate(() => ((globalThis as any).__same = 42));
  await mcp.call('memory_write', { content: 'Feature flags live in flags.yaml and are read at startup.', scopes: ['config'] });
  await page.locator('table.rows', { hasText: 'Feature flags live in flags.yaml' }).waitFor({ timeout: 10_000 });
  assert.equal(await page.evaluate(() => (globalThis as any).__same), marker, 'same document: no reload');
  // And a removal through MCP leaves the page live too.
  await page.goto(`${ui.origin}/m/${ids.review}`);
  await page.waitForSelector('body[data-live-ready="1"]');
  await mcp.call('memory_remove', { id: ids.review, reason: 'moved to the wiki' });
  await page.locator('#removed-note', { hasText: 'moved to the wiki' }).waitFor({ timeout: 10_000 });
});

test('keyboard only: go to search, type, arrow into the hits, open, verify, remove', { skip }, async () => {
  await page.goto(`${ui.origin}/`);
  await page.keyboard.press('g');
  await page.keyboard.press('s');
  await page.waitForURL(/\/search$/);
  // The box's autofocus lands a frame after the load: keys typed before it go to the page's shortcuts.
  await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'q');
  await page.keyboard.type('pager', { delay: 20 });
  await page.waitForSelector('#results[data-query="pager"] .hit-link');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.classList.contains('hit-link')), true);
  // A change elsewhere refreshes the hits while one is focused: focus stays on that hit.
  const focused = await page.evaluate(() => {
    const d = (globalThis as any).document;
    (globalThis as any).__oldHit = d.activeElement;
    return d.activeElement?.getAttribute('href');
  });
  await mcp.call('memory_write', { content: 'The staging database is restored from the nightly snapshot.', scopes: ['infra'] });
  await page.waitForFunction(() => !(globalThis as any).document.contains((globalThis as any).__oldHit), undefined, { timeout: 10_000 });
  assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('href')), focused, 'focus left the hit after a live refresh');
  await page.keyboard.press('Enter');
  await page.waitForURL(new RegExp(`/m/${ids.pager}$`));
  await page.keyboard.press('v');
  await page.waitForSelector('.flash');
  assert.match(await text('.flash'), /Verified/);
  await page.keyboard.press('r');
  assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.id), 'reason');
  await page.keyboard.type('rotation is in PagerDuty now');
  // A change elsewhere refreshes the page while the reason is typed: the text stays.
  const refreshed = await page.evaluate(() => (globalThis as any).document.body.getAttribute('data-refreshed'));
  await mcp.call('memory_write', { content: 'Backups of the team wiki run every Sunday night.', scopes: ['infra'] });
  await page.waitForFunction((r: string | null) => (globalThis as any).document.body.getAttribute('data-refreshed') !== r, refreshed, { timeout: 10_000 });
  assert.equal(await page.inputValue('#reason'), 'rotation is in PagerDuty now');
  assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.id), 'reason');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#removed-note');
  // Tab reaches the skip link first, and focus is visible (an outline is drawn).
  await page.goto(`${ui.origin}/browse`);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.className), 'skip');
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => (globalThis as any).getComputedStyle((globalThis as any).document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none');
  // j moves through the rows; Enter opens one.
  await page.locator('main h1').click();
  await page.keyboard.press('j');
  assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.hasAttribute('data-row')), true);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/m\/[0-9A-Z]{26}$/);
});

test('refusals in the browser: no token, a wrong or spent token, a cross-site form post', { skip }, async () => {
  const fresh = await browser.newContext();
  const p = await fresh.newPage();
  const none = await p.goto(`${ui.origin}/`);
  assert.equal(none!.status(), 401);
  const wrong = await p.goto(`${ui.origin}/auth?token=wrong`);
  assert.equal(wrong!.status(), 401);
  const spent = await p.goto(ui.url);
  assert.equal(spent!.status(), 401, 'the printed link was already used by the first test');
  // A page on another origin posting a form at the UI, in the browser that holds the session.
  const { createServer } = await import('node:http');
  const evil = createServer((_, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end(`<form id="f" method="post" action="${ui.origin}/m/${ids.deploy}/remove"><input name="reason" value="attack"></form><script>document.getElementById('f').submit()</script>`);
  });
  await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
  const port = (evil.address() as { port: number }).port;
  const res = page.waitForResponse((r: any) => r.url().includes(`/m/${ids.deploy}/remove`));
  await page.goto(`http://localhost:${port}/`);
  const refused = await res;
  assert.ok([401, 403].includes(refused.status()), `refused with ${refused.status()}`);
  evil.close();
  await fresh.close();
  const shown = await mcp.call('memory_show', { id: ids.deploy });
  assert.equal(shown.memories.length, 1, 'still active');
});

test('screenshots of every page, light and dark, 1280 and 390 wide', { skip }, async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const pages: [string, string, ((p: Page) => Promise<void>)?][] = [
    ['overview', '/'],
    ['browse', '/browse'],
    ['search', '/search?q=deploy'],
    ['memory', `/m/${ids.deploy}`],
    ['edit', `/m/${ids.deploy}/edit`],
    ['new-gate', '/new', async (p) => {
      await p.locator('#content').fill('We just switched the staging database to Postgres 16.');
      await p.locator('#scopes').fill('ops');
      await p.locator('#write-form button[type=submit]').click();
      await p.waitForSelector('#gate');
    }],
    ['tombstones', '/tombstones'],
    ['health', '/health'],
    ['pending', '/pending'],
  ];
  await mcp.call('memory_write', { content: 'The user likes dark themes in every editor.', scopes: ['tools'], category: 'user-inference' });
  // Memories written inside repositories with long names: "Memories per repo" shows them whole.
  const { execFileSync } = await import('node:child_process');
  const repos: [string, string, string[]][] = [
    ['https://github.com/acme-platform-engineering/widgets-monorepo-service.git', 'widgets', ['Widgets builds with Bazel; run bazel build //... from the repository root.', 'The widgets service reads its settings from config/widgets.toml.']],
    ['git@gitlab.example.com:infrastructure/terraform-modules.git', 'terraform', ['Terraform modules pin the AWS provider to 5.x in versions.tf.']],
  ];
  for (const [remote, dir, facts] of repos) {
    const cwd = join(root, dir);
    mkdirSync(cwd, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd });
    execFileSync('git', ['remote', 'add', 'origin', remote], { cwd });
    const s = await startServer({ store, cwd });
    for (const content of facts) await s.call('memory_write', { content, scopes: ['code'] });
    await s.close();
  }
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      const c = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      await c.addCookies(await ctx.cookies());
      const p = await c.newPage();
      for (const [name, path, act] of pages) {
        await p.goto(`${ui.origin}${path}`);
        if (act) await act(p);
        const overflow = await p.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).document.documentElement.clientWidth);
        assert.ok(overflow <= 1, `${name} at ${width}px scrolls sideways by ${overflow}px`);
        if (name === 'overview') {
          // Every bar label lies inside its chart: none is cut at an edge.
          const cut = await p.evaluate(() => [].filter.call((globalThis as any).document.querySelectorAll('figure.chart svg text.lbl'), (t: any) => {
            const b = t.getBBox();
            return b.x < 0 || b.x + b.width > t.ownerSVGElement.viewBox.baseVal.width;
          }).map((t: any) => t.textContent));
          assert.deepEqual(cut, [], `labels cut at ${width}px`);
          assert.equal(await p.locator('#c-repos a[data-label="gitlab.example.com/infrastructure/terraform-modules"] text.lbl').textContent(), 'gitlab.example.com/infrastructure/terraform-modules');
        }
        await p.screenshot({ path: join(ARTIFACTS, `${name}-${scheme}-${width}.png`), fullPage: true });
      }
      await c.close();
    }
  }
  assert.deepEqual(errors, [], 'no script errors on any page');
});

// Last, so the screenshots above show an ordinary store.
test('a pending write with a hostile body (a heading and a run of spaces, thousands of nested quotes) is confirmed from the page', { skip }, async () => {
  const hostile = [`# a${' '.repeat(2_500)}word about the release checklist`, `${'>'.repeat(4_000)} the release checklist`];
  const pids: string[] = [];
  for (const content of hostile) pids.push((await mcp.call('memory_write', { content, scopes: ['ops'], category: 'user-inference', force: true })).pending_id);
  for (const [i, pid] of pids.entries()) {
    const res = await page.goto(`${ui.origin}/pending`);
    assert.equal(res.status(), 200);
    await page.locator(`#${pid}`).locator('button', { hasText: 'Confirm' }).click();
    await page.waitForURL(/\/m\/[0-9A-Z]{26}$/);
    assert.match(await text('.flash'), /Stored as/);
    assert.match(await text('#body'), /release checklist/);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `hostile-${i}-light-1280.png`) });
  }
  await page.goto(`${ui.origin}/pending`);
  for (const pid of pids) assert.equal(await page.locator(`#${pid}`).count(), 0, 'no longer pending');
});
