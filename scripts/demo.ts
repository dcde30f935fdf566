// `npm run demo`: starts the real bundled server on a throwaway store and a throwaway git repo,
// talks to it through the SDK's MCP client, and prints what happens.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../server/dist/cairn.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'cairn-demo-'));
const repo = join(root, 'widgets');
const store = join(root, 'store');

const client = new Client({ name: 'cairn-demo', version: '1.0.0' });

// The throwaway folder goes whatever happens: a normal end, a failed call, Ctrl-C or a kill.
// The server child is closed first so nothing is still writing into the folder being removed.
let cleaned = false;
async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  await client.close().catch(() => {});
  rmSync(root, { recursive: true, force: true });
}
const signalCodes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
for (const signal of Object.keys(signalCodes) as (keyof typeof signalCodes)[]) {
  process.once(signal, () => void cleanup().finally(() => process.exit(signalCodes[signal])));
}

const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'CLAUDE_PROJECT_DIR') env[k] = v;
env.CAIRN_DIR = store;

const dim = (s: string) => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
// A tool error the demo does not expect fails the run (exit 1), so CI notices a broken demo.
async function call(name: string, args: Record<string, unknown>, show: (r: any) => string, expectError = false) {
  const r = await client.callTool({ name, arguments: args });
  console.log(`${bold(`> ${name}`)} ${dim(JSON.stringify(args))}`);
  if (r.isError) {
    const text = (r.content as { text: string }[])[0]!.text;
    if (!expectError) throw new Error(`${name} failed: ${text}`);
    console.log(`  error: ${text}\n`);
  } else if (expectError) throw new Error(`${name} was expected to fail but answered`);
  else console.log(`${show(r.structuredContent)}\n`);
  return r.structuredContent as any;
}

async function demo(): Promise<void> {
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'git@github.com:acme/widgets.git']);
  writeFileSync(join(repo, 'deploy.sh'), '#!/bin/sh\n');
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bundle], cwd: repo, env, stderr: 'ignore' }));

  console.log(`cairn demo: store ${store}, caller repo ${repo}\n`);
  const a = await call('memory_write', { content: 'Deploys go through `deploy.sh` in the repo root; never run kubectl apply by hand.', scopes: ['projects:widgets', 'ops'], confidence: 'high' }, (r) => `  ${r.status}: ${r.id}\n  file: ${r.file}`);
  await call('memory_write', { content: 'The user prefers small, focused pull requests with a test per fix.', scopes: ['preferences'] }, (r) => `  ${r.status}${r.id ? `: ${r.id}` : ''}`);
  await call('memory_write', { content: 'Staging Postgres is reached through the bastion host, port 6432 (pgbouncer).', scopes: ['projects:widgets', 'db'] }, (r) => `  ${r.status}${r.id ? `: ${r.id}` : ''}`);
  await call('memory_list', {}, (r) => r.items.map((i: any) => `  ${i.id}  [${i.scopes.join(', ')}]  ${i.staleness_verdict}\n    ${i.summary}`).join('\n'));
  await call('memory_search', { query: 'how do we deploy' }, (r) => r.hits.map((h: any) => `  ${h.relevance} ${h.id} (${(h.match_terms ?? []).join(', ') || 'meaning only'}) ${h.staleness_verdict}\n    ${h.snippet}`).join('\n') || '  no hits');
  await call('memory_show', { id: a.id }, (r) => { const m = r.memories[0]; return `  ${m.body}\n  origin: ${m.origin.repo} (${m.origin.branch}); verification: ${m.verification.status}; paths checked ${m.path_drift_checked}, missing ${m.path_drift_missing}`; });
  await call('memory_verify', { id: a.id, note: 'deploy.sh is still there' }, (r) => `  verified at ${r.last_verified_at}`);
  await call('memory_update', { id: a.id, content: 'Deploys go through `deploy.sh` in the repo root (it wraps helm); never run kubectl apply by hand.' }, (r) => `  ${r.status}, updated ${r.updated}, verification reset: ${r.last_verified_at === null}`);
  await call('memory_remove', { id: a.id, reason: 'moved to GitHub Actions deploys' }, (r) => `  tombstone: ${r.tombstone}`);
  await call('memory_show', { id: a.id }, () => '', true);
  await call('memory_list_tombstones', {}, (r) => r.items.map((i: any) => `  ${i.id} removed ${i.removed.slice(0, 10)}: ${i.removed_reason}`).join('\n'));
  await call('memory_restore', { id: a.id }, (r) => `  ${r.status}: ${r.id} is back (created ${r.created})`);
  await call('memory_scope_overview', {}, (r) => `  repo ${r.current_repo}: ${r.total} memories ${JSON.stringify(r.scopes)}\n  curation pending: ${JSON.stringify(r.curation_pending)}`);
}

try {
  await demo();
} catch (err) {
  console.error(`cairn demo failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
