// Calibration of the semantic write gates (duplicate, previously removed, related): the rewording
// rule of server/src/core/trust/gates/rewording.ts — cosine >= cos AND content-stem overlap >=
// overlap AND the same numbers — measured per embedder on
//   - false positives: every pair of the ordinary distinct notes of
//     server/test/trust/fixtures/ordinary-notes.md (none restates another; target <= 1 % of pairs),
//   - catch rate: the dev rewordings below (written for this; tuned on),
//   - and, reported only, the held-out rewordings of the acceptance examples.
//   node --import tsx bench/quality/gates.mts          (EVAL_PROVIDER_URL=... adds a configured provider)
import { readFileSync } from 'node:fs';
import { embedders } from './semantic.ts';
import { contentStems, isRewording, rewordingRuleFor, sameNumbers, stemOverlap, type RewordingRule } from '../../server/src/core/trust/gates/rewording.ts';
import { openaiEmbedder } from '../../server/src/core/embed/providers.ts';
import { normalize } from '../../server/src/core/embed/embedder.ts';

const notes = readFileSync(new URL('../../server/test/trust/fixtures/ordinary-notes.md', import.meta.url), 'utf8').split(/\n====\n/).slice(1).map((s) => s.trim()).filter(Boolean);
export const DEV_REWORDINGS: Array<[string, string]> = [
  ['The user prefers pnpm over npm for every JavaScript project; never suggest yarn.', 'For JavaScript work the user wants pnpm used instead of npm, and yarn should not be proposed.'],
  ['Deploys to staging happen automatically on merge to main.', 'Merging into main automatically deploys to the staging environment.'],
  ['My editor is Neovim with the LazyVim distribution.', 'I use Neovim (LazyVim setup) as my editor.'],
  ['Session data is cached in Redis with a TTL of 24 hours.', 'Sessions are stored in Redis and expire after one day.'],
  ['Money amounts are integers in minor units (cents); floating point is never used for money.', 'Store monetary values as integer cents, never as floats.'],
  ['Commit messages follow Conventional Commits because the release notes are generated from them.', 'We write commits in the Conventional Commits style since release notes are built from them.'],
  ['The public API is rate limited to 100 requests per minute per token.', 'Each token may make at most 100 API requests a minute.'],
  ['Terraform state is stored remotely in an S3 bucket with DynamoDB locking.', 'Remote Terraform state lives in S3, locked through DynamoDB.'],
  ['Database migrations run in CI before the deploy step, never by hand on production.', 'CI applies the database migrations ahead of deploying; nobody runs them manually against production.'],
  ['The nightly backup of Postgres is uploaded to the cold storage bucket at 3 am UTC.', 'At 3 am UTC every night the Postgres backup goes up to the cold storage bucket.'],
  ['Feature flags are managed in LaunchDarkly and removed two weeks after a full rollout.', 'We keep feature flags in LaunchDarkly and delete each one two weeks after it is fully rolled out.'],
  ['The mobile app talks to the backend only through the GraphQL gateway.', 'All backend calls from the mobile app go via the GraphQL gateway.'],
  ['Log lines are structured JSON and shipped to Loki by the Promtail sidecar.', 'A Promtail sidecar ships our structured JSON logs to Loki.'],
  ['Pull requests need two approvals before they can be merged into main.', 'Merging into main requires a pull request approved by two reviewers.'],
  ['Images are resized on upload by the thumbnail worker and stored in the media bucket.', 'The thumbnail worker resizes uploaded images and puts them in the media bucket.'],
  ['Search queries time out after 5 seconds and the UI then shows cached results.', 'When a search query takes longer than five seconds it times out and the UI falls back to cached results.'],
];
/** The acceptance examples: reported, never tuned on. */
const HELD_OUT: Array<[string, string]> = [
  ['The billing service sends invoices as PDF attachments by email on the first day of each month', 'On the 1st of every month, billing emails customers their invoice as an attached PDF'],
  ['Lark API responses are cached in Redis for five minutes', 'The Lark API caches its responses in Redis with a five minute TTL'],
];

const dot = (a: Float32Array, b: Float32Array) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!; return s; };

interface Emb { id: string; embed(texts: string[]): Promise<Float32Array[]> }
const embs: Emb[] = [...(await embedders())];
if (process.env.EVAL_PROVIDER_URL) {
  const p = openaiEmbedder({ url: process.env.EVAL_PROVIDER_URL, model: process.env.EVAL_PROVIDER_MODEL ?? 'default', timeoutMs: 120_000 });
  embs.push({ get id() { return p.id; }, embed: async (t) => (await p.embed(t)).map((v) => normalize(Float32Array.from(v))) });
}

const stems = notes.map(contentStems);
for (const e of embs) {
  const v = await e.embed(notes);
  const pairVec = async (ps: Array<[string, string]>) => Promise.all(ps.map(async ([a, b]) => { const [x, y] = await e.embed([a, b]); return { a, b, cos: dot(x!, y!), ov: stemOverlap(contentStems(a), contentStems(b)), num: sameNumbers(a, b) }; }));
  const dev = await pairVec(DEV_REWORDINGS);
  const held = await pairVec(HELD_OUT);
  const nPairs = (notes.length * (notes.length - 1)) / 2;
  console.log(`\n${e.id}: ${notes.length} distinct notes, ${nPairs} pairs`);
  console.log(`  dev rewordings (cos/overlap/same numbers): ${dev.map((p) => `${p.cos.toFixed(2)}/${p.ov.toFixed(2)}${p.num ? '' : '/≠'}`).join(' ')}`);
  console.log(`  held-out rewordings: ${held.map((p) => `${p.cos.toFixed(2)}/${p.ov.toFixed(2)}${p.num ? '' : '/≠'}`).join(' ')}`);
  const measure = (rule: RewordingRule) => {
    let fp = 0;
    const worst: string[] = [];
    for (let i = 0; i < v.length; i++) for (let j = i + 1; j < v.length; j++) {
      const c = dot(v[i]!, v[j]!);
      if (c < rule.cos || stemOverlap(stems[i]!, stems[j]!) < rule.overlap) continue;
      if (isRewording(rule, c, notes[i]!, notes[j]!)) {
        fp++;
        if (worst.length < 3) worst.push(`${notes[i]!.slice(0, 50)} ~ ${notes[j]!.slice(0, 50)}`);
      }
    }
    const caught = (ps: typeof dev) => ps.filter((p) => isRewording(rule, p.cos, p.a, p.b)).length;
    return { fp, worst, dev: caught(dev), held: caught(held) };
  };
  const grid: RewordingRule[] = [];
  for (const cos of [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.88, 0.9, 0.92, 0.94]) for (const overlap of [0.2, 0.25, 0.3, 0.35]) grid.push({ cos, overlap, related: cos });
  const current = rewordingRuleFor(e.id);
  for (const rule of [current, ...grid]) {
    const m = measure(rule);
    const tag = rule === current ? ' <- in use' : '';
    console.log(`  cos>=${rule.cos} overlap>=${rule.overlap}: false positives ${m.fp}/${nPairs} (${((m.fp / nPairs) * 100).toFixed(3)} %), dev caught ${m.dev}/${dev.length}, held-out ${m.held}/${held.length}${tag}${rule === current && m.worst.length ? `\n    e.g. ${m.worst.join('\n    e.g. ')}` : ''}`);
  }
}
