// `cairn init` for Codex CLI (TOML), OpenCode (JSON/JSONC), Zed (JSONC) and Gemini CLI, the
// memory policy in instruction files (--policy), and the Claude Code plugin guard, each through
// the built bundle against real files in a temp HOME.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { BUNDLE } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { spawnSync } from 'node:child_process';
import { parseJsonc } from '../../src/core/io/jsonc.ts';
import { INSTRUCTIONS } from '../../src/mcp/instructions.ts';
import { POLICY_BEGIN, POLICY_END } from '../../src/core/io/policy.ts';

function home() {
  const dir = tempDir('cairn-clients-');
  const run = (args: string[], env: Record<string, string> = {}, cwd = dir) => {
    const r = spawnSync(process.execPath, [BUNDLE, ...args], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, HOME: dir, CAIRN_DIR: join(dir, 'store'), XDG_CONFIG_HOME: '', APPDATA: '', CODEX_HOME: '', CLAUDE_CONFIG_DIR: '', CLAUDE_PROJECT_DIR: '', ...env },
      timeout: 30_000,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return { dir, run };
}
const write = (file: string, text: string) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
};

/** The variables every client's entry starts the server with (clients.ts SERVER_ENV), spelled out. */
const SERVER_VARS = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' };
const ENV_LINE = '\nenv = { MALLOC_ARENA_MAX = "2", MALLOC_MMAP_THRESHOLD_ = "1048576" }';

test('codex: [mcp_servers.cairn] added to config.toml with every comment and table kept, then unchanged; an old entry updated in place', () => {
  const h = home();
  const file = join(h.dir, '.codex', 'config.toml');
  const before = [
    '# Codex settings (hand-written)',
    'model = "gpt-5"   # the default model',
    'approval_policy = "on-request"',
    '',
    '[mcp_servers.docs]',
    'command = "npx"',
    'args = ["-y", "docs-mcp"]  # docs server',
    '',
    '[profiles.fast]',
    'model = "gpt-5-mini"',
    '',
  ].join('\n');
  write(file, before);
  const printOnly = h.run(['init', '--client', 'codex', '--print-only']);
  assert.equal(printOnly.code, 0, printOnly.stderr);
  assert.equal(printOnly.stdout, `${file}: cairn would add this entry (the rest of the file stays as it is):\n[mcp_servers.cairn]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(BUNDLE)}]${ENV_LINE}\n`);
  assert.equal(readFileSync(file, 'utf8'), before);

  const r = h.run(['init', '--client', 'codex']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Codex CLI: added the cairn server in .*config\.toml/);
  assert.match(r.stdout, /cairn init --policy --client codex/);
  const after = readFileSync(file, 'utf8');
  assert.ok(after.startsWith(before), 'the user\'s text is kept byte for byte');
  assert.equal(after, `${before}\n[mcp_servers.cairn]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(BUNDLE)}]${ENV_LINE}\n`);
  const doc = parseToml(after) as { mcp_servers: Record<string, Record<string, unknown>>; profiles: unknown };
  assert.deepEqual({ ...doc.mcp_servers.cairn, env: { ...(doc.mcp_servers.cairn!.env as object) } }, { command: process.execPath, args: [BUNDLE], env: SERVER_VARS });
  assert.ok(doc.mcp_servers.docs && doc.profiles);
  const again = h.run(['init', '--client', 'codex', '--json']);
  assert.equal(JSON.parse(again.stdout).status, 'unchanged');
  assert.equal(readFileSync(file, 'utf8'), after);

  // An entry from an older install (multi-line args, an env table of the user's): only the keys
  // cairn owns change (its two variables are set in the user's env table); the comment lines and
  // the user's variable stay.
  const old = [
    'model = "gpt-5"',
    '[mcp_servers.cairn]',
    '# cairn memory',
    'command = "/old/node"',
    'args = [',
    '  "/old/cairn.mjs",  # old path',
    ']',
    'startup_timeout_sec = 20',
    '[mcp_servers.cairn.env]',
    'CAIRN_DIR = "/data/cairn"',
    '',
  ].join('\n');
  write(file, old);
  const up = h.run(['init', '--client', 'codex', '--json']);
  assert.equal(JSON.parse(up.stdout).status, 'updated', up.stderr);
  const updated = readFileSync(file, 'utf8');
  assert.equal(updated, old.replace('command = "/old/node"', `command = ${JSON.stringify(process.execPath)}`).replace(/args = \[\n {2}"\/old\/cairn\.mjs", {2}# old path\n\]/, `args = [${JSON.stringify(BUNDLE)}]`).replace('[mcp_servers.cairn.env]\n', '[mcp_servers.cairn.env]\nMALLOC_ARENA_MAX = "2"\nMALLOC_MMAP_THRESHOLD_ = "1048576"\n'));
  const d2 = parseToml(updated) as { mcp_servers: { cairn: Record<string, unknown> } };
  assert.equal(d2.mcp_servers.cairn.startup_timeout_sec, 20);
  assert.deepEqual({ ...(d2.mcp_servers.cairn.env as object) }, { CAIRN_DIR: '/data/cairn', ...SERVER_VARS });

  // Forms a line edit cannot change safely, and invalid TOML: refused, file untouched, snippet given.
  for (const text of ['mcp_servers = { cairn = { command = "x" } }\n', 'model = = "x"\n']) {
    write(file, text);
    const bad = h.run(['init', '--client', 'codex']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /cairn left it untouched\. Fix it, or add this by hand:\n\[mcp_servers\.cairn\]\ncommand = /);
    assert.equal(readFileSync(file, 'utf8'), text);
  }
  // CODEX_HOME moves the file.
  const ch = join(h.dir, 'codex-home');
  assert.equal(h.run(['init', '--client', 'codex'], { CODEX_HOME: ch }).code, 0);
  assert.ok(existsSync(join(ch, 'config.toml')));
  removeDir(h.dir);
});

test('opencode, zed, gemini: their own keys and shapes, comments kept, idempotent; doctor sees them', () => {
  const h = home();
  const opencode = join(h.dir, '.config', 'opencode', 'opencode.jsonc');
  write(opencode, '{\n  "$schema": "https://opencode.ai/config.json",\n  // my model\n  "model": "anthropic/claude-sonnet-4",\n  "mcp": {\n    "docs": { "type": "remote", "url": "https://docs.example/mcp" }, // remote docs\n  },\n}\n');
  const zed = join(h.dir, '.config', 'zed', 'settings.json');
  write(zed, '// Zed settings\n{\n  "theme": "One Dark",\n  /* fonts */\n  "buffer_font_size": 15,\n}\n');
  const gemini = join(h.dir, '.gemini', 'settings.json');
  write(gemini, '{\n    "theme": "GitHub",\n    "mcpServers": {}\n}\n');

  const cases: Array<[string, string, (v: Record<string, any>) => unknown, unknown]> = [
    ['opencode', opencode, (v) => v.mcp.cairn, { type: 'local', command: [process.execPath, BUNDLE], enabled: true, environment: SERVER_VARS }],
    ['zed', zed, (v) => v.context_servers.cairn, { command: process.execPath, args: [BUNDLE], env: SERVER_VARS }],
    ['gemini', gemini, (v) => v.mcpServers.cairn, { command: process.execPath, args: [BUNDLE], env: SERVER_VARS }],
  ];
  for (const [client, file, pick, want] of cases) {
    const before = readFileSync(file, 'utf8');
    const r = h.run(['init', '--client', client, '--json']);
    assert.equal(r.code, 0, `${client}: ${r.stderr}`);
    assert.equal(JSON.parse(r.stdout).status, 'added');
    assert.equal(JSON.parse(r.stdout).file, file);
    const text = readFileSync(file, 'utf8');
    const v = parseJsonc(text) as Record<string, any>;
    assert.deepEqual(pick(v), want, client);
    // Every comment and every other key is still there.
    for (const c of before.match(/\/\/[^\n]*|\/\*[^]*?\*\//g) ?? []) assert.ok(text.includes(c), `${client} kept ${c}`);
    const bytes = readFileSync(file);
    assert.equal(JSON.parse(h.run(['init', '--client', client, '--json']).stdout).status, 'unchanged');
    assert.deepEqual(readFileSync(file), bytes, `${client}: a second run leaves the file byte-identical`);
  }
  const ov = parseJsonc(readFileSync(opencode, 'utf8')) as Record<string, any>;
  assert.equal(ov.mcp.docs.url, 'https://docs.example/mcp');
  assert.equal(ov.model, 'anthropic/claude-sonnet-4');

  const listing = JSON.parse(h.run(['init', '--json']).stdout) as { clients: Array<{ client: string; registered: boolean }> };
  for (const c of ['opencode', 'zed', 'gemini']) assert.equal(listing.clients.find((x) => x.client === c)?.registered, true, c);
  const doc = JSON.parse(h.run(['doctor', '--json']).stdout) as { checks: Array<{ name: string; items?: string[] }> };
  const items = doc.checks.find((c) => c.name === 'registrations')!.items!.join('\n');
  for (const label of ['OpenCode', 'Zed', 'Gemini CLI']) assert.match(items, new RegExp(label));
  removeDir(h.dir);
});

test('claude-code with the cairn plugin installed: init refuses (nothing written) unless --force; doctor flags the duplicate', () => {
  const h = home();
  write(join(h.dir, '.claude', 'plugins', 'installed_plugins.json'), JSON.stringify({ version: 2, plugins: { 'cairn@cairn': [{ scope: 'user', installPath: '/x' }] } }));
  write(join(h.dir, '.claude.json'), '{\n  "userID": "secret-user-id",\n  "mcpServers": {}\n}\n');
  const before = readFileSync(join(h.dir, '.claude.json'), 'utf8');
  const r = h.run(['init', '--client', 'claude-code']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /the cairn plugin is installed in Claude Code \(cairn@cairn\), and it already starts the cairn server in every session; .*would start a second one\. Nothing was written\. .*--force adds the entry anyway/);
  assert.equal(readFileSync(join(h.dir, '.claude.json'), 'utf8'), before);
  // print-only shows only the entry, never the user's id or other settings.
  const po = h.run(['init', '--client', 'claude-code', '--print-only', '--force']);
  assert.equal(po.code, 0, po.stderr);
  assert.doesNotMatch(po.stdout, /secret-user-id|userID/);
  assert.match(po.stdout, /"type": "stdio"/);
  const forced = h.run(['init', '--client', 'claude-code', '--force']);
  assert.equal(forced.code, 0, forced.stderr);
  const doc = JSON.parse(h.run(['doctor', '--json']).stdout) as { exit_code: number; checks: Array<{ name: string; status: string; detail: string }> };
  const dup = doc.checks.find((c) => c.name === 'duplicate server');
  assert.equal(dup?.status, 'warn');
  assert.match(dup!.detail, /claude mcp remove cairn -s user/);
  // CLAUDE_CONFIG_DIR moves where the plugin list is read.
  const other = join(h.dir, 'claude-config');
  mkdirSync(other);
  const noPlugin = h.run(['init', '--client', 'claude-code', '--json'], { CLAUDE_CONFIG_DIR: other });
  assert.equal(noPlugin.code, 0, noPlugin.stderr);
  removeDir(h.dir);
});

test('doctor on a fresh install (plugin, no store yet) exits 0', () => {
  const h = home();
  write(join(h.dir, '.claude', 'plugins', 'installed_plugins.json'), JSON.stringify({ version: 2, plugins: { 'cairn@cairn': [{ scope: 'user' }] } }));
  const r = h.run(['doctor']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^ok +store +.*does not exist yet: it is created on the first write$/m);
  assert.ok(!existsSync(join(h.dir, 'store')), 'doctor creates nothing');
  removeDir(h.dir);
});

test('init --policy: the instructions\' text between markers in AGENTS.md (or the client\'s file), updated in place', () => {
  const h = home();
  const repo = join(h.dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  const agents = join(repo, 'AGENTS.md');
  writeFileSync(agents, '# Agents\n\nRun `npm test` before committing.\n');
  const r = h.run(['init', '--policy'], {}, join(repo, 'src', 'deep'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /AGENTS\.md: added the memory policy/);
  const text = readFileSync(agents, 'utf8');
  assert.ok(text.startsWith('# Agents\n\nRun `npm test` before committing.\n\n'), text);
  assert.ok(text.includes(`${POLICY_BEGIN}\n## Memory (cairn)\n\n${INSTRUCTIONS}\n${POLICY_END}\n`), 'the MCP instructions, verbatim, between the markers');
  assert.equal(JSON.parse(h.run(['init', '--policy', '--json'], {}, repo).stdout).status, 'unchanged');
  assert.equal(readFileSync(agents, 'utf8'), text);

  // An older block (other words) is replaced in place; text after it stays.
  writeFileSync(agents, `# Agents\n\n${POLICY_BEGIN}\nold policy words\n${POLICY_END}\n\n## Later section\nkept\n`);
  const up = JSON.parse(h.run(['init', '--policy', '--json'], {}, repo).stdout);
  assert.equal(up.status, 'updated');
  const t2 = readFileSync(agents, 'utf8');
  assert.doesNotMatch(t2, /old policy words/);
  assert.match(t2, /## Later section\nkept\n$/);
  assert.equal(t2.split(POLICY_BEGIN).length, 2);

  // Per client: Cursor gets an always-applied rule file, Gemini CLI its GEMINI.md.
  assert.equal(h.run(['init', '--policy', '--client', 'cursor'], {}, repo).code, 0);
  const mdc = readFileSync(join(repo, '.cursor', 'rules', 'cairn.mdc'), 'utf8');
  assert.match(mdc, /^---\ndescription: .*\nalwaysApply: true\n---\n<!-- cairn:memory-policy:begin/);
  assert.equal(h.run(['init', '--policy', '--client', 'gemini'], {}, repo).code, 0);
  assert.ok(readFileSync(join(repo, 'GEMINI.md'), 'utf8').includes(INSTRUCTIONS));
  // --target writes any file; print-only writes nothing.
  const po = h.run(['init', '--policy', '--target', 'docs/AI.md', '--print-only'], {}, repo);
  assert.equal(po.code, 0, po.stderr);
  assert.match(po.stdout, /AI\.md: cairn would add this block:\n<!-- cairn:memory-policy:begin/);
  assert.equal(existsSync(join(repo, 'docs', 'AI.md')), false);
  assert.equal(h.run(['init', '--policy', '--target', 'docs/AI.md'], {}, repo).code, 0);
  assert.ok(readFileSync(join(repo, 'docs', 'AI.md'), 'utf8').includes(INSTRUCTIONS));

  const usage: Array<[string[], RegExp]> = [
    [['init', '--target', 'x.md'], /--target FILE goes with --policy/],
    [['init', '--policy', '--client', 'claude-desktop'], /claude-desktop has no instructions file/],
    [['init', '--policy', '--client', 'cursor', '--target', 'x.md'], /not both/],
    [['init', '--client', 'emacs'], /unknown client "emacs": use one of .*codex, opencode, zed, gemini/],
  ];
  for (const [args, re] of usage) {
    const u = h.run(args, {}, repo);
    assert.equal(u.code, 2, args.join(' '));
    assert.match(u.stderr, re);
  }
  // Broken markers: refused, untouched.
  writeFileSync(agents, `${POLICY_END}\n${POLICY_BEGIN}\n`);
  const broken = h.run(['init', '--policy'], {}, repo);
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /markers out of order/);
  removeDir(h.dir);
});
