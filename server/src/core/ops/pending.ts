// memory_write_confirm and memory_write_cancel. A pending write (trust/pendingStore.ts) is a write
// that passed every gate but waits for the user: claims about the user (category=user-inference)
// and, with behavior.require_write_confirmation, every write. Confirming re-runs nothing but
// validation (the config may have changed since: allowed scopes, body limit, an expiry now in
// the past), then commits.
import type { Cairn } from '../cairn.ts';
import { checkPendingId, claimPending, dropPending, sweepPending } from '../trust/pendingStore.ts';
import { commitWrite, validateWrite, type committedShape } from './write.ts';

export async function writeConfirm(c: Cairn, input: { pending_id: string }): Promise<ReturnType<typeof committedShape>> {
  const id = checkPendingId(input.pending_id);
  const now = c.now();
  const claim = await claimPending(c.dir, id, now);
  try {
    const w = validateWrite(c, claim.entry.write);
    await c.store.ensureFresh();
    const out = await commitWrite(c, w);
    await claim.done();
    c.log('write_confirm', {
      pending_id: id,
      id: out.id,
      status: 'committed',
      pending_reason: claim.entry.reason,
      scopes: w.scopes,
      category: w.category,
    });
    return out;
  } catch (err) {
    await claim.release().catch(() => {}); // keep it confirmable after a failed attempt
    throw err;
  }
}

export async function writeCancel(c: Cairn, input: { pending_id: string }) {
  const id = checkPendingId(input.pending_id);
  const now = c.now();
  const existed = await dropPending(c.dir, id, now);
  await sweepPending(c.dir, now);
  c.log('write_cancel', { pending_id: id, existed });
  return { cancelled: true as const, existed };
}
