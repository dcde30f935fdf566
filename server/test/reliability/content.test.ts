// What a write acknowledges is what every later reader gets: seeded random bodies full of control
// characters, odd line breaks, YAML and markdown syntax, emoji and lookalikes go through a real
// server, and a fresh server (no index cache) shows each byte for byte (after the documented
// normalization: trimmed, CRLF -> LF). Bodies a file cannot hold faithfully (a NUL, an unpaired
// surrogate) are refused up front instead of being lost on the next load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../helpers/env.ts';
import { Rng, SOAK, seedFor, spawnServer, textOf } from '../helpers/stress.ts';
import { readDisk } from '../helpers/disk.ts';

const N = 150 * SOAK;
const PIECES = [
  'a', 'Z', '0', ' ', '  ', '\t', '\n', '\r\n', '\r', '\n\n', '---', '\n---\n', '...', '#', '# heading', '- item', '* ', '> quote', '```', '`code`',
  ':', ': ', 'key: value', '"', "'", '\\', '\\n', '{', '}', '[', ']', '|', '>', '&anchor', '*alias', '!!js/function', '%YAML 1.2', '@', '?',
  '\u0001', '\u0007', '\u001b[31m', '\u007f', '\u0085', '\u00a0', '\u200b', '\u2028', '\u2029', '\ufeff', '\u202e', 'é', 'é', 'ß', '語',
  '\u{1F600}', '\u{1F468}\u200d\u{1F469}\u200d\u{1F467}', '\u{10FFFF}', '<script>', '$(x)', '${x}', '%s', 'null', '~', 'true', '0x1F',
];

function normalized(s: string): string {
  return s.replace(/\r\n?/g, '\n').trim();
}

test(`${N} random bodies read back exactly by a fresh server; NUL and lone surrogates refused`, { timeout: 120_000 * SOAK }, async (t) => {
  const seed = seedFor('content');
  const rng = new Rng(seed);
  const root = tempDir('cairn-content-');
  const store = join(root, 'store');
  try {
    const p = await spawnServer({ store, cwd: root });
    const written = new Map<string, string>();
    try {
      for (let i = 0; i < N; i++) {
        let s = `Round trip ${i}: `;
        for (let k = rng.range(1, 40); k > 0; k--) s += rng.pick(PIECES);
        const r = await p.call('memory_write', { content: s, scopes: ['content'], force: true, acknowledge_transient: true });
        assert.ok(!r.isError, `write ${JSON.stringify(s)}: ${textOf(r)}`);
        const out = r.structuredContent as Record<string, any>;
        if (out.status !== 'committed') continue; // e.g. a secret-looking sequence: refused, fine
        written.set(out.id, normalized(s));
      }
      for (const bad of ['before \u0000 after', 'lone \ud800 high', 'lone \udc00 low', 'reversed \udc00\ud800 pair']) {
        const r = await p.call('memory_write', { content: bad, scopes: ['content'], force: true });
        assert.ok(r.isError, `refused: ${JSON.stringify(bad)}`);
        assert.match(textOf(r), /^content contains (a NUL|an unpaired UTF-16 surrogate)/);
      }
    } finally {
      await p.close();
    }
    // The files themselves, parsed independently, and a fresh server without the index cache.
    const disk = readDisk(store);
    assert.deepEqual(disk.problems, []);
    for (const [id, body] of written) assert.equal(disk.byId.get(id)?.rec.body, body, `file of ${id}`);
    rmSync(join(store, '.cache'), { recursive: true, force: true });
    const q = await spawnServer({ store, cwd: root });
    try {
      const ids = [...written.keys()];
      for (let i = 0; i < ids.length; i += 10) {
        const r = await q.ok('memory_show', { ids: ids.slice(i, i + 10) });
        assert.deepEqual(r.missing, []);
        for (const m of r.memories) assert.equal(m.body, written.get(m.id), `fresh server shows ${m.id} as written`);
      }
      assert.doesNotMatch(q.stderr(), /skipped/, 'no file written by cairn is skipped on load');
    } finally {
      await q.close();
    }
    t.diagnostic(`${written.size} bodies round-tripped exactly`);
  } finally {
    removeDir(root);
  }
});
