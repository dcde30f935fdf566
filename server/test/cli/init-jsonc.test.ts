// Issue 11 item 14, through the built bundle: `cairn init` edits client configs written as JSON
// with comments (VS Code's mcp.json, many Claude Desktop configs) in place: comments, layout,
// trailing commas and other servers survive, and a second run leaves the file byte-identical.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BUNDLE, cli } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

const VSCODE = `// User-level MCP servers (VS Code)
{
\t// GitHub's hosted server
\t"servers": {
\t\t"github": {
\t\t\t"type": "http",
\t\t\t"url": "https://api.githubcopilot.com/mcp/", // no token here: VS Code asks
\t\t},
\t\t/* "playwright": { "command": "npx", "args": ["@playwright/mcp@latest"] }, */
\t},
\t"inputs": [],
}
`;

const DESKTOP = `{
  /* Claude Desktop */
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "cairn": {
      // keep my store on the data disk
      "command": "node",   // the old PATH lookup
      "args": ["/old/cairn.mjs"],
      "env": { "CAIRN_DIR": "/data/cairn" }
    }
  }
}
`;

function put(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

test('init adds cairn to a commented VS Code mcp.json, changing nothing else; a second run is byte-identical', () => {
  const home = tempDir('cairn-jsonc-');
  try {
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    const file = join(home, '.config', 'Code', 'User', 'mcp.json');
    put(file, VSCODE);
    const r = cli(['init', '--client', 'vscode'], { store: join(home, 'store'), cwd: home, env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /added the cairn server/);
    const after = readFileSync(file, 'utf8');
    const entry = `\t\t"cairn": {\n\t\t\t"type": "stdio",\n\t\t\t"command": ${JSON.stringify(process.execPath)},\n\t\t\t"args": [\n\t\t\t\t${JSON.stringify(BUNDLE)}\n\t\t\t],\n\t\t\t"env": {\n\t\t\t\t"MALLOC_ARENA_MAX": "2",\n\t\t\t\t"MALLOC_MMAP_THRESHOLD_": "1048576"\n\t\t\t}\n\t\t},\n`;
    // Exactly one insertion, after the commented-out server, in the file's tabs and trailing-comma style.
    const at = VSCODE.indexOf('\t},\n\t"inputs"');
    assert.equal(after, VSCODE.slice(0, at) + entry + VSCODE.slice(at));

    const again = cli(['init', '--client', 'vscode'], { store: join(home, 'store'), cwd: home, env });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /already registered, nothing changed/);
    assert.equal(readFileSync(file, 'utf8'), after);

    const listed = cli(['init', '--json'], { store: join(home, 'store'), cwd: home, env });
    const vscode = JSON.parse(listed.stdout).clients.find((c: { client: string }) => c.client === 'vscode');
    assert.deepEqual({ registered: vscode.registered, error: vscode.error }, { registered: true, error: undefined });
  } finally {
    removeDir(home);
  }
});

test('init updates an existing commented Claude Desktop entry in place, keeping the user\'s keys and comments', () => {
  const home = tempDir('cairn-jsonc-');
  try {
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    const file = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    put(file, DESKTOP);
    const r = cli(['init', '--client', 'claude-desktop'], { store: join(home, 'store'), cwd: home, env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /updated the cairn server/);
    const expected = DESKTOP.replace('"node"', JSON.stringify(process.execPath)).replace('["/old/cairn.mjs"]', `[${JSON.stringify(BUNDLE)}]`)
      // cairn's variables join the user's (only the env value is rewritten; its comment stays)
      .replace('{ "CAIRN_DIR": "/data/cairn" }', '{"CAIRN_DIR": "/data/cairn", "MALLOC_ARENA_MAX": "2", "MALLOC_MMAP_THRESHOLD_": "1048576"}');
    assert.equal(readFileSync(file, 'utf8'), expected);
    assert.equal(cli(['init', '--client', 'claude-desktop'], { store: join(home, 'store'), cwd: home, env }).code, 0);
    assert.equal(readFileSync(file, 'utf8'), expected);

    // Still refused: a file that is not JSON even with comments allowed; it is left as it was.
    const broken = '{ "mcpServers": { "a": { "command": "x" } }, /* unclosed\n';
    put(file, broken);
    const bad = cli(['init', '--client', 'claude-desktop'], { store: join(home, 'store'), cwd: home, env });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /is not valid JSON \(nor JSON with comments\): unclosed \/\* comment at line 1 column 46; cairn left it untouched/);
    assert.equal(readFileSync(file, 'utf8'), broken);
  } finally {
    removeDir(home);
  }
});
