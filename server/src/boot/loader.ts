// The entry of server/dist/cairn.mjs: the MCP server and the `cairn` CLI. The program itself
// (main.ts and everything it imports, bundled as one CommonJS function by scripts/build.mjs)
// follows this loader in the same file, each of its lines behind `//` (a comment to the module,
// which V8 skips at a glance: as a string literal it cost ~40 ms of every start). The loader reads
// it back and compiles it as a script, so V8 can take the code it compiled on an earlier start
// instead of compiling the program again (codeCache.ts; docs/config.md, "Code cache"). The
// program sees what a module of the bundle saw: Node's own modules through `require` (nothing
// else may be loaded), and its own location as `__cairnUrl` (import.meta.url).
import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { codeCacheDir, codeCacheName, readCodeCache, roleOf, writeCodeCache } from './codeCache.ts';

/** The line before the program's first is `//` and this, set by the build. */
declare const __CAIRN_PROGRAM_MARK__: string;
/** The first 16 hex digits of the program's SHA-256, set by the build. */
declare const __CAIRN_PROGRAM_HASH__: string;
declare const __CAIRN_VERSION__: string;

/** A server saves the cache this long after its start (its first calls compiled by then); a command, as it exits. */
const SAVE_AFTER_MS = 10_000;

const file = fileURLToPath(import.meta.url);
/** The program's text, and its first line's 0-based number in this file (a stack trace then names lines of cairn.mjs). */
function programOf(file: string): { source: string; firstLine: number } {
  let self = readFileSync(file, 'latin1'); // the program is ASCII (the build makes sure)
  // A checkout that turned line ends into CRLF (git's autocrlf on Windows): the same program, as
  // JavaScript reads CRLF as LF everywhere a line end may stand in it.
  if (self.includes('\r')) self = self.replaceAll('\r\n', '\n');
  const at = self.indexOf('\n//' + __CAIRN_PROGRAM_MARK__ + '\n');
  if (at < 0) throw new Error(`${file} is damaged: the program is missing (reinstall cairn)`);
  let firstLine = 2;
  for (let i = self.indexOf('\n'); i !== -1 && i < at; i = self.indexOf('\n', i + 1)) firstLine++;
  return { source: self.slice(at + __CAIRN_PROGRAM_MARK__.length + 6).replaceAll('\n//', '\n'), firstLine };
}
const { source, firstLine } = programOf(file);
const nodeRequire = createRequire(file);
// The bundle inlines CommonJS dependencies (gray-matter, js-yaml) that call require() at run time.
// Only Node's own modules may be loaded that way: js-yaml probes for an optional `esprima`, which
// would otherwise be resolved from whatever node_modules sits above the bundle and run here.
const guardedRequire = (id: string): unknown => {
  if (!isBuiltin(id)) throw new Error(`cairn loads no module from outside its bundle (asked for ${id})`);
  return nodeRequire(id);
};

let dir: string | null = null;
try {
  dir = codeCacheDir(process.env, process.platform, homedir());
} catch {
  // no home directory: no cache
}
const name = codeCacheName(__CAIRN_VERSION__, __CAIRN_PROGRAM_HASH__, roleOf(process.argv.slice(2)));
const cachedData = readCodeCache(dir, name);
const script = new Script(source, { filename: file, lineOffset: firstLine, ...(cachedData ? { cachedData } : {}) });
if (dir !== null && (cachedData === undefined || script.cachedDataRejected === true)) {
  let saved = false;
  const save = (): void => {
    if (saved) return;
    saved = true;
    try {
      writeCodeCache(dir, name, script.createCachedData());
    } catch {
      // best effort: the next start compiles from source again
    }
  };
  process.once('exit', save);
  setTimeout(save, SAVE_AFTER_MS).unref();
}
const program = script.runInThisContext() as (exports: object, require: (id: string) => unknown, module: { exports: object }, filename: string, dirname: string, url: string) => void;
const mod = { exports: {} };
program(mod.exports, guardedRequire, mod, file, dirname(file), import.meta.url);
