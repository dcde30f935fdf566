// Moving memories in and out of the store as a whole: cairn's own export document and its
// import (core/io/exportImport.ts holds the format). The CLI's export/import call these.
import { buildExport, importExport, type ExportDoc, type ImportReport } from '../io/exportImport.ts';
import type { StoreContext, WriteContext } from './context.ts';
import { ValidationError } from '../errors.ts';
import { newId } from '../ids.ts';
import { redactRemoteUrl } from '../origin.ts';
import { hashOf, NULL_ORIGIN, type ImportCandidate, type ImportFormat, type ParsedImport } from '../io/import/common.ts';
import { yamlLoad } from '../io/yaml.ts';
import { DUPLICATE_THRESHOLD, dedupTokenSet } from '../trust/gates/dedup.ts';
import { detectSecrets } from '../trust/gates/secrets.ts';
import { runWriteGates } from '../trust/gates/writeGates.ts';
import type { MemoryRecord, StoredMemory, ValidWrite } from '../types.ts';
import { checkScopes, validateWrite } from './writeChecks.ts';

export interface ExportInput {
  scopes: string[];
  include_tombstones: boolean;
}

export async function exportStore(c: StoreContext, input: ExportInput): Promise<ExportDoc> {
  await c.store.ensureFresh();
  return buildExport(c.store.active(), c.store.tombstones(), { now: c.now(), scopes: input.scopes, includeTombstones: input.include_tombstones });
}

export async function importStore(c: StoreContext, doc: ExportDoc, progress?: (done: number, total: number) => void): Promise<ImportReport> {
  const report = await importExport(c.store, doc, progress);
  c.log('import', { added: report.added, updated: report.updated, unchanged: report.unchanged, kept_newer: report.kept_newer });
  return report;
}

// ---- Importing other tools' memories (cairn import --from FORMAT PATH) ----------------------
// core/io/import/<format>.ts reads the source into candidates; this runs each through the write
// gates of memory_write (validation, secrets, active and removed near-duplicates; no pending
// step: running --apply after the dry run is the person's confirmation, and time-bound wording
// is stored as written since these are the person's existing notes) and, with apply, writes it.
// Every memory written records `imported_from: {format, key, hash}` in its frontmatter (an
// unknown-key block, format.md): a second run finds each item by its key and changes nothing.

export type ImportStatus =
  | 'added'
  | 'added_tombstone'
  | 'already_imported'
  | 'changed_at_source'
  | 'removed_here'
  | 'duplicate'
  | 'previously_removed'
  | 'secret'
  | 'expired'
  | 'invalid';
export const IMPORT_STATUSES: readonly ImportStatus[] = ['added', 'added_tombstone', 'already_imported', 'changed_at_source', 'removed_here', 'duplicate', 'previously_removed', 'secret', 'expired', 'invalid'];

export interface ImportItem {
  label: string;
  key: string;
  status: ImportStatus;
  /** The memory written (applied), or the one it was imported as before. */
  id?: string;
  scopes?: string[];
  /** secret: the kinds found (never the text). */
  kinds?: string[];
  /** duplicate / previously_removed: the memories it matches. */
  matches?: { id: string; similarity: number; removed_reason?: string | null }[];
  /** duplicate of an earlier item of the same source. */
  duplicate_of_item?: string;
  /** invalid: what is wrong. */
  reason?: string;
}

export interface SourceImportReport {
  format: ImportFormat;
  path: string;
  applied: boolean;
  total: number;
  counts: Record<ImportStatus | 'skipped', number>;
  items: ImportItem[];
  skipped: { label: string; reason: string }[];
}

export interface SourceImportOptions {
  apply: boolean;
  force: boolean;
  /** Replace the scopes derived from the source (marking scopes such as `instructions` stay). */
  scopes: string[];
  progress?: (done: number, total: number) => void;
}

const IMPORTED_FROM = 'imported_from';

export function importedFromBlock(format: string, key: string, hash: string): string {
  return `${IMPORTED_FROM}: {format: ${JSON.stringify(format)}, key: ${JSON.stringify(key)}, hash: ${JSON.stringify(hash)}}`;
}

/** The imported_from record of a stored memory, if it has one. */
export function importedFrom(m: StoredMemory): { format: string; key: string; hash: string | null } | null {
  const block = m.extra.find((b) => b.startsWith(`${IMPORTED_FROM}:`));
  if (!block) return null;
  try {
    const v = (yamlLoad(block) as Record<string, unknown>)[IMPORTED_FROM] as Record<string, unknown>;
    if (typeof v?.format !== 'string' || typeof v.key !== 'string') return null;
    return { format: v.format, key: v.key, hash: typeof v.hash === 'string' ? v.hash : null };
  } catch {
    return null;
  }
}

/** Near-duplicates among the items of one run (the store has not seen them in a dry run). */
class BatchDedup {
  private readonly sets: { tokens: Set<string>; label: string }[] = [];
  private readonly byToken = new Map<string, number[]>();
  match(text: string): string | null {
    const tokens = dedupTokenSet(text);
    const overlap = new Map<number, number>();
    for (const t of tokens) for (const i of this.byToken.get(t) ?? []) overlap.set(i, (overlap.get(i) ?? 0) + 1);
    for (const [i, inter] of overlap) {
      const other = this.sets[i]!.tokens;
      if (inter / (tokens.size + other.size - inter) >= DUPLICATE_THRESHOLD) return this.sets[i]!.label;
    }
    return null;
  }
  add(text: string, label: string): void {
    const tokens = dedupTokenSet(text);
    const i = this.sets.push({ tokens, label }) - 1;
    for (const t of tokens) {
      if (!this.byToken.has(t)) this.byToken.set(t, []);
      this.byToken.get(t)!.push(i);
    }
  }
}

export async function importFrom(c: WriteContext, parsed: ParsedImport, opts: SourceImportOptions): Promise<SourceImportReport> {
  const forced = opts.scopes.length ? checkScopes(c, opts.scopes, 'scopes') : null;
  await c.store.ensureFresh();
  const known = new Map<string, { m: StoredMemory; hash: string | null }>();
  for (const it of [c.store.active(), c.store.tombstones()]) {
    for (const m of it) {
      const from = importedFrom(m);
      if (from && from.format === parsed.format) known.set(from.key, { m, hash: from.hash });
    }
  }
  const counts = Object.fromEntries([...IMPORT_STATUSES, 'skipped'].map((s) => [s, 0])) as SourceImportReport['counts'];
  counts.skipped = parsed.skipped.length;
  const items: ImportItem[] = [];
  const batch = new BatchDedup();
  const seenKeys = new Map<string, string>();
  const now = c.now();
  let done = 0;
  for (const cand of parsed.candidates) {
    const item = await importOne(c, parsed.format, cand, { ...opts, forced, known, batch, seenKeys, now });
    items.push(item);
    counts[item.status]++;
    opts.progress?.(++done, parsed.candidates.length);
  }
  c.log('import', { format: parsed.format, applied: opts.apply, ...Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)) });
  return { format: parsed.format, path: parsed.path, applied: opts.apply, total: parsed.candidates.length, counts, items, skipped: parsed.skipped };
}

async function importOne(
  c: WriteContext,
  format: ImportFormat,
  cand: ImportCandidate,
  o: SourceImportOptions & { forced: string[] | null; known: Map<string, { m: StoredMemory; hash: string | null }>; batch: BatchDedup; seenKeys: Map<string, string>; now: Date },
): Promise<ImportItem> {
  const base = { label: cand.label, key: cand.key };
  const hash = hashOf(cand.body);
  const prev = o.known.get(cand.key);
  if (prev) {
    if (prev.m.tombstoned && !cand.removed) return { ...base, status: 'removed_here', id: prev.m.id, reason: prev.m.removed_reason ?? '' };
    return { ...base, status: prev.hash !== null && prev.hash !== hash ? 'changed_at_source' : 'already_imported', id: prev.m.id };
  }
  const twin = o.seenKeys.get(cand.key);
  if (twin) return { ...base, status: 'duplicate', duplicate_of_item: twin };
  o.seenKeys.set(cand.key, cand.label);
  if (cand.expires && !cand.removed && Date.parse(cand.expires) <= o.now.getTime()) return { ...base, status: 'expired', reason: `expired on ${cand.expires.slice(0, 10)}` };

  const scopes = [...new Set([...(o.forced ?? cand.scopes), ...(cand.markScopes ?? [])])];
  let w: ValidWrite;
  try {
    w = validateWrite(c, {
      content: cand.body,
      scopes,
      ...(cand.category ? { category: cand.category } : {}),
      ...(cand.source ? { source: cand.source } : {}),
      ...(cand.confidence ? { confidence: cand.confidence } : {}),
      ...(cand.aliases?.length ? { aliases: cand.aliases } : {}),
      ...(cand.expires && !cand.removed ? { expires: cand.expires } : {}),
    });
  } catch (err) {
    if (err instanceof ValidationError) return { ...base, status: 'invalid', reason: err.message };
    throw err;
  }

  if (cand.removed) {
    const found = detectSecrets(w.aliases?.length ? `${w.content}\n${w.aliases.join('\n')}` : w.content);
    if (found.length) return { ...base, status: 'secret', kinds: [...new Set(found.map((f) => f.kind))] };
    const item: ImportItem = { ...base, status: 'added_tombstone', scopes: w.scopes };
    if (o.apply) item.id = (await writeImported(c, format, cand, w, hash, o.now)).id;
    return item;
  }

  if (!o.force) {
    const twinText = o.batch.match(w.content);
    if (twinText) return { ...base, status: 'duplicate', duplicate_of_item: twinText };
  }
  const gate = await runWriteGates(c, w, { force: o.force, acknowledge_transient: true, confirmed: true, candidates: (text, limit) => c.index.candidateRecordsFor(text, limit) });
  const out = gate.outcome as (Record<string, unknown> & { status: string; matches?: Record<string, unknown>[]; findings?: { kind: string }[] }) | undefined;
  if (out?.status === 'secret_detected') return { ...base, status: 'secret', kinds: [...new Set((out.findings ?? []).map((f) => f.kind))] };
  if (out?.status === 'duplicate' || out?.status === 'previously_removed') {
    return {
      ...base,
      status: out.status,
      matches: (out.matches ?? []).map((m) => ({ id: String(m.id), similarity: Number(m.similarity), ...(out.status === 'previously_removed' ? { removed_reason: (m.removed_reason as string | null) ?? null } : {}) })),
    };
  }
  if (out) return { ...base, status: 'invalid', reason: `refused by the write gates (${out.status})` };
  o.batch.add(w.content, cand.label);
  const item: ImportItem = { ...base, status: 'added', scopes: w.scopes };
  if (o.apply) item.id = (await writeImported(c, format, cand, w, hash, o.now)).id;
  return item;
}

async function writeImported(c: StoreContext, format: ImportFormat, cand: ImportCandidate, w: ValidWrite, hash: string, now: Date): Promise<StoredMemory> {
  const created = cand.created ?? now.toISOString();
  const updated = cand.updated && Date.parse(cand.updated) >= Date.parse(created) ? cand.updated : created;
  const origin = cand.origin ?? NULL_ORIGIN;
  const rec: MemoryRecord = {
    id: newId(Math.max(0, Date.parse(created))),
    created,
    updated,
    scopes: w.scopes,
    confidence: w.confidence,
    source: w.source,
    category: w.category,
    last_verified_at: cand.last_verified_at ?? null,
    expires: cand.removed ? (cand.expires ?? null) : w.expires,
    origin: { ...origin, repo: redactRemoteUrl(origin.repo) },
    body: w.content,
  };
  if (w.aliases?.length) rec.aliases = w.aliases;
  if (cand.removed) {
    rec.removed = cand.removed.at ?? now.toISOString();
    rec.removed_reason = cand.removed.reason;
    rec.removed_session = cand.removed.session ?? null;
  }
  return c.store.create(rec, [importedFromBlock(format, cand.key, hash)]);
}
