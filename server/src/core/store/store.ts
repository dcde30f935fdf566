// The file-backed store: the markdown files are the source of truth; this class keeps an
// in-memory view of them (id -> record) that every read uses, and performs every change as an
// atomic file operation under the cross-process lock.
//
// Identity is the frontmatter id, never the file name. A record is a tombstone when it carries
// `removed`; removal rewrites the file in place with the removal keys and then renames it into
// .tombstones/ (restore does the reverse), so a crash between the two steps leaves one file whose
// keys already say what it is.
import { promises as fsp, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ensureDir, moveFileDurable, writeFileAtomic } from './fsatomic.ts';
import { StoreLock } from './lock.ts';
import { fileNameFor, parseMemoryText, serializeMemory } from './memfile.ts';
import type { MemoryRecord, SkippedFile, StoredMemory } from '../types.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { MAX_FILE_BYTES, Skip, derivedId, errorOf, memOf, storedMemory, type FileEntry } from './entries.ts';
import { Listing, listStoreFiles } from './listing.ts';
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

export class Store {
  readonly dir: string;
  readonly tombDir: string;
  readonly lock: StoreLock;
  private files = new Map<string, FileEntry>();
  /** id -> the file(s) claiming it: one path (the norm) or several (hand copies). */
  private owners = new Map<string, string | string[]>();
  private activeById = new Map<string, StoredMemory>();
  private tombById = new Map<string, StoredMemory>();
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
    this.lock = new StoreLock(dir);
    this.warn = opts.warn ?? ((m) => process.stderr.write(`cairn: ${m}\n`));
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

  /** Runs a write under the lock, telling the freshness strategy it was ours. */
  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    const o = this.ownWrites;
    const clean = o?.beforeWrite() ?? false;
    try {
      return await this.lock.run(fn);
    } finally {
      o?.afterWrite(clean);
    }
  }
  /** Every read operation calls this first, so hand edits are seen without a restart. */
  ensureFresh(): Promise<void> {
    return this.freshness();
  }

  // ---- loading and reconciling ------------------------------------------------------------

  /** First read. A seed record whose file still has the same size and mtime is reused unparsed. */
  async load(seed?: Iterable<StoredMemory>): Promise<void> {
    const seeded = new Map<string, StoredMemory>();
    if (seed) for (const m of seed) seeded.set(m.file, m);
    await this.reconcile(await this.listFiles(!this.readOnly), seeded);
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

  private isMemoryPath(p: string): boolean {
    const name = basename(p);
    if (!name.endsWith('.md') || name.startsWith('.')) return false;
    const parent = p.slice(0, p.length - name.length - 1);
    return parent === this.dir || parent === this.tombDir;
  }

  private async listFiles(cleanTemps: boolean): Promise<Listing> {
    const tombOk = await this.tombDirUsable();
    return listStoreFiles(tombOk ? [this.dir, this.tombDir] : [this.dir], cleanTemps, (p) => {
      const error = 'is a symbolic link; cairn does not follow links';
      this.files.set(p, new Skip(0, 0, error));
      // Said once, like every other skipped file: a memory must never vanish silently.
      if (this.warnOnce.get(p) !== error) {
        this.warnOnce.set(p, error);
        this.warn(`skipped ${p}: ${error}`);
      }
    });
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

  private async reconcile(found: Listing, seeded: Map<string, StoredMemory>): Promise<void> {
    // Which listed files are new or changed, and how many known files are still there.
    const changed: number[] = [];
    let present = 0;
    for (let i = 0; i < found.length; i++) {
      const cur = this.files.get(found.path(i));
      if (cur) present++;
      if (!cur || cur.size !== found.size(i) || cur.mtimeMs !== found.mtimeMs(i)) changed.push(i);
    }
    // Files gone are dropped before anything is re-read, so a file moved between the store and
    // .tombstones/ never shows up as two files claiming one id. When every known file was listed
    // (the usual full sync) there is nothing to drop and no set of every path is built.
    if (present < this.files.size) {
      for (const p of [...this.files.keys()]) if (!found.has(p) && !errorOf(this.files.get(p))?.startsWith('is a symbolic')) this.dropPath(p);
    }
    // Sequential synchronous reads: for many small files they beat async reads several times
    // over (an async readFile is four libuv round trips), and a load is one burst anyway.
    for (const i of changed) {
      const p = found.path(i);
      const size = found.size(i);
      const mtimeMs = found.mtimeMs(i);
      const s = seeded.get(p);
      // A reused record is keyed by its own path string (equal to p): one copy per memory.
      if (s && s.size === size && s.mtimeMs === mtimeMs) this.refreshOne(s.file, size, mtimeMs, s);
      else this.refreshOne(p, size, mtimeMs, undefined);
    }
  }

  private refreshOne(p: string, size: number, mtimeMs: number, seeded: StoredMemory | undefined): void {
    const cur = this.files.get(p);
    if (cur && cur.size === size && cur.mtimeMs === mtimeMs && !seeded) return;
    let entry: FileEntry;
    if (seeded) {
      entry = seeded;
    } else if (size > MAX_FILE_BYTES) {
      entry = new Skip(size, mtimeMs, `is ${size} bytes, over the ${MAX_FILE_BYTES}-byte limit for a memory file`);
    } else {
      let text: string;
      try {
        text = readFileSync(p, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          if (this.files.has(p)) this.dropPath(p);
          return;
        }
        entry = new Skip(size, mtimeMs, `cannot be read: ${(err as Error).message}`);
        this.setEntry(p, entry);
        return;
      }
      entry = this.entryFromText(p, text, size, mtimeMs);
    }
    this.setEntry(p, entry);
  }

  private entryFromText(p: string, text: string, size: number, mtimeMs: number): FileEntry {
    if (text.includes('\u0000')) return new Skip(size, mtimeMs, 'is binary (contains NUL bytes)');
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

  private setEntry(p: string, entry: FileEntry): void {
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

  private async writeRecord(file: string, rec: MemoryRecord, extra: readonly string[]): Promise<StoredMemory> {
    const text = serializeMemory(rec, extra);
    await writeFileAtomic(file, text);
    const st = await fsp.stat(file);
    const mem = storedMemory(rec, file, st.size, st.mtimeMs, extra);
    this.setEntry(file, mem);
    return mem;
  }

  private async freeName(dir: string, name: string): Promise<string> {
    let candidate = join(dir, name);
    for (let n = 2; this.files.has(candidate) || (await fsp.lstat(candidate).catch(() => null)); n++) {
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
