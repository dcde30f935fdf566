// The bundle's code cache (server/src/boot): where it lives, which folders it refuses, and that the
// built bundle writes it once, then takes it (the file untouched) and answers the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { codeCacheDir, codeCacheName, readCodeCache, roleOf, usableDir, writeCodeCache } from '../../src/boot/codeCache.ts';
import { requireBundle } from './bundle.ts';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `cairn-cc-${p}-`));

test('the cache folder: CAIRN_CODE_CACHE, then the platform cache folder; off with 0 or without a home', () => {
  assert.equal(codeCacheDir({ CAIRN_CODE_CACHE: '/x/cc' }, 'linux', '/home/a'), '/x/cc');
  assert.equal(codeCacheDir({ CAIRN_CODE_CACHE: '0' }, 'linux', '/home/a'), null);
  assert.equal(codeCacheDir({ CAIRN_CODE_CACHE: 'off' }, 'darwin', '/Users/a'), null);
  assert.equal(codeCacheDir({}, 'linux', '/home/a'), '/home/a/.cache/cairn');
  assert.equal(codeCacheDir({ XDG_CACHE_HOME: '/var/cache/a' }, 'linux', '/home/a'), '/var/cache/a/cairn');
  assert.equal(codeCacheDir({ XDG_CACHE_HOME: 'relative' }, 'linux', '/home/a'), '/home/a/.cache/cairn', 'a relative XDG_CACHE_HOME is ignored, as the spec says');
  assert.equal(codeCacheDir({}, 'darwin', '/Users/a'), '/Users/a/Library/Caches/cairn');
  assert.equal(codeCacheDir({ LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' }, 'win32', 'C:\\Users\\a'), join('C:\\Users\\a\\AppData\\Local', 'cairn', 'Cache'));
  assert.equal(codeCacheDir({}, 'linux', ''), null);
});

test('one file per program, Node and role', () => {
  assert.equal(roleOf([]), 'serve');
  assert.equal(roleOf(['search', 'x']), 'search');
  assert.equal(roleOf(['overview', '--hook']), 'overview');
  assert.equal(roleOf(['--version']), 'cli');
  assert.equal(roleOf(['../etc']), 'cli');
  assert.equal(codeCacheName('0.1.0', 'abcdef0123456789', 'search', 'v20.20.2', 'x64'), 'code-0.1.0-abcdef0123456789-v20.20.2-x64-search.bin');
  assert.equal(codeCacheName('1.0.0-rc/1', 'h', 'serve', 'v22.1.0', 'arm64'), 'code-1.0.0_rc_1-h-v22.1.0-arm64-serve.bin');
});

test('a folder others can write into, or a link, is never used; a good one is made private', { skip: process.platform === 'win32' }, () => {
  const root = tmp('dirs');
  const made = join(root, 'a', 'cairn');
  assert.equal(usableDir(made), true);
  assert.equal(statSync(made).mode & 0o777, 0o700);
  const open = join(root, 'open');
  mkdirSync(open);
  chmodSync(open, 0o777);
  assert.equal(usableDir(open), false);
  assert.equal(writeCodeCache(open, 'code-x.bin', new Uint8Array([1, 2, 3])), false);
  assert.deepEqual(readdirSync(open), []);
  const link = join(root, 'link');
  symlinkSync(made, link);
  assert.equal(usableDir(link), false);
  assert.equal(writeCodeCache(link, 'code-x.bin', new Uint8Array([1])), false);
  // A file only readable through a link is not read.
  writeFileSync(join(root, 'elsewhere.bin'), 'x');
  symlinkSync(join(root, 'elsewhere.bin'), join(made, 'code-l.bin'));
  assert.equal(readCodeCache(made, 'code-l.bin'), undefined);
  // A private folder made group-writable later is not read from either.
  assert.equal(writeCodeCache(made, 'code-y.bin', new Uint8Array([7])), true);
  assert.deepEqual([...readCodeCache(made, 'code-y.bin')!], [7]);
  chmodSync(made, 0o770);
  assert.equal(readCodeCache(made, 'code-y.bin'), undefined);
});

test('saving replaces the files of other program versions for the same Node and role, and leaves the rest', () => {
  const dir = join(tmp('stale'), 'cairn');
  const name = (hash: string, node: string, role: string) => codeCacheName('0.1.0', hash, role, node, 'x64');
  for (const f of [name('old', 'v20.0.0', 'serve'), name('old', 'v22.0.0', 'serve'), name('old', 'v20.0.0', 'search')]) assert.equal(writeCodeCache(dir, f, new Uint8Array([1])), true);
  writeFileSync(join(dir, 'notes.txt'), 'mine');
  assert.equal(writeCodeCache(dir, name('new', 'v20.0.0', 'serve'), new Uint8Array([2])), true);
  assert.deepEqual(readdirSync(dir).sort(), [name('new', 'v20.0.0', 'serve'), name('old', 'v20.0.0', 'search'), name('old', 'v22.0.0', 'serve'), 'notes.txt'].sort());
  if (process.platform !== 'win32') assert.equal(statSync(join(dir, name('new', 'v20.0.0', 'serve'))).mode & 0o777, 0o600);
});

function runBundle(args: string[], env: Record<string, string>, bundle = requireBundle()): string {
  return execFileSync(process.execPath, [bundle, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function cacheFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('code-')) : [];
}

test('the bundle writes its code cache once, then takes it and answers the same; a damaged one is replaced', () => {
  const home = tmp('cli');
  const env = { HOME: home, XDG_CACHE_HOME: join(home, 'xdg'), CAIRN_DIR: join(home, 'store') };
  const dir = join(home, 'xdg', 'cairn');
  runBundle(['remember', 'The deploy script retries three times before paging', '--scope', 'tools'], env);
  const first = runBundle(['search', 'deploy retries'], env);
  const files = cacheFiles(dir).filter((f) => f.endsWith('-search.bin'));
  assert.equal(files.length, 1, `one search cache in ${cacheFiles(dir).join(', ')}`);
  const file = join(dir, files[0]!);
  const before = statSync(file);
  assert.ok(before.size > 100_000, `a real code cache (${before.size} bytes)`);
  const again = runBundle(['search', 'deploy retries'], env);
  assert.equal(again, first);
  const after = statSync(file);
  assert.equal(after.mtimeMs, before.mtimeMs, 'V8 took the cache: it was not written again');
  assert.equal(after.ino, before.ino);
  // Bytes V8 refuses: the program compiles from source, answers the same, and saves good bytes.
  const junk = Buffer.alloc(before.size, 0x5a);
  writeFileSync(file, junk);
  assert.equal(runBundle(['search', 'deploy retries'], env), first);
  assert.notDeepEqual(readFileSync(file), junk);
  assert.ok(statSync(file).size > 100_000);
});

test('CAIRN_CODE_CACHE=0 writes nothing', () => {
  const home = tmp('off');
  const out = runBundle(['--version'], { HOME: home, XDG_CACHE_HOME: join(home, 'xdg'), CAIRN_CODE_CACHE: '0' });
  assert.match(out, /\d+\.\d+\.\d+/);
  assert.deepEqual(cacheFiles(join(home, 'xdg', 'cairn')), []);
  assert.deepEqual(cacheFiles(join(home, '.cache', 'cairn')), []);
});

test('the MCP server saves its own cache as it closes, and starts from it next time', async () => {
  const home = tmp('serve');
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CACHE_HOME: join(home, 'xdg'), CAIRN_DIR: join(home, 'store') };
  const dir = join(home, 'xdg', 'cairn');
  const session = async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [requireBundle()], env, cwd: home, stderr: 'ignore' });
    const client = new Client({ name: 'cairn-cc-test', version: '0.0.0' });
    await client.connect(transport);
    const r = await client.callTool({ name: 'memory_search', arguments: { query: 'anything at all' } });
    assert.equal(r.isError, undefined);
    await client.close();
    for (let i = 0; i < 100 && !cacheFiles(dir).some((f) => f.endsWith('-serve.bin')); i++) await new Promise((r) => setTimeout(r, 50));
  };
  await session();
  const file = join(dir, cacheFiles(dir).find((f) => f.endsWith('-serve.bin'))!);
  const before = statSync(file);
  await session();
  assert.equal(statSync(file).mtimeMs, before.mtimeMs, 'the second server took the cache');
});

test('the bundle runs from a checkout with CRLF line ends, and a bundle without its program says so', () => {
  const dir = tmp('crlf');
  const bundle = requireBundle();
  copyFileSync(join(dirname(bundle), 'cairn-embed.bin'), join(dir, 'cairn-embed.bin'));
  writeFileSync(join(dir, 'cairn.mjs'), readFileSync(bundle, 'latin1').replaceAll('\n', '\r\n'), 'latin1');
  const home = tmp('crlf-home');
  const env = { HOME: home, CAIRN_DIR: join(home, 'store'), CAIRN_CODE_CACHE: '0' };
  runBundle(['remember', 'Line ends of the bundle do not matter to the loader', '--scope', 'tools'], env);
  assert.equal(runBundle(['search', 'line ends loader'], env, join(dir, 'cairn.mjs')), runBundle(['search', 'line ends loader'], env));
  const text = readFileSync(bundle, 'latin1');
  writeFileSync(join(dir, 'cut.mjs'), text.slice(0, text.indexOf('\n//# cairn program')), 'latin1');
  assert.throws(() => runBundle(['--version'], env, join(dir, 'cut.mjs')), (err: { stderr?: string }) => /cut\.mjs is damaged: the program is missing \(reinstall cairn\)/.test(err.stderr ?? ''));
});
