// Keeps the store's in-memory view (and so the index) current with changes made outside this
// process: hand edits, renames, deletes, other cairn processes. Installed as the store's
// freshness strategy, so every read calls check() first; check() never walks every file.
//
// Mechanism, cheapest first:
//  1. fs.watch on the store dir and .tombstones/ queues the named *.md paths; check() hands only
//     those to store.refreshPaths (a queued drain also runs shortly after events, without a read).
//  2. The mtime of both directories is compared on every check (two stat calls): an entry added,
//     removed or renamed that the watcher has not reported (yet, or ever: a network filesystem)
//     is found by one readdir diff. The diff runs at most once per DIR_DIFF_INTERVAL_MS (another
//     process's writes move the mtime on every write); in between, a moved mtime
//     only makes the check yield one event-loop turn so the watcher's queued events arrive
//     first. A deferred change stays "unseen" and is diffed later: nothing waits past the interval.
//     This process's own writes (lock file, atomic rename) move those mtimes too: the store tells
//     Freshness of each one (beforeWrite/afterWrite). Checks made while it runs leave the mtimes
//     alone, and when the directories were as last seen before the write, their new mtimes are
//     noted after it, so a write never costs a diff of the whole store. (An outside change made
//     during that write is still reported by the watcher; only where the watcher is silently deaf
//     does it wait for the next mtime move.)
//  The notes area (store/notes.ts, any folder depth) is watched recursively; any event in it, or
//  no watch on it, makes the next check reconcile the notes area alone (store.syncNotes, at most
//  once per DIR_DIFF_INTERVAL_MS without a watch): notes are few, and a folder moved by hand is
//  named by no file event.
//  3. If watching fails (no inotify watches left, unsupported filesystem), check() falls back to a
//     full store.sync(), at most once per FULL_SYNC_INTERVAL_MS, which keeps the 1-second promise.
// Invariant: every path change either reaches `pending`, changes a directory mtime, or is covered
// by the fallback sync; check() drains all three before the read it guards.
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Store } from './store.ts';

const FULL_SYNC_INTERVAL_MS = 500;
const DIR_DIFF_INTERVAL_MS = 1000;
const DRAIN_DELAY_MS = 25;

function isMemoryName(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.');
}

function mtimeOf(dir: string): number {
  try {
    // throwIfNoEntry: a missing directory (.tombstones/ before the first removal) is no exception
    // to build on every call.
    return statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  } catch {
    return -1;
  }
}

export class Freshness {
  private watchers = new Map<string, FSWatcher>();
  private pending = new Set<string>();
  private needFull = false;
  private broken = false;
  private lastFull = 0;
  private lastDiff = 0;
  private dirMtime = new Map<string, number>();
  private chain: Promise<void> = Promise.resolve();
  private drainTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Directories a watch failed on (missing, or not a directory), with their own mtime then (-1: missing; see ensureWatch). */
  private absent = new Map<string, number>();
  /** Own writes in progress: the mtimes they move are not compared until they are done. */
  private ownWrites = 0;
  /** Something changed in the notes area (or may have): reconcile it on the next check. */
  private notesDirty = true;
  private lastNotesSync = 0;

  constructor(
    private readonly store: Store,
    private readonly warn: (msg: string) => void,
  ) {}

  /**
   * Starts watching. Call it before the store's first load: a change made while the load reads
   * the directory is then queued (or moves a directory mtime) instead of being lost.
   */
  start(): void {
    this.ensureWatch(this.store.dir);
    this.ensureWatch(this.store.tombDir);
    this.ensureWatch(this.store.notesDir);
    this.notesDirty = false; // the load that follows reads the notes area
    this.noteDirs();
  }

  /** Makes every store read call check() first. */
  install(): void {
    this.store.setFreshness(() => this.check(), {
      beforeWrite: () => {
        this.ownWrites++;
        return !this.broken && this.dirsAsNoted();
      },
      afterWrite: (clean) => {
        this.ownWrites--;
        if (clean && !this.stopped) this.noteDirs();
      },
    });
  }

  private dirsAsNoted(): boolean {
    for (const d of [this.store.dir, this.store.tombDir]) if (mtimeOf(d) !== this.dirMtime.get(d)) return false;
    return true;
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.drainTimer) clearTimeout(this.drainTimer);
    this.drainTimer = null;
  }

  /** Remembers the current directory mtimes: called after the store applied a change itself. */
  noteDirs(): void {
    for (const d of [this.store.dir, this.store.tombDir]) this.dirMtime.set(d, mtimeOf(d));
  }

  /**
   * Reads wait for `p` (a cache-started store's check against its files), but at most `ms` in
   * all: a small store is exact from its first answer, a big one answers from the snapshot.
   */
  waitFor(p: Promise<void>, ms: number): void {
    if (ms === Infinity) {
      this.chain = this.chain.then(() => p);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const bounded = new Promise<void>((r) => {
      timer = setTimeout(r, ms);
      timer.unref();
    });
    this.chain = this.chain.then(() => Promise.race([p, bounded])).finally(() => clearTimeout(timer));
  }

  /** Serialized: concurrent reads wait for one another's refresh instead of racing it. */
  check(): Promise<void> {
    const run = this.chain.then(() => this.refresh());
    this.chain = run.catch(() => {});
    return run;
  }

  private async refresh(): Promise<void> {
    if (this.stopped) return;
    if (this.broken) {
      if (Date.now() - this.lastFull >= FULL_SYNC_INTERVAL_MS) {
        this.lastFull = Date.now();
        await this.store.sync();
      }
      return;
    }
    this.ensureWatch(this.store.dir);
    this.ensureWatch(this.store.tombDir);
    this.ensureWatch(this.store.notesDir);
    const now = Date.now();
    if (!this.watchers.has(this.store.notesDir) && now - this.lastNotesSync >= DIR_DIFF_INTERVAL_MS) this.notesDirty = true;
    if (this.notesDirty) {
      this.notesDirty = false;
      this.lastNotesSync = now;
      await this.store.syncNotes();
    }
    let yielded = false;
    // While this process writes, a moved mtime is (also) its own doing: it is judged after the write.
    for (const d of this.ownWrites > 0 ? [] : [this.store.dir, this.store.tombDir]) {
      const m = mtimeOf(d);
      if (m === this.dirMtime.get(d)) continue;
      // Something changed in there. Let the watcher's queued events in first (one turn of the
      // event loop): a file replaced in place keeps its name, so only the watcher names it.
      if (!yielded) await new Promise<void>((r) => setImmediate(r));
      yielded = true;
      // Diffed recently: leave the mtime unseen, so a later check diffs if the watcher is quiet.
      if (now - this.lastDiff < DIR_DIFF_INTERVAL_MS) continue;
      this.dirMtime.set(d, m); // before the readdir: a change during it shows up next time
      this.lastDiff = now;
      this.diffDir(d);
    }
    if (this.needFull) {
      this.needFull = false;
      this.pending.clear();
      await this.store.sync();
      return;
    }
    if (this.pending.size === 0) return;
    const paths = [...this.pending];
    this.pending.clear();
    await this.store.refreshPaths(paths);
  }

  /** Queues the entries of `dir` that appeared or vanished compared with the store's view. */
  private diffDir(dir: string): void {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      names = [];
    }
    const onDisk = new Set<string>();
    for (const n of names) if (isMemoryName(n)) onDisk.add(join(dir, n));
    const known = this.store.fileStats();
    for (const p of known.keys()) if (dirname(p) === dir && !onDisk.has(p)) this.pending.add(p);
    for (const p of onDisk) if (!known.has(p)) this.pending.add(p);
  }

  private ensureWatch(dir: string): void {
    if (this.broken || this.stopped || this.watchers.has(dir)) return;
    // A directory not made yet (.tombstones/ before the first removal) is tried again only once
    // it exists (or, not a directory, once it changed): a failing fs.watch on every read was a
    // fixed cost of every call (its parent's mtime, the previous test, moves with every write).
    const failedAt = this.absent.get(dir);
    if (failedAt !== undefined && failedAt === mtimeOf(dir)) return;
    let w: FSWatcher;
    try {
      // persistent: false — watching never keeps a process alive on its own.
      const recursive = dir === this.store.notesDir;
      w = watch(dir, { persistent: false, recursive }, (_event, name) => this.onEvent(dir, name));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        this.absent.set(dir, mtimeOf(dir)); // not created yet (or a file): retried once that changes
        return;
      }
      this.fail(`cannot watch ${dir} (${(err as Error).message})`);
      return;
    }
    w.on('error', (err) => {
      this.watchers.delete(dir);
      w.close();
      // The directory itself went away (store deleted or moved): rescan, then watch it again.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EPERM') this.needFull = true;
      else this.fail(`watching ${dir} failed (${err.message})`);
    });
    this.watchers.set(dir, w);
    // A directory that appeared after start may already hold files: diff it once.
    this.dirMtime.delete(dir);
    if (dir === this.store.notesDir) this.notesDirty = true;
  }

  private onEvent(dir: string, name: string | Buffer | null): void {
    if (name === null) this.needFull = true; // the platform did not say which entry changed
    else if (dir === this.store.notesDir) this.notesDirty = true;
    else {
      const n = name.toString();
      this.absent.delete(join(dir, n)); // named by the watcher: worth watching again at once
      if (isMemoryName(n)) this.pending.add(join(dir, n));
      else if (dir === this.store.dir && n === '.tombstones') this.ensureWatch(this.store.tombDir);
      else if (dir === this.store.dir && n === 'notes') {
        this.ensureWatch(this.store.notesDir);
        this.notesDirty = true;
      }
      else return;
    }
    if (this.drainTimer === null && !this.stopped) {
      this.drainTimer = setTimeout(() => {
        this.drainTimer = null;
        this.check().catch((err) => this.warn(`index refresh failed: ${(err as Error).message}`));
      }, DRAIN_DELAY_MS);
      this.drainTimer.unref();
    }
  }

  private fail(reason: string): void {
    if (this.broken) return;
    this.broken = true;
    this.warn(`${reason}; falling back to a full rescan before reads (at most every ${FULL_SYNC_INTERVAL_MS} ms)`);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}
