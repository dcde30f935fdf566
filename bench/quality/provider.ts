// Retrieval quality with a configured provider (Ollama or OpenAI-compatible) instead of the
// built-in table: the same sets, modes and scoring as `npm run eval` (semantic.ts), through
// cairn's own provider clients (core/embed/providers.ts) and the calibration a configured
// provider gets (calibration.ts).
//
//   EVAL_SETS=tuning|blind|all EVAL_PROVIDER=openai EVAL_PROVIDER_URL=http://127.0.0.1:18777/v1 EVAL_PROVIDER_MODEL=use-lite \
//     [EVAL_PROVIDER_CACHE=/tmp/vectors.json] node --import tsx bench/quality/provider.ts
//
// A real small model served on loopback: see docs/semantic.md "Using a local embedding server"
// (or `node scripts/embed/serve.cjs 18777`). Nothing is tuned here.
import { evaluate, formatScores, selectedSets, simStats, type Mode, type Score } from './semantic.ts';
import { providerEmbedder, providerEngine } from './providerEngine.ts';

const emb = providerEmbedder();
const sets = selectedSets();
const out: string[] = [];
for (const set of sets) {
  const t0 = performance.now();
  const e = await providerEngine(set, emb);
  const ms = performance.now() - t0;
  const rows: Array<{ label: string; scores: Score[] }> = [];
  rows.push({ label: 'BM25 alone', scores: evaluate(e, set, 'bm25') });
  if (set.hasAlternates) rows.push({ label: 'joined BM25 (plain, query + alternates as one query)', scores: evaluate(e, set, 'joined-bm25') });
  for (const mode of ['semantic', 'fused', ...(set.hasAlternates ? ['fused+alt'] : [])] as Mode[]) rows.push({ label: `${mode} (${emb.id})`, scores: evaluate(e, set, mode) });
  out.push(formatScores(`\n${set.name}: ${set.docs.length} memories, ${set.queries.length} queries; embedded by ${emb.id} in ${(ms / 1000).toFixed(1)} s`, rows));
  out.push(`${emb.id}: ${simStats(e, set)}`);
}
console.log(out.join('\n'));
