// PLACEHOLDER by the lead (issue 2). The trust work (issue 4) owns this file: pending writes,
// memory_write_confirm and memory_write_cancel.
import type { Cairn } from '../cairn.ts';
import { PendingExpiredError } from '../errors.ts';
import type { committedShape } from './write.ts';

export async function writeConfirm(c: Cairn, input: { pending_id: string }): Promise<ReturnType<typeof committedShape>> {
  void c;
  throw new PendingExpiredError(`no pending write with id ${input.pending_id}`);
}

export async function writeCancel(c: Cairn, input: { pending_id: string }) {
  void c; void input;
  return { cancelled: true as const, existed: false };
}
