// Where each MCP client keeps its server list, per OS, and the shape of its entry. These are the
// clients' real user-level files (checked against each client's documentation):
//   claude-code     ~/.claude.json                                  { mcpServers: { name: { type, command, args, env } } }
//   claude-desktop  <appdata>/Claude/claude_desktop_config.json     { mcpServers: { name: { command, args, env } } }
//   cursor          ~/.cursor/mcp.json                              { mcpServers: ... }
//   vscode          <appdata>/Code/User/mcp.json                    { servers: { name: { type: "stdio", command, args, env } } }
//   windsurf        ~/.codeium/windsurf/mcp_config.json             { mcpServers: ... }
//   cline           <appdata>/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json
//   continue        ~/.continue/mcpServers/cairn.yaml               a YAML block: { name, version, schema, mcpServers: [ { name, command, args, env } ] }
//   codex           $CODEX_HOME/config.toml (~/.codex)              TOML: [mcp_servers.cairn] command = "...", args = [...], env = { ... }
//   opencode        <xdg>/opencode/opencode.json (or .jsonc)        { mcp: { name: { type: "local", command: [cmd, ...args], enabled: true, environment } } }
//   zed             <xdg>/zed/settings.json, %APPDATA%\Zed on Windows { context_servers: { name: { command, args, env } } } (JSONC)
//   gemini          ~/.gemini/settings.json                          { mcpServers: { name: { command, args, env } } }
// where <xdg> is $XDG_CONFIG_HOME or ~/.config on every OS (OpenCode and Zed read it on macOS too), and <appdata> is ~/Library/Application Support on macOS, %APPDATA% on Windows and
// $XDG_CONFIG_HOME (default ~/.config) elsewhere. Continue reads every block file in
// ~/.continue/mcpServers/, so cairn owns one file there instead of rewriting the user's
// hand-written config.yaml (whose comments a YAML round trip would lose); entries found in
// config.yaml are still reported.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'windsurf', 'cline', 'continue', 'codex', 'opencode', 'zed', 'gemini'] as const;
export type ClientId = (typeof CLIENTS)[number];

export const SERVER_NAME = 'cairn';

export interface ServerEntry {
  command: string;
  args: string[];
  /** Variables the server starts with (SERVER_ENV); a client's own variables for it are kept beside them. */
  env: Record<string, string>;
}

/**
 * The variables cairn's server runs with, in every client (the plugin's entry in
 * .claude-plugin/plugin.json says the same, and a test holds them equal): glibc's allocator keeps
 * two arenas instead of one per thread and maps blocks from 1 MB, so what a big store's first
 * start frees is given back (README, Performance: 200k memories, peak RSS ~520 -> ~440 MB).
 * Other C libraries and other systems ignore them.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = Object.freeze({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' });

export interface InitEnv {
  home: string;
  platform: NodeJS.Platform;
  /** Environment for %APPDATA% and $XDG_CONFIG_HOME. */
  env: NodeJS.ProcessEnv;
}

export type ConfigFormat = 'json' | 'yaml-block' | 'toml';

export interface ClientSpec {
  client: ClientId;
  label: string;
  /** The file cairn merges into. */
  file: string;
  format: ConfigFormat;
  /** The top-level key holding servers by name (JSON object key, TOML table name). */
  key: string;
  /** The entry as this client wants it. */
  entry: (e: ServerEntry) => Record<string, unknown>;
  /** Other files where a cairn registration for this client may already be (reported, never written). */
  alsoCheck: string[];
}

/** The per-user application config directory of this OS. */
export function appDataDir(ie: InitEnv): string {
  if (ie.platform === 'darwin') return join(ie.home, 'Library', 'Application Support');
  if (ie.platform === 'win32') return ie.env.APPDATA && ie.env.APPDATA.trim() !== '' ? ie.env.APPDATA : join(ie.home, 'AppData', 'Roaming');
  const xdg = ie.env.XDG_CONFIG_HOME;
  return xdg && xdg.trim() !== '' ? xdg : join(ie.home, '.config');
}

/** $XDG_CONFIG_HOME or ~/.config, on every OS (for tools that read it on macOS too). */
function xdgConfigDir(ie: InitEnv): string {
  const xdg = ie.env.XDG_CONFIG_HOME;
  return xdg && xdg.trim() !== '' ? xdg : join(ie.home, '.config');
}

/** OpenCode reads opencode.json or opencode.jsonc: edit the one that exists (.json when neither does). */
function opencodeFile(ie: InitEnv): string {
  const dir = join(xdgConfigDir(ie), 'opencode');
  const jsonc = join(dir, 'opencode.jsonc');
  return !existsSync(join(dir, 'opencode.json')) && existsSync(jsonc) ? jsonc : join(dir, 'opencode.json');
}

const plain = (e: ServerEntry) => ({ command: e.command, args: e.args, env: e.env });
const stdio = (e: ServerEntry) => ({ type: 'stdio', command: e.command, args: e.args, env: e.env });

export function clientSpec(client: ClientId, ie: InitEnv): ClientSpec {
  const app = appDataDir(ie);
  const vscodeUser = join(app, 'Code', 'User');
  switch (client) {
    case 'claude-code':
      return { client, label: 'Claude Code (user scope)', file: join(ie.home, '.claude.json'), format: 'json', key: 'mcpServers', entry: stdio, alsoCheck: [] };
    case 'claude-desktop':
      return { client, label: 'Claude Desktop', file: join(app, 'Claude', 'claude_desktop_config.json'), format: 'json', key: 'mcpServers', entry: plain, alsoCheck: [] };
    case 'cursor':
      return { client, label: 'Cursor', file: join(ie.home, '.cursor', 'mcp.json'), format: 'json', key: 'mcpServers', entry: plain, alsoCheck: [] };
    case 'vscode':
      return { client, label: 'VS Code (user mcp.json)', file: join(vscodeUser, 'mcp.json'), format: 'json', key: 'servers', entry: stdio, alsoCheck: [] };
    case 'windsurf':
      return { client, label: 'Windsurf', file: join(ie.home, '.codeium', 'windsurf', 'mcp_config.json'), format: 'json', key: 'mcpServers', entry: plain, alsoCheck: [] };
    case 'cline':
      return {
        client,
        label: 'Cline (VS Code extension)',
        file: join(vscodeUser, 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'),
        format: 'json',
        key: 'mcpServers',
        entry: plain,
        alsoCheck: [],
      };
    case 'continue':
      return {
        client,
        label: 'Continue',
        file: join(ie.home, '.continue', 'mcpServers', `${SERVER_NAME}.yaml`),
        format: 'yaml-block',
        key: 'mcpServers',
        entry: (e) => ({ name: SERVER_NAME, command: e.command, args: e.args, env: e.env }),
        alsoCheck: [join(ie.home, '.continue', 'config.yaml')],
      };
    case 'codex': {
      const codexHome = ie.env.CODEX_HOME && ie.env.CODEX_HOME.trim() !== '' ? ie.env.CODEX_HOME : join(ie.home, '.codex');
      return { client, label: 'Codex CLI', file: join(codexHome, 'config.toml'), format: 'toml', key: 'mcp_servers', entry: plain, alsoCheck: [] };
    }
    case 'opencode':
      return {
        client,
        label: 'OpenCode',
        file: opencodeFile(ie),
        format: 'json',
        key: 'mcp',
        entry: (e) => ({ type: 'local', command: [e.command, ...e.args], enabled: true, environment: e.env }),
        alsoCheck: [],
      };
    case 'zed':
      return {
        client,
        label: 'Zed',
        file: ie.platform === 'win32' ? join(app, 'Zed', 'settings.json') : join(xdgConfigDir(ie), 'zed', 'settings.json'),
        format: 'json',
        key: 'context_servers',
        entry: plain,
        alsoCheck: [],
      };
    case 'gemini':
      return { client, label: 'Gemini CLI', file: join(ie.home, '.gemini', 'settings.json'), format: 'json', key: 'mcpServers', entry: plain, alsoCheck: [] };
    default:
      client satisfies never;
      throw new Error(`unknown client ${String(client)}`);
  }
}

export function isClientId(s: string): s is ClientId {
  return (CLIENTS as readonly string[]).includes(s);
}

/** The entry every client runs: this node binary on this bundle, both absolute. */
export function serverEntry(bundlePath: string, nodePath: string): ServerEntry {
  // An absolute node path, not "node": GUI clients (Claude Desktop, VS Code started from the
  // Dock) do not inherit the shell's PATH, so a bare "node" from nvm or Homebrew is not found.
  return { command: nodePath, args: [bundlePath], env: { ...SERVER_ENV } };
}
