// memory_write_confirm and memory_write_cancel. A pending write (trust/pendingStore.ts) is a write
// that passed every gate but waits for the user: claims about the user (category=user-inference)
// and, with behavior.require_write_confirmation, every write. Confirming re-runs nothing but
// validation (the config may have changed since: allowed scopes, body limit, an expiry now in
// the past), then commits.
import type { StoreContext, WriteContext } from './context.ts';
import { checkPendingId, claimPending, dropPending, sweepPending } from '../store/pending.ts';
import { validateWrite } from './writeChecks.ts';
import { commitWrite, committedShape, write } from './writing.ts';

export async function writeConfirm(c: WriteContext, input: { pending_id: string }): Promise<ReturnType<typeof committedShape>> {
  const id = checkPendingId(input.pending_id);
  const now = c.now();
  const claim = await claimPending(c.dir, id, now);
  try {
    const w = validateWrite(c, claim.entry.write);
    await c.store.ensureFresh({ create: true });
    const out = await commitWrite(c, w);
    await claim.done();
    c.log('write_confirm', {
      pending_id: id,
      id: out.id,
      status: 'committed',
      pending_reason: claim.entry.reason,
      scopes: w.scopes,
      category: w.category,
      // The durability markers acknowledged when the write was made pending (counted then).
      ...(claim.entry.markers?.length ? { markers: claim.entry.markers, acknowledge_transient: true } : {}),
    });
    return out;
  } catch (err) {
    await claim.release().catch(() => {}); // keep it confirmable after a failed attempt
    throw err;
  }
}

/** `reason`: why it was dropped, for the event log (the MCP confirmation form's discard says so). */
export async function writeCancel(c: StoreContext, input: { pending_id: string; reason?: string }) {
  const id = checkPendingId(input.pending_id);
  const now = c.now();
  const existed = await dropPending(c.dir, id, now);
  await sweepPending(c.dir, now);
  c.log('write_cancel', { pending_id: id, existed, ...(input.reason ? { reason: input.reason } : {}) });
  return { cancelled: true as const, existed };
}

/**
 * Confirms a pending write with the text the user edited it to (the MCP confirmation form): the
 * edited text goes through every gate of memory_write (secrets, durability, duplicates, removed
 * memories) except the pending one, since the user has just confirmed it. Committed: the pending
 * entry is gone. Stopped by a gate: the entry stays pending, and the gate's outcome says why.
 */
export async function writeConfirmEdited(c: WriteContext, input: { pending_id: string; content: string }, also: readonly WriteContext[] = []) {
  const id = checkPendingId(input.pending_id);
  const claim = await claimPending(c.dir, id, c.now());
  try {
    const w = claim.entry.write;
    const out = await write(
      c,
      {
        content: input.content,
        scopes: w.scopes,
        confidence: w.confidence,
        source: w.source,
        category: w.category,
        expires: w.expires,
        ...(w.aliases && w.aliases.length > 0 ? { aliases: w.aliases } : {}),
        // Time-bound wording the writer acknowledged for the claim stays acknowledged for its edit.
        ...(claim.entry.markers?.length ? { acknowledge_transient: true } : {}),
      },
      also,
      { pending_id: id, reason: claim.entry.reason },
    );
    if (out.status !== 'committed') {
      await claim.release();
      return { ...out, pending_id: id };
    }
    await claim.done();
    return out;
  } catch (err) {
    await claim.release().catch(() => {}); // still confirmable as it was
    throw err;
  }
}
