// The store's first floor: its views of the files in memory. Every file it knows, by path, with the
// record it holds or why it was skipped; which file holds each id (two files may claim one: a hand
// copy, elected deterministically); and the views every read uses: active memories, tombstones,
// and records of a merge in progress. No file is touched here: reading.ts fills these tables from
// the disk, writing.ts and store.ts change the disk and then them.
import { sep, join } from 'node:path';
import type { SkippedFile, StoredMemory } from '../types.ts';
import { Skip, errorOf, memOf, type FileEntry } from './entries.ts';
import { Backlog } from './slices.ts';
import { NamesToEnter } from './tailFilter.ts';
import { NOTES_DIR, isNoteRel } from './notes.ts';

export type StoreChange =
  | { kind: 'upsert'; mem: StoredMemory; prev?: StoredMemory }
  | { kind: 'delete'; prev: StoredMemory };

export interface StoreOptions {
  warn?: (msg: string) => void;
  /** Read-only inspection (doctor): never removes a dead writer's temp file, never recovers a merge. */
  readOnly?: boolean;
  /** The text a new file's name is built from (the facade passes the secret redaction). */
  nameText?: (body: string) => string;
}

export class StoreViews {
  readonly dir: string;
  readonly tombDir: string;
  /** The notes area (store/notes.ts): every file under it is a note. */
  readonly notesDir: string;
  /** notesDir and a separator: what every note's path starts with */
  protected readonly notesPrefix: string;
  protected filesMap = new Map<string, FileEntry>();
  /** id -> the file(s) claiming it: one path (the norm) or several (hand copies). */
  protected ownersMap = new Map<string, string | string[]>();
  /**
   * Records adopt() took but has not yet put under their paths and as their ids' owners (nor, for
   * a cache of unique ids, in their views): entered at the first use of any of these maps (the
   * background check right after the first answer), not before it. At 200k memories, ~250 ms.
   */
  protected unentered: Backlog | null = null;
  /** The records `unentered` steps through (adopt()'s argument). */
  protected unenteredRecords: readonly StoredMemory[] | null = null;
  /** Which names the records still to enter may hold (stillToEnter); dropped once all are entered. */
  private toEnter: NamesToEnter | null = null;
  /** With `seed`: the removed ones of adopt()'s records, which tombstones() answers from meanwhile (picked out on its first call). */
  private seedTombs: StoredMemory[] | null = null;
  private activeMap = new Map<string, StoredMemory>();
  private tombMap = new Map<string, StoredMemory>();
  /** Records carrying `merging` (a merge in progress or interrupted): in no other view. */
  private mergingMap = new Map<string, StoredMemory>();
  /**
   * The active ones of adopt()'s records when the views too are left to enter (a cache whose ids
   * are known to be unique: ~150 ms of map entries at 200k memories that the first answer does not
   * need); active() and activeCount answer from them meanwhile. Null once entered, or when adopt()
   * placed them.
   */
  protected seed: StoredMemory[] | null = null;
  /** The views by id, entered first if adopt() left them to enter. */
  protected get activeById(): Map<string, StoredMemory> {
    if (this.seed !== null) this.enterAdopted();
    return this.activeMap;
  }
  protected get tombById(): Map<string, StoredMemory> {
    if (this.seed !== null) this.enterAdopted();
    return this.tombMap;
  }
  protected get mergingById(): Map<string, StoredMemory> {
    if (this.seed !== null) this.enterAdopted();
    return this.mergingMap;
  }
  private listeners = new Set<(c: StoreChange) => void>();
  protected readonly warn: (msg: string) => void;
  protected readonly readOnly: boolean;
  protected readonly nameText: (body: string) => string;

  constructor(dir: string, opts: StoreOptions = {}) {
    this.readOnly = opts.readOnly ?? false;
    this.nameText = opts.nameText ?? ((b) => b);
    this.dir = dir;
    this.tombDir = join(dir, '.tombstones');
    this.notesDir = join(dir, NOTES_DIR);
    this.notesPrefix = this.notesDir + sep;
    this.warn = opts.warn ?? ((m) => process.stderr.write(`cairn: ${m}\n`));
  }

  /**
   * True while the views hold exactly the records adopt() was last given, notes and memories
   * created since (enterCreated) aside (no id claimed twice, nothing else touched since): where
   * each adopted record is, its flags then say.
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
      return r.merging ? 0 : r.tombstoned ? 2 : 1;
    }
    return this.activeById.get(r.id) === r ? 1 : this.tombById.get(r.id) === r ? 2 : 0;
  }

  /** The view a record belongs in by its flags (the map itself: nothing is entered first). */
  protected viewFor(m: StoredMemory): Map<string, StoredMemory> {
    return m.merging ? this.mergingMap : m.tombstoned ? this.tombMap : this.activeMap;
  }

  protected get files(): Map<string, FileEntry> {
    this.enterAdopted();
    return this.filesMap;
  }
  protected get owners(): Map<string, string | string[]> {
    this.enterAdopted();
    return this.ownersMap;
  }

  /** Enters the rest of the adopted records under their paths and as owners. */
  protected enterAdopted(): void {
    if (this.unentered === null) return;
    this.unentered.finish();
    this.unentered = null;
    this.unenteredRecords = null;
    this.toEnter = null;
    this.seed = null;
    this.seedTombs = null;
    const twice = this.claimedTwice;
    this.claimedTwice = null;
    if (twice) for (const id of twice) this.elect(id);
  }

  /** Ids enterOne() met twice (a cache that said its ids were unique, and was wrong): elected once all are in. */
  private claimedTwice: string[] | null = null;
  /**
   * Enters one adopted record (a step of adopt()'s backlog) under its path and as its id's owner,
   * and in its view if adopt() left that too (`view`). An id met twice is elected at the end.
   */
  protected enterOne(m: StoredMemory, view: boolean): void {
    if (this.noteRel(m.file) !== null) return;
    this.filesMap.set(m.file, m);
    const cur = this.ownersMap.get(m.id);
    if (cur === undefined) {
      this.ownersMap.set(m.id, m.file);
      if (view) this.viewFor(m).set(m.id, m);
      return;
    }
    this.addOwner(m.id, m.file);
    (this.claimedTwice ??= []).push(m.id);
  }

  // ---- reading ---------------------------------------------------------------------------

  active(): IterableIterator<StoredMemory> {
    return this.seed !== null ? this.seed.values() : this.activeMap.values();
  }
  tombstones(): IterableIterator<StoredMemory> {
    // Before the views are entered no change has touched a tombstone (every change but a
    // created memory, enterCreated, enters them first): the adopted ones are all of them.
    const recs = this.unenteredRecords;
    if (this.seed === null || recs === null) return this.tombById.values();
    return (this.seedTombs ??= recs.filter((m) => m.tombstoned && !m.merging && !m.file.startsWith(this.notesPrefix))).values();
  }
  get activeCount(): number {
    return this.seed !== null ? this.seed.length : this.activeMap.size;
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

  /** A path's place in the notes area ("projects/a.md"), or null when it is not a note's path. */
  noteRel(p: string): string | null {
    if (!p.startsWith(this.notesPrefix)) return null;
    const rel = p.slice(this.notesDir.length + 1).split(sep).join('/');
    return isNoteRel(rel) ? rel : null;
  }

  /** A note's path, or a memory file's (`*.md`, not hidden) right in the store or .tombstones/. No allocation: a start from the cache asks it of every record. */
  protected isMemoryPath(p: string): boolean {
    if (p.startsWith(this.notesPrefix)) return this.noteRel(p) !== null;
    const cut = p.lastIndexOf(sep);
    if (cut < 0 || !p.endsWith('.md') || p.charCodeAt(cut + 1) === 46 /* . */) return false;
    return (cut === this.dir.length && p.startsWith(this.dir)) || (cut === this.tombDir.length && p.startsWith(this.tombDir));
  }

  /** Paths of the notes area this view knows (syncNotes never walks every file). */
  protected notePaths = new Set<string>();

  /** The entry known for a path; a path entered already is answered without entering the adopted records. */
  protected entryAt(p: string): FileEntry | undefined {
    if (this.unentered !== null) {
      const e = this.filesMap.get(p);
      if (e !== undefined) return e;
    }
    return this.files.get(p);
  }

  /**
   * Whether a path is a known file. Adopted records still to enter are looked up, not entered
   * (see enterCreated).
   */
  protected isKnownPath(p: string): boolean {
    return this.filesMap.has(p) || this.stillToEnter(p, null);
  }

  /**
   * Whether a record still to enter has path `p` or id `id`: asked of a filter of their paths and
   * ids (tailFilter.ts), made by the background check (makeFilter) or, when a write comes first,
   * at once. Before it every write scanned each such record twice (~10-20 ms a scan at 200k
   * memories), and the writes of a store's first seconds, made while the background entered
   * them, all paid it.
   */
  private stillToEnter(p: string, id: string | null): boolean {
    return this.namesToEnter()?.holds(p, id) ?? false;
  }

  /** The names of the records still to enter, null when none is. */
  private namesToEnter(): NamesToEnter | null {
    const recs = this.unenteredRecords;
    const left = this.unentered;
    if (left === null || recs === null) return null;
    return (this.toEnter ??= new NamesToEnter(recs, left));
  }

  /**
   * Makes the filter of the records still to enter a slice at a time (a server's background
   * check, before it enters them): a write made in the first seconds after a big store's start
   * then finds it made instead of making it (~90 ms at 200k memories, ~0.5 s at 1M).
   */
  protected async makeFilter(pause: () => Promise<void>): Promise<void> {
    const left = this.unentered;
    await this.namesToEnter()?.make(pause, () => this.unentered === left);
  }

  /**
   * Enters a memory just written as a new file while adopted records are still to enter, without
   * entering them first (at 200k memories ~0.5 s, right after a start): only when neither its path
   * nor its id is known or among those records (stillToEnter), so nothing they hold can conflict
   * with it. False when it cannot: the caller then uses setEntry().
   */
  protected enterCreated(p: string, mem: StoredMemory): boolean {
    if (this.unentered === null || mem.tombstoned || mem.merging || this.noteRel(p) !== null) return false;
    const id = mem.id;
    if (this.filesMap.has(p) || this.ownersMap.has(id) || this.activeMap.has(id) || this.tombMap.has(id) || this.mergingMap.has(id)) return false;
    if (this.stillToEnter(p, id)) return false;
    this.filesMap.set(p, mem);
    this.ownersMap.set(id, p);
    this.activeMap.set(id, mem);
    this.seed?.push(mem);
    for (const fn of this.listeners) fn({ kind: 'upsert', mem });
    return true;
  }

  protected setEntry(p: string, entry: FileEntry): void {
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

  /** On the map itself: every caller has entered the adopted records first, or is entering them (enterOne). */
  protected addOwner(id: string, p: string): void {
    const owners = this.ownersMap;
    const cur = owners.get(id);
    if (cur === undefined) owners.set(id, p);
    else if (typeof cur === 'string') {
      if (cur !== p) owners.set(id, [cur, p]);
    } else if (!cur.includes(p)) cur.push(p);
  }
  protected removeOwner(id: string, p: string): void {
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
  protected warnOnce = new Map<string, string>();

  protected dropPath(p: string): void {
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
  protected elect(id: string): void {
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


  /** A record whose merge is in progress or was interrupted (it carries `merging`). */
  getMerging(id: string): StoredMemory | undefined {
    return this.mergingById.get(id);
  }
}

