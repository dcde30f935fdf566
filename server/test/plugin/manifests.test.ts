import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SKILL_FILE, readJson, readMarkdown } from './paths.ts';

const pkg = readJson('package.json');
const plugin = readJson('.claude-plugin/plugin.json');
const market = readJson('.claude-plugin/marketplace.json');
const entries = (market.plugins ?? []) as Array<Record<string, unknown>>;

test('package.json, plugin.json and the marketplace entry agree on name and version', () => {
  assert.equal(pkg.name, 'cairn');
  assert.equal(plugin.name, pkg.name, 'plugin.json name differs from package.json');
  assert.equal(plugin.version, pkg.version, 'plugin.json version differs from package.json');
  assert.equal(entries.length, 1, 'marketplace.json must list exactly the cairn plugin');
  const entry = entries[0]!;
  assert.equal(entry.name, pkg.name, 'marketplace entry name differs from package.json');
  assert.equal(entry.version, pkg.version, 'marketplace entry version differs from package.json');
  assert.match(String(pkg.version), /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'version must be semver');
});

test('the marketplace is named cairn and serves the plugin from the repository root', () => {
  // `/plugin marketplace add <repo>` then `/plugin install cairn@cairn` depends on both names.
  assert.equal(market.name, 'cairn');
  assert.equal(typeof (market.owner as { name?: unknown })?.name, 'string');
  assert.equal(entries[0]!.source, './');
  assert.equal(entries[0]!.description, plugin.description, 'marketplace and plugin descriptions drifted apart');
  assert.equal(plugin.description, pkg.description, 'plugin.json and package.json descriptions drifted apart');
});

test('plugin.json starts the committed bundle as the cairn MCP server', () => {
  const servers = plugin.mcpServers as Record<string, { command?: string; args?: string[] }>;
  assert.deepEqual(Object.keys(servers), ['cairn'], 'one server named cairn: tool names become mcp__plugin_cairn_cairn__*');
  assert.equal(servers.cairn!.command, 'node');
  assert.deepEqual(servers.cairn!.args, ['${CLAUDE_PLUGIN_ROOT}/server/dist/cairn.mjs']);
  // The bundle path in plugin.json is the package's bin: one file is both server and CLI.
  assert.deepEqual(pkg.bin, { cairn: 'server/dist/cairn.mjs' });
  // A root .mcp.json would declare the server twice (and as a project server in this repo).
  assert.equal(existsSync(join(ROOT, '.mcp.json')), false);
});

test('every plugin directory ships in the npm package', () => {
  const files = pkg.files as string[];
  for (const dir of ['server/dist', '.claude-plugin', 'skills', 'commands', 'hooks']) {
    assert.ok(files.includes(dir), `package.json files lacks ${dir}`);
  }
});

test('the SessionStart hook runs the bundle\'s overview --hook with a time limit', () => {
  const hooks = readJson('hooks/hooks.json').hooks as Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>;
  assert.deepEqual(Object.keys(hooks), ['SessionStart']);
  const all = hooks.SessionStart!.flatMap((m) => m.hooks);
  assert.equal(all.length, 1);
  const h = all[0]!;
  assert.equal(h.type, 'command');
  assert.equal(h.command, 'node "${CLAUDE_PLUGIN_ROOT}/server/dist/cairn.mjs" overview --hook');
  assert.equal(typeof h.timeout, 'number');
  assert.ok((h.timeout as number) > 0 && (h.timeout as number) <= 30, 'hook timeout is in seconds and must stay short');
});

test('the memory skill has a name and a description that names its triggers', () => {
  const { data, body } = readMarkdown(SKILL_FILE);
  assert.equal(data.name, 'memory');
  const desc = String(data.description ?? '');
  assert.ok(desc.length >= 80 && desc.length <= 1024, `skill description is ${desc.length} chars; it must say when to load the skill`);
  for (const word of ['memory', 'remember', 'preferences']) assert.ok(desc.includes(word), `skill description lacks "${word}"`);
  for (const section of ['When to search', 'relevance and staleness', 'durable memory', 'tombstone', 'Scope hygiene', 'category=user-inference', 'memory_record_use']) {
    assert.ok(body.includes(section), `SKILL.md lacks the part on ${section}`);
  }
});
