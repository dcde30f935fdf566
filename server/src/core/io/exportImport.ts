// cairn's own export format and its import.
//
//   { "format": "cairn-export", "version": 1, "exported_at": "...", "scope_filters": [...],
//     "memories": [record, ...], "tombstones": [record, ...] }
//
// A record is the memory's frontmatter keys plus `body`, and `extra` (the unknown frontmatter
// blocks, verbatim) when the file had any. Import is idempotent by id: a record whose id is
// absent is created (tombstones straight into .tombstones/); a present one is replaced only
// when the incoming `updated` is strictly newer, so importing an old export never overwrites a
// newer local edit and importing the same file twice changes nothing the second time.
import { ValidationError } from '../errors.ts';
import { writeFileAtomic } from '../store/fsatomic.ts';
import { isUlid } from '../ids.ts';
import { SCOPE_RE, scopeFilterMatcher } from '../scopes.ts';
import type { Store } from '../store/store.ts';
import { detectSecrets } from '../trust/gates/secrets.ts';
import { CATEGORIES, CONFIDENCES, SOURCES, type MemoryRecord, type StoredMemory } from '../types.ts';
import { stripStored } from '../memory.ts';

export const EXPORT_FORMAT = 'cairn-export';
export const EXPORT_VERSION = 1;

export type ExportRecord = MemoryRecord & { extra?: string[] };

export interface ExportDoc {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exported_at: string;
  scope_filters: string[];
  memories: ExportRecord[];
  tombstones: ExportRecord[];
}

function toRecord(m: StoredMemory): ExportRecord {
  const rec: ExportRecord = stripStored(m);
  if (m.extra.length > 0) rec.extra = [...m.extra];
  return rec;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function buildExport(
  active: Iterable<StoredMemory>,
  tombstones: Iterable<StoredMemory>,
  opts: { now: Date; scopes?: string[]; includeTombstones?: boolean },
): ExportDoc {
  const filters = opts.scopes ?? [];
  const match = scopeFilterMatcher(filters);
  const pick = (it: Iterable<StoredMemory>) => [...it].filter((m) => match(m.scopes)).map(toRecord).sort(byId);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: opts.now.toISOString(),
    scope_filters: filters,
    memories: pick(active),
    tombstones: opts.includeTombstones === false ? [] : pick(tombstones),
  };
}

/** Memories whose body trips the secret detector: an export copies them to a new place. */
export function secretsIn(records: readonly ExportRecord[]): { id: string; kinds: string[] }[] {
  const out: { id: string; kinds: string[] }[] = [];
  for (const r of records) {
    const found = detectSecrets(r.body);
    if (found.length) out.push({ id: r.id, kinds: [...new Set(found.map((f) => f.kind))] });
  }
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));
const optTime = (v: unknown) => v === null || v === undefined || isTime(v);
const optStr = (v: unknown) => v === null || v === undefined || typeof v === 'string';

/** Checks one record; returns what is wrong with it, or null. */
function recordProblem(r: unknown, tomb: boolean): string | null {
  if (!isObj(r)) return 'is not an object';
  if (typeof r.id !== 'string' || !isUlid(r.id)) return `has id ${JSON.stringify(r.id)}, not a 26-character ULID`;
  for (const k of ['created', 'updated'] as const) if (!isTime(r[k])) return `has ${k} ${JSON.stringify(r[k])}, not an ISO date-time`;
  if (!optTime(r.last_verified_at) || !optTime(r.expires)) return 'has a last_verified_at or expires that is not an ISO date-time or null';
  if (!Array.isArray(r.scopes) || r.scopes.length === 0 || !r.scopes.every((s) => typeof s === 'string' && SCOPE_RE.test(s))) return 'has scopes that are not a non-empty list of valid scopes';
  if (!(CONFIDENCES as readonly unknown[]).includes(r.confidence)) return `has confidence ${JSON.stringify(r.confidence)}: use one of ${CONFIDENCES.join(', ')}`;
  if (!(SOURCES as readonly unknown[]).includes(r.source)) return `has source ${JSON.stringify(r.source)}: use one of ${SOURCES.join(', ')}`;
  if (!(CATEGORIES as readonly unknown[]).includes(r.category)) return `has category ${JSON.stringify(r.category)}: use one of ${CATEGORIES.join(', ')}`;
  if (typeof r.body !== 'string' || r.body.trim() === '') return 'has an empty body';
  if (!isObj(r.origin) || !['cwd', 'repo', 'branch', 'worktree_root'].every((k) => optStr((r.origin as Record<string, unknown>)[k]))) return 'has an origin that is not {cwd, repo, branch, worktree_root}';
  if (r.verified_head !== undefined && r.verified_head !== null && (typeof r.verified_head !== 'string' || !/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(r.verified_head))) return 'has a verified_head that is not a commit id';
  if (r.extra !== undefined && (!Array.isArray(r.extra) || !r.extra.every((x) => typeof x === 'string'))) return 'has extra that is not a list of strings';
  if (tomb && (!isTime(r.removed) || typeof r.removed_reason !== 'string')) return 'is a tombstone without removed and removed_reason';
  if (!tomb && r.removed !== undefined) return 'is listed under memories but carries removed';
  return null;
}

/** Parses and validates an export file; every problem names the record and what is wrong. */
export function parseExport(text: string, file = 'the export'): ExportDoc {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ValidationError(`${file} is not a cairn export: not valid JSON (${(err as Error).message})`);
  }
  if (!isObj(doc) || doc.format !== EXPORT_FORMAT) throw new ValidationError(`${file} is not a cairn export: expected "format": "${EXPORT_FORMAT}" (made by cairn export)`);
  if (doc.version !== EXPORT_VERSION) throw new ValidationError(`${file} is a cairn export of version ${JSON.stringify(doc.version)}; this cairn reads version ${EXPORT_VERSION}`);
  const seen = new Set<string>();
  for (const [key, tomb] of [['memories', false], ['tombstones', true]] as const) {
    const list = doc[key];
    if (!Array.isArray(list)) throw new ValidationError(`${file}: "${key}" must be a list`);
    list.forEach((r, i) => {
      const problem = recordProblem(r, tomb);
      if (problem) throw new ValidationError(`${file}: ${key}[${i}] ${problem}`);
      const id = (r as { id: string }).id;
      if (seen.has(id)) throw new ValidationError(`${file}: ${key}[${i}] repeats id ${id}`);
      seen.add(id);
    });
  }
  return { scope_filters: [], exported_at: '', ...doc } as unknown as ExportDoc;
}

export interface ImportReport {
  added: number;
  updated: number;
  unchanged: number;
  /** Present here with a newer (or equal) `updated`: kept as it is. */
  kept_newer: number;
  total: number;
}

function plainRecord(r: ExportRecord): MemoryRecord {
  const { extra, ...rec } = r;
  void extra;
  const out: MemoryRecord = { ...rec, last_verified_at: rec.last_verified_at ?? null, expires: rec.expires ?? null };
  if (!out.verified_head) delete out.verified_head;
  if (out.removed === undefined) {
    delete out.removed;
    delete out.removed_reason;
    delete out.removed_session;
  }
  return out;
}

/** Imports every record through the store's locked, atomic writes. `progress(done, total)` after each. */
export async function importExport(store: Store, doc: ExportDoc, progress?: (done: number, total: number) => void): Promise<ImportReport> {
  await store.ensureFresh();
  const all = [...doc.memories, ...doc.tombstones];
  const report: ImportReport = { added: 0, updated: 0, unchanged: 0, kept_newer: 0, total: all.length };
  let done = 0;
  for (const r of all) {
    const incoming = plainRecord(r);
    const cur = store.get(r.id) ?? store.getTombstone(r.id);
    if (!cur) {
      await store.create(incoming, r.extra ?? []);
      report.added++;
    } else if (Date.parse(incoming.updated) > Date.parse(cur.updated)) {
      await store.modify(r.id, () => incoming);
      report.updated++;
    } else if (Date.parse(incoming.updated) === Date.parse(cur.updated)) report.unchanged++;
    else report.kept_newer++;
    progress?.(++done, all.length);
  }
  return report;
}

/** Writes an export file atomically, mode 0600: an export holds the user's private notes. */
export async function writeExportFile(path: string, text: string): Promise<void> {
  await writeFileAtomic(path, text);
}
