// One memory's story from the event log, newest first: retrievals (by the model or the user),
// use outcomes, and every change (write, confirm, update, verify, remove, restore, rename).
// The `cairn ui` memory page shows it. Field names are the contract with the ops that log them
// (events.md); usage.ts reads the retrieval and use fields, so both stay in step.
import type { CairnEvent } from './events.ts';
import { actorOf, retrievalsOf, useOf } from './usage.ts';

export interface MemoryEvent {
  ts: string;
  kind: string;
  actor: 'model' | 'user';
  /** One line for a person: the query and relevance, the outcome and note, the reason... */
  detail: string;
  session: string;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const has = (v: unknown, id: string) => Array.isArray(v) && v.includes(id);

function describe(e: CairnEvent, id: string): string | null {
  switch (e.kind) {
    case 'search': {
      const hit = retrievalsOf(e).find((r) => r.id === id);
      if (!hit) return null;
      const rows = Array.isArray(e.hits) ? (e.hits as { id?: unknown; relevance?: unknown }[]) : [];
      const rel = rows.find((r) => r && r.id === id)?.relevance;
      return `found by search ${JSON.stringify(str(e.query) ?? '')}${typeof rel === 'string' ? ` (${rel} relevance)` : ''}`;
    }
    case 'show':
      return has(e.ids, id) ? 'read in full (show)' : null;
    case 'use': {
      const u = useOf(e);
      if (!u || !u.ids.includes(id)) return null;
      return `${u.outcome}${u.note ? `: ${u.note}` : ''}`;
    }
    case 'write':
    case 'write_confirm':
      return e.id === id ? (e.kind === 'write' ? 'written' : `written after confirmation (${str(e.pending_reason) ?? 'pending'})`) : null;
    case 'update':
      return e.id === id ? `updated: ${Array.isArray(e.fields) ? e.fields.join(', ') : 'fields'}${e.content_changed ? ' (text changed)' : ''}` : null;
    case 'verify':
      return e.id === id ? `verified${str(e.note) ? `: ${str(e.note)}` : ''}` : null;
    case 'remove':
      return e.id === id ? `removed: ${str(e.reason) ?? ''}` : null;
    case 'restore':
      return e.id === id ? 'restored' : null;
    case 'merge':
      if (e.id === id) return `merged from ${Array.isArray(e.merged_from) ? e.merged_from.join(', ') : 'other memories'}: ${str(e.reason) ?? ''}`;
      return has(e.merged_from, id) ? `merged into ${str(e.id)}: ${str(e.reason) ?? ''}` : null;
    case 'rename_scope':
      return has(e.active, id) || has(e.tombstoned, id) ? `scope ${str(e.old_scope)} renamed to ${str(e.new_scope)}` : null;
    default:
      return null;
  }
}

/** The events naming `id`, newest first, at most `max`; `total` counts them all. */
export function memoryEvents(events: readonly CairnEvent[], id: string, max: number): { total: number; events: MemoryEvent[] } {
  const out: MemoryEvent[] = [];
  let total = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    const detail = describe(e, id);
    if (detail === null) continue;
    total++;
    if (out.length < max) out.push({ ts: e.ts, kind: e.kind, actor: actorOf(e), detail, session: String(e.session ?? '') });
  }
  return { total, events: out };
}
