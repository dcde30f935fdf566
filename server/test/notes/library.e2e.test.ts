// The library entry (server/dist/memory-tool.mjs, built by scripts/build.mjs) and its runnable
// example: the memory tool's handlers over a cairn store, called the way the Anthropic
// TypeScript SDK's helper calls them (anthropic-sdk-typescript src/helpers/beta/memory.ts:
// `handlers[args.command].bind(handlers)(args)`), with no API key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeDir, tempDir } from '../helpers/env.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LIB = join(ROOT, 'server/dist/memory-tool.mjs');

test('examples/memory-tool.mjs runs against the built module and prints the documented texts', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'examples/memory-tool.mjs')], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
  assert.equal(r.status, 0, r.stderr);
  for (const line of [
    'File created successfully at: /memories/projects/widgets/architecture.md',
    'The memory file has been edited. Here is the snippet showing the change (with line numbers):',
    '     2\t- [decision] Postgres 17 for storage #db',
    'The file /memories/projects/widgets/architecture.md has been edited.',
    'Successfully renamed /memories/projects/widgets/architecture.md to /memories/projects/widgets/arch.md',
    'Successfully deleted /memories/projects/widgets/arch.md',
    'Error: Path /memories/../etc/passwd would escape /memories directory',
  ]) assert.ok(r.stdout.split('\n').includes(line), `${line}\n--- got:\n${r.stdout}`);
});

test('the handlers in the SDK helper\'s dispatch: results, thrown errors, the same store as the server', async () => {
  const dir = tempDir();
  const { cairnMemoryTool } = (await import(LIB)) as { cairnMemoryTool: (o: object) => Promise<Record<string, (a: object) => Promise<string>> & { close(): Promise<void> }> };
  const handlers = await cairnMemoryTool({ dir, warn: () => {} });
  // What betaMemoryTool's run does with a tool_use input.
  const run = (args: { command: string } & Record<string, unknown>) => handlers[args.command]!.bind(handlers)(args);
  try {
    assert.equal(await run({ command: 'create', path: '/memories/user/prefs.md', file_text: 'tabs\n' }), 'File created successfully at: /memories/user/prefs.md');
    assert.equal(readFileSync(join(dir, 'notes/user/prefs.md'), 'utf8'), 'tabs\n');
    assert.equal(await run({ command: 'view', path: '/memories/user/prefs.md' }), 'Here\'s the content of /memories/user/prefs.md with line numbers:\n     1\ttabs\n     2\t');
    await assert.rejects(run({ command: 'create', path: '/memories/user/prefs.md', file_text: 'x' }), { message: 'File /memories/user/prefs.md already exists' });
    await assert.rejects(run({ command: 'delete', path: '/memories' }), { message: 'Cannot delete the /memories directory itself' });
    assert.equal(await run({ command: 'delete', path: '/memories/user/prefs.md' }), 'Successfully deleted /memories/user/prefs.md');
  } finally {
    await handlers.close();
    removeDir(dir);
  }
});
