import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig, parseConfigText } from '../../src/core/config.ts';
import { resolveStore } from '../../src/core/store/location.ts';
import { normalizeRepoUrl } from '../../src/core/origin.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

test('config: every key optional; values are checked and a bad one names its key', () => {
  assert.deepEqual(parseConfigText(''), defaultConfig());
  const c = parseConfigText('[behavior]\ndefault_max_results = 8\nrequire_write_confirmation = true\n[scopes]\nallowed = ["projects:*"]\n[search.synonyms]\nwidget = ["gadget"]');
  assert.equal(c.behavior.default_max_results, 8);
  assert.equal(c.behavior.require_write_confirmation, true);
  assert.deepEqual(c.scopes.allowed, ['projects:*']);
  assert.deepEqual(c.search.synonyms, { widget: ['gadget'] });
  assert.throws(() => parseConfigText('[behavior]\ndefault_max_results = 0'), /behavior\.default_max_results must be between 1 and 50, got 0/);
  assert.throws(() => parseConfigText('[behavior]\nrequire_write_confirmation = "yes"'), /behavior\.require_write_confirmation must be true or false/);
  assert.throws(() => parseConfigText('[telemetry]\nenabld = false'), /telemetry\.enabld is not known/);
  assert.throws(() => parseConfigText('[nope]\nx = 1'), /config section \[nope\] is not known/);
  assert.throws(() => parseConfigText('[behavior\n'), /not valid TOML/);
});

test('store resolution order: $CAIRN_DIR, storage.directory, ./.cairn, ~/.cairn', () => {
  const home = tempDir();
  const cwd = tempDir();
  try {
    assert.equal(resolveStore({ env: { CAIRN_DIR: '/x/y' }, cwd, home }).dir, '/x/y');
    assert.equal(resolveStore({ env: { CAIRN_DIR: '~/m' }, cwd, home }).dir, join(home, 'm'));
    assert.deepEqual([resolveStore({ env: {}, cwd, home }).dir, resolveStore({ env: {}, cwd, home }).via], [join(home, '.cairn'), 'home']);
    mkdirSync(join(home, '.cairn'));
    writeFileSync(join(home, '.cairn', 'config.toml'), '[storage]\ndirectory = "~/notes/mem"\n');
    assert.deepEqual([resolveStore({ env: {}, cwd, home }).dir, resolveStore({ env: {}, cwd, home }).via], [join(home, 'notes/mem'), 'config']);
    mkdirSync(join(cwd, '.cairn'));
    assert.deepEqual([resolveStore({ env: {}, cwd, home }).dir, resolveStore({ env: {}, cwd, home }).via], [join(cwd, '.cairn'), 'project']);
    writeFileSync(join(cwd, '.cairn', 'config.toml'), '[behavior]\npending_ttl_minutes = -1\n');
    assert.throws(() => resolveStore({ env: {}, cwd, home }), /behavior\.pending_ttl_minutes must be between/);
  } finally {
    removeDir(home);
    removeDir(cwd);
  }
});

test('repo URLs in their different forms compare equal', () => {
  const forms = ['git@github.com:acme/widgets.git', 'https://github.com/acme/widgets', 'https://GitHub.com/acme/widgets.git/', 'ssh://git@github.com/acme/widgets.git', 'ssh://git@github.com:22/acme/widgets', 'https://user@github.com/acme/widgets.git'];
  for (const f of forms) assert.equal(normalizeRepoUrl(f), 'github.com/acme/widgets', f);
  assert.notEqual(normalizeRepoUrl('git@github.com:acme/gadgets.git'), 'github.com/acme/widgets');
  assert.equal(normalizeRepoUrl(null), null);
});
