// Pieces every operation shares: id checks with their four distinct errors, the common hit
// fields of tools.md, visibility (expired / disabled), cursors.
import type { ReadContext, RoutedContext, StoreContext, StoreKind } from './context.ts';
import { MalformedIdError, NotFoundError, TombstonedError, ValidationError } from '../errors.ts';
import { isUlid } from '../ids.ts';
import { LIMITS } from '../limits.ts';
import { recordHead } from '../memory.ts';
import { computeSignals, warmCommitDrift, type HitSignals } from '../trust/signals/compute.ts';
import type { StoredMemory } from '../types.ts';

export const MAX_IDS_PER_CALL = LIMITS.idsPerCall;

/** Normalizes an id argument; a string that cannot be a ULID is its own error. */
export function checkId(id: unknown, arg = 'id'): string {
  if (typeof id !== 'string' || id.trim() === '') throw new ValidationError(`${arg} must be a memory id (a 26-character ULID like 01JQ3Z8V7M2K4T6Y9B1C3D5F7H)`);
  const up = id.trim().toUpperCase();
  if (!isUlid(up)) {
    const shown = id.length > 40 ? `${JSON.stringify(id.slice(0, 40))}...` : JSON.stringify(id);
    throw new MalformedIdError(`${arg} ${shown} is not a memory id: ids are 26-character ULIDs like 01JQ3Z8V7M2K4T6Y9B1C3D5F7H`);
  }
  return up;
}

export function tombstonedMessage(t: StoredMemory): string {
  return `memory ${t.id} was removed on ${t.removed?.slice(0, 10)} (reason: ${JSON.stringify(t.removed_reason ?? '')}); memory_restore brings it back`;
}

/** The active memory with this id, or the specific error for why there is none. */
export function requireActive(c: Pick<StoreContext, 'store'>, rawId: unknown, arg = 'id'): StoredMemory {
  const id = checkId(rawId, arg);
  const m = c.store.get(id);
  if (m) return m;
  const t = c.store.getTombstone(id);
  if (t) throw new TombstonedError(tombstonedMessage(t));
  throw new NotFoundError(`no memory with id ${id}`);
}

/** requireActive over both stores (memory_show): the record and the context that holds it. */
export function requireActiveAny(c: RoutedContext, rawId: unknown, arg = 'id'): { m: StoredMemory; owner: ReadContext } {
  const id = checkId(rawId, arg);
  const f = c.stores.find(id);
  if (f && !f.tombstoned) return { m: f.m, owner: f.owner };
  if (f) throw new TombstonedError(`${tombstonedMessage(f.m)}${f.owner.storeKind === 'team' ? ' (team store)' : ''}`);
  throw new NotFoundError(`no memory with id ${id}`);
}

export interface HitFields extends HitSignals {
  id: string;
  /** Which store holds it: the user's own, or the repository's team store (README "Team memory"). */
  store: StoreKind;
  scopes: string[];
  confidence: string;
  category: string;
  created: string;
  updated: string;
  last_verified_at: string | null;
}

export function signalContext(c: Pick<ReadContext, 'config' | 'caller' | 'now' | 'env'>) {
  return { config: c.config, caller: c.caller, now: c.now(), env: c.env };
}

/** Common hit fields for a batch (one signals pass for all, so git runs once per call). */
export async function hitFields(c: Pick<ReadContext, 'config' | 'caller' | 'now' | 'env' | 'storeKind'>, mems: readonly StoredMemory[], detail = false): Promise<HitFields[]> {
  const sig = await computeSignals(signalContext(c), mems, { detail });
  return mems.map((m) => {
    const s = sig.get(m.id)!;
    // The record's head, the store, the signals (their detail last), set key by key on the new
    // head: a rest pattern and spreads here cost ~10 us a memory (list --all at 20k: ~0.2 s).
    const h = recordHead(m) as Record<string, unknown>;
    h.store = c.storeKind;
    for (const k in s) if (k !== 'path_drift' && k !== 'commit_drift') h[k] = s[k as keyof HitSignals];
    if (detail) {
      h.path_drift = s.path_drift;
      h.commit_drift = s.commit_drift;
    }
    return h as unknown as HitFields;
  });
}

/** hitFields for records from both stores (search, list): each labelled by the store that holds it. */
export async function ownedHitFields(c: RoutedContext, mems: readonly StoredMemory[], detail = false): Promise<HitFields[]> {
  if (c.stores.team === null) return hitFields(c, mems, detail);
  const groups = new Map<ReadContext, number[]>();
  mems.forEach((m, i) => {
    const o = c.stores.ownerOf(m);
    const g = groups.get(o);
    if (g) g.push(i);
    else groups.set(o, [i]);
  });
  const out = new Array<HitFields>(mems.length);
  for (const [o, idx] of groups) {
    const f = await hitFields(o, idx.map((i) => mems[i]!), detail);
    idx.forEach((i, k) => (out[i] = f[k]!));
  }
  return out;
}

/**
 * Readies ownedHitFields calls over parts of `mems` (list --all's pages): the one git log their
 * commit drift needs, per store, runs now instead of once per part.
 */
export async function warmHitFields(c: RoutedContext, mems: readonly StoredMemory[]): Promise<void> {
  const stores = c.stores.all();
  for (const o of stores) await warmCommitDrift(signalContext(o), stores.length === 1 ? mems : mems.filter((m) => c.stores.ownerOf(m) === o));
}

// Cursors are opaque to callers: base64url of the last id returned. Keyset paging by id (ULIDs
// sort by creation) stays correct when memories are added or removed between pages.
export function encodeCursor(lastId: string): string {
  return Buffer.from(`v1:${lastId}`).toString('base64url');
}
export function decodeCursor(cursor: unknown): string {
  if (typeof cursor !== 'string' || cursor === '') throw new ValidationError('cursor must be the next_cursor string from a previous page');
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^v1:([0-9A-HJKMNP-TV-Z]{26})$/.exec(text);
  if (!m) throw new ValidationError(`cursor ${JSON.stringify(cursor.slice(0, 40))} was not issued by this server: pass next_cursor from a previous page, or omit it to start over`);
  return m[1]!;
}

export function checkLimit(v: unknown, arg: string, max: number, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) throw new ValidationError(`${arg} must be a whole number from 1 to ${max}, got ${JSON.stringify(v)}`);
  return v;
}

/** A free-text note or reason: trimmed, at most LIMITS.noteChars; `required` refuses a blank one. */
export function checkNote(v: unknown, arg: string, required: boolean): string | null {
  if (v === undefined || v === null) {
    if (required) throw new ValidationError(`${arg} is required: say why in a few words`);
    return null;
  }
  if (typeof v !== 'string') throw new ValidationError(`${arg} must be a string`);
  const t = v.trim();
  if (required && t === '') throw new ValidationError(`${arg} is empty: say why in a few words`);
  if (t.length > LIMITS.noteChars) throw new ValidationError(`${arg} is ${t.length} characters: at most ${LIMITS.noteChars}`);
  return t === '' ? null : t;
}
