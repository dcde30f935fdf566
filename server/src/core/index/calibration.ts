// Per-embedder thresholds for what a cosine means (fusion.ts): `high`, `medium`, and the floor
// under which a nearest neighbour is no hit at all. A cosine means different things for
// different models, so each known embedder family has its own, measured on the dev set
// (bench/quality/dev.ts + the old set; `npm run eval` prints the distributions). An unknown
// embedder (a configured provider) gets conservative ones: its semantic hits rank, but only a
// very close one is `high`.
import type { SemanticCalibration } from './fusion.ts';

const CALIBRATIONS: Array<[prefix: string, c: SemanticCalibration]> = [
  ['builtin:', { high: 0.8, medium: 0.6, floor: 0.35 }],
  ['test:', { high: 0.8, medium: 0.6, floor: 0.3 }],
];
const UNKNOWN: SemanticCalibration = { high: 0.85, medium: 0.6, floor: 0.3 };

export function calibrationFor(embedderId: string): SemanticCalibration {
  for (const [p, c] of CALIBRATIONS) if (embedderId.startsWith(p)) return c;
  return UNKNOWN;
}
