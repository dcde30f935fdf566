// Old names users bring from bettermemory, through the built bundle: each is read as today's name
// and said once (stderr for the CLI and config.toml, a `notice` in the tool's answer).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../helpers/env.ts';
import { cli, startServer } from '../helpers/mcp.ts';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));
function store(): string {
  const d = tempDir('cairn-oldnames-');
  dirs.push(d);
  return d;
}

test('config.toml: recency_boost_half_life_days is read as recency_half_life_days, said once on stderr', () => {
  const s = store();
  writeFileSync(join(s, 'config.toml'), '[behavior]\nrecency_boost_half_life_days = 45\n');
  const r = cli(['remember', 'The changelog is generated from commit messages', '--scope', 'release'], { store: s, cwd: s });
  assert.equal(r.code, 0, r.stderr);
  const notices = r.stderr.split('\n').filter((l) => l.includes('recency_boost_half_life_days'));
  assert.deepEqual(notices, [`cairn: ${join(s, 'config.toml')}: behavior.recency_boost_half_life_days is the old (bettermemory) name of behavior.recency_half_life_days; it is read as behavior.recency_half_life_days (rename it to silence this)`]);
  // The value is checked under today's name (so it is the value in use).
  writeFileSync(join(s, 'config.toml'), '[behavior]\nrecency_boost_half_life_days = 0\n');
  const bad = cli(['list'], { store: s, cwd: s });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /config key behavior\.recency_half_life_days must be/);
  // Both names at once: which one wins would be a guess, so it is an error naming both.
  writeFileSync(join(s, 'config.toml'), '[behavior]\nrecency_boost_half_life_days = 30\nrecency_half_life_days = 20\n');
  const both = cli(['list'], { store: s, cwd: s });
  assert.equal(both.code, 1);
  assert.match(both.stderr, /behavior\.recency_boost_half_life_days and behavior\.recency_half_life_days are the same setting .*keep only behavior\.recency_half_life_days/);
});

test('config.toml: behavior.tombstone_retention_days is the default cutoff of cairn tombstones prune', async () => {
  const s = store();
  const srv = await startServer({ store: s, cwd: s });
  const id = (await srv.call('memory_write', { content: 'The old build ran on Jenkins at ci.internal', scopes: ['ci'] })).id;
  await srv.call('memory_remove', { id, reason: 'moved to GitHub Actions' });
  await srv.close();
  const tomb = join(s, '.tombstones', readdirSync(join(s, '.tombstones')).find((n) => n.endsWith('.md'))!);
  writeFileSync(tomb, readFileSync(tomb, 'utf8').replace(/^removed: .*$/m, 'removed: 2020-01-01T00:00:00.000Z'));
  const none = cli(['tombstones', 'prune', '--dry-run'], { store: s, cwd: s });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--older-than DAYS is required \(or set behavior\.tombstone_retention_days/);
  writeFileSync(join(s, 'config.toml'), '[behavior]\ntombstone_retention_days = 90\n');
  const dry = cli(['tombstones', 'prune', '--dry-run'], { store: s, cwd: s });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, new RegExp(`${id} .*\\nwould delete 1 tombstone removed more than 90 days ago`));
});

test('cairn init --with-addendum prints the memory policy, as --policy --print-only, and says so on stderr', () => {
  const s = store();
  const r = cli(['init', '--with-addendum'], { store: s, cwd: s });
  const ref = cli(['init', '--policy', '--print-only'], { store: s, cwd: s });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, ref.stdout);
  assert.match(r.stderr, /--with-addendum is the old \(bettermemory\) name: it prints the memory policy, as cairn init --policy --print-only does/);
  assert.deepEqual(readdirSync(s).filter((n) => n === 'AGENTS.md'), [], 'nothing written');
});

test('memory_health: heavily_used_top_k is read as top_k, and the answer says so', async () => {
  const s = store();
  const srv = await startServer({ store: s, cwd: s });
  try {
    const h = await srv.call('memory_health', { heavily_used_top_k: 4 });
    assert.equal(h.top_k, 4);
    assert.match(h.notice, /heavily_used_top_k is the old \(bettermemory\) name of top_k/);
    const plain = await srv.call('memory_health', { top_k: 4 });
    assert.equal(plain.notice, undefined);
    const clash = await srv.raw('memory_health', { top_k: 5, heavily_used_top_k: 4 });
    assert.equal(clash.isError, true);
    assert.match((clash.content as { text: string }[])[0]!.text, /heavily_used_top_k \(4\) is the old name of top_k \(5\): give only top_k/);
  } finally {
    await srv.close();
  }
});
