// The file-backed store: the markdown files are the source of truth; this class keeps an
// in-memory view of them (id -> record) that every read uses, and performs every change as an
// atomic file operation under the cross-process lock.
//
// Identity is the frontmatter id, never the file name. A record is a tombstone when it carries
// `removed`; removal rewrites the file in place with the removal keys and then renames it into
// .tombstones/ (restore does the reverse), so a crash between the two steps leaves one file whose
// keys already say what it is.
//
// The class is built in floors, each in its own file: table.ts (the views in memory), reading.ts
// (files into the views: load, adopt, validate, refresh), writing.ts (locked atomic changes of
// memories and notes), and this one, the merge protocol, which the floors below serve.
import { promises as fsp, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ensureDir, fsyncDir, isTempName, lstatOrNull, renameTemps, writeFileAtomic, writeTemps } from './fsatomic.ts';
import { fileNameFor, serializeMemory } from './memfile.ts';
import type { MemoryRecord, StoredMemory } from '../types.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { removeIfDeadTemp } from './listing.ts';
import { StoreWriter } from './writing.ts';
import { storedMemory } from './entries.ts';
export { MAX_FILE_BYTES, storedMemory } from './entries.ts';
export type { StoreChange, StoreOptions } from './table.ts';
export type { OwnWriteObserver } from './reading.ts';

/** The record part of a stored memory (what a write-back serializes). */
function stripRecord(m: StoredMemory): MemoryRecord {
  const { file, tombstoned, size, mtimeMs, extra, idAssigned, note, ...rec } = m;
  void file, void tombstoned, void size, void mtimeMs, void extra, void idAssigned, void note;
  return rec;
}

/** modifyMany's turns of the lock: how long each should hold it, and the slice sizes it may use. */
const BATCH_TURN_MS = 200;
const BATCH_FIRST_SLICE = 64;
const BATCH_MIN_SLICE = 16;
const BATCH_MAX_SLICE = 1024;
/** Temp files written (and open) at once while modifyMany prepares. */
const BATCH_PREPARE = 128;

/** A rewrite modifyMany wrote ahead as a temp file, from the record `cur` (tmp null: it leaves `cur` as it is). */
interface Prepared {
  cur: StoredMemory;
  tmp: string | null;
  renamed: boolean;
}

export class Store extends StoreWriter {
  /**
   * In-place rewrites of many records (memory_rename_scope): `mutate` sees each record as on disk
   * and returns its new record; a record gone meanwhile is skipped, and so is one the rewrite
   * leaves as it is (another process made the same change first): the records written are
   * returned. Every record is checked on the
   * views before any file is written, so a refusal writes nothing. A rename of hundreds of files
   * must not keep every other writer waiting for seconds, so the slow parts are done outside the
   * lock: first every new file is written and made durable as a temp file (no reader sees a
   * temp); then, in turns of the lock each sized to hold it about BATCH_TURN_MS, each file is
   * checked unchanged since (size and mtime, as every refresh checks) and its temp renamed over
   * it; a file another process changed meanwhile is re-read and rewritten there, under the lock,
   * so no change is lost. The directories are fsynced once at the end, before the answer. A crash
   * leaves each file old or new, whole; running the same rewrite again finishes it. A removal or
   * restore is not a rewrite in place and is refused (use modify).
   */
  async modifyMany(ids: readonly string[], mutate: (cur: StoredMemory) => MemoryRecord): Promise<StoredMemory[]> {
    for (const id of ids) {
      const cur = this.activeById.get(id) ?? this.tombById.get(id);
      if (cur) this.planRewrite(cur, mutate);
    }
    const out: StoredMemory[] = [];
    const prepared = new Map<string, Prepared>();
    const dirs = new Set<string>();
    try {
      for (let at = 0; at < ids.length; at += BATCH_PREPARE) {
        for (const [id, p] of await this.prepareRewrites(ids.slice(at, at + BATCH_PREPARE), mutate)) prepared.set(id, p);
      }
      let size = BATCH_FIRST_SLICE;
      for (let at = 0; at < ids.length; ) {
        const slice = ids.slice(at, at + size);
        at += slice.length;
        let heldMs = 1;
        const written = await this.locked(async () => {
          const t0 = performance.now();
          try {
            return await this.commitRewrites(slice, prepared, mutate, dirs);
          } finally {
            heldMs = performance.now() - t0;
          }
        });
        out.push(...written);
        size = Math.max(BATCH_MIN_SLICE, Math.min(BATCH_MAX_SLICE, Math.round((slice.length * BATCH_TURN_MS) / Math.max(heldMs, 1))));
      }
      await Promise.all([...dirs].map((d) => fsyncDir(d)));
    } finally {
      for (const p of prepared.values()) if (p.tmp !== null && !p.renamed) rmSync(p.tmp, { force: true });
    }
    return out;
  }

  /** One record's rewrite, checked: the new record, or a refusal. */
  private planRewrite(cur: StoredMemory, mutate: (cur: StoredMemory) => MemoryRecord): MemoryRecord {
    if (cur.note !== undefined) throw new ConflictError(`${cur.id} is the note ${cur.note}: change it with the memory tool`);
    const next = mutate(cur);
    if (next.id !== cur.id) throw new ConflictError(`a write-back may not change the id of ${cur.id}`);
    if ((next.removed !== undefined) !== cur.tombstoned) throw new ConflictError(`${cur.id}: a batch rewrite cannot remove or restore`);
    return next;
  }

  /** The rewrite of `cur` into `next`, as the file's text; null when it would write the same record. */
  private rewritten(cur: StoredMemory, next: MemoryRecord): string | null {
    const text = serializeMemory(next, cur.extra);
    return text === serializeMemory(stripRecord(cur), cur.extra) ? null : text;
  }

  /**
   * Before the lock: each record's new file as a durable temp beside it, from the record as on
   * disk now (a file that moved is left to commitRewrites).
   */
  private async prepareRewrites(ids: readonly string[], mutate: (cur: StoredMemory) => MemoryRecord): Promise<Map<string, Prepared>> {
    const plan: { cur: StoredMemory; data: string | null }[] = [];
    for (const id of ids) {
      let cur = this.activeById.get(id) ?? this.tombById.get(id);
      if (!cur) continue;
      const st = lstatOrNull(cur.file);
      if (!st?.isFile()) continue;
      if (st.size !== cur.size || st.mtimeMs !== cur.mtimeMs) {
        this.refreshOne(cur.file, st.size, st.mtimeMs, undefined);
        cur = this.activeById.get(id) ?? this.tombById.get(id);
        if (!cur) continue;
      }
      plan.push({ cur, data: this.rewritten(cur, this.planRewrite(cur, mutate)) });
    }
    const writes = plan.filter((p) => p.data !== null);
    const temps = await writeTemps(writes.map((p) => ({ file: p.cur.file, data: p.data! })));
    const tmpOf = new Map(writes.map((p, i) => [p, temps[i]!]));
    return new Map(plan.map((p) => [p.cur.id, { cur: p.cur, tmp: tmpOf.get(p) ?? null, renamed: false }]));
  }

  /**
   * One turn of modifyMany, under the lock: the prepared temps still right go in place; the rest
   * are rewritten now. The directories to fsync are added to `dirs`.
   */
  private async commitRewrites(ids: readonly string[], prepared: Map<string, Prepared>, mutate: (cur: StoredMemory) => MemoryRecord, dirs: Set<string>): Promise<StoredMemory[]> {
    const ready: { p: Prepared; tmp: string; next: MemoryRecord }[] = [];
    const late: { cur: StoredMemory; next: MemoryRecord; data: string }[] = [];
    for (const id of ids) {
      const p = prepared.get(id);
      const st = p && lstatOrNull(p.cur.file);
      if (p && st?.isFile() && st.size === p.cur.size && st.mtimeMs === p.cur.mtimeMs) {
        if (p.tmp !== null) ready.push({ p, tmp: p.tmp, next: this.planRewrite(p.cur, mutate) });
        continue;
      }
      const cur = await this.fresh(id);
      if (!cur) continue;
      const next = this.planRewrite(cur, mutate);
      const data = this.rewritten(cur, next);
      if (data !== null) late.push({ cur, next, data });
    }
    const lateTemps = await writeTemps(late.map(({ cur, data }) => ({ file: cur.file, data })));
    for (const r of ready) r.p.renamed = true; // renamed below, or removed by renameTemps when its rename fails
    await renameTemps([...ready.map((r) => ({ tmp: r.tmp, file: r.p.cur.file })), ...late.map((l, i) => ({ tmp: lateTemps[i]!, file: l.cur.file }))], dirs);
    return [...ready.map((r) => ({ cur: r.p.cur, next: r.next })), ...late].map(({ cur, next }) => {
      const st = statSync(cur.file);
      const mem = storedMemory(next, cur.file, st.size, st.mtimeMs, cur.extra);
      this.setEntry(cur.file, mem);
      return mem;
    });
  }

  // ---- merging (memory_merge) ----------------------------------------------------------------
  //
  // Several files must change as one: the merged memory appears and its sources become
  // tombstones. No single rename does that, so the merge is a small protocol whose every
  // intermediate state on disk is resolved one way, deterministically (docs/format.md, "Merging"):
  //
  //   0. a journal .merges/<new id>.json {id, file, sources} is written (atomic): the next open
  //      finds an interrupted merge without reading every file;
  //   1. the merged file is written with `merging: [source ids]`: a record carrying `merging`
  //      is in no view (not active, not a tombstone), so readers still see the old set;
  //   2. each source is tombstoned (rewrite + rename, as remove) with removed_reason
  //      `merged into <new id>`;
  //   3. the merged file is rewritten without `merging`: it is now active;
  //   4. the journal is deleted.
  //
  // Recovery (recoverMerges: at every load and validate of a writable store, and before every
  // merge, always under the lock; never by a read-only inspection such as doctor) takes each
  // journal and each record carrying `merging`: if every source is a tombstone whose reason is
  // `merged into <its id>`, the merge is rolled forward (step 3, 4); otherwise it is rolled back:
  // the sources this merge tombstoned are restored and the merged file is deleted (it was never
  // visible, so nothing anyone saw is lost). Both directions are idempotent: a crash during
  // recovery is recovered the same way by the next open. A crash before step 3 therefore leaves
  // the old set, from step 3 on the merged result; never both active, never neither.

  /** Where merge journals live (a dot directory: never listed as memories). */
  get mergeDir(): string {
    return join(this.dir, '.merges');
  }

  /** Test hook: CAIRN_TEST_MERGE_STEP_DELAY_MS waits between the steps of a merge (crash tests). */
  private async stepDelay(): Promise<void> {
    const ms = Number(process.env.CAIRN_TEST_MERGE_STEP_DELAY_MS ?? 0);
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
  }

  /**
   * memory_merge's one locked step. `check` sees each source as it is on disk now and throws to
   * refuse (nothing is written); `tomb` builds a source's tombstone. Returns the merged memory.
   */
  async merge(rec: MemoryRecord, sourceIds: readonly string[], check: (src: StoredMemory) => void, tomb: (src: StoredMemory) => MemoryRecord): Promise<StoredMemory> {
    if (this.readOnly) throw new ConflictError('this store was opened read-only');
    return this.locked(async () => {
      await this.recoverLocked();
      const sources: StoredMemory[] = [];
      for (const id of sourceIds) {
        const cur = await this.fresh(id);
        if (!cur) throw new NotFoundError(`no memory with id ${id}`);
        check(cur);
        sources.push(cur);
      }
      if (!(await this.tombDirUsable())) throw new ConflictError(`cannot merge: ${this.tombDir} is not a real directory (a symbolic link or a file); cairn does not follow links out of the store, so replace it with a directory`);
      await ensureDir(this.dir);
      await ensureDir(this.tombDir);
      await ensureDir(this.mergeDir);
      const file = await this.freeName(this.dir, fileNameFor(rec, this.nameText));
      const journal = join(this.mergeDir, `${rec.id}.json`);
      await writeFileAtomic(journal, `${JSON.stringify({ id: rec.id, file: basename(file), sources: sourceIds })}\n`);
      await this.stepDelay();
      await this.writeRecord(file, { ...rec, merging: [...sourceIds] }, []);
      for (const src of sources) {
        await this.stepDelay();
        await this.moveRecord(src, tomb(src));
      }
      await this.stepDelay();
      const done = { ...rec };
      delete done.merging;
      const merged = await this.writeRecord(file, done, []);
      await fsp.rm(journal, { force: true });
      await fsyncDir(this.mergeDir);
      return merged;
    });
  }

  /** Resolves interrupted merges (see above) under the lock. A read-only store never does. */
  async recoverMerges(): Promise<number> {
    if (this.readOnly) return 0;
    await this.repairNoteMoves();
    const pending = this.mergingById.size > 0 || (await fsp.readdir(this.mergeDir).catch(() => [] as string[])).length > 0;
    if (!pending) return 0;
    return this.locked(() => this.recoverLocked());
  }

  private async recoverLocked(): Promise<number> {
    if (this.readOnly) return 0;
    const work = new Map<string, { sources: readonly string[]; journal?: string; file?: string }>();
    const names = await fsp.readdir(this.mergeDir).catch(() => [] as string[]);
    for (const name of names) {
      const p = join(this.mergeDir, name);
      if (isTempName(name)) {
        removeIfDeadTemp(this.mergeDir, name);
        continue;
      }
      if (!name.endsWith('.json')) continue;
      let j: { id?: unknown; file?: unknown; sources?: unknown };
      try {
        j = JSON.parse(await fsp.readFile(p, 'utf8')) as typeof j;
      } catch {
        j = {};
      }
      const ok = typeof j.id === 'string' && Array.isArray(j.sources) && j.sources.every((x) => typeof x === 'string');
      if (!ok) {
        this.warn(`removed ${p}: not a merge journal cairn can read`);
        await fsp.rm(p, { force: true });
        continue;
      }
      work.set(j.id as string, { sources: j.sources as string[], journal: p, ...(typeof j.file === 'string' ? { file: join(this.dir, basename(j.file)) } : {}) });
    }
    for (const [id, m] of this.mergingById) {
      const w = work.get(id);
      if (w) w.file = m.file;
      else work.set(id, { sources: m.merging ?? [], file: m.file });
    }
    let n = 0;
    for (const [id, w] of work) {
      await this.resolveMerge(id, w.sources, w.file);
      if (w.journal) await fsp.rm(w.journal, { force: true });
      n++;
    }
    if (names.length > 0) await fsyncDir(this.mergeDir).catch(() => undefined);
    return n;
  }

  private async resolveMerge(id: string, sourceIds: readonly string[], file: string | undefined): Promise<void> {
    // The merged record as on disk now: the merging view, else wherever its id lives.
    if (file) {
      const st = await fsp.lstat(file).catch(() => null);
      if (st?.isFile()) this.refreshOne(file, st.size, st.mtimeMs, undefined);
      else if (this.files.has(file)) this.dropPath(file);
    }
    const merged = this.mergingById.get(id) ?? (await this.freshAny(id));
    const reason = `merged into ${id}`;
    const srcs: (StoredMemory | undefined)[] = [];
    for (const s of sourceIds) srcs.push(await this.fresh(s));
    const ours = (s: StoredMemory | undefined) => s !== undefined && s.tombstoned && s.removed_reason === reason;
    // Step 3 happened (the journal outlived it): the merge is complete, whatever came since.
    if (merged && !merged.merging) return;
    if (merged && srcs.every(ours)) {
      // Roll forward: every source already says it was merged into this one.
      if (merged.merging) {
        const done = stripRecord(merged);
        delete done.merging;
        await this.writeRecord(merged.file, done, merged.extra);
        this.warn(`finished the interrupted merge into ${id}`);
      }
      return;
    }
    // Roll back: restore what this merge tombstoned, then delete the never-visible merged file.
    for (const s of srcs) {
      if (!ours(s)) continue;
      const rec = stripRecord(s!);
      delete rec.removed;
      delete rec.removed_reason;
      delete rec.removed_session;
      await this.moveRecord(s!, rec);
    }
    if (merged?.merging) {
      await fsp.rm(merged.file, { force: true });
      await fsyncDir(dirname(merged.file));
      this.dropPath(merged.file);
      this.warn(`rolled back the interrupted merge into ${id}: its sources are active again`);
    }
  }
}
