// Bundles server/src into one committed file, server/dist/cairn.mjs.
// Deterministic: no timestamps, no absolute paths, no sourcemap, stable flags —
// CI rebuilds and fails if the committed bundle differs by a single byte.
import { build } from 'esbuild';
import { readFileSync, chmodSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['server/src/main.ts'],
  outfile: 'server/dist/cairn.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node18',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  charset: 'utf8',
  logLevel: 'warning',
  define: { __CAIRN_VERSION__: JSON.stringify(pkg.version) },
  banner: {
    // The bundle inlines CommonJS dependencies (gray-matter, picomatch) that call require().
    js: "#!/usr/bin/env node\nimport { createRequire as __cairnCreateRequire } from 'node:module';\nconst require = __cairnCreateRequire(import.meta.url);",
  },
});
chmodSync('server/dist/cairn.mjs', 0o755);
