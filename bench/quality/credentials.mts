// The secret gates measured on labelled corpora of short notes, each written by someone who never
// saw the rules (bench/quality/credentials*/: credentials that must never reach a team store, and
// ordinary notes, many of them about credentials without containing one). Each corpus is measured
// once while held out, before anyone reads its items; then its misses are read and rules written
// for the kinds of secret behind them, and it becomes a tuning set whose figures are optimistic.
// The newest corpus is the held-out one (docs/reliability.md, "Credential corpus" says which): run
// it without --misses, and do not read its items to write rules.
//   node --import tsx bench/quality/credentials.mts [--misses] [corpus.json]   (default: credentials/corpus.json)
// Prints, for the team gate (personal rules + team rules, as a team write is checked) and the
// personal gate alone: the share of credentials refused and of ordinary notes refused, the
// slowest item (its best of five runs) and the CPU time of one pass over the corpus.
import { readFileSync } from 'node:fs';
import { detectSecrets } from '../../server/src/core/trust/gates/secrets.ts';
import { detectTeamSecrets } from '../../server/src/core/trust/gates/teamSecrets.ts';

interface Item {
  text: string;
  label: 'credential' | 'ordinary';
  note?: string;
}
const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
const corpus = JSON.parse(readFileSync(file ?? new URL('./credentials/corpus.json', import.meta.url), 'utf8')) as Item[];
const showMisses = process.argv.includes('--misses');

const gates: Record<string, (t: string) => string[]> = {
  team: (t) => [...detectSecrets(t), ...detectTeamSecrets(t)].map((f) => f.kind),
  personal: (t) => detectSecrets(t).map((f) => f.kind),
};
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
for (const [name, gate] of Object.entries(gates)) {
  const creds = corpus.filter((i) => i.label === 'credential');
  const ordinary = corpus.filter((i) => i.label === 'ordinary');
  const missed = creds.filter((i) => gate(i.text).length === 0);
  const refused = ordinary.filter((i) => gate(i.text).length > 0);
  let slowest = 0;
  for (const i of corpus) {
    // The best of five runs: what the item costs, not when the scheduler or the collector interrupted it.
    const times = [0, 1, 2, 3, 4].map(() => {
      const t0 = performance.now();
      gate(i.text);
      return performance.now() - t0;
    });
    slowest = Math.max(slowest, Math.min(...times));
  }
  const cpu0 = process.cpuUsage();
  for (const i of corpus) gate(i.text);
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `${name} gate: credentials refused ${creds.length - missed.length}/${creds.length} (${pct(creds.length - missed.length, creds.length)}), ordinary notes refused ${refused.length}/${ordinary.length} (${pct(refused.length, ordinary.length)}); slowest item ${slowest.toFixed(2)} ms; one pass ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms CPU`,
  );
  if (showMisses) {
    for (const i of missed) console.log(`  missed:  ${JSON.stringify(i.text).slice(0, 160)}`);
    for (const i of refused) console.log(`  refused: ${JSON.stringify(i.text).slice(0, 160)} [${gate(i.text).join(', ')}]`);
  }
}
