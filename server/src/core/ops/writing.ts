// memory_write, memory_update, memory_verify. Validation first: a call that errors writes
// nothing. The trust gates (secrets, durability, duplicates, pending) sit between validation and
// the commit, in the order tools.md gives.
import type { StoreContext, WriteContext } from './context.ts';
import { ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { newId } from '../ids.ts';
import { captureOrigin, originRepoKey } from '../origin.ts';
import { headSha } from '../trust/signals/commitDrift.ts';
import { MAX_SCOPES, scopeAllowed, validateScope } from '../scopes.ts';
import { CATEGORIES, CONFIDENCES, SOURCES, type Category, type Confidence, type MemoryRecord, type Source, type StoredMemory, type ValidWrite } from '../types.ts';
export type { ValidWrite } from '../types.ts';
import { runWriteGates, checkUpdateContent, transientUpdateError, updateMarkers, type GateSource, type Related, type UpdateText } from '../trust/gates/writeGates.ts';
import { stripStored } from '../memory.ts';
import { checkNote, requireActive } from './common.ts';
export { checkNote } from './common.ts';
import { rewordingRuleFor } from '../trust/gates/rewording.ts';
import { checkPendingId, claimPending, dropPending, sweepPending } from '../store/pending.ts';

export const MAX_NOTE_CHARS = LIMITS.noteChars;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface WriteInput {
  content: string;
  scopes: string[];
  confidence?: Confidence;
  source?: Source;
  category?: Category;
  expires?: string | null;
  aliases?: string[];
  force?: boolean;
  acknowledge_transient?: boolean;
}
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


export function checkContent(c: Pick<StoreContext, 'config'>, v: unknown, arg = 'content'): string {
  if (typeof v !== 'string') throw new ValidationError(`${arg} must be a string holding the memory text`);
  const text = v.replace(/\r\n?/g, '\n').trim();
  if (text === '') throw new ValidationError(`${arg} is empty: write the fact to remember`);
  // The file must read back as exactly this text: a NUL makes it a binary file (skipped on
  // load, so the acknowledged memory would vanish) and an unpaired surrogate has no UTF-8 form
  // (it would come back as U+FFFD).
  const nul = text.indexOf('\u0000');
  if (nul !== -1) throw new ValidationError(`${arg} contains a NUL character at position ${nul}: a memory is plain text`);
  const lone = LONE_SURROGATE.exec(text);
  if (lone) throw new ValidationError(`${arg} contains an unpaired UTF-16 surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}) at position ${lone.index}: send valid Unicode text`);
  const max = c.config.behavior.max_body_chars;
  if (text.length > max) throw new ValidationError(`${arg} is ${text.length} characters, over the limit of ${max} (behavior.max_body_chars): store a shorter, durable fact`);
  return text;
}

export function checkScopes(c: Pick<StoreContext, 'config'>, v: unknown, arg = 'scopes'): string[] {
  if (!Array.isArray(v) || v.length === 0) throw new ValidationError(`${arg} must list at least one scope, like ["tools"] or ["projects:foo"]`);
  if (v.length > MAX_SCOPES) throw new ValidationError(`${arg} has ${v.length} entries: at most ${MAX_SCOPES} scopes per memory`);
  const out: string[] = [];
  v.forEach((s, i) => {
    const scope = validateScope(s, `${arg}[${i}]`);
    if (!scopeAllowed(scope, c.config.scopes.allowed)) {
      throw new ValidationError(`scope "${scope}" is not allowed by scopes.allowed in config.toml: use one of ${c.config.scopes.allowed.join(', ')}`);
    }
    if (!out.includes(scope)) out.push(scope);
  });
  return out;
}

/** aliases: other words a later search may use; trimmed, distinct, each one line of text. */
export function checkAliases(v: unknown, arg = 'aliases'): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ValidationError(`${arg} must be an array of short texts, like ["login", "sign-in"]`);
  if (v.length > LIMITS.aliases) throw new ValidationError(`${arg} has ${v.length} entries: at most ${LIMITS.aliases} aliases per memory`);
  const out: string[] = [];
  v.forEach((a, i) => {
    if (typeof a !== 'string') throw new ValidationError(`${arg}[${i}] must be a string, got ${JSON.stringify(a)}`);
    const t = a.replace(/\s+/g, ' ').trim();
    if (t === '') throw new ValidationError(`${arg}[${i}] is empty: give a word or short phrase`);
    if (t.length > LIMITS.aliasChars) throw new ValidationError(`${arg}[${i}] is ${t.length} characters: at most ${LIMITS.aliasChars} per alias`);
    if (t.includes('\u0000') || LONE_SURROGATE.test(t)) throw new ValidationError(`${arg}[${i}] is not plain text`);
    if (!out.includes(t)) out.push(t);
  });
  return out;
}

function checkEnum<T extends string>(v: unknown, arg: string, allowed: readonly T[], dflt: T): T {
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  throw new ValidationError(`${arg} must be one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
}

export function checkExpires(c: Pick<StoreContext, 'now'>, v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(v.trim())) {
    throw new ValidationError(`expires must be an ISO 8601 date or date-time like 2027-01-31 or 2027-01-31T12:00:00Z, got ${JSON.stringify(v)}`);
  }
  const t = Date.parse(v.trim());
  if (Number.isNaN(t)) throw new ValidationError(`expires ${JSON.stringify(v)} is not a real date`);
  if (t <= c.now().getTime()) throw new ValidationError(`expires ${JSON.stringify(v)} is in the past: give a future date, or omit it`);
  return new Date(t).toISOString();
}

export function checkBool(v: unknown, arg: string): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new ValidationError(`${arg} must be true or false`);
  return v;
}


/** Every bad argument is named in one message (not just the first), and nothing is written. */
export function validateWrite(c: Pick<StoreContext, 'config' | 'now'>, input: WriteInput): ValidWrite {
  const problems: string[] = [];
  const attempt = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      problems.push(err.message);
      return undefined as T;
    }
  };
  const w: ValidWrite = {
    content: attempt(() => checkContent(c, input.content)),
    scopes: attempt(() => checkScopes(c, input.scopes)),
    confidence: attempt(() => checkEnum(input.confidence, 'confidence', CONFIDENCES, 'medium')),
    source: attempt(() => checkEnum(input.source, 'source', SOURCES, 'explicit-statement')),
    category: attempt(() => checkEnum(input.category, 'category', CATEGORIES, 'fact')),
    expires: attempt(() => checkExpires(c, input.expires)),
  };
  const aliases = attempt(() => checkAliases(input.aliases));
  if (aliases && aliases.length > 0) w.aliases = aliases;
  attempt(() => checkBool(input.force, 'force'));
  attempt(() => checkBool(input.acknowledge_transient, 'acknowledge_transient'));
  if (problems.length) throw new ValidationError(problems.join('; '));
  return w;
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


// memory_write_confirm and memory_write_cancel. A pending write (trust/pendingStore.ts) is a write
// that passed every gate but waits for the user: claims about the user (category=user-inference)
// and, with behavior.require_write_confirmation, every write. Confirming re-runs nothing but
// validation (the config may have changed since: allowed scopes, body limit, an expiry now in
// the past), then commits.
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
