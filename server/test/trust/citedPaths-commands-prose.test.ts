// Path extraction from command lines in backticks and from bare relative paths in prose, and its
// precision and recall on a blind, hand-labelled corpus (fixtures/cited-paths.json, 135 notes).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { extractCitedPaths } from '../../src/core/trust/signals/citedPaths.ts';

describe('extractCitedPaths: commands and prose', () => {
  const cases: [string, string, string[]][] = [
    ['script in a backticked command', 'We deploy with `scripts/release.sh --prod`.', ['scripts/release.sh']],
    ['bare relative path in prose', 'See src/router/table.py for the routing logic.', ['src/router/table.py']],
    ['command words and --flag=value', '`node server/dist/cairn.mjs init --config=conf/app.toml`', ['server/dist/cairn.mjs', 'conf/app.toml']],
    ['-f argument', 'Run `kubectl apply -f k8s/deploy.yaml` to roll it out.', ['k8s/deploy.yaml']],
    ['file name argument', 'Check `npx tsc -p tsconfig.build.json` first.', ['tsconfig.build.json']],
    ['dot-directory in prose', 'CI is .github/workflows/ci.yml; docs in docs/README.md.', ['.github/workflows/ci.yml', 'docs/README.md']],
    ['./ path in prose', 'Fixtures come from ./fixtures/data.json.', ['./fixtures/data.json']],
    ['dotfiles in backticks', 'Pin it in `.nvmrc` and copy `.env.example` to `.env.local`.', ['.nvmrc', '.env.example', '.env.local']],
    ['dot-directory with no extension', 'Owners are in `.github/CODEOWNERS`.', ['.github/CODEOWNERS']],
    ['directory with a slash', 'Migrations are in `migrations/`.', ['migrations/']],
    ['uncommon extension', 'Edit `make/docker.mk` and `config/runtime.exs`.', ['make/docker.mk', 'config/runtime.exs']],
  ];
  for (const [name, body, want] of cases) it(name, () => assert.deepEqual(extractCitedPaths(body), want));

  const ignored: [string, string][] = [
    ['flags and subcommands', 'Run `npm run build -- --watch` and `git push origin main`.'],
    ['docker images', 'Base image `node:20-alpine`; run `docker run ghcr.io/acme/app:1.2`; pull ghcr.io/acme/app/x.tar.'],
    ['domains in prose', 'Module github.com/acme/tool/cmd.go and golang.org/x/tools are vendored.'],
    ['branches and versions', 'Merge `feature/login` into `release/2024.1`; bump to v1.2.3 and node/v18.x.'],
    ['jq filter and members', 'Use `cat package.json | jq .version` (only package.json) and `.length`.'],
    ['URL paths in prose', 'GET http://localhost:8080/api/v1/users.json > /dev/null 2>&1'],
    ['globs and variables in commands', 'Run `eslint src/**/*.ts` and `cp $HOME/x.env ${DIR}/y.env`.'],
    ['bare relative without an extension', 'Look in src/router for it; TCP/IP and/or UDP.'],
    ['placeholder names', 'See src/foo.py, `path/to/file.py` and <dir>/x.md.'],
  ];
  for (const [name, body] of ignored) {
    it(`ignores ${name}`, () => {
      const got = extractCitedPaths(body).filter((p) => p !== 'package.json');
      assert.deepEqual(got, []);
    });
  }
});

describe('extractCitedPaths on the blind hand-labelled corpus', () => {
  it('precision >= 0.95 and recall >= 0.95 (micro-averaged over paths)', () => {
    const data = JSON.parse(readFileSync(new URL('./fixtures/cited-paths.json', import.meta.url), 'utf8')) as { note: string; paths: string[] }[];
    let tp = 0;
    let fp = 0;
    let fn = 0;
    const wrong: unknown[] = [];
    for (const { note, paths } of data) {
      const got = extractCitedPaths(note, 100);
      const extra = got.filter((p) => !paths.includes(p));
      const miss = paths.filter((p) => !got.includes(p));
      tp += got.length - extra.length;
      fp += extra.length;
      fn += miss.length;
      if (extra.length || miss.length) wrong.push({ note, extra, miss });
    }
    const precision = tp / (tp + fp);
    const recall = tp / (tp + fn);
    console.log(`cited paths: ${data.length} notes, ${tp + fn} labelled paths: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`);
    assert.ok(data.length >= 120);
    assert.ok(precision >= 0.95 && recall >= 0.95, JSON.stringify(wrong, null, 1));
  });
});
