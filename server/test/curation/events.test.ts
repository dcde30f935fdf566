import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, chmodSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EventLog, readEvents, compressArchives, listLogFiles } from '../../src/core/curation/events.ts';
import { rotateActive } from '../../src/core/curation/archives.ts';
import { existsSync } from 'node:fs';

const tmp = () => mkdtempSync(join(tmpdir(), 'cairn-events-'));

test('appends one JSON line per call with ts, session, kind first; file is 0600', () => {
  const dir = tmp();
  const log = new EventLog({ dir, session: 'S1', now: () => new Date('2026-03-14T10:00:00.000Z') });
  assert.equal(log.append('search', { query: 'pg dump', scopes: ['tools'], results: [{ id: 'A', relevance: 'high' }] }), true);
  assert.equal(log.append('use', { ids: ['A'], outcome: 'applied', kind: 'ignored-override' }), true);
  const text = readFileSync(join(dir, '.events.jsonl'), 'utf8');
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, /^\{"ts":"2026-03-14T10:00:00.000Z","session":"S1","kind":"search","query":"pg dump"/);
  // A field named like a header key cannot override it.
  assert.equal(JSON.parse(lines[1]!).kind, 'use');
  assert.equal(statSync(join(dir, '.events.jsonl')).mode & 0o777, 0o600);
  const { events, corruptLines } = readEvents(dir);
  assert.equal(corruptLines, 0);
  assert.deepEqual(events[0]!.results, [{ id: 'A', relevance: 'high' }]);
});

test('telemetry disabled records nothing; a missing store directory records nothing', () => {
  const dir = tmp();
  const off = new EventLog({ dir, session: 'S', enabled: false });
  assert.equal(off.append('search', { query: 'x' }), false);
  assert.deepEqual(readdirSync(dir), []);
  const missing = new EventLog({ dir: join(dir, 'nope'), session: 'S' });
  assert.equal(missing.append('search', {}), false);
  assert.deepEqual(readdirSync(dir), []);
});

test('a logging failure is reported once on stderr-like sink and never throws', { skip: process.getuid?.() === 0 ? 'root ignores file modes' : false }, () => {
  const dir = tmp();
  const warnings: string[] = [];
  writeFileSync(join(dir, '.events.jsonl'), '');
  chmodSync(join(dir, '.events.jsonl'), 0o400);
  const log = new EventLog({ dir, session: 'S', warn: (m) => warnings.push(m) });
  assert.equal(log.append('search', {}), false);
  assert.equal(log.append('search', {}), false);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /could not append to the event log .*\.events\.jsonl/);
});

test('a logging failure on a directory in place of the log never throws', () => {
  const dir = tmp();
  mkdirSync(join(dir, '.events.jsonl'));
  const warnings: string[] = [];
  const log = new EventLog({ dir, session: 'S', warn: (m) => warnings.push(m) });
  assert.equal(log.append('show', { ids: ['X'] }), false);
  assert.equal(warnings.length, 1);
});

test('rotation: past max_bytes the log moves to a stamped archive, compressed after the grace period', () => {
  const dir = tmp();
  let clock = Date.parse('2026-03-14T10:00:00.000Z');
  const log = new EventLog({ dir, session: 'S', maxBytes: 10_000, now: () => new Date(clock), compressGraceMs: 0 });
  for (let i = 0; i < 300; i++) {
    clock += 1000;
    log.append('search', { query: `query number ${i} with some padding to grow the file`, seq: i });
  }
  log.close();
  const files = readdirSync(dir).sort();
  const gz = files.filter((f) => /^\.events-\d{8}T\d{9}Z(-\d+)?\.jsonl\.gz$/.test(f));
  assert.ok(gz.length >= 2, `expected several gzip archives, got ${files.join(', ')}`);
  assert.ok(statSync(join(dir, '.events.jsonl')).size <= 10_200);
  for (const f of gz) assert.equal(statSync(join(dir, f)).mode & 0o777, 0o600);
  const { events, corruptLines } = readEvents(dir);
  assert.equal(corruptLines, 0);
  assert.deepEqual(events.map((e) => e.seq), [...Array(300).keys()]);
});

test('readEvents skips corrupt lines and unreadable archives, prefers a .gz over its plain twin', () => {
  const dir = tmp();
  writeFileSync(join(dir, '.events.jsonl'), '{"ts":"2026-01-01T00:00:00.000Z","session":"s","kind":"show","ids":["A"]}\nnot json\n{"no":"ts"}\n');
  writeFileSync(join(dir, '.events-20251231T000000000Z.jsonl.gz'), 'not gzip');
  const r = readEvents(dir);
  assert.equal(r.events.length, 1);
  assert.equal(r.corruptLines, 2);
  assert.equal(r.unreadableFiles.length, 1);
  // Plain archive plus its finished .gz (crash between publish and unlink): read once.
  rmSync(join(dir, '.events-20251231T000000000Z.jsonl.gz'));
  const line = '{"ts":"2025-12-30T00:00:00.000Z","session":"s","kind":"show","ids":["B"]}\n';
  writeFileSync(join(dir, '.events-20251231T000000000Z.jsonl'), line);
  compressArchives(dir, { graceMs: 0, now: new Date() });
  writeFileSync(join(dir, '.events-20251231T000000000Z.jsonl'), line);
  assert.equal(listLogFiles(dir).length, 2);
  assert.equal(readEvents(dir).events.length, 2);
  compressArchives(dir, { graceMs: 0, now: new Date() });
  assert.ok(!readdirSync(dir).includes('.events-20251231T000000000Z.jsonl'));
});

const appender = fileURLToPath(new URL('./fixtures/appender.ts', import.meta.url));

function runAppender(dir: string, label: string, count: number, maxBytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', appender, dir, label, String(count), String(maxBytes)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => (code === 0 && err === '' ? resolve() : reject(new Error(`appender ${label} exited ${code}: ${err}`))));
  });
}

test('several processes appending and rotating at once: no line lost, duplicated or torn', async () => {
  const dir = tmp();
  const procs = 4;
  const perProc = 3000;
  // ~130-byte lines and a 20 kB limit: well over a hundred concurrent rotations.
  await Promise.all(Array.from({ length: procs }, (_, p) => runAppender(dir, `p${p}`, perProc, 20_000)));
  const archives = readdirSync(dir).filter((f) => f.startsWith('.events-'));
  assert.ok(archives.length > 50, `expected many rotations, got ${archives.length}`);
  // Nothing compressed yet (grace period): now compress and read again through the .gz files.
  compressArchives(dir, { graceMs: 0, now: new Date(Date.now() + 60_000) });
  assert.ok(readdirSync(dir).filter((f) => f.endsWith('.jsonl.gz')).length === archives.length);
  const { events, corruptLines, unreadableFiles } = readEvents(dir);
  assert.equal(corruptLines, 0);
  assert.deepEqual(unreadableFiles, []);
  assert.equal(events.length, procs * perProc);
  for (let p = 0; p < procs; p++) {
    const seqs = events.filter((e) => e.session === `p${p}`).map((e) => e.seq as number);
    assert.deepEqual(seqs, [...Array(perProc).keys()], `process p${p} lines in order, each exactly once`);
  }
});

test('a rotation reads its stamp under the lock, so a rotator that waited never names its file before the one rotated first', () => {
  const dir = tmp();
  const line = (n: number) => `{"ts":"2026-01-01T00:00:00.000Z","session":"s","kind":"show","ids":["${n}"]}\n`;
  writeFileSync(join(dir, '.events.jsonl'), line(1));
  // The clock would be read before the lock: a waiting rotator then stamps its (later) file with
  // a time before the rotation that ran meanwhile, and readers order archives by stamp.
  const clockReads: boolean[] = [];
  const first = rotateActive(dir, 0, () => {
    clockReads.push(existsSync(join(dir, '.events.lock')));
    return new Date('2026-01-01T00:00:01.000Z');
  });
  assert.ok(first);
  assert.deepEqual(clockReads, [true], 'the clock is read once, while the rotation lock is held');
  // Nothing to rotate (active log gone or small): the clock is not read at all.
  assert.equal(rotateActive(dir, 0, () => assert.fail('no rotation, no stamp')), null);
  writeFileSync(join(dir, '.events.jsonl'), line(2));
  rotateActive(dir, 0, () => new Date('2026-01-01T00:00:01.000Z'));
  assert.deepEqual(
    readEvents(dir).events.map((e) => (e.ids as string[])[0]),
    ['1', '2'],
    'a stamp collision sorts after the earlier file',
  );
});

test('readEvents with since skips archives rotated before it', () => {
  const dir = tmp();
  const line = (ts: string, n: number) => `{"ts":"${ts}","session":"s","kind":"show","ids":["${n}"]}\n`;
  writeFileSync(join(dir, '.events-20260101T000000000Z.jsonl'), line('2025-12-31T00:00:00.000Z', 1));
  writeFileSync(join(dir, '.events-20260301T000000000Z.jsonl'), line('2026-02-15T00:00:00.000Z', 2));
  writeFileSync(join(dir, '.events.jsonl'), line('2026-03-02T00:00:00.000Z', 3));
  assert.equal(readEvents(dir).events.length, 3);
  const recent = readEvents(dir, { since: Date.parse('2026-02-01T00:00:00.000Z') });
  assert.deepEqual(recent.events.map((e) => (e.ids as string[])[0]), ['2', '3']);
});
