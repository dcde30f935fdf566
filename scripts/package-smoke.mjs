// Talks MCP over stdio to an installed cairn, the way a client config starts it:
//   node scripts/package-smoke.mjs <command> [args...]
// initialize, tools/list, one memory_write and a memory_search that finds it. The store is the
// CAIRN_DIR of the environment (the caller gives a temp one). Exits 1 with a reason on any miss.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/package-smoke.mjs <command> [args...]');
  process.exit(2);
}
const transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
const client = new Client({ name: 'package-smoke', version: '1.0.0' });
const fail = (m) => {
  console.error(`package-smoke: FAIL: ${m}`);
  process.exit(1);
};
const started = Date.now();
await client.connect(transport);
const server = client.getServerVersion();
const { tools } = await client.listTools();
for (const t of ['memory_search', 'memory_write', 'memory_show']) if (!tools.some((x) => x.name === t)) fail(`tools/list lacks ${t}`);
const w = await client.callTool({ name: 'memory_write', arguments: { content: 'The nightly export job writes its CSV files to the reports bucket.', scopes: ['global'] } });
if (w.isError) fail(`memory_write: ${JSON.stringify(w.content)}`);
const s = await client.callTool({ name: 'memory_search', arguments: { query: 'nightly export CSV' } });
if (s.isError) fail(`memory_search: ${JSON.stringify(s.content)}`);
const hits = s.structuredContent?.hits ?? [];
const id = w.structuredContent?.id;
if (!id || !hits.some((h) => h.id === id)) fail(`memory_search did not find the memory just written (${id}): ${JSON.stringify(s.structuredContent).slice(0, 400)}`);
await client.close();
console.log(`package-smoke: ok: ${command} ${args.join(' ')} → ${server?.name} ${server?.version}, ${tools.length} tools, write + search in ${Date.now() - started} ms`);
