// cairn's version, set by the build (scripts/build.mjs); a run from source says 0.0.0-dev. The
// MCP server names the same value (mcp/server.ts): the CLI keeps its own copy so that a command
// never loads the MCP server's modules only to print it.
declare const __CAIRN_VERSION__: string;
export const VERSION = typeof __CAIRN_VERSION__ === 'string' ? __CAIRN_VERSION__ : '0.0.0-dev';
