// The fast reader must agree with the general YAML path on every file cairn writes, and must
// step aside (null) for anything it is not sure about.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCanonical } from '../../src/core/store/canonical.ts';
import { parseGeneral, parseMemoryText, serializeMemory } from '../../src/core/store/memfile.ts';
import type { MemoryRecord } from '../../src/core/types.ts';

let seed = 0x2f6e2b1;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

const AWKWARD = [
  null, 'main', '2026-01-01', '2026-01-01T00:00:00Z', 'true', 'False', 'null', '~', 'yes', 'on', '@scope', '-dash', '1:20', '0x1f', '0b101', '.5', '1e5',
  'a: b', 'a #b', '#x', ' lead', 'trail ', 'quote"in', "it's", 'back\\slash', 'tab\there', 'new\nline', 'ünïcödé', '東京', '😀', '/home/me/src/foo',
  'git@github.com:me/foo.git', 'https://github.com/me/foo', 'C:\\Users\\me', '[x]', '{y}', '*star', '&amp', '!bang', '|pipe', '>gt', '%pct', '`tick`', '',
  'feature/ABC-123', 'x:', '=', 'a,b', '01M80CNBN7407HPK55GDKWPBGV', '01234567890123456789012345',
];
const BODIES = [
  'Plain fact.', 'Two\nlines.', '---\nstarts with a delimiter line', 'has\n---\na delimiter inside', '  leading spaces kept', 'trailing spaces   ',
  'Unicode: 東京タワー, emoji 😀, accents café.', 'Markdown `code` and **bold**\n\n- a\n- b', 'key: value looking line\nother: line', '# heading\ntext',
  'x'.repeat(500), 'quotes "double" and \'single\' \\ backslash', '\ttab first',
];

function randomRecord(i: number): MemoryRecord {
  const t = new Date(Date.UTC(2020 + Math.floor(rnd() * 8), Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 28), 3, 4, 5, Math.floor(rnd() * 1000))).toISOString();
  const rec: MemoryRecord = {
    id: `01J${String(i).padStart(23, '0')}`.slice(0, 26),
    created: t,
    updated: t,
    scopes: [...new Set([pick(['tools', 'projects:foo', 'a-b', 'x1', 'projects:foo:api']), pick(['db', 'ops', 'z9'])])],
    confidence: pick(['low', 'medium', 'high'] as const),
    source: pick(['explicit-statement', 'inferred', 'user-correction'] as const),
    category: pick(['fact', 'user-inference'] as const),
    last_verified_at: rnd() < 0.5 ? null : t,
    expires: rnd() < 0.7 ? null : t,
    origin: { cwd: pick(AWKWARD), repo: pick(AWKWARD), branch: pick(AWKWARD), worktree_root: pick(AWKWARD) },
    body: pick(BODIES).replace(/\s+$/, ''),
  };
  if (rnd() < 0.3) {
    rec.removed = t;
    rec.removed_reason = pick(AWKWARD) ?? 'reason';
    rec.removed_session = pick(AWKWARD);
  }
  if (rnd() < 0.2) rec.aliases = ['sign-in', 'log in'];
  if (rnd() < 0.2) rec.verified_head = 'ab'.repeat(20);
  // memory_merge's keys, alone and together with the others.
  if (rnd() < 0.3) rec.merged_from = ['01M80CNBN7407HPK55GDKWPBGV', `01K${String(i).padStart(23, '0')}`.slice(0, 26)];
  if (rnd() < 0.2) rec.merging = [`01H${String(i).padStart(23, '0')}`.slice(0, 26), '01M80CNBN7407HPK55GDKWPBGW'];
  return rec;
}

test('every file cairn writes takes the fast path and reads back exactly as the YAML path reads it', () => {
  for (let i = 0; i < 3000; i++) {
    const rec = randomRecord(i);
    const text = serializeMemory(rec);
    const fast = parseCanonical(text);
    assert.ok(fast, `fast path declined its own output:\n${text}`);
    const general = parseGeneral(text);
    assert.deepEqual(fast, general, text);
    assert.deepEqual({ ...general.record }, rec, `round trip:\n${text}`);
  }
});

test('anything unusual goes to the general path', () => {
  const base = serializeMemory(randomRecord(1));
  const variants = [
    base.replace('\n---\n', '\nx-extra: 1\n---\n'), // an unknown key
    base.replace('confidence: ', 'confidence:  '), // odd spacing
    base.replace(/\n/g, '\r\n'), // CRLF
    base.replace('schema_version: 1\n', ''), // no schema line
    base.replace(/^(scopes: .*)$/m, '$1 # comment'),
    base.replace(/^created: .*$/m, 'created: 2026-13-01T00:00:00.000Z'),
    base.replace('\n---\n', '\nmerged_from: [01m80cnbn7407hpk55gdkwpbgv]\n---\n'), // lower-case id
    base.replace('\n---\n', '\nmerging: [01M80CNBN7407HPK55GDKWPBGV,01M80CNBN7407HPK55GDKWPBGW]\n---\n'), // no space
    `\ufeff${base}`,
  ];
  for (const v of variants) {
    assert.equal(parseCanonical(v), null, v);
    try {
      const a = parseMemoryText(v);
      assert.ok(a.record);
    } catch {
      // the general path may refuse it (a bad date): that is its call, not the fast path's
    }
  }
});

test('merged_from and merging: the general path reads hand-written forms; a bad merging skips the file, a bad merged_from entry is dropped', () => {
  const base = serializeMemory(randomRecord(7)).replace(/\n(merged_from|merging): .*/g, '');
  const withKeys = base.replace('\n---\n', '\nmerged_from:\n  - 01m80cnbn7407hpk55gdkwpbgv\n  - not-an-id\nx-later: kept\n---\n');
  const p = parseMemoryText(withKeys);
  assert.deepEqual(p.record.merged_from, ['01M80CNBN7407HPK55GDKWPBGV']);
  assert.deepEqual(p.extra, ['x-later: kept'], 'unknown keys stay verbatim');
  assert.throws(() => parseMemoryText(base.replace('\n---\n', '\nmerging: [nope]\n---\n')), /merging must be a list of memory ids/);
  assert.throws(() => parseMemoryText(base.replace('\n---\n', '\nmerging: yes\n---\n')), /merging must be a list of memory ids/);
  // Written back: the known keys regenerated, the unknown block byte for byte.
  const again = serializeMemory({ ...p.record, id: p.record.id!, created: p.record.created!, updated: p.record.updated! } as MemoryRecord, p.extra);
  assert.match(again, /\nmerged_from: \[01M80CNBN7407HPK55GDKWPBGV\]\nx-later: kept\n---\n/);
});

test('a record keeps a shared origin as is; any other origin has a credential in its URL redacted', async () => {
  const { sharedOrigin, isSharedOrigin } = await import('../../src/core/store/canonical.ts');
  const { storedMemory } = await import('../../src/core/store/entries.ts');
  const at = '2026-01-01T00:00:00.000Z';
  const rec = (origin: { cwd: string | null; repo: string | null; branch: string | null; worktree_root: string | null }) => ({
    id: '01JQ3Z8V7M2K4T6Y9B1C3D5F7H', created: at, updated: at, scopes: ['x'], confidence: 'medium' as const, source: 'inferred' as const,
    category: 'fact' as const, last_verified_at: null, expires: null, origin, body: 'b',
  });
  const shared = sharedOrigin('/w', 'https://user:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/me/w.git', 'main', '/w');
  assert.ok(isSharedOrigin(shared));
  assert.equal(shared.repo, 'https://github.com/me/w.git', 'redacted when shared');
  assert.equal(storedMemory(rec(shared), '/s/a.md', 1, 1, []).origin, shared, 'the same object, not checked again');
  const plain = { cwd: '/w', repo: 'https://user:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/me/w.git', branch: 'main', worktree_root: '/w' };
  assert.ok(!isSharedOrigin(plain));
  assert.equal(storedMemory(rec(plain), '/s/a.md', 1, 1, []).origin.repo, 'https://github.com/me/w.git');
});
