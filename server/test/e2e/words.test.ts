// The words a user reads, through the built bundle: one wording of the staleness verdict across
// CLI commands; docs/tools.md names as many tools as the server registers; a verification dated
// in the future is shown as a warning, never as "fresh, verified 0 days ago".
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeDir, tempDir } from '../helpers/env.ts';
import { cli, startServer } from '../helpers/mcp.ts';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));
const DOCS = fileURLToPath(new URL('../../../docs/tools.md', import.meta.url));

test('cairn list and cairn search word the verdict the same way (no JSON identifiers in text output)', async () => {
  const store = tempDir('cairn-words-');
  dirs.push(store);
  const w = cli(['remember', 'The release checklist lives in docs/release.md', '--scope', 'release'], { store, cwd: store });
  assert.equal(w.code, 0, w.stderr);
  // verified once, then made stale: the verdict is spot_check_required without being "unverified"
  const s = await startServer({ store, cwd: store });
  const id = (await s.call('memory_list', {})).items[0].id;
  await s.call('memory_verify', { id });
  await s.close();
  const file = readdirSync(store).find((n) => n.endsWith('.md'))!;
  const text = readFileSync(join(store, file), 'utf8');
  writeFileSync(join(store, file), text.replace(/last_verified_at: .*/, 'last_verified_at: 2020-01-01T00:00:00.000Z'));
  const list = cli(['list'], { store, cwd: store });
  const search = cli(['search', 'release checklist'], { store, cwd: store });
  const show = cli(['show', id], { store, cwd: store });
  for (const r of [list, search, show]) {
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /spot check required/);
    assert.doesNotMatch(r.stdout, /spot_check/);
  }
});

test('docs/tools.md states the number of tools the server registers, and its contents name each', async () => {
  const store = tempDir('cairn-words-');
  dirs.push(store);
  const s = await startServer({ store, cwd: store });
  const names = (await s.client.listTools()).tools.map((t) => t.name);
  await s.close();
  const docs = readFileSync(DOCS, 'utf8');
  const stated = /It registers (\d+) tools\./.exec(docs);
  assert.ok(stated, 'docs/tools.md says how many tools there are');
  assert.equal(Number(stated[1]), names.length);
  const contents = docs.slice(docs.indexOf('## Contents'), docs.indexOf('## Tool list'));
  for (const n of names) assert.match(contents, new RegExp(`\\b${n}\\b`), `${n} is missing from the contents of docs/tools.md`);
});

test('a last_verified_at in the future is a warning and a required spot check, everywhere it is shown', async () => {
  const store = tempDir('cairn-words-');
  dirs.push(store);
  const s0 = await startServer({ store, cwd: store });
  const id = (await s0.call('memory_write', { content: 'The nightly backup job writes to the backups bucket in eu-west-1.', scopes: ['ops'] })).id;
  await s0.close();
  const file = readdirSync(store).find((n) => n.endsWith('.md'))!;
  const future = new Date(Date.now() + 40 * 86_400_000).toISOString();
  writeFileSync(join(store, file), readFileSync(join(store, file), 'utf8').replace('last_verified_at: null', `last_verified_at: ${future}`));

  const s = await startServer({ store, cwd: store });
  const shown = (await s.call('memory_show', { id })).memories[0];
  assert.equal(shown.verification.status, 'stale');
  assert.match(shown.verification.warning, new RegExp(`^last_verified_at ${future.replace(/[.]/g, '\\.')} is in the future \\(40 days ahead\\)`));
  assert.equal(shown.staleness_verdict, 'spot_check_required');
  const hit = (await s.call('memory_search', { query: 'nightly backup bucket' })).hits[0];
  assert.equal(hit.id, id);
  assert.match(hit.verification.warning, /is in the future/);
  await s.close();

  const show = cli(['show', id], { store, cwd: store });
  assert.match(show.stdout, /\nwarning: +last_verified_at .* is in the future/);
  assert.match(cli(['list'], { store, cwd: store }).stdout, /verified in the future: spot check required/);
  assert.match(cli(['search', 'nightly backup'], { store, cwd: store }).stdout, /verified in the future: spot check required/);
  for (const r of [show.stdout]) assert.doesNotMatch(r, /\bfresh\b/);
});
