// Hand-made files: whatever a user (or another tool) leaves in the store, the server starts, serves
// the good memories, skips each bad file with a warning naming it and why, never rewrites or
// deletes it, and resolves duplicate ids the same way in every process. `cairn doctor` lists them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Store, MAX_FILE_BYTES } from '../../src/core/store/store.ts';
import { newId } from '../../src/core/ids.ts';
import { MAX_FRONTMATTER_CHARS } from '../../src/core/store/memfile.ts';
import { cli } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { Rng, allPages, diffTrees, hashTree, seedFor, spawnServer } from '../helpers/stress.ts';

const fm = (id: string, extra = '', updated = '2026-02-01T00:00:00.000Z') =>
  `---\nschema_version: 1\nid: ${id}\ncreated: 2026-01-01T00:00:00.000Z\nupdated: ${updated}\nscopes: [handmade]\n${extra}---\n`;

/** Nine levels of ten aliases under unknown keys x_a..x_i: 10^9 "lol"s if anything ever expands *i. */
const BOMB = (() => {
  const lines = [`x_a: &a [${Array(10).fill('"lol"').join(',')}]`];
  for (let i = 1; i < 9; i++) {
    const p = String.fromCharCode(96 + i);
    const q = String.fromCharCode(97 + i);
    lines.push(`x_${q}: &${q} [${Array(10).fill(`*${p}`).join(',')}]`);
  }
  return `${lines.join('\n')}\n`;
})();

test('huge, binary, alias-bomb, non-mapping, duplicate-id and other hand-made files never crash the server', { timeout: 120_000 }, async (t) => {
  const seed = seedFor('handmade');
  const rng = new Rng(seed);
  const root = tempDir('cairn-handmade-');
  const store = join(root, 'store');
  mkdirSync(store, { mode: 0o700 });
  const f = (name: string) => join(store, name);
  const ids = { good1: newId(), good2: newId(), bombUnknown: newId(), dup: newId(), tie: newId(), weird: newId(), blank: newId() };
  const bad: Record<string, RegExp> = {};
  try {
    writeFileSync(f('good-1.md'), `${fm(ids.good1)}The deploy script lives in the ops repository.\n`);
    writeFileSync(f('good-2.md'), `${fm(ids.good2)}Release notes are drafted in the wiki first.\n`);
    writeFileSync(f('weird name ü\tx.md'), `${fm(ids.weird)}A memory in a file with an odd name is still a memory.\n`);
    // An alias bomb in an unknown key is kept as text and never expanded.
    writeFileSync(f('bomb-unknown.md'), `${fm(ids.bombUnknown, BOMB)}Alias bomb in an unknown key.\n`);

    writeFileSync(f('huge.md'), `${fm(newId())}${'h'.repeat(MAX_FILE_BYTES + 1000)}\n`);
    bad['huge.md'] = /over the \d+-byte limit/;
    // 20,000 blank lines inside a frontmatter are still YAML: read (in milliseconds, not seconds).
    writeFileSync(f('blank-lines.md'), `${fm(ids.blank, '\n'.repeat(20_000))}A memory whose frontmatter has a long run of blank lines.\n`);
    // A frontmatter longer than cairn reads (a closing line lost, or a hostile file): skipped unread.
    writeFileSync(f('huge-frontmatter.md'), `---\nid: ${newId()}\nscopes: [handmade]\n${'\n'.repeat(MAX_FRONTMATTER_CHARS)}---\nNever parsed.\n`);
    bad['huge-frontmatter.md'] = new RegExp(`frontmatter is \\d+ characters, over the ${MAX_FRONTMATTER_CHARS}-character limit`);
    writeFileSync(f('binary.md'), Buffer.from(Array.from({ length: 4096 }, () => rng.int(256))));
    bad['binary.md'] = /binary|frontmatter/;
    writeFileSync(f('binary-no-nul.md'), Buffer.from(Array.from({ length: 4096 }, () => 1 + rng.int(255))));
    bad['binary-no-nul.md'] = /frontmatter/;
    for (const key of ['confidence: *i', 'scopes: [*i]', 'schema_version: *i', 'origin:\n  cwd: *i', 'removed: 2026-01-02T00:00:00.000Z\nremoved_reason: *i']) {
      const name = `bomb-${key.split(':')[0]}.md`;
      const body = `---\nid: ${newId()}\ncreated: 2026-01-01T00:00:00.000Z\n${key.startsWith('scopes') ? '' : 'scopes: [handmade]\n'}${BOMB}${key}\n---\nBomb in a known key.\n`;
      writeFileSync(f(name), body);
      bad[name] = /got a list|is not a mapping|does not match/;
    }
    writeFileSync(f('list.md'), '---\n- a\n- b\n---\nFrontmatter that is a list.\n');
    bad['list.md'] = /not a mapping/;
    writeFileSync(f('scalar.md'), '---\njust some text\n---\nFrontmatter that is a scalar.\n');
    bad['scalar.md'] = /not a mapping/;
    const marker = join(root, 'js-ran');
    writeFileSync(f('js.md'), `---js\n{ id: require('fs').writeFileSync(${JSON.stringify(marker)}, 'x') }\n---\nCode frontmatter.\n`);
    bad['js.md'] = /frontmatter/;
    writeFileSync(f('newer.md'), `---\nschema_version: 2\nid: ${newId()}\ncreated: 2026-01-01T00:00:00.000Z\nscopes: [x]\n---\nFrom the future.\n`);
    bad['newer.md'] = /newer/;
    writeFileSync(f('plain.md'), 'No frontmatter at all.\n');
    bad['plain.md'] = /frontmatter/;
    writeFileSync(f('empty.md'), '');
    bad['empty.md'] = /frontmatter/;
    writeFileSync(f('deep.md'), `---\nid: ${newId()}\ncreated: 2026-01-01T00:00:00.000Z\nscopes: [x]\nx_deep: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n---\nDeep.\n`);
    bad['deep.md'] = /YAML|./;
    // Duplicate ids: the later `updated` wins; on a tie, the path that sorts first.
    writeFileSync(f('dup-old.md'), `${fm(ids.dup, '', '2026-02-01T00:00:00.000Z')}Older copy of a duplicated memory.\n`);
    writeFileSync(f('dup-new.md'), `${fm(ids.dup, '', '2026-03-01T00:00:00.000Z')}Newer copy of a duplicated memory.\n`);
    writeFileSync(f('tie-b.md'), `${fm(ids.tie)}Tie copy B.\n`);
    writeFileSync(f('tie-a.md'), `${fm(ids.tie)}Tie copy A.\n`);
    // Things that are not files: ignored (a FIFO would block a naive read forever).
    mkdirSync(f('a-directory.md'));
    const fifo = spawnSync('mkfifo', [f('fifo.md')]).status === 0;
    symlinkSync(f('good-1.md'), f('link.md'));
    bad['link.md'] = /symbolic link/;

    const handmade = hashTree(store);
    const s = await spawnServer({ store, cwd: root });
    try {
      const listed = await allPages(s, 'memory_list', { with_bodies: true });
      const byId = new Map(listed.map((x) => [x.id, x.body]));
      assert.deepEqual([...byId.keys()].sort(), Object.values(ids).sort(), 'exactly the good memories and one per duplicated id');
      assert.equal(byId.get(ids.dup), 'Newer copy of a duplicated memory.');
      assert.equal(byId.get(ids.tie), 'Tie copy A.');
      const err = s.stderr();
      for (const [name, why] of Object.entries(bad)) {
        const line = err.split('\n').find((l) => l.includes(f(name)));
        assert.ok(line, `a warning names ${name}`);
        assert.match(line, why, `${name}: ${line}`);
      }
      assert.match(err, new RegExp(`skipped ${f('dup-old.md')}: duplicate id ${ids.dup}`));
      assert.match(err, new RegExp(`skipped ${f('tie-b.md')}: duplicate id ${ids.tie}`));
      assert.equal(existsSync(marker), false, 'code in a ---js frontmatter never runs');

      // Write-backs touch only the file that won; every skipped or shadowed file stays byte-identical.
      await s.ok('memory_update', { id: ids.dup, confidence: 'high' });
      await s.ok('memory_update', { id: ids.bombUnknown, confidence: 'low' });
      await s.ok('memory_verify', { id: ids.tie });
      assert.match(readFileSync(f('bomb-unknown.md'), 'utf8'), /x_i: &i \[\*h/, 'the unknown alias-bomb key is copied verbatim');
      const changed = diffTrees(handmade, hashTree(store, (rel) => rel.startsWith('.')));
      assert.deepEqual(changed.sort(), ['changed bomb-unknown.md', 'changed dup-new.md', 'changed tie-a.md'].sort(), 'only the winners were written');
      assert.ok(s.alive());
    } finally {
      await s.close();
    }

    // Deterministic: a second server and cairn's own loader pick the same files.
    const again = new Store(store, { warn: () => {} });
    await again.load();
    assert.equal(again.get(ids.dup)?.file, f('dup-new.md'));
    assert.equal(again.get(ids.tie)?.file, f('tie-a.md'));
    const skippedFiles = again.skipped().map((x) => x.file);
    for (const name of Object.keys(bad)) assert.ok(skippedFiles.includes(f(name)), `the store reports ${name} as skipped`);

    // cairn doctor lists every skipped and shadowed file.
    const doc = cli(['doctor', '--json'], { store, cwd: root });
    const report = JSON.parse(doc.stdout) as { checks: { name: string; status: string; items?: string[] }[] };
    const files = report.checks.find((c) => c.name === 'files')!;
    assert.equal(files.status, 'warn');
    for (const name of [...Object.keys(bad), 'dup-old.md', 'tie-b.md']) assert.ok(files.items?.some((i) => i.startsWith(`${f(name)}:`)), `doctor lists ${name}`);
    t.diagnostic(`${Object.keys(bad).length} bad files and 2 duplicate pairs${fifo ? ', a FIFO' : ''} and a directory named *.md: server fine, doctor exit ${doc.code}`);
  } finally {
    removeDir(root);
  }
});
