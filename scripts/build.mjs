// Bundles server/src into one committed file, server/dist/cairn.mjs, and writes the runtime
// package.json of the installed plugin (plugin/package.json, see plugin/README below).
// cairn.mjs is a small loader (server/src/boot/loader.ts) followed by the program (main.ts and all
// it imports, bundled as one CommonJS function), a line comment per line, which the loader reads
// back and compiles with V8's code cache (docs/config.md, "Code cache").
// Deterministic: no timestamps, no absolute paths, no sourcemap, stable flags —
// CI rebuilds and fails if the committed bundle or plugin/ differs by a single byte.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
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
  // jsonc-parser's main entry is a UMD wrapper whose require() calls esbuild cannot follow; every
  // bundle (the program, the memory-tool library) takes its ESM build.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
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
// The program: CommonJS, import.meta.url given by the loader, whitespace and comments left out
// (1.7 MB instead of 2.2 MB: less for V8 to read at every start, and few lines to carry), ASCII
// only, so the loader reads it as one-byte Latin-1 (esbuild escapes strings; a character it cannot
// escape, in a regular expression or a template, must be written as a \u escape in the source).
// A script cannot import(): a dynamic import of a Node module would fail at run time, so the build
// refuses one (use a static import).
// A dependency may hold a non-ASCII character where esbuild cannot escape it (markdown-it's
// typographer has one inside a regular expression): dependencies are read with every non-ASCII
// UTF-16 unit written as a \u escape, which means the same in a string, a regular expression, a
// template or an identifier.
const asciiDependencies = {
  name: 'ascii-dependencies',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.(c|m)?js$/ }, (args) => {
      const src = readFileSync(args.path, 'utf8');
      if (!/[^\x00-\x7f]/.test(src)) return undefined;
      return { contents: src.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`), loader: 'js' };
    });
  },
};
const built = await build({
  ...common,
  plugins: [asciiDependencies],
  format: 'cjs',
  charset: 'ascii',
  minifyWhitespace: true,
  banner: {},
  write: false,
  entryPoints: ['server/src/main.ts'],
  outfile: 'program.cjs',
  define: { ...common.define, 'import.meta.url': '__cairnUrl' },
});
const text = built.outputFiles[0].text;
const nonAscii = /[^\x00-\x7f]/.exec(text);
if (nonAscii) throw new Error(`the program holds a non-ASCII character (${JSON.stringify(text.slice(Math.max(0, nonAscii.index - 60), nonAscii.index + 20))}): write it as a \\u escape in the source`);
if (/\bimport\(\s*["'`]/.test(text)) throw new Error('the program has a dynamic import(): the loader runs it as a script, which cannot import; use a static import');
const program = `(function (exports, require, module, __filename, __dirname, __cairnUrl) {"use strict";\n${text}\n})`;
// After the loader, a line per line of the program behind `//` (server/src/boot/loader.ts reads it
// back): a line comment ends at any line terminator, so the program may hold no other than \n.
if (/[\r\u2028\u2029]/.test(program)) throw new Error('the program holds a line terminator other than \\n: it cannot be carried in line comments');
const programHash = createHash('sha256').update(program).digest('hex').slice(0, 16);
// The line before the program's first (after `//`): the loader finds the program by it.
const PROGRAM_MARK = '# cairn program: (function (exports, require, module, __filename, __dirname, __cairnUrl) { ... }), a line per line';
const loader = await build({
  ...common,
  banner: { js: '#!/usr/bin/env node' },
  write: false,
  entryPoints: ['server/src/boot/loader.ts'],
  outfile: 'server/dist/cairn.mjs',
  define: { ...common.define, __CAIRN_PROGRAM_HASH__: JSON.stringify(programHash), __CAIRN_PROGRAM_MARK__: JSON.stringify(PROGRAM_MARK) },
});
writeFileSync('server/dist/cairn.mjs', `${loader.outputFiles[0].text}//${PROGRAM_MARK}\n${program.split('\n').map((l) => `//${l}`).join('\n')}\n`);
chmodSync('server/dist/cairn.mjs', 0o755);
// The library entry for API users (README "Anthropic's memory tool from your own program"): the
// memory tool's handlers over a cairn store, in the shape the Anthropic SDK's helper takes.
await build({
  ...common,
  entryPoints: ['server/src/lib/memory-tool.ts'],
  outfile: 'server/dist/memory-tool.mjs',
  banner: { js: common.banner.js.replace('#!/usr/bin/env node\n', '') },
});

// The local embedder's worker (server/src/core/embed/localWorker.ts): a module of its own, run in
// a worker_thread by the program (which, being a script, cannot import ONNX Runtime's ES module
// build). It loads nothing from outside this file but Node's own modules; its data files
// (cairn-model.bin, cairn-ort.wasm.br) are committed beside it by scripts/embed/fetch-model.mjs.
await build({
  ...common,
  entryPoints: ['server/src/core/embed/localWorker.ts'],
  outfile: 'server/dist/cairn-embed-worker.mjs',
  banner: { js: common.banner.js.replace('#!/usr/bin/env node\n', '') },
  // ONNX Runtime imports its Emscripten glue at run time from a path; the worker hands it this
  // text as a data: URL instead, so the glue travels inside the worker file.
  define: { ...common.define, __CAIRN_ORT_GLUE__: JSON.stringify(readFileSync('node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.mjs', 'utf8')) },
  minifyWhitespace: true,
});

// plugin/ is what `claude plugin install` copies into its cache (marketplace.json's source), so
// the installed plugin holds only what runs: .claude-plugin, skills, hooks, commands, server,
// scripts, package.json, README.md. Claude Code copies a symlink's target, so skills, commands,
// README.md, the icon, and server/dist's bundle, embedding table and local model files (worker,
// model, runtime) are committed symlinks to this
// repository's own (the big files are never committed twice; memory-tool.mjs, for programs that
// import it, is not part of the plugin). `claude plugin validate` reads neither
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
