// PLACEHOLDER by the lead (issue 2): no gates yet, every valid write commits. The trust work
// (issue 4) owns this file: secrets -> durability -> duplicates -> tombstones -> pending.
import type { Cairn } from '../cairn.ts';
import type { ValidWrite } from '../ops/write.ts';

export interface Related {
  id: string;
  similarity: number;
  snippet: string;
}

export interface GateResult {
  /** A non-committed status object (secret_detected, transient_warning, duplicate, ...). */
  outcome?: Record<string, unknown> & { status: string };
  /** Medium-similarity matches to report with a commit. */
  related?: Related[];
  /** Extra fields for the write event (markers fired, overrides...). */
  logFields: Record<string, unknown>;
}

export async function runWriteGates(c: Cairn, w: ValidWrite, opts: { force: boolean; acknowledge_transient: boolean }): Promise<GateResult> {
  void c; void w; void opts;
  return { logFields: {} };
}

/** memory_update runs the secret check on new content; throws to refuse. */
export async function checkUpdateContent(c: Cairn, content: string): Promise<void> {
  void c; void content;
}
