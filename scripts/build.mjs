// Bundles server/src into one committed file, server/dist/cairn.mjs, and writes the runtime
// package.json of the installed plugin (plugin/package.json, see plugin/README below).
// Deterministic: no timestamps, no absolute paths, no sourcemap, stable flags —
// CI rebuilds and fails if the committed bundle or plugin/ differs by a single byte.
import { build } from 'esbuild';
import { readFileSync, writeFileSync, chmodSync, copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const common = {
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
};
await build({ ...common, entryPoints: ['server/src/main.ts'], outfile: 'server/dist/cairn.mjs' });
chmodSync('server/dist/cairn.mjs', 0o755);
// The library entry for API users (README "Anthropic's memory tool from your own program"): the
// memory tool's handlers over a cairn store, in the shape the Anthropic SDK's helper takes.
await build({
  ...common,
  entryPoints: ['server/src/lib/memory-tool.ts'],
  outfile: 'server/dist/memory-tool.mjs',
  banner: { js: common.banner.js.replace('#!/usr/bin/env node\n', '') },
});

// plugin/ is what `claude plugin install` copies into its cache (marketplace.json's source), so
// the installed plugin holds only what runs: .claude-plugin, skills, hooks, commands, server,
// scripts, package.json, README.md. Claude Code copies a symlink's target, so skills, commands,
// README.md, the icon and server/dist are committed symlinks to this repository's own (the big
// bundle and embedding table are never committed twice). `claude plugin validate` reads neither
// a linked plugin.json nor a linked hooks directory, so those two are copied here, with a
// runtime package.json that lists no dependencies: plugin/ has no lockfile, so Claude Code runs
// no `npm ci` there (the bundle needs nothing from node_modules). CI checks plugin/ is fresh.
mkdirSync('plugin/.claude-plugin', { recursive: true });
copyFileSync('.claude-plugin/plugin.json', 'plugin/.claude-plugin/plugin.json');
rmSync('plugin/hooks', { recursive: true, force: true });
mkdirSync('plugin/hooks');
for (const f of readdirSync('hooks')) copyFileSync(`hooks/${f}`, `plugin/hooks/${f}`);
const runtimePkg = {
  name: pkg.name,
  version: pkg.version,
  description: pkg.description,
  private: true,
  type: 'module',
  license: pkg.license,
  engines: pkg.engines,
  bin: pkg.bin,
};
writeFileSync('plugin/package.json', `${JSON.stringify(runtimePkg, null, 2)}\n`);
