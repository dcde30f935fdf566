// memory_update runs memory_write's durability gate on changed content only, through the core
// facade on a real temp store: refused without acknowledge_transient (nothing changed), stored
// with it (and logged), markers already in the old body and unchanged content never warn.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Cairn } from '../../src/core/cairn.ts';
import { readEvents } from '../../src/core/curation/events.ts';
import { checkUpdateDurability } from '../../src/core/trust/gates/writeGates.ts';
import { removeDir, tempDir, tempRepo } from '../helpers/env.ts';

let root: string;
let repo: string;
let c: Cairn;

before(async () => {
  root = tempDir();
  repo = tempRepo();
  c = await Cairn.open({ dir: join(root, 'store'), cwd: repo, env: { HOME: root } });
});
after(async () => {
  await c.close();
  removeDir(root);
  removeDir(repo);
});

describe('memory_update durability gate', () => {
  it('refuses new time-bound wording, naming the marker and the flag; the file is unchanged', async () => {
    const m = (await c.write({ content: 'The release job signs artifacts with the cosign key from the CI vault.', scopes: ['release'] })) as Record<string, any>;
    const before = readFileSync(m.file, 'utf8');
    await assert.rejects(c.update({ id: m.id, content: 'The release job currently signs artifacts with cosign.' }), (err: Error) => {
      assert.match(err.message, /"currently"/);
      assert.match(err.message, /acknowledge_transient=true/);
      return true;
    });
    assert.equal(readFileSync(m.file, 'utf8'), before);

    const ok = (await c.update({ id: m.id, content: 'The release job currently signs artifacts with cosign.', acknowledge_transient: true })) as Record<string, any>;
    assert.equal(ok.status, 'committed');
    const ev = readEvents(c.dir).events.filter((e) => e.kind === 'update').at(-1)!;
    assert.deepEqual(ev.markers, ['currently']);
    assert.equal(ev.acknowledge_transient, true);

    // The marker is in the old body already: editing elsewhere does not warn again.
    const again = (await c.update({ id: m.id, content: 'The release job currently signs artifacts with cosign 2.' })) as Record<string, any>;
    assert.equal(again.status, 'committed');
    // No content change, no gate.
    assert.equal(((await c.update({ id: m.id, confidence: 'high' })) as Record<string, any>).status, 'committed');
  });

  it('runs on added aliases too: refused without acknowledge_transient (nothing changed), stored with it', async () => {
    const m = (await c.write({ content: 'The billing worker retries failed charges three times.', scopes: ['billing'], aliases: ['charge retries'] })) as Record<string, any>;
    const before = readFileSync(m.file, 'utf8');
    await assert.rejects(c.update({ id: m.id, aliases: ['charge retries', 'currently flaky retries'] }), (err: Error) => {
      assert.match(err.message, /^aliases read as the state of the moment: "currently"/);
      assert.match(err.message, /acknowledge_transient=true/);
      return true;
    });
    assert.equal(readFileSync(m.file, 'utf8'), before);
    // content and aliases together: both named
    await assert.rejects(c.update({ id: m.id, content: 'Right now the worker retries twice.', aliases: ['as of today retries'] }), /: content and aliases read as the state of the moment/);
    assert.equal(readFileSync(m.file, 'utf8'), before);

    const ok = (await c.update({ id: m.id, aliases: ['charge retries', 'currently flaky retries'], acknowledge_transient: true })) as Record<string, any>;
    assert.equal(ok.status, 'committed');
    const ev = readEvents(c.dir).events.filter((e) => e.kind === 'update').at(-1)!;
    assert.deepEqual(ev.markers, ['currently']);
    assert.equal(ev.acknowledge_transient, true);
    // Kept aliases, removed aliases and a marker the record already carries never warn.
    assert.equal(((await c.update({ id: m.id, aliases: ['currently flaky retries', 'retry policy'] })) as Record<string, any>).status, 'committed');
    assert.equal(((await c.update({ id: m.id, aliases: [] })) as Record<string, any>).status, 'committed');
  });

  it('checkUpdateDurability: unchanged content and markers already present pass; new ones throw', () => {
    assert.equal(checkUpdateDurability('a currently b', 'a currently b', false), null);
    assert.equal(checkUpdateDurability('x currently y', 'x currently z', false), null);
    assert.throws(() => checkUpdateDurability('plain fact', 'we just switched it', false), /"I\/we just"/);
    assert.deepEqual(checkUpdateDurability('plain fact', 'we just switched it', true), { markers: ['I/we just'], acknowledge_transient: true });
  });
});
