// The file-backed store: the markdown files are the source of truth; this class keeps an
// in-memory view of them (id -> record) that every read uses, and performs every change as an
// atomic file operation under the cross-process lock.
//
// Identity is the frontmatter id, never the file name. A record is a tombstone when it carries
// `removed`; removal rewrites the file in place with the removal keys and then renames it into
// .tombstones/ (restore does the reverse), so a crash between the two steps leaves one file whose
// keys already say what it is.
import { promises as fsp, lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { ensureDir, fsyncDir, isTempName, moveFileDurable, writeFileAtomic } from './fsatomic.ts';
import { StoreLock } from './lock.ts';
import { fileNameFor, parseMemoryText, serializeMemory } from './memfile.ts';
import type { MemoryRecord, SkippedFile, StoredMemory } from '../types.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { MAX_FILE_BYTES, Skip, derivedId, errorOf, memOf, storedMemory, type FileEntry } from './entries.ts';
import { Listing, listStoreFiles, removeIfDeadTemp } from './listing.ts';
import { Backlog } from './slices.ts';
import { NOTES_DIR, isNoteRel, listNoteFiles, noteRecord, noteTombExtra } from './notes.ts';
import { type ReadFailure, isReadFailure, readAhead, readOne } from './fileWorker.ts';
export { MAX_FILE_BYTES, storedMemory } from './entries.ts';

export type StoreChange =
  | { kind: 'upsert'; mem: StoredMemory; prev?: StoredMemory }
  | { kind: 'delete'; prev: StoredMemory };

/**
 * Told of this process's own locked writes (Freshness): the lock file and the atomic rename move
 * the directory mtime, which must not read as an outside change (a readdir diff of the whole store).
 */
export interface OwnWriteObserver {
  /** Before the lock is taken: whether the directories are as last seen (no unseen outside change). */
  beforeWrite(): boolean;
  /** After the lock is released; `clean` is what beforeWrite said. */
  afterWrite(clean: boolean): void;
}

/** The record part of a stored memory (what a write-back serializes). */
function stripRecord(m: StoredMemory): MemoryRecord {
  const { file, tombstoned, size, mtimeMs, extra, idAssigned, note, ...rec } = m;
  void file, void tombstoned, void size, void mtimeMs, void extra, void idAssigned, void note;
  return rec;
}

/** Paths a background check (validate) handles between two calls of its pause in its bulk loops (a sliced pause yields only once its slice is used up). */
const YIELD_EVERY = 128;
/** Files to read from which a bulk read has a worker read them ahead (fileWorker.ts): below, its start (~20 ms) is not worth it. */
const READ_AHEAD_MIN = 2000;

export class Store {
  readonly dir: string;
  readonly tombDir: string;
  /** The notes area (store/notes.ts): every file under it is a note. */
  readonly notesDir: string;
  /** notesDir and a separator: what every note's path starts with */
  private readonly notesPrefix: string;
  readonly lock: StoreLock;
  private filesMap = new Map<string, FileEntry>();
  /** id -> the file(s) claiming it: one path (the norm) or several (hand copies). */
  private ownersMap = new Map<string, string | string[]>();
  /**
   * Records adopt() placed in the views but not yet under their paths and as their ids' owners:
   * entered at the first use of either map (the background check right after the first answer),
   * not before it. Two of adopt's three map entries per record: ~250 ms at 200k memories.
   */
  private unentered: Backlog | null = null;
  private activeById = new Map<string, StoredMemory>();
  private tombById = new Map<string, StoredMemory>();
  /** Records carrying `merging` (a merge in progress or interrupted): in no other view. */
  private mergingById = new Map<string, StoredMemory>();
  private listeners = new Set<(c: StoreChange) => void>();
  private freshness: () => Promise<void> = () => this.sync();
  private ownWrites: OwnWriteObserver | null = null;
  private warn: (msg: string) => void;

  /** Read-only inspection (doctor): never removes a dead writer's temp file. */
  private readonly readOnly: boolean;

  /** The text a new file's name is built from (the facade passes the secret redaction). */
  private readonly nameText: (body: string) => string;

  constructor(dir: string, opts: { warn?: (msg: string) => void; readOnly?: boolean; nameText?: (body: string) => string } = {}) {
    this.readOnly = opts.readOnly ?? false;
    this.nameText = opts.nameText ?? ((b) => b);
    this.dir = dir;
    this.tombDir = join(dir, '.tombstones');
    this.notesDir = join(dir, NOTES_DIR);
    this.notesPrefix = this.notesDir + sep;
    this.lock = new StoreLock(dir);
    this.warn = opts.warn ?? ((m) => process.stderr.write(`cairn: ${m}\n`));
  }

  /**
   * True while the views hold exactly the records adopt() was last given, notes aside (no id
   * claimed twice, nothing touched since): where each record is, its flags then say.
   */
  get holdsAdoptedAsIs(): boolean {
    return this.unentered !== null;
  }

  /**
   * Whether `r` is the store's record for its id now: 1 active, 2 removed, 0 neither (re-read,
   * deleted, a note, a merge). For a record adopt() was last given, while holdsAdoptedAsIs, its
   * flags say it (no lookup); otherwise the views are asked.
   */
  whereIs(r: StoredMemory): 0 | 1 | 2 {
    if (this.unentered !== null) {
      if (r.file.startsWith(this.notesPrefix)) return 0;
      const view = this.viewFor(r);
      return view === this.activeById ? 1 : view === this.tombById ? 2 : 0;
    }
    return this.activeById.get(r.id) === r ? 1 : this.tombById.get(r.id) === r ? 2 : 0;
  }

  /** The view a record belongs in by its flags. */
  private viewFor(m: StoredMemory): Map<string, StoredMemory> {
    return m.merging ? this.mergingById : m.tombstoned ? this.tombById : this.activeById;
  }

  private get files(): Map<string, FileEntry> {
    this.enterAdopted();
    return this.filesMap;
  }
  private get owners(): Map<string, string | string[]> {
    this.enterAdopted();
    return this.ownersMap;
  }

  /** Enters the rest of the adopted records under their paths and as owners. */
  private enterAdopted(): void {
    if (this.unentered === null) return;
    this.unentered.finish();
    this.unentered = null;
  }

  // ---- reading ---------------------------------------------------------------------------

  active(): IterableIterator<StoredMemory> {
    return this.activeById.values();
  }
  tombstones(): IterableIterator<StoredMemory> {
    return this.tombById.values();
  }
  get activeCount(): number {
    return this.activeById.size;
  }
  get(id: string): StoredMemory | undefined {
    return this.activeById.get(id);
  }
  getTombstone(id: string): StoredMemory | undefined {
    return this.tombById.get(id);
  }
  /** Whether this store has the id at all, active or removed (a team copy of it is then shadowed). */
  holds(id: string): boolean {
    return this.activeById.has(id) || this.tombById.has(id);
  }
  skipped(): SkippedFile[] {
    const out: SkippedFile[] = [];
    for (const [file, e] of this.files) if (e instanceof Skip) out.push({ file, reason: e.error });
    return out.sort((a, b) => a.file.localeCompare(b.file));
  }
  /** size and mtime of every file as last seen: what a persisted cache validates against. */
  fileStats(): ReadonlyMap<string, { size: number; mtimeMs: number }> {
    return this.files;
  }

  onChange(fn: (c: StoreChange) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  setFreshness(fn: () => Promise<void>, ownWrites?: OwnWriteObserver): void {
    this.freshness = fn;
    this.ownWrites = ownWrites ?? null;
  }

  /**
   * Runs a write under the lock, telling the freshness strategy it was ours. It does not wait for
   * a running check of adopted records (validate): that check re-stats every path before it reads
   * or drops it, so a file a write made or moved meanwhile is never taken for a stale one (the
   * same rule as for a file the watcher reported), and a write re-reads its target under the lock.
   */
  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    const o = this.ownWrites;
    const clean = o?.beforeWrite() ?? false;
    try {
      return await this.lock.run(fn);
    } finally {
      o?.afterWrite(clean);
    }
  }
  /**
   * Every operation calls this first, so hand edits are seen without a restart. While adopted
   * records are being checked against the files (validate), an operation waits for the check to
   * finish: it may change the store, and must see it as it is. A `read` (search, list, show,
   * overview) only waits as long as the freshness strategy says (a big store answers from the
   * snapshot meanwhile). A `create` (a new memory: memory_write, a confirmed pending write)
   * does not wait for the check either: it needs the lock and the gates, which see every memory
   * the snapshot holds, and it touches no existing file; a hand edit made before the start is
   * seen when the check reaches it, as for a read.
   */
  ensureFresh(opts?: { read: true } | { create: true }): Promise<void> {
    const v = this.validation;
    if (v && !opts) return v.then(() => this.freshness());
    return this.freshness();
  }

  /** The running check of adopted records (validate), which writes wait for. */
  private validation: Promise<void> | null = null;
  /** True while adopted records are being checked against the files. */
  get validating(): boolean {
    return this.validation !== null;
  }
  /** Resolves once no check of adopted records runs (at once when none does). */
  async validated(): Promise<void> {
    while (this.validation) await this.validation.catch(() => undefined);
  }
  setValidation(p: Promise<void>): void {
    this.validation = p;
    void p.finally(() => {
      if (this.validation === p) this.validation = null;
    });
  }

  // ---- loading and reconciling ------------------------------------------------------------

  /** First read. A seed record whose file still has the same size and mtime is reused unparsed. */
  async load(seed?: Iterable<StoredMemory>, progress?: (done: number, total: number) => void): Promise<void> {
    const seeded = new Map<string, StoredMemory>();
    // Notes are re-read (a cached record would not say it is a note); they are few and small.
    if (seed) for (const m of seed) if (this.noteRel(m.file) === null) seeded.set(m.file, m);
    await this.reconcile(await this.listFiles(!this.readOnly), seeded, undefined, progress);
    await this.recoverMerges();
  }

  /**
   * Takes cached records as the view without touching a file (a start that answers from the
   * snapshot at once); validate() then checks them against the files. Call before any listener
   * subscribes: no change is reported for adopted records. Notes are left to validate() (a cached
   * record would not say it is a note). Returns false, adopting nothing, for a cache that names
   * files outside this store (a copied or moved store, another store's cache). `cleanTemps`:
   * remove dead writers' temp files now, as a load does (a small store; a big one leaves them to
   * validate(), whose listing removes them: a second listing of the whole store before the first
   * answer cost ~65 ms at 50k; a peek leaves them).
   */
  adopt(seed: readonly StoredMemory[], opts: { cleanTemps: boolean } = { cleanTemps: false }): boolean {
    // The norm, into an empty store: every id claimed once. One pass checks each path and puts
    // its record in its view; the records go under their paths and owners later (enterAdopted).
    // Two passes over 200k paths, a lookup and three map entries per record took ~450 ms; this ~150.
    const empty = this.filesMap.size === 0 && this.ownersMap.size === 0 && this.unentered === null;
    if (empty) {
      const placed = this.placeOnce(seed);
      if (placed === 'foreign') return false;
      if (opts.cleanTemps) this.cleanDeadTemps();
      if (placed === 'once') {
        this.unentered = new Backlog(seed.length, (i) => {
          const m = seed[i]!;
          if (this.noteRel(m.file) !== null) return;
          this.filesMap.set(m.file, m);
          this.ownersMap.set(m.id, m.file);
        });
        return true;
      }
    } else {
      for (const m of seed) if (!this.isMemoryPath(m.file)) return false;
      if (opts.cleanTemps) this.cleanDeadTemps();
    }
    // One pass: a record whose id no other file claims is placed at once; an id two files claim
    // is elected once all are in (no second walk over every id, no lookup of every path).
    let claimedTwice: Set<string> | null = null;
    for (const m of seed) {
      if (this.noteRel(m.file) !== null) continue;
      this.files.set(m.file, m);
      if (!this.owners.has(m.id)) {
        this.owners.set(m.id, m.file);
        (m.merging ? this.mergingById : m.tombstoned ? this.tombById : this.activeById).set(m.id, m);
      } else {
        this.addOwner(m.id, m.file);
        (claimedTwice ??= new Set()).add(m.id);
      }
    }
    if (claimedTwice) for (const id of claimedTwice) this.elect(id);
    return true;
  }

  /**
   * Places every record in its view, notes aside, checking each path on the way. 'foreign': a
   * path outside the store; 'twice': an id claimed by two records. Both leave the views empty.
   */
  private placeOnce(seed: readonly StoredMemory[]): 'once' | 'twice' | 'foreign' {
    const { activeById, tombById, mergingById } = this;
    let placed = 0;
    let foreign = false;
    for (const m of seed) {
      const p = m.file;
      if (p.startsWith(this.notesPrefix)) {
        if (this.noteRel(p) !== null) continue;
        foreign = true;
        break;
      }
      if (!this.isMemoryPath(p)) {
        foreign = true;
        break;
      }
      this.viewFor(m).set(m.id, m);
      placed++;
    }
    // An id claimed twice took one entry for two records (no lookup per record to find out).
    if (!foreign && activeById.size + tombById.size + mergingById.size === placed) return 'once';
    activeById.clear();
    tombById.clear();
    mergingById.clear();
    return foreign ? 'foreign' : 'twice';
  }

  /** Removes the temp files of dead writers (names only: no stat), as a load does. */
  private cleanDeadTemps(): void {
    if (this.readOnly) return;
    for (const d of [this.dir, this.tombDir]) {
      let names: string[];
      try {
        names = readdirSync(d);
      } catch {
        continue;
      }
      for (const name of names) if (isTempName(name)) removeIfDeadTemp(d, name);
    }
  }

  /**
   * Checks the view against the files (after adopt): every file is stat'ed, new and changed ones
   * are read, gone ones dropped, and every change is reported to the listeners. With `pause`,
   * it yields between batches, so a server keeps answering while a big store is checked; a path
   * the watcher refreshed meanwhile is stat'ed again before it is read or dropped. Returns how
   * many files changed.
   */
  async validate(pause?: () => Promise<void>, progress?: (done: number, total: number) => void): Promise<number> {
    // A background check enters adopted records a slice at a time (at 50k memories ~25 ms in
    // one piece, which a write arriving then waited for); anything that needs them first
    // enters the rest at once.
    if (pause && this.unentered !== null) await this.unentered.drain(pause, YIELD_EVERY * 16);
    this.enterAdopted();
    const found = await this.listFiles(!this.readOnly, pause);
    const n = await this.reconcile(found, new Map(), pause, progress);
    await this.recoverMerges();
    return n;
  }

  /** Full reconcile: every file is stat'ed; only changed ones are re-read. */
  async sync(): Promise<void> {
    await this.reconcile(await this.listFiles(false), new Map());
  }

  /** Reconciles only the given paths (a watcher's report). Paths outside the store are ignored. */
  async refreshPaths(paths: Iterable<string>): Promise<void> {
    let tombOk: boolean | undefined;
    for (const p of new Set(paths)) {
      if (!this.isMemoryPath(p)) continue;
      if (dirname(p) === this.tombDir && !(tombOk ??= await this.tombDirUsable())) continue;
      const st = await fsp.lstat(p).catch(() => null);
      if (st && st.isFile()) this.refreshOne(p, st.size, st.mtimeMs, undefined);
      else if (this.files.has(p)) this.dropPath(p);
    }
  }

  /** A path's place in the notes area ("projects/a.md"), or null when it is not a note's path. */
  noteRel(p: string): string | null {
    if (!p.startsWith(this.notesPrefix)) return null;
    const rel = p.slice(this.notesDir.length + 1).split(sep).join('/');
    return isNoteRel(rel) ? rel : null;
  }

  /** A note's path, or a memory file's (`*.md`, not hidden) right in the store or .tombstones/. No allocation: a start from the cache asks it of every record. */
  private isMemoryPath(p: string): boolean {
    if (p.startsWith(this.notesPrefix)) return this.noteRel(p) !== null;
    const cut = p.lastIndexOf(sep);
    if (cut < 0 || !p.endsWith('.md') || p.charCodeAt(cut + 1) === 46 /* . */) return false;
    return (cut === this.dir.length && p.startsWith(this.dir)) || (cut === this.tombDir.length && p.startsWith(this.tombDir));
  }

  private async listFiles(cleanTemps: boolean, pause?: () => Promise<void>): Promise<Listing> {
    const tombOk = await this.tombDirUsable();
    const dirs = tombOk ? [this.dir, this.tombDir] : [this.dir];
    const found = await listStoreFiles([...dirs, this.notesDir], cleanTemps, this.onSymlink, dirs.length, pause);
    this.addNotes(found, dirs.length, cleanTemps);
    return found;
  }

  private readonly onSymlink = (p: string): void => {
    // Said once (setEntry), like every other skipped file: a memory must never vanish silently.
    // Through setEntry, so a record adopted from the cache for this path is dropped too.
    this.setEntry(p, new Skip(0, 0, 'is a symbolic link; cairn does not follow links'));
  };

  private addNotes(found: Listing, di: number, cleanTemps: boolean): void {
    listNoteFiles(this.notesDir, (rel, size, mtimeMs) => found.add(di, rel, size, mtimeMs), this.onSymlink, cleanTemps);
  }

  /** Reconciles the notes area only (a change in it the watcher could not name, e.g. a folder moved). */
  async syncNotes(): Promise<void> {
    const found = new Listing([this.notesDir]);
    this.addNotes(found, 0, false);
    for (const p of [...this.notePaths]) if (!found.has(p)) this.dropPath(p);
    for (let i = 0; i < found.length; i++) this.refreshOne(found.path(i), found.size(i), found.mtimeMs(i), undefined);
  }

  /**
   * .tombstones/ must be a real directory: were it a symlink, loads would read memories from
   * wherever it points and removals would write there, outside the store. Absent is fine
   * (created on the first removal).
   */
  private async tombDirUsable(): Promise<boolean> {
    const st = await fsp.lstat(this.tombDir).catch(() => null);
    if (!st || st.isDirectory()) return true;
    const reason = st.isSymbolicLink() ? 'is a symbolic link; cairn does not follow links out of the store' : 'is not a directory';
    if (this.warnOnce.get(this.tombDir) !== reason) {
      this.warnOnce.set(this.tombDir, reason);
      this.warn(`skipped ${this.tombDir}: ${reason}`);
    }
    return false;
  }

  private async reconcile(found: Listing, seeded: Map<string, StoredMemory>, pause?: () => Promise<void>, progress?: (done: number, total: number) => void): Promise<number> {
    // Which listed files are new or changed, and how many known files are still there.
    const changed: number[] = [];
    let present = 0;
    for (let i = 0; i < found.length; i++) {
      // A server checking in the background yields every so often: this loop and the next join
      // and look up every path (~0.1-0.2 s at 50k, which would otherwise hold up every call).
      if (pause && i % YIELD_EVERY === YIELD_EVERY - 1) await pause();
      const cur = this.files.get(found.path(i));
      if (cur) present++;
      if (!cur || cur.size !== found.size(i) || cur.mtimeMs !== found.mtimeMs(i)) changed.push(i);
    }
    // Files gone are dropped before anything is re-read, so a file moved between the store and
    // .tombstones/ never shows up as two files claiming one id. When every known file was listed
    // (the usual full sync) there is nothing to drop and no set of every path is built.
    let dropped = 0;
    if (present < this.files.size) {
      if (pause) await found.index(pause, YIELD_EVERY);
      let k = 0;
      for (const p of [...this.files.keys()]) {
        if (pause && ++k % YIELD_EVERY === 0) await pause();
        if (found.has(p) || errorOf(this.files.get(p))?.startsWith('is a symbolic')) continue;
        // Listed while the process kept answering: a file the watcher added since is not gone.
        if (pause && this.isMemoryPath(p) && (await fsp.lstat(p).catch(() => null))?.isFile()) continue;
        this.dropPath(p);
        dropped++;
      }
    }
    // A record the caller seeded is reused when its file has not changed since.
    const reusable = (p: string, size: number, mtimeMs: number): StoredMemory | undefined => {
      const s = seeded.get(p);
      return s && s.size === size && s.mtimeMs === mtimeMs ? s : undefined;
    };
    // Synchronous reads (for many small files they beat async reads several times over: an async
    // readFile is four libuv round trips). A bulk read without pauses (a load, a command's check)
    // has them done by a worker thread a batch ahead (fileWorker.ts) while this one parses.
    let texts: AsyncGenerator<string | ReadFailure, void, undefined> | null = null;
    if (!pause && changed.length >= READ_AHEAD_MIN) {
      const paths: string[] = [];
      for (const i of changed) {
        const p = found.path(i);
        if (found.size(i) <= MAX_FILE_BYTES && !reusable(p, found.size(i), found.mtimeMs(i))) paths.push(p);
      }
      texts = readAhead(paths);
    }
    try {
      let n = 0;
      let read = 0;
      progress?.(0, changed.length);
      for (const i of changed) {
        if (progress && ++read % 1000 === 0) progress(read, changed.length);
        const p = found.path(i);
        let size = found.size(i);
        let mtimeMs = found.mtimeMs(i);
        if (pause) {
          if (++n % 100 === 0) await pause();
          // The listing may be older than what the watcher has reported since: stat it again.
          const st = await fsp.lstat(p).catch(() => null);
          if (!st?.isFile()) continue; // gone meanwhile: the watcher reports it
          size = st.size;
          mtimeMs = st.mtimeMs;
        }
        const s = reusable(p, size, mtimeMs);
        // A reused record is keyed by its own path string (equal to p): one copy per memory.
        if (s) this.refreshOne(s.file, size, mtimeMs, s);
        else this.refreshOne(p, size, mtimeMs, undefined, texts && size <= MAX_FILE_BYTES ? await nextText(texts) : undefined);
      }
    } finally {
      await texts?.return(undefined);
    }
    progress?.(changed.length, changed.length);
    return changed.length + dropped;
  }

  /** `read`: the file's text (or why it could not be read) when it was read ahead. */
  private refreshOne(p: string, size: number, mtimeMs: number, seeded: StoredMemory | undefined, read?: string | ReadFailure): void {
    const cur = this.files.get(p);
    if (cur && cur.size === size && cur.mtimeMs === mtimeMs && !seeded) return;
    let entry: FileEntry;
    if (seeded) {
      entry = seeded;
    } else if (size > MAX_FILE_BYTES) {
      entry = new Skip(size, mtimeMs, `is ${size} bytes, over the ${MAX_FILE_BYTES}-byte limit for a memory file`);
    } else {
      const text = read ?? readOne(p);
      if (isReadFailure(text)) {
        if (text.code === 'ENOENT') {
          if (this.files.has(p)) this.dropPath(p);
          return;
        }
        entry = new Skip(size, mtimeMs, `cannot be read: ${text.message}`);
        this.setEntry(p, entry);
        return;
      }
      entry = this.entryFromText(p, text, size, mtimeMs);
    }
    this.setEntry(p, entry);
  }

  private entryFromText(p: string, text: string, size: number, mtimeMs: number): FileEntry {
    if (text.includes('\u0000')) return new Skip(size, mtimeMs, 'is binary (contains NUL bytes)');
    const rel = this.noteRel(p);
    if (rel !== null) return noteRecord(p, rel, text, size, mtimeMs);
    try {
      const { record, extra } = parseMemoryText(text);
      // The minimal hand-made file (format.md): no `created` means the file's mtime, for
      // `updated` too. Both, like a missing id, are written down on the next change through
      // cairn; until then every process derives the same values from the same unchanged file.
      const created = record.created ?? new Date(Math.floor(mtimeMs)).toISOString();
      const updated = record.updated ?? created;
      const idAssigned = record.id === null;
      const id = record.id ?? derivedId(basename(p), created);
      const mem = storedMemory({ ...record, id, created, updated }, p, size, mtimeMs, extra);
      if (idAssigned) mem.idAssigned = true;
      return mem;
    } catch (err) {
      return new Skip(size, mtimeMs, (err as Error).message);
    }
  }

  /** Paths of the notes area this view knows (syncNotes never walks every file). */
  private notePaths = new Set<string>();

  private setEntry(p: string, entry: FileEntry): void {
    if (this.noteRel(p) !== null) this.notePaths.add(p);
    const old = this.files.get(p);
    const oldId = memOf(old)?.id;
    const error = errorOf(entry);
    if (errorOf(old) && !error) this.warnOnce.delete(p);
    this.files.set(p, entry);
    if (error && this.warnOnce.get(p) !== error) {
      this.warnOnce.set(p, error);
      this.warn(`skipped ${p}: ${error}`);
    }
    const mem = memOf(entry);
    if (oldId) this.removeOwner(oldId, p);
    if (mem) this.addOwner(mem.id, p);
    if (oldId && oldId !== mem?.id) this.elect(oldId);
    if (mem) this.elect(mem.id);
  }

  private addOwner(id: string, p: string): void {
    const cur = this.owners.get(id);
    if (cur === undefined) this.owners.set(id, p);
    else if (typeof cur === 'string') {
      if (cur !== p) this.owners.set(id, [cur, p]);
    } else if (!cur.includes(p)) cur.push(p);
  }
  private removeOwner(id: string, p: string): void {
    const cur = this.owners.get(id);
    if (cur === p) this.owners.delete(id);
    else if (Array.isArray(cur)) {
      const rest = cur.filter((q) => q !== p);
      if (rest.length === 0) this.owners.delete(id);
      else this.owners.set(id, rest.length === 1 ? rest[0]! : rest);
    }
  }
  private ownersOf(id: string): string[] {
    const cur = this.owners.get(id);
    return cur === undefined ? [] : typeof cur === 'string' ? [cur] : cur.slice();
  }
  private warnOnce = new Map<string, string>();

  private dropPath(p: string): void {
    const old = this.files.get(p);
    this.files.delete(p);
    this.notePaths.delete(p);
    this.warnOnce.delete(p);
    const id = memOf(old)?.id;
    if (id) {
      this.removeOwner(id, p);
      this.elect(id);
    }
  }

  /**
   * Decides which file holds an id. Two files claiming one id (a hand copy) resolve
   * deterministically: the later of updated/removed wins, then the path that sorts first;
   * the loser is reported as skipped.
   */
  private elect(id: string): void {
    const paths = this.ownersOf(id);
    if (paths.length === 0) this.owners.delete(id);
    const cands = paths.map((p) => memOf(this.files.get(p))).filter((m): m is StoredMemory => m !== undefined);
    const stamp = (m: StoredMemory) => (m.removed && m.removed > m.updated ? m.removed : m.updated);
    cands.sort((a, b) => (stamp(a) === stamp(b) ? a.file.localeCompare(b.file) : stamp(a) > stamp(b) ? -1 : 1));
    const winner = cands[0];
    for (const loser of cands.slice(1)) {
      const reason = `duplicate id ${id}: ${winner!.file} is used instead`;
      if (this.warnOnce.get(loser.file) !== reason) {
        this.warnOnce.set(loser.file, reason);
        this.warn(`skipped ${loser.file}: ${reason}`);
      }
    }
    const prev = this.activeById.get(id) ?? this.tombById.get(id);
    this.activeById.delete(id);
    this.tombById.delete(id);
    this.mergingById.delete(id);
    // A record with `merging` is no memory yet (or any more): kept aside, never reported.
    if (winner?.merging) {
      this.mergingById.set(id, winner);
      if (prev) for (const fn of this.listeners) fn({ kind: 'delete', prev });
      return;
    }
    if (winner) (winner.tombstoned ? this.tombById : this.activeById).set(id, winner);
    if (prev === winner) return;
    const change: StoreChange = winner ? { kind: 'upsert', mem: winner, ...(prev ? { prev } : {}) } : { kind: 'delete', prev: prev! };
    if (!winner && !prev) return;
    for (const fn of this.listeners) fn(change);
  }

  /** Duplicate-id losers (files that parse but are shadowed by another file with the same id). */
  shadowed(): SkippedFile[] {
    const out: SkippedFile[] = [];
    for (const [file, reason] of this.warnOnce) if (reason.startsWith('duplicate id') && memOf(this.files.get(file))) out.push({ file, reason });
    return out;
  }

  // ---- writing (every method runs under the cross-process lock) ----------------------------

  /** A record whose merge is in progress or was interrupted (it carries `merging`). */
  getMerging(id: string): StoredMemory | undefined {
    return this.mergingById.get(id);
  }

  /** Re-reads one record's file under the lock so a change by another process is never lost. */
  private async fresh(id: string): Promise<StoredMemory | undefined> {
    const known = this.activeById.get(id) ?? this.tombById.get(id);
    if (known) {
      const st = await fsp.lstat(known.file).catch(() => null);
      if (st?.isFile()) {
        this.refreshOne(known.file, st.size, st.mtimeMs, undefined);
        const again = this.activeById.get(id) ?? this.tombById.get(id);
        if (again && again.file === known.file) return again;
      }
    }
    await this.sync();
    return this.activeById.get(id) ?? this.tombById.get(id);
  }

  /** The record with this id in any view (active, tombstone, merging), re-read under the lock. */
  private async freshAny(id: string): Promise<StoredMemory | undefined> {
    const known = this.mergingById.get(id);
    if (known) {
      const st = await fsp.lstat(known.file).catch(() => null);
      if (st?.isFile()) this.refreshOne(known.file, st.size, st.mtimeMs, undefined);
      else await this.sync();
      const again = this.mergingById.get(id);
      if (again) return again;
    }
    return this.fresh(id);
  }

  /** Tombstones (tomb) or restores (no tomb) one record: rewrite in place, then move (as modify). */
  private async moveRecord(cur: StoredMemory, next: MemoryRecord): Promise<StoredMemory> {
    const targetDir = next.removed !== undefined ? this.tombDir : this.dir;
    const written = await this.writeRecord(cur.file, next, cur.extra);
    if (dirname(cur.file) === targetDir) return written;
    await ensureDir(targetDir);
    const dest = await this.freeName(targetDir, basename(cur.file));
    await moveFileDurable(cur.file, dest);
    this.files.delete(cur.file);
    this.removeOwner(cur.id, cur.file);
    const moved = storedMemory(written, dest, written.size, written.mtimeMs, written.extra);
    this.setEntry(dest, moved);
    return moved;
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

  private async writeRecord(file: string, rec: MemoryRecord, extra: readonly string[]): Promise<StoredMemory> {
    const text = serializeMemory(rec, extra);
    await writeFileAtomic(file, text);
    const st = statSync(file);
    const mem = storedMemory(rec, file, st.size, st.mtimeMs, extra);
    this.setEntry(file, mem);
    return mem;
  }

  private async freeName(dir: string, name: string): Promise<string> {
    let candidate = join(dir, name);
    for (let n = 2; this.files.has(candidate) || lstatSync(candidate, { throwIfNoEntry: false }); n++) {
      candidate = join(dir, name.replace(/\.md$/, `-${n}.md`));
    }
    return candidate;
  }

  /** Writes a new record (a tombstone goes straight into .tombstones/); `extra` as in the file format. */
  async create(rec: MemoryRecord, extra: readonly string[] = []): Promise<StoredMemory> {
    return this.locked(async () => {
      const dir = rec.removed !== undefined ? this.tombDir : this.dir;
      await ensureDir(this.dir);
      await ensureDir(dir);
      const file = await this.freeName(dir, fileNameFor(rec, this.nameText));
      return this.writeRecord(file, rec, extra);
    });
  }

  /**
   * Read-modify-write of one record under the lock. `mutate` sees the record as it is on disk
   * now and returns the new record (or throws to abort: nothing is written).
   */
  async modify(id: string, mutate: (cur: StoredMemory) => MemoryRecord | Promise<MemoryRecord>): Promise<StoredMemory> {
    return this.locked(async () => {
      const cur = await this.fresh(id);
      if (!cur) throw new NotFoundError(`no memory with id ${id}`);
      // A note's file is the model's text only: never rewritten as a memory file.
      if (cur.note !== undefined) throw new ConflictError(`${id} is the note ${cur.note}: change it with the memory tool`);
      const next = await mutate(cur);
      if (next.id !== cur.id) throw new ConflictError(`a write-back may not change the id of ${cur.id}`);
      const wantTomb = next.removed !== undefined;
      const targetDir = wantTomb ? this.tombDir : this.dir;
      // Checked before step 1, so a refused removal leaves the file untouched.
      if (targetDir === this.tombDir && dirname(cur.file) !== targetDir && !(await this.tombDirUsable())) {
        throw new ConflictError(`cannot remove ${id}: ${this.tombDir} is not a real directory (a symbolic link or a file); cairn does not follow links out of the store, so replace it with a directory`);
      }
      // Step 1: rewrite in place (atomic). The keys now say what the record is.
      const written = await this.writeRecord(cur.file, next, cur.extra);
      if (dirname(cur.file) === targetDir) return written;
      // Step 2: move between the active dir and .tombstones/ (atomic rename).
      await ensureDir(targetDir);
      const dest = await this.freeName(targetDir, basename(cur.file));
      await moveFileDurable(cur.file, dest);
      this.files.delete(cur.file);
      this.removeOwner(id, cur.file);
      const moved = storedMemory(written, dest, written.size, written.mtimeMs, written.extra);
      this.setEntry(dest, moved);
      return moved;
    });
  }

  // ---- notes (the memory tool's files; paths are checked to lie in the notes area by core/notes) ----

  /** The note at `file` as on disk now (under the lock): its text, or null when there is none. */
  private async noteText(file: string): Promise<string | null> {
    const st = await fsp.lstat(file).catch(() => null);
    if (!st) return null;
    if (!st.isFile()) throw new ConflictError(`${file} is not a regular file`);
    const text = await fsp.readFile(file, 'utf8');
    this.refreshOne(file, st.size, st.mtimeMs, undefined);
    return text;
  }

  private async noteWritten(file: string): Promise<StoredMemory> {
    const st = await fsp.stat(file);
    this.refreshOne(file, st.size, st.mtimeMs, undefined);
    const m = memOf(this.files.get(file));
    if (!m) throw new ConflictError(`${file} was written but cannot be read back as a note`);
    return m;
  }

  /**
   * Read-modify-write of one note under the lock: `edit` sees the text on disk now (null: no such
   * file) and returns the new text, or throws to abort (nothing is written). Atomic like every write.
   */
  async editNote(file: string, edit: (cur: string | null) => string | Promise<string>): Promise<StoredMemory> {
    if (this.noteRel(file) === null) throw new ConflictError(`${file} is not in the notes area`);
    return this.locked(async () => {
      const next = await edit(await this.noteText(file));
      await ensureDir(dirname(file));
      await writeFileAtomic(file, next);
      return this.noteWritten(file);
    });
  }

  /**
   * Moves the notes at `files` to .tombstones/: for each, a tombstone record (built by `tomb` from
   * the note as on disk now, carrying its path and exact text) is written first, then the note is
   * unlinked, so a crash in between leaves both, never neither. Returns the tombstones.
   */
  async removeNotes(files: readonly string[], tomb: (note: StoredMemory) => MemoryRecord): Promise<StoredMemory[]> {
    return this.locked(async () => {
      if (!(await this.tombDirUsable())) throw new ConflictError(`cannot delete: ${this.tombDir} is not a real directory (a symbolic link or a file); cairn does not follow links out of the store, so replace it with a directory`);
      const out: StoredMemory[] = [];
      for (const file of files) {
        const text = await this.noteText(file);
        const note = memOf(this.files.get(file));
        if (text === null || !note || note.note === undefined) continue;
        await ensureDir(this.tombDir);
        const dest = await this.freeName(this.tombDir, `${basename(file).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/\.md$/, '')}-note.md`);
        out.push(await this.writeRecord(dest, tomb(note), noteTombExtra(note.note, text)));
        await fsp.unlink(file);
        await fsyncDir(dirname(file));
        this.dropPath(file);
      }
      return out;
    });
  }

  /**
   * Renames a note file or a folder of notes; never overwrites: a file is linked to its new name
   * (fails if the name exists) and then unlinked; a folder is renamed after a check under the lock.
   */
  async renameNote(from: string, to: string): Promise<void> {
    if (this.noteRel(to) === null) throw new ConflictError(`${to} is not in the notes area`);
    await this.locked(async () => {
      const st = await fsp.lstat(from);
      await ensureDir(dirname(to));
      if (st.isFile()) {
        await fsp.link(from, to);
        await fsp.unlink(from);
      } else {
        if (await fsp.lstat(to).catch(() => null)) throw Object.assign(new Error(`${to} exists`), { code: 'EEXIST' });
        await fsp.rename(from, to);
      }
      await fsyncDir(dirname(to));
      if (dirname(from) !== dirname(to)) await fsyncDir(dirname(from));
      await this.syncNotes();
    });
  }

  /** Puts a deleted note back (its tombstone `id`) at `file`, which must be free; drops the tombstone. */
  async restoreNote(id: string, file: string, text: string): Promise<StoredMemory> {
    if (this.noteRel(file) === null) throw new ConflictError(`${file} is not in the notes area`);
    return this.locked(async () => {
      const t = await this.fresh(id);
      if (!t || !t.tombstoned) throw new NotFoundError(`no removed memory with id ${id}`);
      if (await fsp.lstat(file).catch(() => null)) throw new ConflictError(`cannot restore ${id}: its path now holds another file; rename that one first`);
      await ensureDir(dirname(file));
      await writeFileAtomic(file, text);
      const note = await this.noteWritten(file);
      await fsp.rm(t.file, { force: true });
      this.dropPath(t.file);
      return note;
    });
  }

  /** Permanently deletes tombstone files (the only hard delete). */
  async purgeTombstones(ids: readonly string[]): Promise<string[]> {
    return this.locked(async () => {
      const done: string[] = [];
      for (const id of ids) {
        const t = await this.fresh(id);
        if (!t || !t.tombstoned) continue;
        await fsp.rm(t.file, { force: true });
        this.dropPath(t.file);
        done.push(id);
      }
      return done;
    });
  }
}

/** The next text of a read-ahead that must have one. */
async function nextText(texts: AsyncGenerator<string | ReadFailure, void, undefined>): Promise<string | ReadFailure> {
  const r = await texts.next();
  if (r.done) throw new Error('the read-ahead ended before its last file');
  return r.value;
}
