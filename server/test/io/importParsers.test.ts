// The importers' parsers on malformed input: each error names the file and the line (or the
// record) and what is wrong, and a malformed source writes nothing (checked through the CLI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSource } from '../../src/core/io/import/index.ts';
import { decodeProjectDir } from '../../src/core/io/import/claudeCode.ts';
import { markdownItems } from '../../src/core/io/import/common.ts';
import { cli } from '../helpers/mcp.ts';
import { removeDir, tempDir } from '../helpers/env.ts';

async function rejects(p: Promise<unknown>, re: RegExp, name = 'SourceError') {
  await assert.rejects(p, (err: Error) => {
    assert.match(err.message, re);
    assert.equal(err.name, name);
    return true;
  });
}

test('server-memory: a bad line is named by file and line', async () => {
  const d = tempDir('cairn-parse-');
  const f = join(d, 'memory.jsonl');
  writeFileSync(f, '{"type":"entity","name":"A","entityType":"x","observations":["ok"]}\n{"type":"entity","name":"B",\n');
  await rejects(parseSource('server-memory', f), new RegExp(`^${f}:2: not a JSON object on one line`));
  writeFileSync(f, '{"type":"entity","name":"A","entityType":"x","observations":"not a list"}\n');
  await rejects(parseSource('server-memory', f), new RegExp(`^${f}:1: entity "A" has "observations" that is not a list of strings$`));
  writeFileSync(f, '\n{"type":"person","name":"A"}\n');
  await rejects(parseSource('server-memory', f), /:2: "type" is "person": a memory-server line is "entity" or "relation"$/);
  writeFileSync(f, '{"type":"relation","from":"A","relationType":"knows"}\n');
  await rejects(parseSource('server-memory', f), /:1: relation without a "to" string$/);
  await rejects(parseSource('server-memory', join(d, 'nope.jsonl')), /^cannot read .*nope\.jsonl: no such file or directory$/);
  removeDir(d);
});

test('memento: bad lines, bad dates, an empty folder', async () => {
  const d = tempDir('cairn-parse-');
  mkdirSync(join(d, 'memories'));
  await rejects(parseSource('memento', d), /memories: holds no \.jsonl files/);
  const f = join(d, 'memories', 'global.jsonl');
  writeFileSync(f, '{"id":"a","content":"x","created":"2026-01-01T00:00:00Z"}\n{"id":"b","content":"y","created":"last tuesday"}\n');
  await rejects(parseSource('memento', d), new RegExp(`^${f}:2: entry b has "created" "last tuesday" is not a date$`));
  writeFileSync(f, '{"id":"a"}\n');
  await rejects(parseSource('memento', d), /global\.jsonl:1: entry a has no "content"$/);
  writeFileSync(f, '[1,2]\n');
  await rejects(parseSource('memento', d), /global\.jsonl:1: not a JSON object$/);
  removeDir(d);
});

test('mem0: not JSON (with its line), not an export, a bad record', async () => {
  const d = tempDir('cairn-parse-');
  const f = join(d, 'memories.json');
  writeFileSync(f, '{\n  "memories": [\n    {"id": "1", "content": "x",}\n  ]\n}\n');
  await rejects(parseSource('mem0', f), new RegExp(`^${f}:3: not valid JSON`));
  writeFileSync(f, '{"users": []}');
  await rejects(parseSource('mem0', f), /:1: not a mem0 or OpenMemory export: expected a "memories" or "results" list/);
  writeFileSync(f, '{"memories": [{"id": "1", "content": "ok"}, {"id": "2"}]}');
  await rejects(parseSource('mem0', f), /memories\.json: memories\[1\] has no "content" \(OpenMemory\) or "memory" \(mem0\) text$/);
  writeFileSync(f, '{"results": [{"id": "1", "memory": "ok", "state": "gone"}]}');
  await rejects(parseSource('mem0', f), /results\[0\] has "state" "gone": expected active, paused, archived or deleted$/);
  const l = join(d, 'memories.jsonl');
  writeFileSync(l, '{"id":"1","content":"a"}\n{"id":"2","content":"b","created_at":"soon"}\n');
  await rejects(parseSource('mem0', l), new RegExp(`^${l}:2: has "created_at" "soon" is not a date$`));
  removeDir(d);
});

test('bettermemory: bad frontmatter YAML names its line; bad values name the key', async () => {
  const d = tempDir('cairn-parse-');
  const f = join(d, 'a.md');
  writeFileSync(f, '---\nscopes: [tools\nid: 01JPB7Q0R8ZKX3M4N5P6Q7R8S9\n---\nbody\n');
  await rejects(parseSource('bettermemory', d), new RegExp(`^${f}:\\d+: frontmatter is not valid YAML`));
  writeFileSync(f, '---\nscopes: [tools]\nconfidence: very\n---\nbody\n');
  await rejects(parseSource('bettermemory', d), new RegExp(`^${f}:3: confidence is "very": expected one of low, medium, high$`));
  writeFileSync(f, '---\nid: x\n---\nbody\n');
  await rejects(parseSource('bettermemory', d), new RegExp(`^${f}:1: scopes is missing`));
  writeFileSync(f, '---\nscopes: [tools]\nbody without a closing line\n');
  await rejects(parseSource('bettermemory', d), new RegExp(`^${f}:1: frontmatter opened with "---" is never closed$`));
  writeFileSync(f, 'no frontmatter\n');
  await rejects(parseSource('bettermemory', d), /a\.md:1: has no YAML frontmatter/);
  await rejects(parseSource('bettermemory', f), /is not a directory: give the bettermemory store folder/);
  removeDir(d);
});

test('basic-memory, claude-code, anthropic-memories: frontmatter errors, wrong paths', async () => {
  const d = tempDir('cairn-parse-');
  await rejects(parseSource('basic-memory', d), /holds no notes \(\*\.md\)/);
  const note = join(d, 'note.md');
  writeFileSync(note, '---\ntitle: A\ncreated: the other day\n---\n- [x] done\n');
  await rejects(parseSource('basic-memory', d), new RegExp(`^${note}:3: created "the other day" is not a date$`));
  writeFileSync(note, '---\ntitle: [unclosed\n---\n');
  await rejects(parseSource('basic-memory', d), new RegExp(`^${note}:\\d+: frontmatter is not valid YAML`));

  await rejects(parseSource('claude-code', d), /holds no Claude Code auto memory \(no memory\/ folder\)/);
  const mem = join(d, '.claude', 'projects', '-nowhere-at-all', 'memory');
  mkdirSync(mem, { recursive: true });
  writeFileSync(join(mem, 'x.md'), '---\nname: X\ntype: opinion\n---\nbody\n');
  await rejects(parseSource('claude-code', join(d, '.claude')), new RegExp(`^${join(mem, 'x.md')}:3: type is "opinion": Claude Code's memory types are user, feedback, project, reference$`));
  await rejects(parseSource('mem0', d, { includeClaudeMd: true }), /--include-claude-md applies to --from claude-code only/, 'ValidationError');

  const am = join(d, 'memories');
  mkdirSync(am);
  await rejects(parseSource('anthropic-memories', am), /holds no files/);
  writeFileSync(join(am, 'blob.bin'), Buffer.from([1, 0, 2]));
  const r = await parseSource('anthropic-memories', am);
  assert.deepEqual(r.skipped, [{ label: 'blob.bin', reason: 'a binary file' }]);
  removeDir(d);
});

test('a Claude Code project folder name is matched back to its directory', () => {
  const d = tempDir('cairn-decode-');
  mkdirSync(join(d, 'src', 'my-app', 'sub'), { recursive: true });
  mkdirSync(join(d, 'src', 'my'), { recursive: true });
  mkdirSync(join(d, '.hidden.dir'), { recursive: true });
  const enc = (p: string) => p.replace(/[^a-zA-Z0-9]/g, '-');
  assert.equal(decodeProjectDir(enc(join(d, 'src', 'my-app'))), join(d, 'src', 'my-app'));
  assert.equal(decodeProjectDir(enc(join(d, 'src', 'my-app', 'sub'))), join(d, 'src', 'my-app', 'sub'));
  assert.equal(decodeProjectDir(enc(join(d, '.hidden.dir'))), join(d, '.hidden.dir'));
  assert.equal(decodeProjectDir(enc(join(d, 'src', 'gone'))), null);
  removeDir(d);
});

test('markdown pieces: list items with their nested lines, paragraphs, fences, headings as context', () => {
  const items = markdownItems('# Top\n\n- one\n  - nested\n- two\n  continued\n\nA paragraph\nover two lines.\n\n```sh\nrm -rf x\n```\n## Sub\n* three\n', 1);
  assert.deepEqual(items.map((i) => [i.text, i.line, i.heading, i.listItem]), [
    ['one\n- nested', 3, 'Top', true],
    ['two\ncontinued', 5, 'Top', true],
    ['A paragraph\nover two lines.', 8, 'Top', false],
    ['```sh\nrm -rf x\n```', 11, 'Top', false],
    ['three', 15, 'Sub', true],
  ]);
});

test('through the CLI: a malformed source is exit 1 with file:line and writes nothing; bad flags are usage errors', () => {
  const d = tempDir('cairn-import-bad-');
  const store = join(d, 'store');
  const f = join(d, 'memory.jsonl');
  writeFileSync(f, '{"type":"entity","name":"A","entityType":"x","observations":["fine"]}\n{oops}\n');
  const run = (...a: string[]) => cli(a, { store, cwd: d });
  const r = run('import', '--from', 'server-memory', f, '--apply');
  assert.equal(r.code, 1);
  assert.match(r.stderr, new RegExp(`^cairn import: ${f}:2: not a JSON object on one line`));
  assert.ok(!existsSync(store) || !readdirSync(store).some((n) => n.endsWith('.md')), 'nothing written');
  const fmt = run('import', '--from', 'obsidian', d);
  assert.equal(fmt.code, 2);
  assert.match(fmt.stderr, /unknown import format "obsidian": use one of claude-code, server-memory, basic-memory, memento, bettermemory, mem0, anthropic-memories/);
  assert.equal(run('import', f, '--apply').code, 2, '--apply without --from');
  assert.match(run('import', f, '--apply').stderr, /--apply goes with --from FORMAT/);
  const md = run('import', '--from', 'mem0', f, '--include-claude-md');
  assert.equal(md.code, 2);
  assert.match(md.stderr, /--include-claude-md goes with --from claude-code/);
  const scope = run('import', '--from', 'server-memory', join(process.cwd(), 'server/test/io/fixtures/server-memory/memory.jsonl'), '--scope', 'Bad Scope');
  assert.equal(scope.code, 2);
  assert.match(scope.stderr, /--scope/);
  removeDir(d);
});
