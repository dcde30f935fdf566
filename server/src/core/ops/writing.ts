// memory_write, memory_update, memory_verify (their arguments are checked in writeChecks.ts;
// memory_write_confirm and _cancel are confirm.ts). Validation first: a call that errors writes
// nothing. The trust gates (secrets, durability, duplicates, pending) sit between validation and
// the commit, in the order tools.md gives.
import type { StoreContext, WriteContext } from './context.ts';
import { ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { newId } from '../ids.ts';
import { captureOrigin, originRepoKey } from '../origin.ts';
import { headSha } from '../trust/signals/commitDrift.ts';
import { CONFIDENCES, type Confidence, type MemoryRecord, type StoredMemory, type ValidWrite } from '../types.ts';
export type { ValidWrite } from '../types.ts';
import { runWriteGates, checkUpdateContent, transientUpdateError, updateMarkers, type GateSource, type Related, type UpdateText } from '../trust/gates/writeGates.ts';
import { stripStored } from '../memory.ts';
import { checkNote, requireActive } from './common.ts';
import { rewordingRuleFor } from '../trust/gates/rewording.ts';
import { checkAliases, checkBool, checkContent, checkEnum, checkExpires, checkScopes, validateWrite, type WriteInput } from './writeChecks.ts';
export type { WriteInput } from './writeChecks.ts';

export const MAX_NOTE_CHARS = LIMITS.noteChars;

export interface UpdateInput {
  id: string;
  content?: string;
  scopes?: string[];
  confidence?: Confidence;
  expires?: string | null;
  aliases?: string[];
  /** Store changed content despite durability markers, as memory_write's flag. */
  acknowledge_transient?: boolean;
}
export interface VerifyInput {
  id: string;
  note?: string;
}

export function committedShape(m: StoredMemory, related?: Related[]) {
  return {
    status: 'committed' as const,
    id: m.id,
    scopes: m.scopes,
    confidence: m.confidence,
    source: m.source,
    category: m.category,
    created: m.created,
    updated: m.updated,
    last_verified_at: m.last_verified_at,
    expires: m.expires,
    ...(m.aliases && m.aliases.length ? { aliases: m.aliases } : {}),
    file: m.file,
    ...(related && related.length ? { related } : {}),
  };
}

/** The record a validated write becomes: a fresh id, now as created/updated, the caller's origin. */
export async function newRecord(c: Pick<WriteContext, 'now' | 'caller' | 'storeKind'>, w: ValidWrite): Promise<MemoryRecord> {
  const now = c.now().toISOString();
  const rec: MemoryRecord = {
    id: newId(c.now().getTime()),
    created: now,
    updated: now,
    scopes: w.scopes,
    confidence: w.confidence,
    source: w.source,
    category: w.category,
    last_verified_at: null,
    expires: w.expires,
    origin: await captureOrigin(c.caller.cwd),
    body: w.content,
  };
  // A team memory is read on every teammate's machine: the writer's local paths mean nothing there
  // and name their home directory; the repo URL and branch are what it needs (README "Team memory").
  if (c.storeKind === 'team') rec.origin = { ...rec.origin, cwd: null, worktree_root: null };
  if (w.aliases && w.aliases.length > 0) rec.aliases = w.aliases;
  return rec;
}

/** Stores a validated write as a new memory file. Used by write and by pending confirmation. */
export async function commitWrite(c: WriteContext, w: ValidWrite, related?: Related[]) {
  const rec = await newRecord(c, w);
  const m = await c.store.create(rec);
  return committedShape(m, related);
}

/** Semantic neighbours for the write gates (empty without a semantic leg). */
export async function semanticGateOptions(c: Pick<WriteContext, 'index'>) {
  const s = c.index.semantic;
  if (s === null) return {};
  // While a server started from the cache still checks its files (its first second at 50k
  // memories), the leg is not open yet: the write does not wait for it (the lexical duplicate
  // gate sees every memory of the snapshot), and the leg opens once the check is done.
  if (!(await s.readyForSearch())) return {};
  if (s.index === null) return {};
  return {
    neighbours: (text: string, limit: number) => s.neighbours(text, limit),
    removedNeighbours: (text: string, limit: number) => s.removedNeighbours(text, limit),
    semanticRule: rewordingRuleFor(s.index.embedderId),
  };
}

/**
 * The other stores a write is checked against (README "Team memory"): each one's duplicates and
 * tombstones stop the write as the target's own do.
 */
async function gateSources(also: readonly WriteContext[]): Promise<GateSource[]> {
  const out: GateSource[] = [];
  for (const o of also) {
    await o.store.ensureFresh({ read: true }); // only read by the gates: a snapshot still being checked will do
    const sem = await semanticGateOptions(o);
    out.push({ label: o.storeKind, store: o.store, candidates: (text, limit) => o.index.candidateRecordsFor(text, limit), ...(sem.neighbours ? { neighbours: sem.neighbours } : {}), ...(sem.removedNeighbours ? { removedNeighbours: sem.removedNeighbours } : {}) });
  }
  return out;
}

/**
 * A pending write the user has just confirmed with text of their own (writeConfirmEdited): every
 * gate but the pending one runs, and the commit is logged as that pending write's confirmation.
 */
export interface ConfirmedPending {
  pending_id: string;
  reason: string;
}

/** `also`: the other stores to check (the facade passes the team store for a personal write and back). */
export async function write(c: WriteContext, input: WriteInput, also: readonly WriteContext[] = [], confirmed?: ConfirmedPending) {
  const w = validateWrite(c, input);
  const force = checkBool(input.force, 'force');
  const ack = checkBool(input.acknowledge_transient, 'acknowledge_transient');
  // A claim about a person is theirs to confirm, never a shared record (README "Team memory").
  if (c.storeKind === 'team' && w.category === 'user-inference') {
    throw new ValidationError('category user-inference cannot go to the team store: a claim about the user is personal and waits for their confirmation; write it without store: "team" (it goes to the personal store, pending); nothing was written');
  }
  await c.store.ensureFresh({ create: true });
  const others = await gateSources(also);
  const gate = await runWriteGates(c, w, {
    force,
    acknowledge_transient: ack,
    candidates: (text, limit) => c.index.candidateRecordsFor(text, limit),
    ...(await semanticGateOptions(c)),
    ...(others.length > 0 ? { also: others, label: c.storeKind } : {}),
    ...(c.storeKind === 'team' ? { strict: true } : {}),
    ...(confirmed ? { confirmed: true } : {}),
  });
  const store = c.storeKind === 'team' ? { store: 'team' as const } : {};
  if (gate.outcome) {
    c.log('write', { status: gate.outcome.status, scopes: w.scopes, category: w.category, ...gate.logFields, ...store });
    return { ...gate.outcome, ...(others.length > 0 ? { store: c.storeKind } : {}) };
  }
  const out = await commitWrite(c, w, gate.related);
  if (confirmed) c.log('write_confirm', { pending_id: confirmed.pending_id, id: out.id, status: 'committed', pending_reason: confirmed.reason, edited: true, scopes: w.scopes, category: w.category, ...gate.logFields });
  else c.log('write', { status: 'committed', id: out.id, scopes: w.scopes, category: w.category, ...gate.logFields, ...store });
  return { ...out, store: c.storeKind };
}

export async function update(c: WriteContext, input: UpdateInput) {
  await c.store.ensureFresh();
  await c.stores.settle([input.id]);
  const target = requireActive(c, input.id);
  const has = (k: keyof UpdateInput) => input[k] !== undefined;
  if (!has('content') && !has('scopes') && !has('confidence') && !has('expires') && !has('aliases')) {
    throw new ValidationError('give at least one of content, scopes, confidence, expires or aliases to change');
  }
  const content = has('content') ? checkContent(c, input.content) : undefined;
  const scopes = has('scopes') ? checkScopes(c, input.scopes) : undefined;
  const confidence = has('confidence') ? checkEnum(input.confidence, 'confidence', CONFIDENCES, 'medium') : undefined;
  const expires = has('expires') ? checkExpires(c, input.expires) : undefined;
  const aliases = has('aliases') ? checkAliases(input.aliases) : undefined;
  const ack = checkBool(input.acknowledge_transient, 'acknowledge_transient');
  const strict = c.storeKind === 'team';
  if (content !== undefined) await checkUpdateContent(c, content, strict);
  if (aliases !== undefined && aliases.length > 0) await checkUpdateContent(c, aliases.join('\n'), strict);
  const fieldsGiven = (['content', 'scopes', 'confidence', 'expires', 'aliases'] as const).filter(has);
  // The durability gate of memory_write, on what the update changes: the body and added aliases.
  const durability = (cur: UpdateText) => {
    const { markers, where } = updateMarkers(cur, { body: content ?? cur.body, aliases: aliases ?? cur.aliases ?? [] });
    if (markers.length === 0) return null;
    if (!ack) {
      // Logged like memory_write's transient_warning, so marker_stats counts the fire.
      c.log('update_refused', { id: target.id, fields: fieldsGiven, status: 'transient_warning', markers: markers.map((m) => m.marker), acknowledge_transient: false });
      throw transientUpdateError(markers, where);
    }
    return { markers: markers.map((m) => m.marker), acknowledge_transient: true };
  };
  let transient = durability(target);
  let changedContent = false;
  const m = await c.store.modify(target.id, (cur) => {
    if (cur.tombstoned) throw requireActiveError(c, cur.id);
    // Another process may have changed the record while we waited for the lock: judge against it.
    if (cur !== target) transient = durability(cur);
    changedContent = content !== undefined && content !== cur.body;
    const rec: MemoryRecord = {
      ...stripStored(cur),
      body: content ?? cur.body,
      scopes: scopes ?? cur.scopes,
      confidence: confidence ?? cur.confidence,
      expires: expires === undefined ? cur.expires : expires,
      updated: c.now().toISOString(),
      last_verified_at: changedContent ? null : cur.last_verified_at,
    };
    if (changedContent) delete rec.verified_head; // the new text was never verified
    // aliases: [] clears them; absent keeps the current ones.
    if (aliases !== undefined) {
      if (aliases.length > 0) rec.aliases = aliases;
      else delete rec.aliases;
    }
    return rec;
  });
  c.log('update', { id: m.id, fields: fieldsGiven, content_changed: changedContent, ...(transient ?? {}) });
  return { ...committedShape(m), store: c.storeKind };
}

export async function verify(c: WriteContext, input: VerifyInput) {
  await c.store.ensureFresh();
  await c.stores.settle([input.id]);
  const target = requireActive(c, input.id);
  const note = checkNote(input.note, 'note', false);
  const m = await c.store.modify(target.id, async (cur) => {
    if (cur.tombstoned) throw requireActiveError(c, cur.id);
    const rec: MemoryRecord = { ...stripStored(cur), last_verified_at: c.now().toISOString() };
    // The caller's HEAD now, when the memory is from the caller's repo: commit drift then counts
    // the commits after exactly this one, even those made in the same second as the verify.
    const { repoRoot, repoKey } = c.caller;
    const head = repoRoot && repoKey && originRepoKey(cur.origin) === repoKey ? await headSha(repoRoot) : null;
    if (head) rec.verified_head = head;
    else delete rec.verified_head;
    return rec;
  });
  c.log('verify', { id: m.id, ...(note ? { note } : {}) });
  return { verified: m.id, last_verified_at: m.last_verified_at!, updated: m.updated, store: c.storeKind };
}

/** The error for a record that another process removed while we waited for the lock. */
function requireActiveError(c: Pick<StoreContext, 'store'>, id: string): Error {
  try {
    requireActive(c, id);
  } catch (err) {
    return err as Error;
  }
  return new ValidationError(`memory ${id} is not active`);
}
