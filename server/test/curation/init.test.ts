import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLIENTS, clientSpec, serverEntry, type InitEnv } from '../../src/core/io/clients.ts';
import { readRegistration, runInit } from '../../src/core/io/init.ts';
import { yamlLoad } from '../../src/core/io/yaml.ts';
import { tempDir } from '../helpers/env.ts';

const entry = serverEntry('/opt/cairn/server/dist/cairn.mjs', '/usr/local/bin/node');
const linux = (home: string): InitEnv => ({ home, platform: 'linux', env: {} });

function put(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

test('each client has its real per-OS location and shape', () => {
  const h = '/home/u';
  const files = Object.fromEntries(CLIENTS.map((c) => [c, clientSpec(c, linux(h)).file]));
  assert.deepEqual(files, {
    'claude-code': '/home/u/.claude.json',
    'claude-desktop': '/home/u/.config/Claude/claude_desktop_config.json',
    cursor: '/home/u/.cursor/mcp.json',
    vscode: '/home/u/.config/Code/User/mcp.json',
    windsurf: '/home/u/.codeium/windsurf/mcp_config.json',
    cline: '/home/u/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
    continue: '/home/u/.continue/mcpServers/cairn.yaml',
    codex: '/home/u/.codex/config.toml',
    opencode: '/home/u/.config/opencode/opencode.json',
    zed: '/home/u/.config/zed/settings.json',
    gemini: '/home/u/.gemini/settings.json',
  });
  // Codex honours $CODEX_HOME; OpenCode and Zed read $XDG_CONFIG_HOME (~/.config) on macOS too;
  // Zed on Windows keeps its settings under %APPDATA%\Zed.
  assert.equal(clientSpec('codex', { home: '/h', platform: 'linux', env: { CODEX_HOME: '/c' } }).file, '/c/config.toml');
  assert.equal(clientSpec('opencode', { home: '/Users/u', platform: 'darwin', env: {} }).file, '/Users/u/.config/opencode/opencode.json');
  assert.equal(clientSpec('zed', { home: '/Users/u', platform: 'darwin', env: {} }).file, '/Users/u/.config/zed/settings.json');
  assert.equal(clientSpec('zed', { home: '/h', platform: 'linux', env: { XDG_CONFIG_HOME: '/x' } }).file, '/x/zed/settings.json');
  assert.equal(clientSpec('zed', { home: 'C:\\Users\\u', platform: 'win32', env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' } }).file, join('C:\\Users\\u\\AppData\\Roaming', 'Zed', 'settings.json'));
  assert.equal(clientSpec('gemini', { home: '/Users/u', platform: 'darwin', env: {} }).file, '/Users/u/.gemini/settings.json');
  assert.deepEqual(clientSpec('opencode', linux(h)).entry(entry), { type: 'local', command: ['/usr/local/bin/node', '/opt/cairn/server/dist/cairn.mjs'], enabled: true, environment: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' } });
  assert.equal(clientSpec('opencode', linux(h)).key, 'mcp');
  assert.equal(clientSpec('zed', linux(h)).key, 'context_servers');
  assert.equal(clientSpec('codex', linux(h)).key, 'mcp_servers');
  assert.equal(clientSpec('claude-desktop', { home: '/Users/u', platform: 'darwin', env: {} }).file, '/Users/u/Library/Application Support/Claude/claude_desktop_config.json');
  assert.equal(clientSpec('vscode', { home: '/Users/u', platform: 'darwin', env: {} }).file, '/Users/u/Library/Application Support/Code/User/mcp.json');
  const win = clientSpec('claude-desktop', { home: 'C:\\Users\\u', platform: 'win32', env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' } }).file;
  assert.equal(win, join('C:\\Users\\u\\AppData\\Roaming', 'Claude', 'claude_desktop_config.json'));
  assert.equal(clientSpec('cursor', { home: '/h', platform: 'linux', env: { XDG_CONFIG_HOME: '/x' } }).file, '/h/.cursor/mcp.json');
  assert.equal(clientSpec('claude-desktop', { home: '/h', platform: 'linux', env: { XDG_CONFIG_HOME: '/x' } }).file, '/x/Claude/claude_desktop_config.json');
  assert.equal(clientSpec('vscode', linux(h)).key, 'servers');
  assert.deepEqual(clientSpec('vscode', linux(h)).entry(entry), { type: 'stdio', command: '/usr/local/bin/node', args: ['/opt/cairn/server/dist/cairn.mjs'], env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' } });
  assert.deepEqual(clientSpec('cursor', linux(h)).entry(entry), { command: '/usr/local/bin/node', args: ['/opt/cairn/server/dist/cairn.mjs'], env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' } });
});

test('every client: added, then unchanged with the file byte-identical', async () => {
  const home = tempDir('cairn-init-');
  for (const c of CLIENTS) {
    const spec = clientSpec(c, linux(home));
    const first = await runInit(spec, entry);
    assert.equal(first.status, 'added', c);
    assert.equal(first.written, true);
    const bytes = readFileSync(spec.file);
    const again = await runInit(spec, entry);
    assert.equal(again.status, 'unchanged', c);
    assert.equal(again.written, false);
    assert.deepEqual(readFileSync(spec.file), bytes, `${c} byte-identical`);
    const reg = await readRegistration(spec.file, spec.format, spec.key);
    assert.deepEqual(reg.entry, spec.entry(entry));
  }
  const cont = yamlLoad(readFileSync(clientSpec('continue', linux(home)).file, 'utf8'));
  assert.deepEqual(cont, {
    name: 'cairn', version: '0.0.1', schema: 'v1',
    mcpServers: [{ name: 'cairn', command: '/usr/local/bin/node', args: ['/opt/cairn/server/dist/cairn.mjs'], env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' } }],
  });
});

test('merging keeps every other key, the indentation, the mode and the user\'s own entry keys', async () => {
  const home = tempDir('cairn-init-');
  const spec = clientSpec('claude-desktop', linux(home));
  const original = {
    globalShortcut: 'Ctrl+Space',
    mcpServers: {
      filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
      cairn: { command: 'node', args: ['/old/cairn.mjs'], env: { CAIRN_DIR: '/data/cairn' } },
    },
  };
  put(spec.file, JSON.stringify(original, null, 4) + '\n');
  chmodSync(spec.file, 0o644);
  const r = await runInit(spec, entry);
  assert.equal(r.status, 'updated');
  const text = readFileSync(spec.file, 'utf8');
  assert.match(text, /^\{\n {4}"globalShortcut"/);
  assert.deepEqual(JSON.parse(text), {
    globalShortcut: 'Ctrl+Space',
    mcpServers: {
      filesystem: original.mcpServers.filesystem,
      // the user's variable stays beside cairn's
      cairn: { command: '/usr/local/bin/node', args: ['/opt/cairn/server/dist/cairn.mjs'], env: { CAIRN_DIR: '/data/cairn', MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' } },
    },
  });
  assert.equal(statSync(spec.file).mode & 0o777, 0o644);
  assert.equal((await runInit(spec, entry)).status, 'unchanged');
});

test('cairn\'s server variables join the user\'s own in every format; a re-run changes nothing', async () => {
  const home = tempDir('cairn-init-');
  const ours = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' };
  // JSONC (Zed): an entry with the user's env and a comment inside it; the comment outside the entry stays.
  const zed = clientSpec('zed', linux(home));
  put(zed.file, '{\n  // my servers\n  "context_servers": {\n    "cairn": { "command": "node", "args": ["/old.mjs"], "env": { "CAIRN_DIR": "/d", "MALLOC_ARENA_MAX": "8" } }\n  }\n}\n');
  assert.equal((await runInit(zed, entry)).status, 'updated');
  const zedText = readFileSync(zed.file, 'utf8');
  assert.match(zedText, /\/\/ my servers/);
  assert.deepEqual((await readRegistration(zed.file, zed.format, zed.key)).entry, { command: '/usr/local/bin/node', args: ['/opt/cairn/server/dist/cairn.mjs'], env: { CAIRN_DIR: '/d', ...ours } });
  assert.equal((await runInit(zed, entry)).status, 'unchanged');
  // OpenCode names it `environment`.
  const oc = clientSpec('opencode', linux(home));
  put(oc.file, JSON.stringify({ mcp: { cairn: { type: 'local', command: ['node', '/old.mjs'], enabled: false, environment: { CAIRN_DIR: '/d' } } } }));
  await runInit(oc, entry);
  assert.deepEqual((await readRegistration(oc.file, oc.format, oc.key)).entry, { type: 'local', command: ['/usr/local/bin/node', '/opt/cairn/server/dist/cairn.mjs'], enabled: true, environment: { CAIRN_DIR: '/d', ...ours } });
  // Codex: a new entry holds them in an inline table; the user's inline table gets them beside theirs.
  const codex = clientSpec('codex', linux(home));
  put(codex.file, '# codex\nmodel = "o3"\n');
  await runInit(codex, entry);
  let text = readFileSync(codex.file, 'utf8');
  assert.match(text, /^# codex\nmodel = "o3"\n\n\[mcp_servers\.cairn\]\n/);
  assert.match(text, /\nenv = \{ MALLOC_ARENA_MAX = "2", MALLOC_MMAP_THRESHOLD_ = "1048576" \}\n/);
  assert.deepEqual((await readRegistration(codex.file, codex.format, codex.key)).entry, { command: '/usr/local/bin/node', args: ['/opt/cairn/server/dist/cairn.mjs'], env: ours });
  put(codex.file, '[mcp_servers.cairn]\ncommand = "node"\nargs = ["/old.mjs"]\nenv = { CAIRN_DIR = "/d" } # mine\n');
  await runInit(codex, entry);
  assert.deepEqual((await readRegistration(codex.file, codex.format, codex.key)).entry, { command: '/usr/local/bin/node', args: ['/opt/cairn/server/dist/cairn.mjs'], env: { CAIRN_DIR: '/d', ...ours } });
  assert.match(readFileSync(codex.file, 'utf8'), /# mine/);
  // ... and a [mcp_servers.cairn.env] table of the user's gets cairn's keys set in it.
  put(codex.file, '[mcp_servers.cairn]\ncommand = "node"\nargs = ["/old.mjs"]\n\n[mcp_servers.cairn.env]\nCAIRN_DIR = "/d"\n');
  await runInit(codex, entry);
  text = readFileSync(codex.file, 'utf8');
  assert.match(text, /\[mcp_servers\.cairn\.env\]\n(MALLOC_ARENA_MAX = "2"\nMALLOC_MMAP_THRESHOLD_ = "1048576"\n)?CAIRN_DIR = "\/d"/);
  assert.doesNotMatch(text, /env = \{/);
  assert.deepEqual((await readRegistration(codex.file, codex.format, codex.key)).entry, { command: '/usr/local/bin/node', args: ['/opt/cairn/server/dist/cairn.mjs'], env: { CAIRN_DIR: '/d', ...ours } });
  const bytes = readFileSync(codex.file);
  assert.equal((await runInit(codex, entry)).status, 'unchanged');
  assert.deepEqual(readFileSync(codex.file), bytes);
  // Continue's block file.
  const cont = clientSpec('continue', linux(home));
  put(cont.file, 'name: cairn\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: cairn\n    command: node\n    args: [/old.mjs]\n    env:\n      CAIRN_DIR: /d\n');
  await runInit(cont, entry);
  assert.deepEqual((await readRegistration(cont.file, cont.format, cont.key)).entry, { name: 'cairn', command: '/usr/local/bin/node', args: ['/opt/cairn/server/dist/cairn.mjs'], env: { CAIRN_DIR: '/d', ...ours } });
});

test('a file that is not valid JSON (or has a bad server table) is refused and left untouched', async () => {
  const home = tempDir('cairn-init-');
  const spec = clientSpec('cursor', linux(home));
  const bad = '{ "mcpServers": { "a": } // a value is missing\n }\n';
  put(spec.file, bad);
  await assert.rejects(runInit(spec, entry), (err: Error) => {
    assert.equal(err.name, 'ConflictError');
    assert.match(err.message, /mcp\.json is not valid JSON \(nor JSON with comments\): expected a value at line 1 column 24; cairn left it untouched/s);
    assert.match(err.message, /"mcpServers": \{\n\s+"cairn"/);
    return true;
  });
  assert.equal(readFileSync(spec.file, 'utf8'), bad);
  put(spec.file, '{"mcpServers": ["x"]}');
  await assert.rejects(runInit(spec, entry), /has a "mcpServers" that is not an object/);
  put(spec.file, '[1, 2]');
  await assert.rejects(runInit(spec, entry), /does not hold a JSON object/);
  const cont = clientSpec('continue', linux(home));
  put(cont.file, 'name: [unclosed\n');
  await assert.rejects(runInit(cont, entry), /cairn\.yaml is not valid YAML/);
});

test('print-only plans without writing; an empty file counts as empty config', async () => {
  const home = tempDir('cairn-init-');
  const spec = clientSpec('windsurf', linux(home));
  const r = await runInit(spec, entry, { printOnly: true });
  assert.equal(r.status, 'added');
  assert.equal(r.written, false);
  assert.ok(!existsSync(spec.file));
  assert.deepEqual(JSON.parse(r.text!), { mcpServers: { cairn: spec.entry(entry) } });
  put(spec.file, '\n');
  assert.equal((await runInit(spec, entry)).status, 'added');
});

test('a symlinked config is written through the link; Continue blocks keep other servers', async () => {
  const home = tempDir('cairn-init-');
  const spec = clientSpec('cursor', linux(home));
  const real = join(home, 'dotfiles', 'cursor-mcp.json');
  put(real, '{\n  "mcpServers": {}\n}\n');
  mkdirSync(dirname(spec.file), { recursive: true });
  symlinkSync(real, spec.file);
  await runInit(spec, entry);
  assert.ok(lstatSync(spec.file).isSymbolicLink());
  assert.deepEqual(Object.keys(JSON.parse(readFileSync(real, 'utf8')).mcpServers), ['cairn']);

  const cont = clientSpec('continue', linux(home));
  put(cont.file, 'name: My servers\nversion: 1.0.0\nschema: v1\nmcpServers:\n  - name: sqlite\n    command: npx\n    args: ["-y", "mcp-sqlite"]\n');
  assert.equal((await runInit(cont, entry)).status, 'added');
  const doc = yamlLoad(readFileSync(cont.file, 'utf8')) as { name: string; mcpServers: { name: string }[] };
  assert.equal(doc.name, 'My servers');
  assert.deepEqual(doc.mcpServers.map((s) => s.name), ['sqlite', 'cairn']);
  assert.equal((await runInit(cont, entry)).status, 'unchanged');
});
