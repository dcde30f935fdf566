// The store's third floor: changing files. Every method runs under the cross-process lock, re-reads
// its target first (a change by another process is never lost), writes atomically and then updates
// the views. Memory files here; the memory tool's notes at the end; merges in store.ts.
import { promises as fsp, lstatSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { ensureDir, ensureOwnDirSync, fsyncDir, isTempName, lstatOrNull, moveFileDurable, writeFileAtomic } from './fsatomic.ts';
import { removeIfDeadTemp } from './listing.ts';
import { StoreLock } from './lock.ts';
import { fileNameFor, serializeMemory } from './memfile.ts';
import type { MemoryRecord, StoredMemory } from '../types.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { memOf, storedMemory } from './entries.ts';
import { noteTombExtra } from './notes.ts';
import { StoreReader } from './reading.ts';

export abstract class StoreWriter extends StoreReader {
  readonly lock: StoreLock = new StoreLock(this.dir);

  /**
   * Runs a write under the lock, telling the freshness strategy it was ours. It does not wait for
   * a running check of adopted records (validate): that check re-stats every path before it reads
   * or drops it, so a file a write made or moved meanwhile is never taken for a stale one (the
   * same rule as for a file the watcher reported), and a write re-reads its target under the lock.
   */
  protected async locked<T>(fn: () => Promise<T>): Promise<T> {
    const o = this.ownWrites;
    const clean = o?.beforeWrite() ?? false;
    try {
      return await this.lock.run(fn);
    } finally {
      o?.afterWrite(clean);
    }
  }

  /** Re-reads one record's file under the lock so a change by another process is never lost. */
  protected async fresh(id: string): Promise<StoredMemory | undefined> {
    const known = this.activeById.get(id) ?? this.tombById.get(id);
    if (known) {
      // One lstat, synchronous (fsatomic.ts: a thread-pool round trip costs more, inside the lock).
      const st = lstatOrNull(known.file);
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
  protected async freshAny(id: string): Promise<StoredMemory | undefined> {
    const known = this.mergingById.get(id);
    if (known) {
      const st = lstatOrNull(known.file);
      if (st?.isFile()) this.refreshOne(known.file, st.size, st.mtimeMs, undefined);
      else await this.sync();
      const again = this.mergingById.get(id);
      if (again) return again;
    }
    return this.fresh(id);
  }

  /** Tombstones (tomb) or restores (no tomb) one record: rewrite in place, then move (as modify). */
  protected async moveRecord(cur: StoredMemory, next: MemoryRecord): Promise<StoredMemory> {
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

  /** `created`: a new file (create()), which a big store just started enters without its adopted records (enterCreated). */
  protected async writeRecord(file: string, rec: MemoryRecord, extra: readonly string[], created = false): Promise<StoredMemory> {
    const text = serializeMemory(rec, extra);
    await writeFileAtomic(file, text);
    const st = statSync(file);
    const mem = storedMemory(rec, file, st.size, st.mtimeMs, extra);
    if (!(created && this.enterCreated(file, mem))) this.setEntry(file, mem);
    return mem;
  }

  protected async freeName(dir: string, name: string): Promise<string> {
    let candidate = join(dir, name);
    for (let n = 2; this.isKnownPath(candidate) || lstatSync(candidate, { throwIfNoEntry: false }); n++) {
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
      return this.writeRecord(file, rec, extra, true);
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

  // ---- moves of notes, and their recovery -------------------------------------------------------
  //
  // A note's rename is one rename(2) (checked under the lock first, so it never overwrites): a
  // kill leaves the old path or the new one, never both. Deleting a note (tombstone written, then
  // the note unlinked) and restoring one (note written, then the tombstone removed) are two steps
  // that leave the same state when interrupted, both files, so each first writes an intent record
  // .moves/<id>.json {op, note, tomb} (atomic, durable) and removes it when done. repairNoteMoves
  // (at every load and check of a writable store, under the lock) finishes each intent it finds:
  // a delete whose tombstone exists unlinks the note, a restore whose note exists removes the
  // tombstone; anything else had not started and is left as it was. It also repairs a note with
  // two names (an older cairn linked the new name, then unlinked the old one): the new name stays.

  /** Where intent records of note moves live (a dot directory: never listed as memories or notes). */
  get moveDir(): string {
    return join(this.dir, '.moves');
  }

  /** Test hook: CAIRN_TEST_NOTE_MOVE_DELAY_MS waits between the two steps of a note delete or restore (crash tests). */
  private async moveStepDelay(): Promise<void> {
    const ms = Number(process.env.CAIRN_TEST_NOTE_MOVE_DELAY_MS ?? 0);
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
  }

  private async writeIntent(op: 'delete' | 'restore', note: string, tomb: string): Promise<string> {
    ensureOwnDirSync(this.moveDir);
    const file = join(this.moveDir, `${basename(tomb).replace(/\.md$/, '')}.json`);
    await writeFileAtomic(file, `${JSON.stringify({ op, note: relative(this.dir, note), tomb: relative(this.dir, tomb) })}\n`);
    return file;
  }

  private async dropIntent(file: string): Promise<void> {
    await fsp.rm(file, { force: true });
    await fsyncDir(this.moveDir);
  }

  /**
   * Moves the notes at `files` to .tombstones/: for each, a tombstone record (built by `tomb` from
   * the note as on disk now, carrying its path and exact text) is written, then the note is
   * unlinked, under an intent record, so an interrupted delete is finished at the next start.
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
        const intent = await this.writeIntent('delete', file, dest);
        out.push(await this.writeRecord(dest, tomb(note), noteTombExtra(note.note, text)));
        await this.moveStepDelay();
        await fsp.unlink(file);
        await fsyncDir(dirname(file));
        this.dropPath(file);
        await this.dropIntent(intent);
      }
      return out;
    });
  }

  /**
   * Renames a note file or a folder of notes with one rename(2), after a check under the lock
   * that the new name is free (never overwrites): a kill leaves exactly one of the two paths.
   */
  async renameNote(from: string, to: string): Promise<void> {
    if (this.noteRel(to) === null) throw new ConflictError(`${to} is not in the notes area`);
    await this.locked(async () => {
      await fsp.lstat(from);
      await ensureDir(dirname(to));
      if (await fsp.lstat(to).catch(() => null)) throw Object.assign(new Error(`${to} exists`), { code: 'EEXIST' });
      await fsp.rename(from, to);
      await fsyncDir(dirname(to));
      if (dirname(from) !== dirname(to)) await fsyncDir(dirname(from));
      await this.syncNotes();
    });
  }

  /** Puts a deleted note back (its tombstone `id`) at `file`, which must be free; drops the tombstone (under an intent record, as a delete). */
  async restoreNote(id: string, file: string, text: string): Promise<StoredMemory> {
    if (this.noteRel(file) === null) throw new ConflictError(`${file} is not in the notes area`);
    return this.locked(async () => {
      const t = await this.fresh(id);
      if (!t || !t.tombstoned) throw new NotFoundError(`no removed memory with id ${id}`);
      if (await fsp.lstat(file).catch(() => null)) throw new ConflictError(`cannot restore ${id}: its path now holds another file; rename that one first`);
      const intent = await this.writeIntent('restore', file, t.file);
      await ensureDir(dirname(file));
      await writeFileAtomic(file, text);
      const note = await this.noteWritten(file);
      await this.moveStepDelay();
      await fsp.rm(t.file, { force: true });
      await fsyncDir(dirname(t.file));
      this.dropPath(t.file);
      await this.dropIntent(intent);
      return note;
    });
  }

  /** Finishes interrupted note moves and repairs notes with two names (see above). Returns how many it repaired. */
  async repairNoteMoves(): Promise<number> {
    if (this.readOnly) return 0;
    const intents = (await fsp.readdir(this.moveDir).catch(() => [] as string[])).length > 0;
    if (!intents && this.linkedNotes.size === 0) return 0;
    return this.locked(async () => (await this.replayIntents()) + (await this.repairTwoNames()));
  }

  private async replayIntents(): Promise<number> {
    const names = await fsp.readdir(this.moveDir).catch(() => [] as string[]);
    let n = 0;
    for (const name of names) {
      const p = join(this.moveDir, name);
      if (isTempName(name)) {
        removeIfDeadTemp(this.moveDir, name);
        continue;
      }
      if (!name.endsWith('.json')) continue;
      let j: { op?: unknown; note?: unknown; tomb?: unknown } = {};
      try {
        j = JSON.parse(await fsp.readFile(p, 'utf8')) as typeof j;
      } catch {
        // unreadable: removed below
      }
      const note = typeof j.note === 'string' ? join(this.dir, j.note) : null;
      const tomb = typeof j.tomb === 'string' ? join(this.dir, j.tomb) : null;
      // Invariant: an intent only ever touches a note in the notes area and a file in .tombstones/.
      if ((j.op !== 'delete' && j.op !== 'restore') || note === null || tomb === null || this.noteRel(note) === null || dirname(tomb) !== this.tombDir) {
        this.warn(`removed ${p}: not a note-move record cairn can read`);
        await this.dropIntent(p);
        continue;
      }
      const noteThere = (await fsp.lstat(note).catch(() => null))?.isFile() === true;
      const tombThere = (await fsp.lstat(tomb).catch(() => null))?.isFile() === true;
      if (noteThere && tombThere) {
        // Both steps' results exist: finish the second step.
        const gone = j.op === 'delete' ? note : tomb;
        await fsp.rm(gone, { force: true });
        await fsyncDir(dirname(gone));
        this.dropPath(gone);
        this.warn(`finished the interrupted ${j.op} of the note ${relative(this.notesDir, note)}: removed ${gone}`);
        n++;
      }
      await this.dropIntent(p);
    }
    if (n > 0) await this.syncNotes();
    return n;
  }

  /**
   * Notes that are one file under two names. An older cairn renamed a note by linking the new
   * name and then unlinking the old one, so a kill in between left both. The new name is the one
   * whose folder changed when the file last did (link sets both times); when that cannot tell
   * them apart (one folder), the name that sorts first stays. The text is the same either way.
   */
  private async repairTwoNames(): Promise<number> {
    const byInode = new Map<string, { file: string; ctimeNs: bigint; dirNs: bigint }[]>();
    for (const file of this.linkedNotes) {
      const st = await fsp.lstat(file, { bigint: true }).catch(() => null);
      if (!st?.isFile() || st.nlink < 2n) continue;
      const d = await fsp.stat(dirname(file), { bigint: true }).catch(() => null);
      const key = `${st.dev}:${st.ino}`;
      const list = byInode.get(key) ?? [];
      list.push({ file, ctimeNs: st.ctimeNs, dirNs: d?.mtimeNs ?? 0n });
      byInode.set(key, list);
    }
    this.linkedNotes.clear();
    let n = 0;
    for (const names of byInode.values()) {
      if (names.length < 2) continue;
      names.sort((a, b) => (a.file < b.file ? -1 : 1));
      const fresh = names.filter((x) => x.dirNs >= x.ctimeNs);
      const keep = (fresh.length === 1 ? fresh[0]! : names[0]!).file;
      for (const x of names) {
        if (x.file === keep) continue;
        await fsp.unlink(x.file);
        await fsyncDir(dirname(x.file));
        this.dropPath(x.file);
        this.warn(`repaired an interrupted rename: the note ${relative(this.notesDir, x.file)} was also at ${relative(this.notesDir, keep)}; kept ${relative(this.notesDir, keep)}`);
        n++;
      }
    }
    if (n > 0) await this.syncNotes();
    return n;
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
