// The documentation checker (scripts/check-docs.mjs) passes on the repository, and catches each
// kind of problem it exists for when it is shown a small docs tree that has them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CHECKER = join(ROOT, 'scripts/check-docs.mjs');

function check(root?: string) {
  const r = spawnSync(process.execPath, root ? [CHECKER, root] : [CHECKER], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-docs-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

test('every link, anchor and index entry of the repository docs resolves, with no development history', () => {
  const r = check();
  assert.equal(r.status, 0, r.out);
});

test('a clean docs tree passes, with GitHub slugs for code, punctuation and repeated headings', () => {
  const dir = tree({
    'README.md': '# Tool\n\nSee [the guide](docs/guide.md#the-memory-tool-memories) and [again](docs/guide.md#setup-1), [a tool](docs/guide.md#memory_write_confirm), [bold](docs/guide.md#bold-words-here).\n![shot](docs/img/a.png)\n',
    'docs/README.md': '# Docs\n\n- [Guide](guide.md)\n',
    'docs/guide.md': '# Guide\n\n## The `memory` tool: /memories!\n\n## Setup\n\n## Setup\n\n### memory_write_confirm\n\n## **Bold** _words_ here\n\n```sh\n# not a heading\necho #12 [x](missing.md)\nwarning: for the rest of this session\n```\n\n[up](#guide), [code span](`x`) `[no](nowhere.md)`\n',
    'docs/img/a.png': 'png',
  });
  try {
    const r = check(dir);
    assert.equal(r.status, 0, r.out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('broken links and anchors, unindexed pages, history words and an oversized README are each reported by file and line', () => {
  const dir = tree({
    'README.md': `# Tool\n\n[gone](docs/gone.md)\n[bad anchor](docs/guide.md#nope)\n![img](docs/img/none.png)\nFixed in issue 12.\n${'x'.repeat(21 * 1024)}\n`,
    'docs/README.md': '# Docs\n\n- [Guide](guide.md)\n',
    'docs/guide.md': '# Guide\n\nAs measured this session, see #31.\n\n## Setup\n\n[self](#setup-1)\n',
    'docs/orphan.md': '# Orphan\n',
  });
  try {
    const r = check(dir);
    assert.equal(r.status, 1, r.out);
    for (const want of [
      'README.md:3: link to a missing file: docs/gone.md',
      'README.md:4: no heading for #nope in docs/guide.md',
      'README.md:5: link to a missing file: docs/img/none.png',
      'README.md:6: development history (an issue number)',
      'docs/guide.md:3: development history ("this session")',
      'docs/guide.md:3: development history (an issue or pull-request number)',
      'docs/guide.md:7: no heading for #setup-1 in docs/guide.md',
      'docs/README.md:1: does not link docs/orphan.md',
      'README.md:1: ',
    ]) assert.ok(r.out.includes(want), `expected "${want}" in:\n${r.out}`);
    assert.match(r.out, /README\.md:1: \d+ bytes, over the 20480-byte limit/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
