// Limits: every documented limit accepts a value exactly at it and refuses one just over it with a
// clear error naming the argument and the limit, and the refused call writes nothing. The table
// printed at the end is the README's "Limits" table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_NOTE_CHARS } from '../../src/core/ops/writing.ts';
import { MAX_SCOPE_LENGTH, MAX_SCOPES } from '../../src/core/scopes.ts';
import { MAX_IDS_PER_CALL } from '../../src/core/ops/common.ts';
import { MAX_FILE_BYTES } from '../../src/core/store/store.ts';
import { removeDir, tempDir } from '../helpers/env.ts';
import { diffTrees, hashTree, spawnServer, textOf, type Proc } from '../helpers/stress.ts';
import { readDisk } from '../helpers/disk.ts';

let root: string;
let store: string;
let s: Proc;
const ids: string[] = [];
const table: string[] = [];

/** A body of exactly n characters made of ordinary words (no secret, no transient marker). */
function body(n: number): string {
  const unit = 'The build cache lives beside the store and is rebuilt on demand. ';
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n - 1) + '.';
}

before(async () => {
  root = tempDir('cairn-limits-');
  store = join(root, 'store');
  s = await spawnServer({ store, cwd: root });
  for (let i = 0; i < 12; i++) ids.push((await s.ok('memory_write', { content: `Limit fixture number ${i} describes the ${['amber', 'basalt', 'cedar'][i % 3]} queue ${i * 7}.`, scopes: ['limits'], force: true })).id);
});
after(async () => {
  await s.close();
  removeDir(root);
});

interface Limit {
  what: string;
  limit: string;
  tool: string;
  atLimit: () => Record<string, unknown>;
  over: () => Record<string, unknown>;
  /** the refusal must match this (it names the argument and the limit) */
  error: RegExp;
}

const scopes = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);
const fresh = () => `${Math.random().toString(36).slice(2)}`;

const LIMITS: Limit[] = [
  { what: 'memory body (`content`, after trimming; UTF-16 code units)', limit: '`behavior.max_body_chars` (default 20000)', tool: 'memory_write',
    atLimit: () => ({ content: body(20_000), scopes: ['limits'], force: true }), over: () => ({ content: body(20_001), scopes: ['limits'], force: true }),
    error: /^content is 20001 characters, over the limit of 20000 \(behavior\.max_body_chars\)/ },
  { what: 'memory body on update', limit: 'same', tool: 'memory_update',
    atLimit: () => ({ id: ids[0], content: body(20_000) }), over: () => ({ id: ids[0], content: body(20_001) }), error: /^content is 20001 characters, over the limit of 20000/ },
  { what: 'body counted in UTF-16 code units (an emoji is 2)', limit: 'same', tool: 'memory_write',
    atLimit: () => ({ content: '\u{1F600}'.repeat(10_000), scopes: ['limits'], force: true }), over: () => ({ content: '\u{1F600}'.repeat(10_000) + 'x', scopes: ['limits'], force: true }),
    error: /^content is 20001 characters, over the limit of 20000/ },
  { what: 'body, hard cap of the tool schema', limit: '1,000,000 characters (the largest `max_body_chars`)', tool: 'memory_write',
    atLimit: () => ({ content: body(20_000), scopes: ['limits'], force: true }), over: () => ({ content: 'x'.repeat(1_000_001), scopes: ['limits'] }),
    error: /content.*1000000/ },
  { what: 'scopes per memory', limit: String(MAX_SCOPES), tool: 'memory_write',
    atLimit: () => ({ content: `Sixteen scopes hold this fact ${fresh()}.`, scopes: scopes(MAX_SCOPES), force: true }), over: () => ({ content: 'Seventeen scopes.', scopes: scopes(MAX_SCOPES + 1) }),
    error: new RegExp(`^scopes has ${MAX_SCOPES + 1} entries: at most ${MAX_SCOPES}$`) },
  { what: 'scopes per memory on update', limit: String(MAX_SCOPES), tool: 'memory_update',
    atLimit: () => ({ id: ids[1], scopes: scopes(MAX_SCOPES) }), over: () => ({ id: ids[1], scopes: scopes(MAX_SCOPES + 1) }), error: new RegExp(`^scopes has ${MAX_SCOPES + 1} entries: at most ${MAX_SCOPES}$`) },
  { what: 'scope length (whole name, `:` parts included)', limit: `${MAX_SCOPE_LENGTH} characters`, tool: 'memory_write',
    atLimit: () => ({ content: `A long scope name holds this fact ${fresh()}.`, scopes: [`a:${'b'.repeat(MAX_SCOPE_LENGTH - 2)}`], force: true }),
    over: () => ({ content: 'x', scopes: [`a:${'b'.repeat(MAX_SCOPE_LENGTH - 1)}`] }), error: new RegExp(`^scopes\\[0\\] is ${MAX_SCOPE_LENGTH + 1} characters: at most ${MAX_SCOPE_LENGTH}$`) },
  { what: 'scope length in rename', limit: `${MAX_SCOPE_LENGTH} characters`, tool: 'memory_rename_scope',
    atLimit: () => ({ old_scope: 'limits', new_scope: 'l'.repeat(MAX_SCOPE_LENGTH) }), over: () => ({ old_scope: 'l'.repeat(MAX_SCOPE_LENGTH), new_scope: 'l'.repeat(MAX_SCOPE_LENGTH + 1) }),
    error: new RegExp(`new_scope.*${MAX_SCOPE_LENGTH}`) },
  { what: 'verification note (`memory_verify` `note`)', limit: `${MAX_NOTE_CHARS} characters`, tool: 'memory_verify',
    atLimit: () => ({ id: ids[2], note: 'n'.repeat(MAX_NOTE_CHARS) }), over: () => ({ id: ids[2], note: 'n'.repeat(MAX_NOTE_CHARS + 1) }), error: new RegExp(`^note is ${MAX_NOTE_CHARS + 1} characters: at most ${MAX_NOTE_CHARS}`) },
  { what: 'removal reason (`memory_remove` `reason`)', limit: `${MAX_NOTE_CHARS} characters`, tool: 'memory_remove',
    atLimit: () => ({ id: ids[3], reason: 'r'.repeat(MAX_NOTE_CHARS) }), over: () => ({ id: ids[4], reason: 'r'.repeat(MAX_NOTE_CHARS + 1) }), error: new RegExp(`^reason is ${MAX_NOTE_CHARS + 1} characters: at most ${MAX_NOTE_CHARS}`) },
  { what: 'use note (`memory_record_use` `note`)', limit: `${MAX_NOTE_CHARS} characters`, tool: 'memory_record_use',
    atLimit: () => ({ memory_ids: [ids[5]], outcome: 'applied', note: 'u'.repeat(MAX_NOTE_CHARS) }), over: () => ({ memory_ids: [ids[5]], outcome: 'applied', note: 'u'.repeat(MAX_NOTE_CHARS + 1) }),
    error: new RegExp(`note.*${MAX_NOTE_CHARS}`) },
  { what: 'ids per `memory_show` call', limit: String(MAX_IDS_PER_CALL), tool: 'memory_show',
    atLimit: () => ({ ids: ids.slice(0, MAX_IDS_PER_CALL) }), over: () => ({ ids: ids.slice(0, MAX_IDS_PER_CALL + 1) }), error: new RegExp(`ids.*${MAX_IDS_PER_CALL}`) },
  { what: 'ids per `memory_record_use` call', limit: '50', tool: 'memory_record_use',
    atLimit: () => ({ memory_ids: Array.from({ length: 50 }, (_, i) => ids[i % ids.length]), outcome: 'ignored' }), over: () => ({ memory_ids: Array.from({ length: 51 }, (_, i) => ids[i % ids.length]), outcome: 'ignored' }),
    error: /memory_ids.*50/ },
  { what: 'search query', limit: '2000 characters', tool: 'memory_search',
    atLimit: () => ({ query: 'queue '.repeat(400).slice(0, 2000) }), over: () => ({ query: 'q'.repeat(2001) }), error: /query.*2000/ },
  { what: 'search `max_results`', limit: '50', tool: 'memory_search',
    atLimit: () => ({ query: 'queue', max_results: 50 }), over: () => ({ query: 'queue', max_results: 51 }), error: /max_results.*50/ },
  { what: 'list page size (`limit`)', limit: '200', tool: 'memory_list',
    atLimit: () => ({ limit: 200 }), over: () => ({ limit: 201 }), error: /limit.*200/ },
  { what: 'scope filters per call', limit: '20', tool: 'memory_list',
    atLimit: () => ({ scopes: scopes(20) }), over: () => ({ scopes: scopes(21) }), error: /scopes.*20/ },
];

test('every limit: at the limit works, one over is a clear error and writes nothing', async (t) => {
  for (const l of LIMITS) {
    const okResult = await s.call(l.tool, l.atLimit());
    assert.ok(!okResult.isError, `${l.what}: at the limit is accepted (${textOf(okResult).slice(0, 200)})`);
    const memFiles = (rel: string) => !rel.endsWith('.md'); // the memory files; the log may grow
    const before = hashTree(store, memFiles);
    const r = await s.call(l.tool, l.over());
    assert.ok(r.isError, `${l.what}: one over the limit is refused`);
    const msg = textOf(r);
    assert.match(msg, l.error, `${l.what}: clear message`);
    assert.deepEqual(diffTrees(before, hashTree(store, memFiles)), [], `${l.what}: the refused call wrote nothing`);
    table.push(`| ${l.what} | ${l.limit} | \`${msg.length > 90 ? `${msg.slice(0, 90)}...` : msg}\` |`);
  }
  t.diagnostic(`Limits table:\n| limit | value | error when exceeded |\n|---|---|---|\n${table.join('\n')}`);
});

test('max_body_chars from config.toml is what the server enforces', async () => {
  const dir = tempDir('cairn-limits-cfg-');
  try {
    const cfgStore = join(dir, 'store');
    mkdirSync(cfgStore, { mode: 0o700 });
    writeFileSync(join(cfgStore, 'config.toml'), '[behavior]\nmax_body_chars = 100\n');
    const q = await spawnServer({ store: cfgStore, cwd: dir });
    try {
      assert.ok(!(await q.call('memory_write', { content: body(100), scopes: ['limits'] })).isError);
      assert.match(textOf(await q.call('memory_write', { content: body(101), scopes: ['limits'] })), /^content is 101 characters, over the limit of 100 \(behavior\.max_body_chars\)/);
    } finally {
      await q.close();
    }
  } finally {
    removeDir(dir);
  }
});

test('the largest body config allows still fits a memory file: written, reloaded, never skipped as too big', async () => {
  const dir = tempDir('cairn-limits-max-');
  try {
    const bigStore = join(dir, 'store');
    mkdirSync(bigStore, { mode: 0o700 });
    writeFileSync(join(bigStore, 'config.toml'), '[behavior]\nmax_body_chars = 1000000\n');
    // 3 bytes of UTF-8 per character: the worst case for a body counted in UTF-16 code units.
    const big = `${'語'.repeat(999_999)}.`;
    const q = await spawnServer({ store: bigStore, cwd: dir });
    let id: string;
    try {
      const r = await q.ok('memory_write', { content: big, scopes: ['limits'] });
      id = r.id;
      assert.ok(Buffer.byteLength(readFileSync(r.file)) < MAX_FILE_BYTES, 'a maximal body stays under MAX_FILE_BYTES');
    } finally {
      await q.close();
    }
    const disk = readDisk(bigStore);
    assert.equal(disk.byId.get(id)?.rec.body, big);
    const again = await spawnServer({ store: bigStore, cwd: dir });
    try {
      // Answers stay under 16 KB: the body comes in pages (truncated.next_body_offset), whole.
      let body = '';
      let offset: number | undefined = 0;
      let pages = 0;
      while (offset !== undefined) {
        const r: any = await again.ok('memory_show', { id, ...(offset > 0 ? { body_offset: offset } : {}) });
        const t = r.truncated;
        body += t ? r.memories[0].body.slice(0, -1) : r.memories[0].body;
        if (t) assert.equal(t.body_chars, 1_000_000);
        offset = t?.next_body_offset;
        pages++;
      }
      assert.equal(body.length, 1_000_000);
      assert.equal(body, big);
      assert.ok(pages > 60, `${pages} pages`);
    } finally {
      await again.close();
    }
  } finally {
    removeDir(dir);
  }
});

// A client that reads tools/list learns the real limits.
test('tools/list advertises the limits the server enforces', async () => {
  const { tools } = await s.client.listTools();
  const prop = (tool: string, name: string) => (tools.find((x) => x.name === tool)!.inputSchema.properties as Record<string, any>)[name];
  assert.equal(prop('memory_remove', 'reason').maxLength, MAX_NOTE_CHARS);
  assert.equal(prop('memory_verify', 'note').maxLength, MAX_NOTE_CHARS);
  for (const tool of ['memory_write', 'memory_update']) {
    assert.equal(prop(tool, 'scopes').maxItems, MAX_SCOPES);
    assert.equal(prop(tool, 'scopes').items.maxLength, MAX_SCOPE_LENGTH);
  }
});
