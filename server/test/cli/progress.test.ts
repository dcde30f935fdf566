// The CLI's progress line: silent for short waits and off a terminal; after a second it shows a
// count and an estimate, redrawn in place, and ends with a newline.
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
  const quick = fakeIO(true);
  const q = progress(quick.io, () => t)!;
  q('importing', 0, 10);
  q('importing', 10, 10);
  assert.equal(quick.err(), '');
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
