// The merge rules for one memory changed on two machines (README "Sync"): a pure function over
// the parsed files — the common ancestor when there is one, ours and theirs. No I/O here: the
// sync (core/sync/treeMerge.ts) and the git merge driver (core/sync/driver.ts) both call it, so a
// plain `git pull` in the store merges exactly as `cairn sync` does.
//
//   - a field only one side changed takes that side's value;
//   - a field both sides changed takes the value of the side with the newer `updated` (a tie is
//     broken by the serialized text, so every machine picks the same side);
//   - scopes and aliases merge as sets: what either side added is kept, what either side took
//     away (a scope rename) stays away; with no ancestor, the union;
//   - verification keeps the latest `last_verified_at` (and the verified_head that came with it);
//     `created` keeps the earliest, `updated` the latest;
//   - two different new bodies keep the newer one and record the other as a conflict;
//   - removed on one side, edited on the other: stays removed (the tombstone carries the merged
//     fields, so a restore brings back the newest text) and is recorded as a conflict holding
//     the text the tombstone does not (both texts survive when both sides rewrote it); a restore
//     on one side against an untouched tombstone on the other propagates (the state that moved
//     away from the ancestor wins);
//   - unknown frontmatter blocks merge by key like any other field.
import { createHash } from 'node:crypto';
import type { MemoryRecord } from '../types.ts';
import { serializeMemory, splitBlocks } from '../store/memfile.ts';

export interface MemFile {
  record: MemoryRecord;
  extra: readonly string[];
}

export interface ConflictSide {
  updated: string;
  body: string;
  removed: string | null;
}

/**
 * One preserved disagreement (a file in .conflicts/). `kept` is what the store holds after the
 * merge; `other` is the text the merge did not keep. For `removed-edited` the memory stays removed
 * and its tombstone holds the newer text, so `kept` is that tombstone (its body, removal time) and
 * `other` the text it does not hold: the one the removal was made on, which the edit replaced, or,
 * when the removing side had rewritten the body before removing and its text is the newer, the
 * other side's edit.
 */
export interface SyncConflict {
  id: string;
  kind: 'body' | 'removed-edited';
  kept: ConflictSide;
  other: ConflictSide;
}

export interface MergeResult {
  merged: MemFile;
  conflict: SyncConflict | null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Three-way pick of one field: the side that changed it, else the newer side. */
function pick<T>(base: T | undefined, hasBase: boolean, ours: T, theirs: T, oursNewer: boolean): T {
  if (same(ours, theirs)) return ours;
  if (hasBase && same(base, ours)) return theirs;
  if (hasBase && same(base, theirs)) return ours;
  return oursNewer ? ours : theirs;
}

/** Three-way set merge: additions from either side kept, removals from either side applied. */
export function mergeSet(base: readonly string[] | undefined, ours: readonly string[], theirs: readonly string[]): string[] {
  const out: string[] = [];
  const b = base ? new Set(base) : null;
  const o = new Set(ours);
  const t = new Set(theirs);
  for (const s of [...ours, ...theirs]) {
    if (out.includes(s)) continue;
    const keep = b === null ? true : b.has(s) ? o.has(s) && t.has(s) : true;
    if (keep) out.push(s);
  }
  return out;
}

const isTomb = (r: MemoryRecord) => r.removed !== undefined;
const stamp = (r: MemoryRecord) => (r.removed !== undefined && r.removed > r.updated ? r.removed : r.updated);

/** Whether `ours` is the newer side: later `updated` (or removal), then the greater text. */
export function oursIsNewer(ours: MemFile, theirs: MemFile): boolean {
  const a = stamp(ours.record);
  const b = stamp(theirs.record);
  if (a !== b) return a > b;
  return serializeMemory(ours.record, ours.extra) >= serializeMemory(theirs.record, theirs.extra);
}

function keyedBlocks(extra: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const text of extra) {
    const key = splitBlocks(text)[0]?.key ?? `#${text}`;
    if (!m.has(key)) m.set(key, text);
  }
  return m;
}

function mergeExtra(base: readonly string[] | undefined, ours: readonly string[], theirs: readonly string[], oursNewer: boolean): string[] {
  const b = base ? keyedBlocks(base) : null;
  const o = keyedBlocks(ours);
  const t = keyedBlocks(theirs);
  const out: string[] = [];
  for (const key of new Set([...o.keys(), ...t.keys()])) {
    const v = pick(b?.get(key), b !== null, o.get(key), t.get(key), oursNewer);
    if (v !== undefined) out.push(v);
  }
  return out;
}

function side(r: MemoryRecord): ConflictSide {
  return { updated: r.updated, body: r.body, removed: r.removed ?? null };
}

/** Did anything but the removal keys change from base to r? */
function editedSince(base: MemoryRecord, r: MemoryRecord): boolean {
  const strip = (x: MemoryRecord) => {
    const { removed: _a, removed_reason: _b, removed_session: _c, ...rest } = x;
    return rest;
  };
  return !same(strip(base), strip(r));
}

export function mergeMemory(base: MemFile | null, ours: MemFile, theirs: MemFile): MergeResult {
  const o = ours.record;
  const t = theirs.record;
  const b = base?.record;
  const hb = b !== undefined;
  const oursNewer = oursIsNewer(ours, theirs);
  const p = <K extends keyof MemoryRecord>(k: K): MemoryRecord[K] => pick(b?.[k], hb, o[k], t[k], oursNewer);

  // Removal state: the side whose state moved away from the ancestor wins; without an ancestor
  // (or when both moved) a tombstone wins, so a removal is never silently undone.
  let tomb: boolean;
  if (isTomb(o) === isTomb(t)) tomb = isTomb(o);
  else if (hb && isTomb(b!) === isTomb(o)) tomb = isTomb(t);
  else if (hb && isTomb(b!) === isTomb(t)) tomb = isTomb(o);
  else tomb = true;

  // Lists in the newer side's order, then the other side's additions: the same from both sides.
  const [n, old] = oursNewer ? [o, t] : [t, o];
  let scopes = mergeSet(b?.scopes, n.scopes, old.scopes);
  if (scopes.length === 0) scopes = [...n.scopes];
  const aliases = mergeSet(b ? b.aliases ?? [] : undefined, n.aliases ?? [], old.aliases ?? []);

  // Verification: a side that left it as it was takes the other's (a content update clears it);
  // changed on both, the latest wins. The head recorded with it travels with it.
  const ov = o.last_verified_at ?? '';
  const tv = t.last_verified_at ?? '';
  const bv = b?.last_verified_at ?? '';
  const verSide = ov === tv ? (p('verified_head') === o.verified_head ? o : t) : hb && bv === ov ? t : hb && bv === tv ? o : ov > tv ? o : t;

  const rec: MemoryRecord = {
    id: o.id,
    created: o.created < t.created ? o.created : t.created,
    updated: o.updated > t.updated ? o.updated : t.updated,
    scopes,
    confidence: p('confidence'),
    source: p('source'),
    category: p('category'),
    last_verified_at: verSide.last_verified_at,
    expires: p('expires'),
    origin: p('origin'),
    body: p('body'),
  };
  if (verSide.verified_head) rec.verified_head = verSide.verified_head;
  if (aliases.length > 0) rec.aliases = aliases;
  // memory_merge's provenance: what either side recorded stays (a set, like scopes).
  const mergedFrom = mergeSet(undefined, n.merged_from ?? [], old.merged_from ?? []);
  if (mergedFrom.length > 0) rec.merged_from = mergedFrom;
  if (tomb) {
    // Removal keys from the tombstone side (both: the three-way pick).
    const from = isTomb(o) && isTomb(t) ? null : isTomb(o) ? o : t;
    rec.removed = from ? from.removed! : p('removed')!;
    rec.removed_reason = from ? from.removed_reason ?? '' : p('removed_reason') ?? '';
    rec.removed_session = from ? from.removed_session ?? null : p('removed_session') ?? null;
  }
  const extra = mergeExtra(base?.extra, ours.extra, theirs.extra, oursNewer);

  let conflict: SyncConflict | null = null;
  const bodyClash = o.body !== t.body && (!hb || (b!.body !== o.body && b!.body !== t.body));
  if (hb && !isTomb(b!) && isTomb(o) !== isTomb(t)) {
    // Removed on one side; listed when the other side really edited it.
    const live = isTomb(o) ? t : o;
    const dead = isTomb(o) ? o : t;
    if (editedSince(b!, live)) {
      // `other` is the text the tombstone does not hold: the one the removal was made on, or the
      // live side's edit when the removing side had rewritten the body too and its text is newer.
      const lost = rec.body === dead.body && live.body !== dead.body ? live : dead;
      conflict = { id: rec.id, kind: 'removed-edited', kept: { updated: rec.updated, body: rec.body, removed: rec.removed ?? null }, other: { updated: lost.updated, body: lost.body, removed: null } };
    }
  } else if (bodyClash) {
    const [kept, other] = rec.body === o.body ? [o, t] : [t, o];
    conflict = { id: rec.id, kind: 'body', kept: side(kept), other: side(other) };
  }
  return { merged: { record: rec, extra }, conflict };
}

/** The conflict file's name: the same on every machine that finds the same disagreement. */
export function conflictFileName(c: SyncConflict): string {
  const h = createHash('sha256').update(`${c.kind}\0${[c.kept.body, c.other.body].sort().join('\0')}`).digest('hex').slice(0, 10);
  return `${c.id}-${h}.json`;
}

/** The conflict file's text: deterministic (no clock), so two machines write identical files. */
export function conflictFileText(c: SyncConflict): string {
  return `${JSON.stringify({ schema_version: 1, ...c }, null, 2)}\n`;
}
