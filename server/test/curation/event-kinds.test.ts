// Every event kind the source logs is declared in EVENT_KINDS and documented in docs/events.md
// ("Event kinds" table), and every declared kind is documented: a new `c.log('kind', ...)` or
// `.append('kind', ...)` without both fails here (Context.log also takes only an EventKind).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_KINDS } from '../../src/core/curation/events.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** kind -> the files that log it, from every `.log('kind'` and `.append('kind'` in server/src. */
function loggedKinds(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of sources(join(repo, 'server/src'))) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/(?<![\w$])(?:\w+\??\.)*(?:log|append)\(\s*['"`]([a-z_]+)['"`]\s*,/g)) {
      if (m[0].startsWith('console.')) continue;
      const rel = f.slice(repo.length);
      out.set(m[1]!, [...(out.get(m[1]!) ?? []), rel]);
    }
  }
  return out;
}

/** The kinds in docs/events.md's "Event kinds" table (first column). */
function documentedKinds(): Set<string> {
  const md = readFileSync(join(repo, 'docs/events.md'), 'utf8');
  const section = md.slice(md.indexOf('## Event kinds'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| kind |')));
  return new Set([...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!));
}

test('the source logs kinds: the scan finds the known ones (so it is not vacuous)', () => {
  const logged = loggedKinds();
  for (const k of ['search', 'write', 'use', 'import', 'prune_tombstones', 'migrate_origin']) assert.ok(logged.has(k), `scan found ${k}`);
});

test('every logged kind is in EVENT_KINDS and in docs/events.md', () => {
  const declared = new Set<string>(EVENT_KINDS);
  const documented = documentedKinds();
  const missing: string[] = [];
  for (const [k, files] of loggedKinds()) {
    if (!declared.has(k)) missing.push(`${k} (logged in ${files.join(', ')}) is not in EVENT_KINDS`);
    if (!documented.has(k)) missing.push(`${k} (logged in ${files.join(', ')}) is not in docs/events.md`);
  }
  assert.deepEqual(missing, []);
});

test('every kind in EVENT_KINDS is documented and logged somewhere', () => {
  const documented = documentedKinds();
  const logged = loggedKinds();
  assert.deepEqual(EVENT_KINDS.filter((k) => !documented.has(k)), [], 'undocumented kinds');
  assert.deepEqual(EVENT_KINDS.filter((k) => !logged.has(k)), [], 'declared kinds nothing logs');
});
