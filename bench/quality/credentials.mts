// The secret gates measured on a labelled corpus written by someone who never saw the rules
// (bench/quality/credentials/: credentials that must never reach a team store, and ordinary
// notes, many of them about credentials without containing one). For measurement only: the rules
// are written from their own test strings, never tuned on this corpus.
//   node --import tsx bench/quality/credentials.mts [--misses]
// Prints, for the team gate (personal rules + team rules, as a team write is checked) and the
// personal gate alone: the share of credentials refused and of ordinary notes refused.
import { readFileSync } from 'node:fs';
import { detectSecrets } from '../../server/src/core/trust/gates/secrets.ts';
import { detectTeamSecrets } from '../../server/src/core/trust/gates/teamSecrets.ts';

interface Item {
  text: string;
  label: 'credential' | 'ordinary';
  note?: string;
}
const corpus = JSON.parse(readFileSync(new URL('./credentials/corpus.json', import.meta.url), 'utf8')) as Item[];
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
    const t0 = performance.now();
    gate(i.text);
    slowest = Math.max(slowest, performance.now() - t0);
  }
  console.log(`${name} gate: credentials refused ${creds.length - missed.length}/${creds.length} (${pct(creds.length - missed.length, creds.length)}), ordinary notes refused ${refused.length}/${ordinary.length} (${pct(refused.length, ordinary.length)}); slowest item ${slowest.toFixed(2)} ms`);
  if (showMisses) {
    for (const i of missed) console.log(`  missed:  ${JSON.stringify(i.text).slice(0, 160)}`);
    for (const i of refused) console.log(`  refused: ${JSON.stringify(i.text).slice(0, 160)} [${gate(i.text).join(', ')}]`);
  }
}
