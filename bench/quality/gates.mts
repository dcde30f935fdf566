// Calibration of the semantic duplicate / previously-removed gates: pairwise cosine between
// ordinary distinct notes (server/test/trust/fixtures/ordinary-notes.md: none is a paraphrase of
// another) gives the false-positive rate at each threshold; dev paraphrase pairs (written here)
// give the catch rate. Tuned on these only.
import { readFileSync } from 'node:fs';
import { embedders } from './semantic.ts';

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
];
const dot = (a: Float32Array, b: Float32Array) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!; return s; };
for (const e of await embedders()) {
  const v = await e.embed(notes);
  const sims: number[] = [];
  for (let i = 0; i < v.length; i++) for (let j = i + 1; j < v.length; j++) sims.push(dot(v[i]!, v[j]!));
  sims.sort((a, b) => b - a);
  const pairs = await Promise.all(DEV_REWORDINGS.map(async ([a, b]) => { const [x, y] = await e.embed([a, b]); return dot(x!, y!); }));
  console.log(`${e.id}: ${notes.length} distinct notes, ${sims.length} pairs; top pair cosines ${sims.slice(0, 5).map((s) => s.toFixed(3)).join(' ')}`);
  for (const t of [0.8, 0.85, 0.88, 0.9, 0.92]) {
    const fp = sims.filter((s) => s >= t).length;
    const notesHit = new Set<number>();
    console.log(`  threshold ${t}: false-positive pairs ${fp}/${sims.length} (${((fp / sims.length) * 100).toFixed(3)}%), dev rewordings caught ${pairs.filter((p) => p >= t).length}/${pairs.length}`);
    void notesHit;
  }
  console.log(`  dev rewording cosines: ${pairs.map((p) => p.toFixed(2)).join(' ')}`);
}

// Combined rule: cosine >= T and token Jaccard >= J (a rewording keeps some of the words).
import { jaccard, dedupTokens } from '../../server/src/core/trust/gates/dedup.ts';
const numbersOf = (t: string) => new Set(t.match(/\d+(?:[.,:]\d+)*/g) ?? []);
const sameNumbers = (a: string, b: string) => { const x = numbersOf(a), y = numbersOf(b); return x.size === y.size && [...x].every((n) => y.has(n)); };
{
  const e = (await embedders())[0]!;
  const v = await e.embed(notes);
  const toks = notes.map((n) => new Set(dedupTokens(n)));
  const pv = await Promise.all(DEV_REWORDINGS.map(async ([a, b]) => ({ sim: dot(...((await e.embed([a, b])) as [Float32Array, Float32Array])), j: jaccard(new Set(dedupTokens(a)), new Set(dedupTokens(b))) })));
  console.log(`dev rewordings (cos, jaccard): ${pv.map((p) => `${p.sim.toFixed(2)}/${p.j.toFixed(2)}`).join(' ')}`);
  for (const T of [0.6, 0.65, 0.7, 0.75]) for (const J of [0.1, 0.15, 0.2, 0.25]) {
    let fp = 0, n = 0;
    let fpNum = 0;
    for (let i = 0; i < v.length; i++) for (let j = i + 1; j < v.length; j++) { n++; const jj = jaccard(toks[i]!, toks[j]!); if (dot(v[i]!, v[j]!) >= T && jj >= J) { fp++; if (sameNumbers(notes[i]!, notes[j]!) && jj < 0.4 && toks[i]!.size >= 6 && toks[j]!.size >= 6) fpNum++; } }
    console.log(`  cos>=${T} & jaccard>=${J}: false positives ${fp}/${n} (${fpNum} by the gate's rule: same numbers, jaccard < 0.4), rewordings caught ${pv.filter((p) => p.sim >= T && p.j >= J).length} (by the rule ${pv.filter((p, k) => p.sim >= T && p.j >= J && p.j < 0.4 && sameNumbers(...DEV_REWORDINGS[k]!) && new Set(dedupTokens(DEV_REWORDINGS[k]![0])).size >= 6 && new Set(dedupTokens(DEV_REWORDINGS[k]![1])).size >= 6).length})/${pv.length}`);
  }
}
