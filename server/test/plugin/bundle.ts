// Talks to the built bundle the way a plugin install runs it: `node server/dist/cairn.mjs`,
// over stdio, through the SDK's real Client. The list is read once per test process.
import { existsSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BUNDLE } from './paths.ts';

export function requireBundle(): string {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build (npm test builds it first)`);
  return BUNDLE;
}

export interface ServerFacts {
  tools: string[];
  instructions: string | undefined;
}

let cached: Promise<ServerFacts> | undefined;

/** Tool names and instructions of the bundled server, started against an empty temp store. */
export function serverFacts(): Promise<ServerFacts> {
  cached ??= (async () => {
    const bundle = requireBundle();
    const home = mkdtempSync(join(tmpdir(), 'cairn-plugin-home-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bundle],
      env: { PATH: process.env.PATH ?? '', HOME: home, CAIRN_DIR: join(home, 'store') },
      cwd: home,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'cairn-plugin-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
      } while (cursor);
      return { tools: names.sort(), instructions: client.getInstructions() };
    } finally {
      await client.close();
    }
  })();
  return cached;
}
