// Generated bad tool calls for fuzz.test.ts. A call to a tool that changes the store always
// carries at least one DEFINITE defect (a value no implementation of the contract may accept),
// plus random noise on other fields; so any success there is a bug, and the store must come out
// byte-identical. Read-only and per-process tools (search, show, list, scope_disable...) get
// anything: they may answer or refuse, but must never hang, crash or write.
import type { Rng } from '../helpers/stress.ts';
import { SCOPE_RE } from '../../src/core/scopes.ts';

export interface FuzzContext {
  rng: Rng;
  activeIds: string[];
  tombIds: string[];
  pendingIds: string[];
  /** paths outside the store that no argument may ever make cairn touch */
  canaries: string[];
}

export interface FuzzCall {
  tool: string;
  args: Record<string, unknown>;
  /** what makes it fail, when it must ('' for a call that may succeed) */
  defect: string;
}

/** Tools whose success changes nothing on disk but the event log. */
export const MAY_PASS = new Set([
  'memory_search', 'memory_show', 'memory_list', 'memory_list_tombstones', 'memory_scope_overview', 'memory_health',
  'memory_scope_disable', 'memory_scope_enable', 'memory_consolidate', 'memory_related',
]);

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function randomUlid(rng: Rng): string {
  let s = rng.pick(['0', '1', '7']);
  for (let i = 0; i < 25; i++) s += CROCKFORD[rng.int(32)];
  return s;
}

function pathLike(ctx: FuzzContext): string {
  const { rng } = ctx;
  return rng.pick([
    '../../etc/passwd', '../../../../../../../../etc/shadow', '/etc/passwd', '..\\..\\windows\\system32\\config', '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '....//....//etc/passwd', 'file:///etc/passwd', '~/.ssh/id_rsa', '.tombstones/../../x', '.cache/search-index.bin', '.events.jsonl', '.lock',
    '.pending/../../x', '/dev/zero', '/proc/self/environ', 'CON', 'nul', '\\\\server\\share\\x', `..${'/..'.repeat(40)}/etc/passwd`,
    rng.pick(ctx.canaries), `../${rng.pick(ctx.canaries).split('/').slice(-2).join('/')}`, `../../${rng.pick(ctx.canaries).split('/').pop()}`,
  ]);
}

function controlString(rng: Rng): string {
  let s = '';
  const n = rng.range(1, 40);
  for (let i = 0; i < n; i++) {
    s += rng.pick([
      String.fromCharCode(rng.int(32)), '\u007f', '\u0085', '\u2028', '\u2029', '\ufeff', '\u200b', '\u202e', '\ud800', '\udfff', '\ud83d\ude00',
      '\ud83d', 'a', ' ', '"', '\\', '\n', '\r\n', '$(rm -rf /)', '${x}', '%s%n', '<script>', "'; DROP TABLE", '\u0000',
    ]);
  }
  return s;
}

/** Strings of every awkward kind. */
export function junkString(ctx: FuzzContext): string {
  const { rng } = ctx;
  switch (rng.int(9)) {
    case 0: return rng.pick(['', ' ', '\t\n', 'null', 'undefined', 'true', '0', '[]', '{}', '__proto__', 'constructor', 'toString']);
    case 1: return pathLike(ctx);
    case 2: return controlString(rng);
    case 3: return 'x'.repeat(rng.chance(0.1) ? rng.range(100_000, 1_100_000) : rng.range(200, 6000));
    case 4: return rng.pick(['Tools', 'my tools', 'a::b', '-a', 'a-', ':a', 'a:', 'über', 'ＡＢＣ', 'a/b', 'a.b', 'projects:*', '**', '[a-z]', '{a,b}', '!x']);
    // Never exactly 26 chars: a lowercase ULID is a VALID id (ids are case-insensitive).
    case 5: return rng.chance(0.5) ? randomUlid(rng).toLowerCase().slice(0, rng.range(20, 25)) : `${randomUlid(rng)}${rng.pick(['0', 'Z', 'U', '-'])}`;
    case 6: return rng.pick(['2001-01-01', 'tomorrow', '2099-13-01', '20990101', '9999-99-99T99:99:99Z', '2020-02-30T00:00:00Z', '1e400']);
    // Never a well-formed pending id (cancelling an unknown one succeeds).
    case 7: return `p_${randomUlid(rng)}${rng.pick(['x', '/../x', '\u0000', '.json', '_'])}`;
    default: return Array.from({ length: rng.range(1, 30) }, () => String.fromCodePoint(rng.int(0x2ffff))).join('');
  }
}

function deep(rng: Rng, depth: number): unknown {
  let v: unknown = rng.pick(['x', 1, null, true]);
  const arr = rng.chance(0.5);
  for (let i = 0; i < depth; i++) v = arr ? [v] : { [rng.pick(['a', 'id', '__proto__', 'content'])]: v };
  return v;
}

/** Any JSON value that is NOT a string. */
export function junkNonString(ctx: FuzzContext): unknown {
  const { rng } = ctx;
  switch (rng.int(8)) {
    case 0: return rng.pick([null, true, false]);
    case 1: return rng.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 2, 3.14159]);
    case 2: return [];
    case 3: return {};
    case 4: return deep(rng, rng.range(2, 900));
    case 5: return Array.from({ length: rng.range(1, 5) }, () => junkString(ctx));
    case 6: return { [junkString(ctx).slice(0, 100)]: junkString(ctx).slice(0, 100) };
    default: return Array.from({ length: rng.range(1, 3000) }, (_, i) => i);
  }
}

export function junkValue(ctx: FuzzContext): unknown {
  return ctx.rng.chance(0.5) ? junkString(ctx) : junkNonString(ctx);
}

type Field = { valid: (ctx: FuzzContext) => unknown; bad: Array<(ctx: FuzzContext) => [unknown, string]> };

const nonString = (what: string) => (ctx: FuzzContext): [unknown, string] => [junkNonString(ctx), `${what} not a string`];
const nonBool = (ctx: FuzzContext): [unknown, string] => [ctx.rng.pick([null, 'true', 1, 0, [], {}, 'yes']), 'not a boolean'];
const badScope = (ctx: FuzzContext): string => {
  const s = ctx.rng.chance(0.3) ? pathLike(ctx) : ctx.rng.pick(['Tools', 'my tools', 'a::b', '-a', 'a-', ':a', 'a:', 'über', 'a/b', 'a.b', '', 'x'.repeat(65), 'a_b', 'A']);
  return SCOPE_RE.test(s) ? `${s}/` : s; // 'nul' is a fine scope name: make it a bad one
};
const goodScope = (ctx: FuzzContext) => ctx.rng.pick(['tools', 'projects:fuzz', 'fuzz', 'lang:ts']);
const idField = (allowTomb: boolean): Field => ({
  valid: (ctx) => ctx.rng.pick(allowTomb ? ctx.tombIds : ctx.activeIds),
  bad: [
    nonString('id'),
    (ctx) => [pathLike(ctx), 'path-like id'],
    (ctx) => [junkString(ctx), 'malformed id'],
    (ctx) => [randomUlid(ctx.rng), 'unknown id'],
  ],
});
const content: Field = {
  valid: () => 'A durable fact about the fuzz harness configuration file layout.',
  bad: [
    nonString('content'),
    (ctx) => [ctx.rng.pick(['', '   ', '\n\t\r\n']), 'empty content'],
    (ctx) => [`fact ${ctx.rng.pick(['\u0000', 'a\u0000b'])} here`, 'NUL in content'],
    (ctx) => [`fact ${ctx.rng.pick(['\ud800', '\udfff', 'x\ud83d'])} here`, 'unpaired surrogate in content'],
    (ctx) => ['y'.repeat(ctx.rng.chance(0.2) ? ctx.rng.range(1_000_001, 1_200_000) : ctx.rng.range(20_001, 60_000)), 'content over the limit'],
  ],
};
const scopes: Field = {
  valid: (ctx) => [goodScope(ctx)],
  bad: [
    (ctx) => [ctx.rng.chance(0.5) ? junkString(ctx) : ctx.rng.pick([null, 1, {}, true]), 'scopes not an array'],
    () => [[], 'no scopes'],
    (ctx) => [Array.from({ length: ctx.rng.range(17, 70) }, (_, i) => `s${i}`), 'too many scopes'],
    (ctx) => [[goodScope(ctx), badScope(ctx)], 'bad scope'],
    (ctx) => [[goodScope(ctx), junkNonString(ctx)], 'non-string scope'],
  ],
};
const enumField = (values: string[]): Field => ({
  valid: (ctx) => ctx.rng.pick(values),
  bad: [(ctx) => [ctx.rng.chance(0.5) ? junkNonString(ctx) : ctx.rng.pick([...values.map((v) => v.toUpperCase()), '', ' high', 'x'.repeat(300), junkString(ctx) + '\u0001']), 'not in enum']],
});
const bool: Field = { valid: (ctx) => ctx.rng.chance(0.5), bad: [nonBool] };
const expires = (nullable: boolean): Field => ({
  valid: () => '2099-01-01',
  bad: [
    (ctx) => [nullable ? ctx.rng.pick([1, true, {}, []]) : junkNonString(ctx), 'expires not a string'],
    (ctx) => [ctx.rng.pick(['', 'tomorrow', '2099-13-01', '20990101', '2001-01-01', '1999-12-31T23:59:59Z', 'x'.repeat(41), '2099-01-01; rm -rf /']), 'bad expires'],
  ],
});
const note = (required: boolean): Field => ({
  valid: () => 'checked against the repository',
  bad: [
    nonString('note'),
    (ctx) => ['n'.repeat(ctx.rng.range(2001, 9000)), 'note over 2000 chars'],
    ...(required ? [(ctx: FuzzContext): [unknown, string] => [ctx.rng.pick(['', '   ', '\n']), 'empty reason']] : []),
  ],
});
const pendingId: Field = {
  valid: (ctx) => (ctx.pendingIds.length ? ctx.rng.pick(ctx.pendingIds) : `p_${randomUlid(ctx.rng)}`),
  bad: [nonString('pending_id'), (ctx) => [pathLike(ctx), 'path-like pending_id'], (ctx) => [junkString(ctx), 'malformed pending_id'], (ctx) => [`p_${randomUlid(ctx.rng)}/../x`, 'pending_id with a path']],
};
const scopeArg: Field = { valid: goodScope, bad: [nonString('scope'), (ctx) => [badScope(ctx), 'bad scope']] };

interface ToolSpec {
  fields: Record<string, Field>;
  required: string[];
}

export const TOOLS: Record<string, ToolSpec> = {
  memory_write: { fields: { content, scopes, confidence: enumField(['low', 'medium', 'high']), source: enumField(['explicit-statement', 'inferred', 'user-correction']), category: enumField(['fact', 'user-inference']), expires: expires(false), force: bool, acknowledge_transient: bool }, required: ['content', 'scopes'] },
  memory_write_confirm: { fields: { pending_id: pendingId }, required: ['pending_id'] },
  memory_write_cancel: { fields: { pending_id: pendingId }, required: ['pending_id'] },
  memory_update: { fields: { id: idField(false), content, scopes, confidence: enumField(['low', 'medium', 'high']), expires: expires(true) }, required: ['id'] },
  memory_verify: { fields: { id: idField(false), note: note(false) }, required: ['id'] },
  memory_remove: { fields: { id: idField(false), reason: note(true) }, required: ['id', 'reason'] },
  memory_restore: { fields: { id: idField(true) }, required: ['id'] },
  memory_record_use: {
    fields: {
      memory_ids: { valid: (ctx) => [ctx.rng.pick(ctx.activeIds)], bad: [(ctx) => [junkValue(ctx), 'memory_ids not an array of ids'], () => [[], 'no memory_ids'], (ctx) => [Array.from({ length: ctx.rng.range(51, 200) }, () => randomUlid(ctx.rng)), 'too many ids'], (ctx) => [[ctx.rng.pick(ctx.activeIds), pathLike(ctx)], 'path-like id']] },
      outcome: enumField(['applied', 'ignored', 'contradicted', 'corrected']),
      note: note(false),
    },
    required: ['memory_ids', 'outcome'],
  },
  memory_rename_scope: {
    fields: {
      old_scope: { valid: () => 'fuzz', bad: [nonString('old_scope'), (ctx) => [badScope(ctx), 'bad old_scope'], (ctx) => [`unused-${ctx.rng.int(1e6)}`, 'old_scope nobody has']] },
      new_scope: { valid: () => 'fuzz-renamed', bad: [nonString('new_scope'), (ctx) => [badScope(ctx), 'bad new_scope'], () => ['fuzz', 'new_scope equal to old'], () => ['fuzz:inner', 'new_scope nested in old']] },
      include_tombstones: bool,
    },
    required: ['old_scope', 'new_scope'],
  },
  memory_merge: {
    fields: {
      ids: {
        valid: (ctx) => (ctx.activeIds.length >= 2 ? [ctx.activeIds[0]!, ctx.activeIds[1]!] : [randomUlid(ctx.rng), randomUlid(ctx.rng)]),
        bad: [(ctx) => [junkValue(ctx), 'ids not an array of ids'], (ctx) => [[ctx.rng.pick(ctx.activeIds)], 'one id'], (ctx) => [Array.from({ length: ctx.rng.range(11, 60) }, () => randomUlid(ctx.rng)), 'too many ids'], (ctx) => [[randomUlid(ctx.rng), 'i'.repeat(ctx.rng.range(201, 5000))], 'an id over 200 chars']],
      },
      content,
      scopes,
      reason: { valid: () => 'the same fact twice', bad: [nonString('reason'), (ctx) => ['r'.repeat(ctx.rng.range(2001, 9000)), 'reason over 2000 chars']] },
      acknowledge_transient: bool,
    },
    required: ['ids', 'content', 'reason'],
  },
  memory: {
    fields: {
      command: { valid: (ctx) => ctx.rng.pick(['view', 'create', 'str_replace', 'insert', 'delete', 'rename']), bad: [(ctx) => [ctx.rng.pick(['', 'View', 'undo', 'rm', 'view ', 'delete\u0000', junkString(ctx)]), 'unknown command'], nonString('command')] },
      path: { valid: (ctx) => ctx.rng.pick(['/memories', '/memories/fuzz.md', '/memories/projects/fuzz.md']), bad: [nonString('path'), (ctx) => [`/memories/${'p'.repeat(ctx.rng.range(1001, 5000))}`, 'path over 1000 chars']] },
      view_range: { valid: () => [1, -1], bad: [(ctx) => [ctx.rng.pick(['1-3', 1, {}, true]), 'view_range not an array'], () => [[1.5, 2], 'view_range not whole numbers']] },
      file_text: { valid: () => 'A fuzzed note.', bad: [nonString('file_text')] },
      old_str: { valid: () => 'fuzzed', bad: [nonString('old_str')] },
      new_str: { valid: () => 'fuzzy', bad: [nonString('new_str')] },
      insert_line: { valid: (ctx) => ctx.rng.range(0, 3), bad: [() => [1.5, 'insert_line not whole'], (ctx) => [junkString(ctx), 'insert_line not a number']] },
      insert_text: { valid: () => 'inserted', bad: [nonString('insert_text')] },
      old_path: { valid: () => '/memories/fuzz.md', bad: [nonString('old_path'), (ctx) => [`/memories/${'o'.repeat(ctx.rng.range(1001, 5000))}`, 'old_path over 1000 chars']] },
      new_path: { valid: () => '/memories/fuzz-2.md', bad: [nonString('new_path'), (ctx) => [`/memories/${'n'.repeat(ctx.rng.range(1001, 5000))}`, 'new_path over 1000 chars']] },
    },
    required: ['command'],
  },
  // May pass: the fields only steer what the junk looks like.
  memory_consolidate: { fields: { scopes, limit: { valid: (ctx) => ctx.rng.range(1, 50), bad: [] }, cursor: { valid: (ctx) => junkString(ctx), bad: [] } }, required: [] },
  memory_related: {
    fields: {
      id: { valid: (ctx) => (ctx.activeIds.length ? ctx.rng.pick(ctx.activeIds) : randomUlid(ctx.rng)), bad: [] },
      depth: { valid: (ctx) => ctx.rng.range(1, 3), bad: [] },
      relation_types: { valid: (ctx) => ctx.rng.pick([['links_to'], ['depends_on', 'links_to'], []]), bad: [] },
    },
    required: [],
  },
  memory_search: { fields: { query: { valid: () => 'fuzz harness', bad: [] }, scopes: scopes, max_results: { valid: (ctx) => ctx.rng.range(1, 50), bad: [] }, expand_top: bool, auto_scope: bool }, required: ['query'] },
  memory_show: { fields: { id: idField(false), ids: { valid: (ctx) => ctx.activeIds.slice(0, ctx.rng.range(1, 10)), bad: [] } }, required: [] },
  memory_list: { fields: { scopes, with_bodies: bool, limit: { valid: (ctx) => ctx.rng.range(1, 200), bad: [] }, cursor: { valid: (ctx) => junkString(ctx), bad: [] } }, required: [] },
  memory_list_tombstones: { fields: { scopes, limit: { valid: (ctx) => ctx.rng.range(1, 200), bad: [] }, cursor: { valid: (ctx) => junkString(ctx), bad: [] } }, required: [] },
  memory_scope_overview: { fields: { auto_scope: bool }, required: [] },
  memory_health: { fields: { window_days: { valid: (ctx) => ctx.rng.range(1, 3650), bad: [] }, top_k: { valid: (ctx) => ctx.rng.range(1, 100), bad: [] }, min_applied: { valid: (ctx) => ctx.rng.range(1, 10000), bad: [] } }, required: [] },
  memory_scope_disable: { fields: { scope: scopeArg }, required: ['scope'] },
  memory_scope_enable: { fields: { scope: scopeArg }, required: ['scope'] },
};

function unknownKey(ctx: FuzzContext): string {
  return ctx.rng.pick(['ID', 'Content', 'extra', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', '', ' id', 'id ', 'path', 'file', junkString(ctx).slice(0, 2000)]);
}

/** One generated call; `tools` is what the server lists (tools from later work are fuzzed by name only). */
export function generate(ctx: FuzzContext, tools: readonly string[]): FuzzCall {
  const { rng } = ctx;
  if (rng.chance(0.03)) {
    const name = rng.pick([junkString(ctx), 'memory_writ', 'MEMORY_WRITE', 'memory_write ', 'memory_write\u0000', 'memory_', '../../etc/passwd', '__proto__', 'constructor', 'toString', 'tools/list']);
    if (!tools.includes(name)) return { tool: name, args: rng.chance(0.5) ? {} : { content: 'x', scopes: ['x'] }, defect: 'unknown tool' };
  }
  const tool = rng.pick(tools.filter((t) => Object.hasOwn(TOOLS, t)));
  const spec = TOOLS[tool]!;
  const args: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(spec.fields)) {
    if (spec.required.includes(k) || rng.chance(0.35)) args[k] = rng.chance(0.25) ? junkValue(ctx) : f.valid(ctx);
  }
  if (MAY_PASS.has(tool)) {
    if (rng.chance(0.3)) Object.defineProperty(args, unknownKey(ctx), { value: junkValue(ctx), enumerable: true, configurable: true, writable: true });
    if (spec.required.length && rng.chance(0.1)) delete args[rng.pick(spec.required)];
    return { tool, args, defect: '' };
  }
  // A definite defect (sometimes two), chosen from: unknown key, missing required field, bad field value.
  const defects: string[] = [];
  const n = rng.chance(0.2) ? 2 : 1;
  for (let i = 0; i < n; i++) {
    const kind = rng.weighted({ unknown: 2, missing: spec.required.length ? 2 : 0, field: 8 });
    if (kind === 'unknown') {
      let k = unknownKey(ctx);
      // The MCP SDK drops an own "__proto__" key while parsing the request (its z.record), so the
      // server never sees it: ignored, not refused. Not a definite defect, then.
      if (Object.hasOwn(spec.fields, k) || k === '__proto__') k = `${k}_x`;
      // defineProperty: a plain `args.__proto__ = v` sets the prototype and sends nothing.
      Object.defineProperty(args, k, { value: junkValue(ctx), enumerable: true, configurable: true, writable: true });
      defects.push('unknown argument');
    } else if (kind === 'missing') {
      const k = rng.pick(spec.required);
      delete args[k];
      defects.push(`missing ${k}`);
    } else {
      const withBad = Object.entries(spec.fields).filter(([, f]) => f.bad.length > 0);
      const [k, f] = rng.pick(withBad);
      const [v, why] = rng.pick(f.bad)(ctx);
      args[k] = v;
      defects.push(`${k}: ${why}`);
    }
  }
  // memory_update with only an id changes nothing: a defect on its own.
  if (tool === 'memory_update' && Object.keys(args).length === 1 && 'id' in args) defects.push('nothing to change');
  return { tool, args, defect: defects.join(' + ') };
}
