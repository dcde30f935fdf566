// Runs every server/test/**/*.test.ts with node's built-in runner (tsx strips the types;
// Node 20's --test takes no globs). Extra args narrow the set: `npm test -- search`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

const filters = process.argv.slice(2);
const files = walk('server/test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
// The suite's many short-lived servers use the fast built-in table unless a test asks for the
// local model (docs/semantic.md): each would otherwise start the model's worker.
process.env.CAIRN_EMBED_PROVIDER ??= 'builtin';
// Node's --test-timeout bounds each test file as a whole: 240 s, times CAIRN_SOAK for a soak (the
// reliability suites multiply their counts by it), unless CAIRN_TEST_TIMEOUT_MS says otherwise.
// Each reliability test sets its own, smaller limit, sized to its counts, so a test that hangs
// is reported by name before the file is stopped.
const soak = Math.max(1, Number(process.env.CAIRN_SOAK ?? '1') || 1);
const fileTimeoutMs = process.env.CAIRN_TEST_TIMEOUT_MS ?? 240_000 * soak;
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-timeout=${fileTimeoutMs}`, `--test-concurrency=${process.env.CAIRN_TEST_CONCURRENCY ?? 2}`, ...files],
  // Every answer a spawned server gives is checked against its tool's output schema (mcp/tool.ts).
  { stdio: 'inherit', env: { ...process.env, CAIRN_STRICT_SCHEMAS: process.env.CAIRN_STRICT_SCHEMAS ?? '1' } },
);
process.exit(r.status ?? 1);
