// The CLI's progress line: silent for short commands and off a terminal; once a command has run
// for a second it shows a count and an estimate, redrawn in place, and ends with a newline. The
// fake clock is the time since the process started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { progress } from '../../src/cli/progress.ts';
import type { CliIO } from '../../src/cli/io.ts';

function fakeIO(errIsTTY: boolean) {
  let err = '';
  const io: CliIO = { out: () => {}, err: (s) => void (err += s), isTTY: false, errIsTTY, env: {}, cwd: '/' };
  return { io, err: () => err };
}

test('progress: nothing off a terminal or within the first second; then count, estimate, newline at the end', () => {
  assert.equal(progress(fakeIO(false).io), undefined);
  let t = 0;
  const f = fakeIO(true);
  const p = progress(f.io, () => t)!;
  p('loading files', 0, 4000);
  t = 500;
  p('loading files', 1000, 4000);
  assert.equal(f.err(), '', 'a wait under a second shows nothing');
  t = 1500;
  p('loading files', 2000, 4000);
  assert.match(f.err(), /\rcairn: loading files 2,000\/4,000, about 2 s left/);
  t = 3000;
  p('loading files', 4000, 4000);
  assert.match(f.err(), /loading files 4,000\/4,000\x1b\[K\n$/);
  let u = 0;
  const quick = fakeIO(true);
  const q = progress(quick.io, () => u)!;
  q('importing', 0, 10);
  u = 300;
  q('importing', 10, 10);
  assert.equal(quick.err(), '', 'a command done within its first second shows nothing');
});

test('progress: the first second is the command\'s: a phase begun after it shows, in its unit; nothing to count shows nothing', () => {
  let t = 0;
  const f = fakeIO(true);
  const p = progress(f.io, () => t)!;
  // Three phases of 600 ms each: none alone lasts a second, together they do.
  p('reading the index cache', 0, 16, 'MB');
  t = 600;
  p('reading the index cache', 16, 16, 'MB');
  p('checking files', 0, 20000);
  t = 1200;
  p('checking files', 20000, 20000);
  p('loading files', 0, 0);
  p('loading files', 0, 0);
  p('checking file modes', 0, 20000);
  t = 1800;
  p('checking file modes', 20000, 20000);
  assert.equal(f.err(), '\rcairn: checking files 20,000/20,000\x1b[K\n\rcairn: checking file modes 0/20,000\x1b[K\rcairn: checking file modes 20,000/20,000\x1b[K\n');
  const g = fakeIO(true);
  const r = progress(g.io, () => t)!;
  r('reading the index cache', 4, 16, 'MB');
  assert.equal(g.err(), '\rcairn: reading the index cache 4/16 MB\x1b[K');
});

test('progress: an end reported twice (a loader\'s last batch, then its end) is drawn once; a new pass draws again', () => {
  let t = 0;
  const f = fakeIO(true);
  const p = progress(f.io, () => t)!;
  p('loading files', 0, 20000);
  t = 1500;
  p('loading files', 10000, 20000);
  t = 3000;
  p('loading files', 20000, 20000);
  p('loading files', 20000, 20000);
  assert.equal(f.err().match(/loading files 20,000\/20,000/g)?.length, 1, JSON.stringify(f.err()));
  p('loading files', 0, 20000);
  t = 4500;
  p('loading files', 20000, 20000);
  assert.equal(f.err().match(/loading files 20,000\/20,000/g)?.length, 2);
});
