// memory_consolidate's pair judge on the ordinary distinct notes (server/test/trust/fixtures/
// ordinary-notes.md: none restates another): every pair it would group is a false positive. And
// the rewordings it should group: the write gates' dev rewordings and the Lark pair. Run:
//   node --import tsx bench/quality/consolidate.mts
import { readFileSync } from 'node:fs';
import { judgePair, parse, type SemanticCheck } from '../../server/src/core/curation/consolidate.ts';
import { calibrationFor } from '../../server/src/core/index/calibration.ts';
import { embedders } from './semantic.ts';

const notes = readFileSync(new URL('../../server/test/trust/fixtures/ordinary-notes.md', import.meta.url), 'utf8').split(/\n====\n/).slice(1).map((s) => s.trim()).filter(Boolean);
// The write gates' dev rewordings (bench/quality/gates.mts) and the two rewordings users reported.
const DEV_REWORDINGS_LIST: Array<[string, string]> = [
  ['The user prefers pnpm over npm for every JavaScript project; never suggest yarn.', 'For JavaScript work the user wants pnpm used instead of npm, and yarn should not be proposed.'],
  ['Deploys to staging happen automatically on merge to main.', 'Merging into main automatically deploys to the staging environment.'],
  ['My editor is Neovim with the LazyVim distribution.', 'I use Neovim (LazyVim setup) as my editor.'],
  ['Session data is cached in Redis with a TTL of 24 hours.', 'Sessions are stored in Redis and expire after one day.'],
  ['Money amounts are integers in minor units (cents); floating point is never used for money.', 'Store monetary values as integer cents, never as floats.'],
  ['Commit messages follow Conventional Commits because the release notes are generated from them.', 'We write commits in the Conventional Commits style since release notes are built from them.'],
  ['The public API is rate limited to 100 requests per minute per token.', 'Each token may make at most 100 API requests a minute.'],
  ['Terraform state is stored remotely in an S3 bucket with DynamoDB locking.', 'Remote Terraform state lives in S3, locked through DynamoDB.'],
  ['Lark API responses are cached in Redis for five minutes', 'The Lark API caches its responses in Redis with a five minute TTL'],
  ['The billing service sends invoices as PDF attachments by email on the first day of each month', 'On the 1st of every month, billing emails customers their invoice as an attached PDF'],
];
const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

for (const e of [null, ...(await embedders())]) {
  const min = e ? calibrationFor(e.id).gate.cos : 1;
  const label = e ? `${e.id} (cosine >= ${min})` : 'words only';
  const v = e ? await e.embed(notes) : [];
  const parsed = notes.map(parse);
  let fp = 0;
  let pairs = 0;
  const shown: string[] = [];
  for (let i = 0; i < notes.length; i++) {
    for (let j = i + 1; j < notes.length; j++) {
      pairs++;
      const sem = e ? (): SemanticCheck => ({ cosine: dot(v[i]!, v[j]!), min }) : undefined;
      const g = judgePair({ id: 'a', body: notes[i]! }, { id: 'b', body: notes[j]! }, parsed[i], parsed[j], sem);
      if (g) {
        fp++;
        if (shown.length < 5) shown.push(`    ${g.kind}: ${g.reason}\n      ${notes[i]!.slice(0, 90)}\n      ${notes[j]!.slice(0, 90)}`);
      }
    }
  }
  let caught = 0;
  for (const [a, b] of DEV_REWORDINGS_LIST) {
    const [x, y] = e ? await e.embed([a, b]) : [];
    const g = judgePair({ id: 'a', body: a }, { id: 'b', body: b }, undefined, undefined, e ? () => ({ cosine: dot(x!, y!), min }) : undefined);
    if (g?.kind === 'duplicates') caught++;
  }
  console.log(`${label}: ${notes.length} ordinary notes, ${pairs} pairs: grouped ${fp} (${((fp / pairs) * 100).toFixed(3)}%); rewordings grouped ${caught}/${DEV_REWORDINGS_LIST.length}`);
  for (const s of shown) console.log(s);
}
