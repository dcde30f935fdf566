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
    // The bundle inlines CommonJS dependencies (gray-matter, js-yaml) that call require() at run
    // time. Only Node's own modules may be loaded that way: js-yaml probes for an optional
    // `esprima`, which would otherwise be resolved from whatever node_modules sits above the
    // bundle and run inside the server.
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __cairnCreateRequire, isBuiltin as __cairnIsBuiltin } from 'node:module';",
      'const __cairnRequire = __cairnCreateRequire(import.meta.url);',
      'const require = (id) => {',
      '  if (!__cairnIsBuiltin(id)) throw new Error(`cairn loads no module from outside its bundle (asked for ${id})`);',
      '  return __cairnRequire(id);',
      '};',
    ].join('\n'),
  },
});
chmodSync('server/dist/cairn.mjs', 0o755);
