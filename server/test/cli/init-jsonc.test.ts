// Through the built bundle: `cairn init` edits client configs written as JSON with comments (VS
// Code's mcp.json, many Claude Desktop configs) in place: the text outside cairn's entry is the
// same byte for byte (comments, layout, trailing commas, other servers), the entry means what
// cairn wants, and a second run leaves the file byte-identical.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BUNDLE, cli } from '../helpers/mcp.ts';
import { memberSpan, parseJsonc } from '../../src/core/io/jsonc.ts';
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

/**
 * The text outside cairn's entry: the file without the `"cairn": {...}` member and the comma and
 * line break that go with it (before or after it).
 */
function outsideEntry(text: string, key: string): string {
  const span = memberSpan(text, [key, 'cairn']);
  if (!span) return text;
  let { start, end } = span;
  while (start > 0 && ' \t'.includes(text[start - 1]!)) start--;
  if (text[end] === ',') end++;
  else {
    let s = start;
    while (s > 0 && ' \t\r\n'.includes(text[s - 1]!)) s--;
    if (text[s - 1] === ',') start = s - 1;
  }
  if (text[end] === '\n') end++;
  else if (text[start - 1] === '\n' && start > 0) start--;
  return text.slice(0, start) + text.slice(end);
}

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
    // Byte for byte the same outside cairn's entry, and the entry is what cairn registers, in the
    // file's tabs and trailing-comma style.
    assert.equal(outsideEntry(after, 'servers'), VSCODE);
    assert.deepEqual((parseJsonc(after) as any).servers.cairn, {
      type: 'stdio', command: process.execPath, args: [BUNDLE], env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' },
    });
    assert.match(after, /\n\t\t"cairn": \{\n\t\t\t"type": "stdio",\n[\s\S]*\n\t\t\},\n/);

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
    const after = readFileSync(file, 'utf8');
    // Outside the entry nothing moved; inside it only the values cairn owns changed: the user's
    // comments and env variable stay.
    assert.equal(outsideEntry(after, 'mcpServers'), outsideEntry(DESKTOP, 'mcpServers'));
    assert.match(after, /\n {6}\/\/ keep my store on the data disk\n {6}"command": "[^"]+", {3}\/\/ the old PATH lookup\n/);
    assert.deepEqual((parseJsonc(after) as any).mcpServers.cairn, {
      command: process.execPath, args: [BUNDLE], env: { CAIRN_DIR: '/data/cairn', MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' },
    });
    assert.equal(cli(['init', '--client', 'claude-desktop'], { store: join(home, 'store'), cwd: home, env }).code, 0);
    assert.equal(readFileSync(file, 'utf8'), after);

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
