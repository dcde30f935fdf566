// Elicitation: a memory_write that goes pending (a claim about the user, or every write with
// behavior.require_write_confirmation) is shown to the user at once as a form in the client,
// when the client declared the elicitation capability and [behavior] elicit_pending is on. The
// answer is acted on here: confirm commits as memory_write_confirm does, edit commits the user's
// text through the write gates, discard cancels the pending write. Anything else (no capability,
// the switch off, the form declined, dismissed, timed out or failed) returns the pending result
// exactly as it was: the model then asks in prose and calls memory_write_confirm, as before.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitRequestFormParams, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Cairn } from '../core/cairn.ts';
import { errorMessage } from '../core/errors.ts';

/** How long the form waits for the user by default (never past the pending write's expiry). */
export const ELICIT_TIMEOUT_MS = 10 * 60_000;

/** How often a tool call that asked for progress hears that the form is still open. */
const PROGRESS_EVERY_MS = 10_000;

/** What askAboutPending needs of the tool call's request (the SDK's RequestHandlerExtra). */
export interface ToolCall {
  signal: AbortSignal;
  requestId: RequestId;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; message?: string } }) => Promise<void>;
}

export type Decision = 'confirm' | 'edit' | 'discard';
const DECISIONS: readonly Decision[] = ['confirm', 'edit', 'discard'];

interface PendingOutcome {
  status: 'pending';
  pending_id: string;
  pending_reason: string;
  expires_at: string;
  preview: { content: string; scopes: string[]; category?: string };
}

function isPending(out: unknown): out is PendingOutcome {
  const o = out as Partial<PendingOutcome> | null;
  return typeof o === 'object' && o !== null && o.status === 'pending' && typeof o.pending_id === 'string' && typeof o.preview?.content === 'string';
}

/** The form: the claim and its scopes in the message; the decision, the (editable) text, and a reason for a discard. */
export function pendingForm(p: PendingOutcome, maxChars: number): ElicitRequestFormParams {
  const about = p.pending_reason === 'user-inference' ? 'this claim about you' : 'this (the store asks before every write)';
  return {
    mode: 'form',
    message:
      `cairn was asked to remember ${about}:\n\n${p.preview.content}\n\nScopes: ${p.preview.scopes.join(', ')}\n\n` +
      'Confirm stores it as written. To store your own wording, change the text and choose Edit. Discard stores nothing.',
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          enum: [...DECISIONS],
          enumNames: ['Confirm: remember it as written', 'Edit: remember the text below instead', 'Discard: do not remember it'],
          default: 'confirm',
        },
        text: { type: 'string', title: 'Text', description: 'What to remember (used when you choose Edit)', default: p.preview.content, maxLength: maxChars },
        reason: { type: 'string', title: 'Why discard (optional)', description: 'Kept in cairn\'s event log with the discard', maxLength: 300 },
      },
      required: ['decision'],
    },
  };
}

/** How long to wait: CAIRN_ELICIT_TIMEOUT_MS (milliseconds) or ELICIT_TIMEOUT_MS, and never past the pending write's expiry. */
function timeoutFor(c: Cairn, p: PendingOutcome): number {
  const env = Number(c.env.CAIRN_ELICIT_TIMEOUT_MS);
  const wanted = Number.isFinite(env) && env > 0 ? env : ELICIT_TIMEOUT_MS;
  const left = Date.parse(p.expires_at) - c.now().getTime();
  return Math.max(1, Math.min(wanted, Number.isFinite(left) ? left : wanted));
}

/**
 * After a memory_write: when it went pending and the client can show a form, asks the user and
 * acts on the answer; otherwise (and on any dismissal or failure) returns `out` unchanged.
 */
export async function askAboutPending(server: Server, c: Cairn, out: unknown, call: ToolCall): Promise<unknown> {
  if (!isPending(out) || !c.config.behavior.elicit_pending || !server.getClientCapabilities()?.elicitation?.form) return out;
  let answer;
  // A client that asked for progress on the tool call hears that it waits for the user, so a
  // client timing out idle calls (with its timeout reset by progress) does not give up on it.
  const token = call._meta?.progressToken;
  let beat = 0;
  const keepalive =
    token === undefined
      ? null
      : setInterval(() => {
          call.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++beat, message: 'waiting for the user to answer the confirmation form' } }).catch(() => {});
        }, PROGRESS_EVERY_MS);
  try {
    answer = await server.elicitInput(pendingForm(out, c.config.behavior.max_body_chars), { timeout: timeoutFor(c, out), signal: call.signal, relatedRequestId: call.requestId });
  } catch (err) {
    // Timed out, cancelled, or the client failed: the write stays pending, as without a form.
    const msg = errorMessage(err);
    if (!/timed out|timeout|aborted|cancel/i.test(msg)) c.warn(`confirmation form for ${out.pending_id}: ${msg}; it stays pending`);
    return out;
  } finally {
    if (keepalive !== null) clearInterval(keepalive);
  }
  if (answer.action !== 'accept' || answer.content === undefined) return out;
  const decision = answer.content.decision;
  const text = typeof answer.content.text === 'string' ? answer.content.text : undefined;
  const reason = typeof answer.content.reason === 'string' ? answer.content.reason.trim() : '';
  const edited = text !== undefined && text.trim() !== out.preview.content.trim();
  const id = out.pending_id;
  // An answer that cannot be applied (the pending write expired meanwhile, another process
  // confirmed or cancelled it, the config now refuses its scope) is the call's error, saying so.
  const run = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await c.during(f);
    } catch (err) {
      throw new Error(`the user answered cairn's confirmation form (${String(decision)}) for pending write ${id}, but it could not be applied: ${errorMessage(err)}`);
    }
  };
  if (decision === 'discard') {
    await run(() => c.writeCancel({ pending_id: id, reason: `discarded by the user in the confirmation form${reason ? `: ${reason}` : ''}` }));
    return {
      status: 'discarded',
      pending_id: id,
      elicitation: 'discarded',
      hint: 'The user discarded this in cairn\'s confirmation form: nothing was stored. Do not write it again unless the user asks.',
    };
  }
  if (decision !== 'confirm' && decision !== 'edit') return out;
  // Emptied text is no answer to act on: the claim stays pending.
  if (text !== undefined && text.trim() === '') return out;
  // Changed text is the user's wording, whichever button they chose; Edit with the text as shown confirms it.
  if (edited) {
    const r = (await run(() => c.writeConfirmEdited({ pending_id: id, content: text }))) as Record<string, unknown>;
    if (r.status === 'committed') return { ...r, elicitation: 'edited', hint: 'The user edited this in cairn\'s confirmation form; their text is stored.' };
    return {
      ...r,
      elicitation: 'edit_refused',
      hint: `${typeof r.hint === 'string' ? `${r.hint} ` : ''}The user's edited text was not stored; the original claim is still pending (pending_id ${id}): ask the user how to go on.`,
    };
  }
  const r = await run(() => c.writeConfirm({ pending_id: id }));
  return { ...r, elicitation: 'confirmed', hint: 'The user confirmed this in cairn\'s confirmation form; it is stored.' };
}
