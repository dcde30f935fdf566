// Bad input: 10,000 generated tool calls (every registered tool, the memory tool's six commands included) through the MCP client (fuzzgen.ts), then raw frames the
// SDK client cannot even produce. Every call is answered (no hang, no crash), every failure is an
// isError result with a specific message (not generic, no stack trace, names the tool or the
// argument), and the store is byte-identical afterwards: only the event log may grow, and only
// with lines of the read-only calls that succeeded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../helpers/env.ts';
import { rawServer } from '../helpers/rawmcp.ts';
import { Rng, SOAK, diffTrees, factText, hashTree, seedFor, spawnServer, textOf, token, type Proc } from '../helpers/stress.ts';
import { MAY_PASS, TOOLS, generate, randomUlid, type FuzzCall, type FuzzContext } from './fuzzgen.ts';

const CALLS = 10_000 * SOAK;
const IN_FLIGHT = 8;
const READ_KINDS = new Set(['search', 'show', 'list', 'list_tombstones', 'scope_overview', 'scope_disable', 'scope_enable', 'health', 'consolidate', 'related']);
const GENERIC = /^(error|internal error|unknown error|an error occurred|invalid input|invalid arguments?|bad request|undefined|null|\[object object\]|failed|validation failed)\.?$/i;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Why an error text is not a specific, one-sentence answer (null when it is). */
export function badMessage(msg: string, tool: string, args: Record<string, unknown>): string | null {
  if (msg.trim() === '') return 'empty message';
  if (msg.length > 1500) return `message is ${msg.length} characters long`;
  if (/\n\s+at\s|node:internal|\bat .*\(.*:\d+:\d+\)/.test(msg)) return 'carries a stack trace';
  if (GENERIC.test(msg.trim())) return 'generic message';
  const names = [tool, 'unknown tool', ...Object.keys(TOOLS[tool]?.fields ?? {}), ...Object.keys(args).filter((k) => /^[A-Za-z_][\w-]+$/.test(k))];
  const named = names.some((n) => (n.length < 4 ? new RegExp(`\\b${escape(n)}\\b`, 'i') : new RegExp(escape(n.slice(0, 40)), 'i')).test(msg));
  // Naming the offending value (an id, a scope) is as specific as naming the argument.
  const values = Object.values(args).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  const quoted = values.some((v) => (v.trim().length >= 4 ? msg.toUpperCase().includes(v.trim().slice(0, 30).toUpperCase()) : msg.includes(JSON.stringify(v))));
  return named || quoted ? null : 'names neither the tool, an argument nor the bad value';
}

test(`${CALLS} generated bad tool calls: all answered, failures specific, store byte-identical`, { timeout: 200_000 * SOAK }, async (t) => {
  const seed = seedFor('fuzz');
  const rng = new Rng(seed);
  const root = tempDir('cairn-fuzz-');
  const store = join(root, 'store');
  const canaryDir = join(root, 'canary');
  const open: Proc[] = [];
  try {
    // Files outside the store that path-like arguments point at: none may be read, changed or created.
    mkdirSync(canaryDir);
    const canaryId = randomUlid(rng);
    writeFileSync(join(canaryDir, 'canary.md'), `---\nid: ${canaryId}\ncreated: 2026-01-01T00:00:00.000Z\nscopes: [fuzz]\n---\nCanary outside the store.\n`);
    writeFileSync(join(canaryDir, `p_${canaryId}.json`), '{"canary":true}\n');
    const canaries = [join(canaryDir, 'canary.md'), join(canaryDir, 'canary'), join(canaryDir, `p_${canaryId}`), canaryDir];

    // A store with active, removed and pending memories; closing the seeder saves the index cache.
    const seeder = await spawnServer({ store, cwd: root });
    const activeIds: string[] = [];
    const tombIds: string[] = [];
    for (let i = 0; i < 16; i++) {
      const r = await seeder.ok('memory_write', { content: factText(rng, token(i)), scopes: [rng.pick(['fuzz', 'tools', 'projects:fuzz'])], force: true });
      (i < 4 ? tombIds : activeIds).push(r.id);
    }
    for (const id of tombIds) await seeder.ok('memory_remove', { id, reason: 'seeded tombstone' });
    const pend = await seeder.ok('memory_write', { content: 'The user prefers short answers with code first.', scopes: ['fuzz'], category: 'user-inference' });
    const pendingIds = pend.pending_id ? [pend.pending_id as string] : [];
    await seeder.close();

    // The event log grows (reads that may pass are logged), and so may its derived summary, the
    // feedback fold's cache, and the consolidation pairs a memory_health or memory_consolidate
    // judged (docs/format.md: derived, safe to delete), saved by the server.
    const skipLog = (rel: string) => rel.startsWith('.events') || rel === join('.cache', 'feedback.json') || rel === join('.cache', 'consolidation.json');
    const before = hashTree(store, skipLog);
    const canaryBefore = hashTree(canaryDir);
    const logFile = join(store, '.events.jsonl');
    const logBefore = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';

    const p = await spawnServer({ store, cwd: root });
    open.push(p);
    const tools = (await p.client.listTools()).tools.map((x) => x.name);
    // Every registered tool is fuzzed: a new tool without an entry in the table fails the suite.
    const unfuzzed = tools.filter((n) => !Object.hasOwn(TOOLS, n));
    assert.deepEqual(unfuzzed, [], 'registered tools missing from the fuzz table (fuzzgen.ts TOOLS)');
    t.diagnostic(`fuzzing all ${tools.length} tools: ${tools.join(', ')}`);
    const ctx: FuzzContext = { rng, activeIds, tombIds, pendingIds, canaries };

    const problems: string[] = [];
    const stats = { calls: 0, refused: 0, answered: 0, unknownTool: 0, slowestMs: 0, longestMessage: 0, mustFail: 0 };
    const byTool = new Map<string, number>();
    let issued = 0;
    const started = performance.now();
    const runOne = async (call: FuzzCall) => {
      const t0 = performance.now();
      let r;
      try {
        r = await p.call(call.tool, call.args, 30_000);
      } catch (err) {
        problems.push(`no answer to ${call.tool} (${call.defect || 'may pass'}): ${(err as Error).message.slice(0, 200)}`);
        return;
      }
      stats.slowestMs = Math.max(stats.slowestMs, performance.now() - t0);
      stats.calls++;
      const bucket = Object.hasOwn(TOOLS, call.tool) ? call.tool : '(unknown tool)';
      byTool.set(bucket, (byTool.get(bucket) ?? 0) + 1);
      if (call.defect) stats.mustFail++;
      if (call.defect === 'unknown tool') stats.unknownTool++;
      const shown = () => `${call.tool} ${JSON.stringify(call.args).slice(0, 300)}`;
      if (r.isError) {
        stats.refused++;
        const msg = textOf(r);
        stats.longestMessage = Math.max(stats.longestMessage, msg.length);
        const why = badMessage(msg, call.tool, call.args);
        if (why) problems.push(`${why}: ${shown()} -> ${msg.slice(0, 300)}`);
        if (r.structuredContent !== undefined) problems.push(`isError with structuredContent: ${shown()}`);
      } else {
        stats.answered++;
        if (call.defect) problems.push(`accepted a call with ${call.defect}: ${shown()} -> ${JSON.stringify(r.structuredContent).slice(0, 200)}`);
        else if (!MAY_PASS.has(call.tool)) problems.push(`unexpected success: ${shown()}`);
        else if (typeof r.structuredContent !== 'object' || r.structuredContent === null) problems.push(`success without structuredContent: ${shown()}`);
      }
    };
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (issued < CALLS && problems.length < 50) {
          issued++;
          if (issued % 1000 === 0) assert.ok(p.alive(), `the server is alive after ${issued} calls`);
          await runOne(generate(ctx, tools));
        }
      }),
    );
    const fuzzMs = performance.now() - started;
    assert.deepEqual(problems.slice(0, 15), [], `${problems.length} problems (seed ${seed})`);
    assert.ok(p.alive(), 'the server survived every call');
    assert.equal(stats.calls, CALLS);
    t.diagnostic(`${stats.calls} calls in ${(fuzzMs / 1000).toFixed(1)} s: ${JSON.stringify(stats)}`);
    t.diagnostic(`per tool: ${JSON.stringify(Object.fromEntries([...byTool].sort()))}`);

    // Raw frames: non-object arguments, no name, deep nesting, garbage lines, huge lines.
    const raw = await rawServer({ store, cwd: root });
    let rawAnswered = 0;
    let rawJunk = 0;
    try {
      // Each frame is built around its own id; params are raw JSON text, exactly as sent.
      const frame = (params: string, method = 'tools/call') => {
        const id = raw.nextId();
        return { id, line: `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${params}}` };
      };
      const framed = [
        ...['"str"', '42', 'null', 'true', '[1,2]', '[]'].map((a) => frame(`{"name":"memory_write","arguments":${a}}`)),
        frame('{"name":42,"arguments":{}}'),
        frame('{"arguments":{}}'),
        frame(`{"name":"memory_write","arguments":{"content":${'['.repeat(200_000)}"x"${']'.repeat(200_000)},"scopes":["x"]}}`),
        frame('{"name":"memory_remove","arguments":{"id":"\\ud800../../etc/passwd","reason":"\\udfff"}}'),
        frame(`{"name":"memory_write","arguments":{"content":"${'z'.repeat(5_000_000)}","scopes":["x"]}}`),
        frame('{}', 'no/such/method'),
      ];
      // Unknown fields in params are allowed by the protocol (a valid call): answered, not refused.
      const extra = frame(`{"name":"memory_list","arguments":{"limit":1},"extra":"${'x'.repeat(100_000)}"}`);
      const er = await raw.send(extra.line, extra.id, 30_000);
      assert.ok(er !== 'timeout' && er.result && !er.result.isError, 'a call with an unknown params field is answered');
      for (const f of framed) {
        const r = await raw.send(f.line, f.id, 30_000);
        assert.notEqual(r, 'timeout', `raw frame answered: ${f.line.slice(0, 120)}`);
        rawAnswered++;
        const res = r as Record<string, any>;
        if (res.result) assert.equal(res.result.isError, true, `raw frame refused: ${f.line.slice(0, 120)} -> ${JSON.stringify(res).slice(0, 200)}`);
        else assert.ok(res.error && typeof res.error.message === 'string' && res.error.message.length > 0, JSON.stringify(res).slice(0, 200));
      }
      // Not JSON-RPC requests at all: the SDK transport drops them (no id to answer to); the
      // server must just survive them.
      const junk = ['{not json', '', '[]', '"\\ud800"', '\u0000\u0001', '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":null}', 'x'.repeat(2_000_000)];
      for (const line of junk) await raw.send(line, null);
      rawJunk = junk.length;
      assert.ok(raw.alive(), 'garbage lines do not kill the server');
      const ok = await raw.request('tools/call', { name: 'memory_list', arguments: { limit: 1 } });
      assert.ok(ok !== 'timeout' && ok.result && !ok.result.isError, 'the server still answers after garbage');
    } finally {
      await raw.close();
    }
    t.diagnostic(`${rawAnswered} raw frames answered; ${rawJunk} garbage lines survived`);

    await p.close();
    open.length = 0;
    // Byte-identical: every file but the event log, which only grew, and only with read events.
    assert.deepEqual(diffTrees(before, hashTree(store, skipLog)), [], 'the store is byte-identical');
    assert.deepEqual(diffTrees(canaryBefore, hashTree(canaryDir)), [], 'nothing outside the store changed');
    assert.deepEqual(readdirSync(root).sort(), ['canary', 'store']);
    const logAfter = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    assert.ok(logAfter.startsWith(logBefore), 'the event log was only appended to');
    const kinds = new Set(logAfter.slice(logBefore.length).split('\n').filter(Boolean).map((l) => JSON.parse(l).kind as string));
    for (const k of kinds) assert.ok(READ_KINDS.has(k), `event kind ${k} after failed calls`);
  } finally {
    await Promise.all(open.map((p) => p.close()));
    removeDir(root);
  }
});
