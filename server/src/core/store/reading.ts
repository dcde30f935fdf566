// The store's second floor: reading the files into the views (table.ts). A first load lists and
// reads every file (a worker reads ahead for big loads, fileWorker.ts); a start from the cache
// adopts the cached records and checks them against the files afterwards (validate); a watcher's
// report refreshes single paths; hand edits are seen through ensureFresh before every operation.
import { promises as fsp } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileEntry } from './memfile.ts';
import type { StoredMemory } from '../types.ts';
import { MAX_FILE_BYTES, Skip, errorOf, type FileEntry } from './entries.ts';
import { type ListedAhead, Listing, cleanDeadTemps, listAhead, listStoreFiles } from './listing.ts';
import { Backlog } from './slices.ts';
import { listNoteFiles } from './notes.ts';
import { type ReadFailure, isReadFailure, readAhead, readOne } from './fileWorker.ts';
import { StoreViews } from './table.ts';

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

/** Paths a background check (validate) handles between two calls of its pause in its bulk loops (a sliced pause yields only once its slice is used up). */
const YIELD_EVERY = 128;
/** Files to read from which a bulk read has a worker read them ahead (fileWorker.ts): below, its start (~20 ms) is not worth it. */
const READ_AHEAD_MIN = 2000;

export abstract class StoreReader extends StoreViews {
  /** Resolves interrupted merges (store.ts): a load and a check end with it. */
  abstract recoverMerges(): Promise<number>;
  private freshness: () => Promise<void> = () => this.sync();
  protected ownWrites: OwnWriteObserver | null = null;

  setFreshness(fn: () => Promise<void>, ownWrites?: OwnWriteObserver): void {
    this.freshness = fn;
    this.ownWrites = ownWrites ?? null;
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
  adopt(seed: readonly StoredMemory[], opts: { cleanTemps: boolean; uniqueIds?: boolean } = { cleanTemps: false }): boolean {
    // The norm, into an empty store: every id claimed once. One pass checks each path and puts
    // its record in its view; the records go under their paths and owners later (enterAdopted).
    // Two passes over 200k paths, a lookup and three map entries per record took ~450 ms; this ~150.
    // Records known to claim each id once (`uniqueIds`: a cache cairn saved from its views) go
    // into the views later too: one pass checks the paths and collects the active ones.
    const empty = this.filesMap.size === 0 && this.ownersMap.size === 0 && this.unentered === null;
    if (empty) {
      const later = opts.uniqueIds === true;
      const placed = later ? this.checkPaths(seed) : this.placeOnce(seed);
      if (placed === 'foreign') return false;
      if (opts.cleanTemps && !this.readOnly) cleanDeadTemps([this.dir, this.tombDir]);
      if (placed === 'once' || Array.isArray(placed)) {
        if (Array.isArray(placed)) this.seed = placed;
        this.unentered = new Backlog(seed.length, (i) => this.enterOne(seed[i]!, later));
        this.unenteredRecords = seed;
        return true;
      }
    } else {
      for (const m of seed) if (!this.isMemoryPath(m.file)) return false;
      if (opts.cleanTemps && !this.readOnly) cleanDeadTemps([this.dir, this.tombDir]);
    }
    // One pass: a record whose id no other file claims is placed at once; an id two files claim
    // is elected once all are in (no second walk over every id, no lookup of every path).
    let claimedTwice: Set<string> | null = null;
    for (const m of seed) {
      if (this.noteRel(m.file) !== null) continue;
      this.files.set(m.file, m);
      if (!this.owners.has(m.id)) {
        this.owners.set(m.id, m.file);
        this.viewFor(m).set(m.id, m);
      } else {
        this.addOwner(m.id, m.file);
        (claimedTwice ??= new Set()).add(m.id);
      }
    }
    if (claimedTwice) for (const id of claimedTwice) this.elect(id);
    return true;
  }

  /** Checks each record's path as placeOnce does, placing nothing: the active ones, or 'foreign'. */
  private checkPaths(seed: readonly StoredMemory[]): StoredMemory[] | 'foreign' {
    const active: StoredMemory[] = [];
    for (const m of seed) {
      if (this.isForeign(m.file)) return 'foreign';
      if (!m.file.startsWith(this.notesPrefix) && !m.merging && !m.tombstoned) active.push(m);
    }
    return active;
  }

  /** A cached record's path this store would not have written: outside it, or a note's path that is no note. */
  private isForeign(p: string): boolean {
    return p.startsWith(this.notesPrefix) ? this.noteRel(p) === null : !this.isMemoryPath(p);
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
      if (this.isForeign(m.file)) {
        foreign = true;
        break;
      }
      if (m.file.startsWith(this.notesPrefix)) continue;
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

  /**
   * Checks the view against the files (after adopt): every file is stat'ed, new and changed ones
   * are read, gone ones dropped, and every change is reported to the listeners. With `pause`,
   * it yields between batches, so a server keeps answering while a big store is checked; a path
   * the watcher refreshed meanwhile is stat'ed again before it is read or dropped. Returns how
   * many files changed.
   */
  async validate(pause?: () => Promise<void>, progress?: (done: number, total: number) => void): Promise<number> {
    // A background check first makes the filter a created memory asks of the adopted records
    // still to enter (tailFilter.ts), then enters them, a slice at a time each (at 50k memories
    // ~25 ms of entering in one piece, which a write arriving then waited for); anything that
    // needs them entered first enters the rest at once.
    if (pause && this.unentered !== null) {
      await this.makeFilter(pause);
      if (this.unentered !== null) await this.unentered.drain(pause, YIELD_EVERY * 16);
    }
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

  private async listFiles(cleanTemps: boolean, pause?: () => Promise<void>): Promise<Listing> {
    const tombOk = await this.tombDirUsable();
    const dirs = tombOk ? [this.dir, this.tombDir] : [this.dir];
    // A listing started ahead is for the next check without pauses (a command's); any other drops it.
    const ahead = pause ? null : this.ahead;
    this.ahead = null;
    const found = await listStoreFiles([...dirs, this.notesDir], cleanTemps, this.onSymlink, dirs.length, pause, ahead ?? undefined);
    this.addNotes(found, dirs.length, cleanTemps);
    return found;
  }

  private ahead: Map<string, ListedAhead> | null = null;
  /**
   * Starts listing the store's big directories in a worker thread (listing.ts, listAhead) for the
   * next check without pauses to take: a command calls it before it decodes the cache, so the
   * two overlap. A small store is listed as usual, when checked.
   */
  listAhead(): void {
    const m = new Map<string, ListedAhead>();
    for (const d of [this.dir, this.tombDir]) {
      const pre = listAhead(d);
      if (pre) m.set(d, pre);
    }
    this.ahead = m.size > 0 ? m : null;
  }

  private readonly onSymlink = (p: string): void => {
    // Said once (setEntry), like every other skipped file: a memory must never vanish silently.
    // Through setEntry, so a record adopted from the cache for this path is dropped too.
    this.setEntry(p, new Skip(0, 0, 'is a symbolic link; cairn does not follow links'));
  };

  /** Notes whose file has more than one name (hard links), seen by the last listing: repairNoteMoves() looks at them. */
  protected linkedNotes = new Set<string>();

  private addNotes(found: Listing, di: number, cleanTemps: boolean): void {
    this.linkedNotes.clear();
    listNoteFiles(this.notesDir, (rel, size, mtimeMs) => found.add(di, rel, size, mtimeMs), this.onSymlink, cleanTemps, (rel) => this.linkedNotes.add(join(this.notesDir, rel)));
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
  protected async tombDirUsable(): Promise<boolean> {
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
  protected refreshOne(p: string, size: number, mtimeMs: number, seeded: StoredMemory | undefined, read?: string | ReadFailure): void {
    const cur = this.entryAt(p);
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
      entry = fileEntry(p, text, size, mtimeMs, this.noteRel(p));
    }
    this.setEntry(p, entry);
  }
}

/** The next text of a read-ahead that must have one. */
async function nextText(texts: AsyncGenerator<string | ReadFailure, void, undefined>): Promise<string | ReadFailure> {
  const r = await texts.next();
  if (r.done) throw new Error('the read-ahead ended before its last file');
  return r.value;
}
