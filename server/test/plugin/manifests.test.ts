import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SKILL_FILE, readJson, readMarkdown } from './paths.ts';
import { SERVER_ENV } from '../../src/core/io/clients.ts';

const pkg = readJson('package.json');
const plugin = readJson('.claude-plugin/plugin.json');
const market = readJson('.claude-plugin/marketplace.json');
const entries = (market.plugins ?? []) as Array<Record<string, unknown>>;

test('package.json, plugin.json and the marketplace entry agree on name and version', () => {
  // The npm package is cairn-memory ('cairn' on the registry is another project's); the plugin,
  // its marketplace and the binary are cairn.
  assert.equal(pkg.name, 'cairn-memory');
  assert.equal(plugin.name, 'cairn');
  assert.equal(plugin.version, pkg.version, 'plugin.json version differs from package.json');
  assert.equal(entries.length, 1, 'marketplace.json must list exactly the cairn plugin');
  const entry = entries[0]!;
  assert.equal(entry.name, plugin.name, 'marketplace entry name differs from plugin.json');
  assert.equal(entry.version, pkg.version, 'marketplace entry version differs from package.json');
  assert.match(String(pkg.version), /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'version must be semver');
});

test('the marketplace is named cairn and serves the plugin from the runtime tree plugin/', () => {
  // `/plugin marketplace add <repo>` then `/plugin install cairn@cairn` depends on both names.
  assert.equal(market.name, 'cairn');
  assert.equal(typeof (market.owner as { name?: unknown })?.name, 'string');
  // Not "./": Claude Code copies the whole source directory into its plugin cache and runs
  // `npm ci` where it finds a lockfile (71 MB of devDependencies, sources and benchmarks).
  assert.equal(entries[0]!.source, './plugin');
  assert.equal(entries[0]!.description, plugin.description, 'marketplace and plugin descriptions drifted apart');
  assert.equal(plugin.description, pkg.description, 'plugin.json and package.json descriptions drifted apart');
});

test('plugin.json starts the committed bundle as the cairn MCP server', () => {
  const servers = plugin.mcpServers as Record<string, { command?: string; args?: string[]; env?: Record<string, string> }>;
  assert.deepEqual(Object.keys(servers), ['cairn'], 'one server named cairn: tool names become mcp__plugin_cairn_cairn__*');
  assert.equal(servers.cairn!.command, 'node');
  assert.deepEqual(servers.cairn!.args, ['${CLAUDE_PLUGIN_ROOT}/server/dist/cairn.mjs']);
  // The server's variables (glibc's allocator settings), the same `cairn init` writes for other clients.
  assert.deepEqual(servers.cairn!.env, SERVER_ENV);
  assert.deepEqual(Object.keys(SERVER_ENV).sort(), ['MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_']);
  // The bundle path in plugin.json is the package's bin: one file is both server and CLI.
  assert.deepEqual(pkg.bin, { cairn: 'server/dist/cairn.mjs' });
  // A root .mcp.json would declare the server twice (and as a project server in this repo).
  assert.equal(existsSync(join(ROOT, '.mcp.json')), false);
});

test('the npm package carries what runs and nothing else, with no runtime dependencies', () => {
  const files = pkg.files as string[];
  for (const f of ['server/dist/cairn.mjs', 'server/dist/cairn-embed-worker.mjs', 'server/dist/cairn-model.bin', 'server/dist/cairn-ort.wasm.br']) {
    assert.ok(files.includes(f), `package.json files lacks ${f}`);
  }
  for (const f of files) assert.ok(!/^(server\/src|server\/test|bench|scripts)(\/|$)/.test(f), `package.json files ships ${f}, which does not run`);
  assert.equal(pkg.dependencies, undefined, 'the bundle holds every dependency: npx must fetch one package');
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

test('plugin/ holds only what runs: links to the runtime parts, fresh copies of the manifests, no lockfile', () => {
  const P = join(ROOT, 'plugin');
  assert.deepEqual(readdirSync(P).sort(), ['.claude-plugin', 'README.md', 'commands', 'hooks', 'package.json', 'scripts', 'server', 'skills']);
  // Symlinks (Claude Code copies their targets): nothing large is committed twice, and what
  // people edit (README, skill, commands) cannot go stale.
  const links: Array<[string, string]> = [
    ['README.md', 'README.md'],
    ['skills', 'skills'],
    ['commands', 'commands'],
    ['server/dist/cairn.mjs', 'server/dist/cairn.mjs'],
    ['server/dist/cairn-embed.bin', 'server/dist/cairn-embed.bin'],
    // the local model's worker and data files (docs/semantic.md)
    ['server/dist/cairn-embed-worker.mjs', 'server/dist/cairn-embed-worker.mjs'],
    ['server/dist/cairn-model.bin', 'server/dist/cairn-model.bin'],
    ['server/dist/cairn-ort.wasm.br', 'server/dist/cairn-ort.wasm.br'],
    ['.claude-plugin/icon.png', '.claude-plugin/icon.png'],
  ];
  for (const [at, target] of links) {
    assert.ok(lstatSync(join(P, at)).isSymbolicLink(), `plugin/${at} must be a symlink to ${target}`);
    assert.ok(!readlinkSync(join(P, at)).startsWith('/'), `plugin/${at} must be a relative link`);
    assert.equal(realpathSync(join(P, at)), realpathSync(join(ROOT, target)), `plugin/${at} must point at ${target}`);
  }
  assert.deepEqual(readdirSync(join(P, 'server')), ['dist']);
  // The bundle, its embedding table and the local model's files; memory-tool.mjs is for programs that import it, not the plugin.
  assert.ok(!lstatSync(join(P, 'server/dist')).isSymbolicLink());
  assert.deepEqual(readdirSync(join(P, 'server/dist')).sort(), ['cairn-embed-worker.mjs', 'cairn-embed.bin', 'cairn-model.bin', 'cairn-ort.wasm.br', 'cairn.mjs']);
  // Copies, written by npm run build (the validator does not read linked manifests or hooks).
  const stale = 'is stale: run npm run build and commit plugin/';
  assert.equal(readFileSync(join(P, '.claude-plugin/plugin.json'), 'utf8'), readFileSync(join(ROOT, '.claude-plugin/plugin.json'), 'utf8'), `plugin/.claude-plugin/plugin.json ${stale}`);
  assert.deepEqual(readdirSync(join(P, '.claude-plugin')).sort(), ['icon.png', 'plugin.json']);
  assert.deepEqual(readdirSync(join(P, 'hooks')).sort(), readdirSync(join(ROOT, 'hooks')).sort(), `plugin/hooks ${stale}`);
  for (const f of readdirSync(join(ROOT, 'hooks'))) {
    assert.ok(!lstatSync(join(P, 'hooks', f)).isSymbolicLink());
    assert.equal(readFileSync(join(P, 'hooks', f), 'utf8'), readFileSync(join(ROOT, 'hooks', f), 'utf8'), `plugin/hooks/${f} ${stale}`);
  }
  // No dependencies and no lockfile: Claude Code installs a plugin's packages only when a
  // package.json sits next to a lockfile, and the bundle needs none.
  const rpkg = readJson('plugin/package.json');
  assert.equal(rpkg.version, pkg.version, `plugin/package.json ${stale}`);
  assert.equal(rpkg.name, pkg.name);
  for (const k of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'workspaces', 'scripts']) assert.equal(rpkg[k], undefined, `plugin/package.json must not have ${k}`);
  for (const lock of ['package-lock.json', 'npm-shrinkwrap.json', 'bun.lock', 'bun.lockb', 'yarn.lock', 'pnpm-lock.yaml']) assert.equal(existsSync(join(P, lock)), false);
  assert.deepEqual(readdirSync(join(P, 'scripts')), ['cairn']);
  assert.ok((lstatSync(join(P, 'scripts', 'cairn')).mode & 0o111) !== 0, 'plugin/scripts/cairn must be executable');
});

test('the listing icon is a square PNG of 512 to 2048 px under 2 MB (claude plugin validate --strict asks for one)', () => {
  const png = readFileSync(join(ROOT, '.claude-plugin', 'icon.png'));
  assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  const w = png.readUInt32BE(16);
  const h = png.readUInt32BE(20);
  assert.equal(w, h);
  assert.ok(w >= 512 && w <= 2048);
  assert.ok(png.length < 2 * 1024 * 1024);
});
