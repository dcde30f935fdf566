// Anthropic's memory tool backed by a cairn store, called directly: no API key, no network.
// Run it after `npm run build`:  node examples/memory-tool.mjs
//
// In a real program the same handlers go to the Anthropic SDK's helper, and Claude calls them:
//   import Anthropic from '@anthropic-ai/sdk';
//   import { betaMemoryTool } from '@anthropic-ai/sdk/helpers/beta/memory';
//   const memory = betaMemoryTool(handlers);
//   const runner = new Anthropic().beta.messages.toolRunner({ model, max_tokens, messages, tools: [memory] });
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cairnMemoryTool } from '../server/dist/memory-tool.mjs';

const dir = mkdtempSync(join(tmpdir(), 'cairn-memory-example-'));
const handlers = await cairnMemoryTool({ dir });
try {
  console.log(await handlers.view({ command: 'view', path: '/memories' }));
  console.log(await handlers.create({
    command: 'create',
    path: '/memories/projects/widgets/architecture.md',
    file_text: '# Widgets architecture\n- [decision] Postgres 16 for storage #db\n- depends_on [[Billing service]]\n',
  }));
  console.log(await handlers.str_replace({ command: 'str_replace', path: '/memories/projects/widgets/architecture.md', old_str: 'Postgres 16', new_str: 'Postgres 17' }));
  console.log(await handlers.insert({ command: 'insert', path: '/memories/projects/widgets/architecture.md', insert_line: 2, insert_text: '- [convention] handlers in src/api/ #layout\n' }));
  console.log(await handlers.view({ command: 'view', path: '/memories/projects/widgets/architecture.md' }));
  // The note is in cairn's index, beside memories written with memory_write.
  console.log(JSON.stringify(await handlers.search('postgres storage', { tags: ['db'] })));
  console.log(await handlers.rename({ command: 'rename', old_path: '/memories/projects/widgets/architecture.md', new_path: '/memories/projects/widgets/arch.md' }));
  console.log(await handlers.delete({ command: 'delete', path: '/memories/projects/widgets/arch.md' }));
  // Errors are thrown; the SDK's tool runner sends "Error: <message>" to the model.
  try {
    await handlers.view({ command: 'view', path: '/memories/../etc/passwd' });
  } catch (err) {
    console.log(`Error: ${err.message}`);
  }
} finally {
  await handlers.close();
  rmSync(dir, { recursive: true, force: true });
}
