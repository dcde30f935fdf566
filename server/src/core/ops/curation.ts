// PLACEHOLDER by the lead (issue 2). The curation work (issue 5) owns this file: event log
// wiring, memory_record_use, memory_health, rename/disable/enable scope, curation counts.
import type { Cairn } from '../cairn.ts';
import { ValidationError } from '../errors.ts';
import type { StoredMemory } from '../types.ts';
import { hitFields } from './common.ts';

export interface RenameScopeInput {
  old_scope: string;
  new_scope: string;
  include_tombstones?: boolean;
}
export interface RecordUseInput {
  memory_ids: string[];
  outcome: 'applied' | 'ignored' | 'contradicted' | 'corrected';
  note?: string;
}
export interface HealthInput {
  window_days?: number;
  top_k?: number;
  min_applied?: number;
}

export async function openCuration(c: Cairn): Promise<void> {
  void c;
}
export async function closeCuration(c: Cairn): Promise<void> {
  void c;
}

/** The counts of memory_scope_overview's curation_pending. */
export async function curationPending(c: Cairn, inView: StoredMemory[], expired: StoredMemory[]) {
  const fields = await hitFields(c, inView);
  return {
    stale: fields.filter((f) => f.verification.status === 'stale').length,
    never_verified: fields.filter((f) => f.verification.status === 'never').length,
    drifted: fields.filter((f) => f.path_drift_missing > 0 || (f.commit_drift_count ?? 0) > 0).length,
    expired: expired.length,
    dead: 0,
  };
}

const notYet = (name: string) => new ValidationError(`${name} is not available yet`);
export async function renameScope(c: Cairn, input: RenameScopeInput): Promise<{ active: string[]; tombstoned: string[] }> {
  void c; void input;
  throw notYet('memory_rename_scope');
}
export async function scopeDisable(c: Cairn, input: { scope: string }) {
  c.disabledScopes.add(input.scope);
  return { disabled_scopes: [...c.disabledScopes].sort() };
}
export async function scopeEnable(c: Cairn, input: { scope: string }) {
  c.disabledScopes.delete(input.scope);
  return { disabled_scopes: [...c.disabledScopes].sort() };
}
export async function recordUse(c: Cairn, input: RecordUseInput): Promise<{ recorded: number; outcome: string; unknown_ids: string[] }> {
  void c; void input;
  throw notYet('memory_record_use');
}
export async function health(c: Cairn, input: HealthInput): Promise<Record<string, unknown>> {
  void c; void input;
  throw notYet('memory_health');
}
