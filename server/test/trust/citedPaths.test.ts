// Path drift: which spans of a body count as cited paths, and how they are checked.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MAX_CITED_PATHS, candidatePattern, checkPaths, extractCitedPaths, nextCandidate } from '../../src/core/trust/signals/citedPaths.ts';

describe('extractCitedPaths', () => {
  const cases: [string, string, string[]][] = [
    ['backtick relative path', 'The retry logic is in `src/net/retry.ts`.', ['src/net/retry.ts']],
    ['backtick file name with extension', 'Bump the version in `package.json`.', ['package.json']],
    ['backtick ./ and ../ paths', 'Run `./scripts/dev.sh` from `../other/repo`.', ['./scripts/dev.sh', '../other/repo']],
    ['backtick directory with trailing slash', 'Fixtures live in `test/fixtures/`.', ['test/fixtures/']],
    ['backtick deep directory', 'Core code is in `server/src/core`.', ['server/src/core']],
    ['line suffix stripped', 'See `src/app.ts:42:7` for the bug.', ['src/app.ts']],
    ['bare absolute path', 'Logs are in /var/log/acme/agent.log daily.', ['/var/log/acme/agent.log']],
    ['bare absolute path with trailing period', 'The unit is /etc/systemd/system/acme.service.', ['/etc/systemd/system/acme.service']],
    ['bare home path', 'Config at ~/.config/cairn/config.toml, store at ~/.cairn/', ['~/.config/cairn/config.toml', '~/.cairn/']],
    ['windows path', 'Store is under C:\\Users\\me\\AppData\\cairn by default.', ['C:\\Users\\me\\AppData\\cairn']],
    ['backtick windows path', 'Use `D:/work/repo/build.cmd` on the CI box.', ['D:/work/repo/build.cmd']],
    ['dedupes and keeps document order', '`a/b/c.ts` then /opt/x/y then `a/b/c.ts`', ['a/b/c.ts', '/opt/x/y']],
  ];
  for (const [name, body, want] of cases) {
    it(name, () => assert.deepEqual(extractCitedPaths(body), want));
  }

  const ignored: [string, string][] = [
    ['urls', 'Docs at https://example.com/docs/intro and http://localhost:3000/api/users.'],
    ['backtick url', 'Open `https://github.com/acme/widgets/blob/main/README.md`.'],
    ['git remotes', 'Remote is git@github.com:acme/widgets.git or `deploy@10.0.3.7:/srv/app`.'],
    ['placeholders', 'Put it in /path/to/your/project or `/path/to/file.txt` or /etc/foo or /foo/bar.'],
    ['placeholder relative', 'Edit `path/to/config.yml` and `foo/bar.ts`.'],
    ['single-segment routes and commands', 'Use /verify or /memory-health, or hit /healthz.'],
    ['multi-segment url routes', 'Routes: /api/v1/users and /auth/callback.'],
    ['cli spans', 'Run `npm run build` then `git rev-parse HEAD` and `--watch=false`.'],
    ['owner/repo and and/or', 'Clone `acme/widgets`; use TCP/IP and/or UDP; MIME `text/plain`.'],
    ['scoped package', 'Install `@types/node` and `@modelcontextprotocol/sdk`.'],
    ['method calls and identifiers', 'Call `store.get` or `Array.from()`; set `max_tokens`.'],
    ['globs and variables', 'Match `src/**/*.ts`, `$HOME/.cache/x`, `${dir}/out.txt`, `<root>/a.ts`.'],
    ['elisions', 'Files under /home/me/... and `src/.../x.ts`.'],
    ['fractions and dates', 'It went 3/4 of the way on 2026/03/14.'],
    ['slash command in prose', 'Type /clear to reset.'],
  ];
  for (const [name, body] of ignored) {
    it(`ignores ${name}`, () => assert.deepEqual(extractCitedPaths(body), []));
  }

  it(`keeps at most ${MAX_CITED_PATHS} paths`, () => {
    const body = Array.from({ length: 12 }, (_, i) => `\`src/mod${i}/index.ts\``).join(' ');
    const got = extractCitedPaths(body);
    assert.equal(got.length, MAX_CITED_PATHS);
    assert.equal(got[0], 'src/mod0/index.ts');
  });

  it('scans fenced code blocks for bare paths but not the fence markers', () => {
    const body = 'Setup:\n```bash\ncat /etc/hosts/extra.conf\n```\n';
    assert.deepEqual(extractCitedPaths(body), ['/etc/hosts/extra.conf']);
  });
});

describe('checkPaths', () => {
  const root = mkdtempSync(join(tmpdir(), 'cairn-paths-'));
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  mkdirSync(join(home, '.config'), { recursive: true });
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(repo, 'src', 'here.ts'), '');
  writeFileSync(join(home, '.config', 'x.toml'), '');
  after(() => rmSync(root, { recursive: true, force: true }));

  it('checks absolute, ~ and relative paths and reports the missing ones as cited', () => {
    const paths = [join(repo, 'src', 'here.ts'), join(repo, 'gone.ts'), '~/.config/x.toml', '~/.config/gone.toml', 'src/here.ts', 'src/gone.ts'];
    assert.deepEqual(checkPaths(paths, { home, relativeRoot: repo }), {
      checked: 6,
      missing: [join(repo, 'gone.ts'), '~/.config/gone.toml', 'src/gone.ts'],
    });
  });

  it('skips relative paths when there is no root to resolve them (caller outside the repo)', () => {
    assert.deepEqual(checkPaths(['src/here.ts', 'src/gone.ts', '~/.config/x.toml'], { home, relativeRoot: null }), {
      checked: 1,
      missing: [],
    });
  });

  it('skips Windows paths on other platforms', () => {
    const r = checkPaths(['C:\\Users\\me\\x.txt'], { home, relativeRoot: null });
    assert.equal(r.checked, process.platform === 'win32' ? 1 : 0);
  });
});

describe('the candidate scan', () => {
  // Strings over the characters the pattern cares about, prose between: a fixed seed, so a failure repeats.
  function* samples(count: number): Generator<string> {
    const alphabet = ['a', 'b', 'x1', '.', '/', '\\', '`', '~', ':', '@', '+', '-', '_', ' ', '\n', '$', '%', '{', '}', '<', '>', '*', '(', "'", 'C:', '.md', '=', 'é', ' and some prose '];
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let i = 0; i < count; i++) {
      let s = '';
      for (let n = Math.floor(rnd() * 30); n > 0; n--) s += alphabet[Math.floor(rnd() * alphabet.length)];
      yield s;
    }
    yield 'See `src/net/retry.ts` and ~/x/y.toml, then ./scripts/dev.sh --flag=config/a.json; C:\\Users\\me\\x.txt and a/b/c.md.';
  }

  it('tries the pattern only where a candidate can start, and finds what trying every position finds', () => {
    for (const body of samples(20000)) {
      const everywhere = [...body.matchAll(candidatePattern())].map((m) => `${m.index}:${m[0]}`);
      const skipping: string[] = [];
      for (let m = nextCandidate(body, 0); m !== null; m = nextCandidate(body, m.index + m[0].length)) skipping.push(`${m.index}:${m[0]}`);
      assert.deepEqual(skipping, everywhere, JSON.stringify(body));
    }
  });

  it('gives a body the same paths the second time (what a candidate yields is remembered)', () => {
    for (const body of samples(2000)) assert.deepEqual(extractCitedPaths(body), extractCitedPaths(body), JSON.stringify(body));
  });
});
