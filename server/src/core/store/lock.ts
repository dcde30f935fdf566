// A lock that works across processes, around every read-modify-write of the store
// (format.md: two servers on one store never lose each other's changes).
//
// The lock is a file created whole holding "pid host time token". A holder that died (SIGKILL,
// crash) leaves the file behind; it is broken when its pid is gone on this host (or was reused by
// a process that started after the lock was taken). A holder on this host that is alive is never
// broken, however long it holds: a slow disk or a stopped process must make others wait, not let
// them in beside it. Only a lock whose holder cannot be checked (another host on a shared
// filesystem, an unreadable line) is broken by age, after STALE_MS. Breaking renames the stale
// file away first, so two waiters cannot both break it and both enter. Release removes the file
// only while it still holds our token: a lock broken meanwhile belongs to someone else.
// Waiters take turns in arrival order (lockQueue.ts), so a busy store makes each wait its turn
// instead of letting a late arrival overtake one that has waited for seconds.
import { promises as fsp, linkSync, lstatSync, openSync, closeSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { isAccessError, throwIfFolderAccess } from '../access.ts';
import { LockTimeoutError } from '../errors.ts';
import { FILE_MODE, ensureDir } from './fsatomic.ts';
import { pidAlive, pidStartMs } from './pid.ts';
import { LockQueue, type Ticket } from './lockQueue.ts';

const STALE_MS = 30_000;
const HOST = hostname();
const REUSED_PID_SLACK_MS = 2_000;
const STALE_CHECK_MS = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Removes a file that may be gone already: one unlink (rmSync's `force` stats it twice first). */
function unlinkQuiet(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

export class StoreLock {
  readonly file: string;
  /** Waiters of every process on this store, in arrival order (lockQueue.ts). */
  private readonly queue: LockQueue;
  /** In-process queue: callers in one process take turns before touching the file lock. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly timeoutMs = 15_000,
    /** Age after which a lock whose holder cannot be checked is broken. */
    private readonly staleMs = STALE_MS,
  ) {
    this.file = join(dir, '.lock');
    this.queue = new LockQueue(dir);
  }

  /** Runs fn while holding the store lock; releases it whatever fn does. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const prev = this.tail;
    let done!: () => void;
    this.tail = new Promise<void>((r) => (done = r));
    try {
      await prev;
      const token = await this.acquire();
      try {
        return await fn();
      } finally {
        await this.release(token);
      }
    } finally {
      done();
    }
  }

  /**
   * Removes the lock only if it is still the one we created (compared by its token). The lock's
   * own file steps are synchronous calls (microseconds each; a thread-pool round trip costs far
   * more on a busy machine and every write takes and releases the lock); waiting stays async.
   */
  private async release(token: string): Promise<void> {
    let text: string | null;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      text = null;
    }
    if (text === null || parseLock(text).token !== token) return; // broken and retaken: not ours
    unlinkQuiet(this.file);
  }

  /**
   * Takes the lock; returns the token written into it. A folder that refuses the lock file
   * (permissions, a read-only mount) is the first thing every write meets: it is reported as that
   * folder and the permission it lacks, before anything in the store was changed.
   */
  private async acquire(): Promise<string> {
    try {
      await ensureDir(this.dir);
    } catch (err) {
      if (isAccessError(err)) throwIfFolderAccess(dirname(this.dir), 'write', err, 'folder holding the store');
      throw err;
    }
    const deadline = Date.now() + this.timeoutMs;
    // Turns (lockQueue.ts): a waiter tries the lock only when no live waiter is ahead of it.
    let ticket: Ticket | null = null;
    let queueless = false;
    let wait = 1;
    let checked = 0;
    try {
      for (;;) {
        const ahead = ticket ? ticket.ahead() : queueless || !this.queue.busy() ? 0 : 1;
        if (ahead === 0) {
          const token = randomBytes(8).toString('hex');
          let taken: boolean;
          try {
            taken = this.tryCreate(token);
          } catch (err) {
            if (isAccessError(err)) throwIfFolderAccess(this.dir, 'write', err);
            throw err;
          }
          if (taken) return token;
          // The holder is looked at every STALE_CHECK_MS, not at every close poll.
          if (Date.now() - checked >= STALE_CHECK_MS) {
            checked = Date.now();
            await this.breakIfStale();
          }
        }
        if (!ticket && !queueless) {
          ticket = this.queue.join();
          queueless = ticket === null;
          if (ticket) continue; // look again, now from a place in the queue
        }
        if (Date.now() > deadline) {
          throw new LockTimeoutError(`the store lock ${this.file} is held by another process; try again, or delete the file if no cairn process is running`);
        }
        ticket?.beat();
        if (ticket) {
          // The first in line polls the lock closely; the others only watch the queue move.
          await sleep(ahead === 0 ? 1 + Math.random() * 2 : Math.min(25, 2 + 4 * ahead));
        } else {
          await sleep(wait + Math.random() * wait);
          wait = Math.min(wait * 2, 25);
        }
      }
    } finally {
      ticket?.leave();
    }
  }

  /**
   * Creates the lock file whole. open(O_EXCL) then write leaves an EMPTY lock if the process is
   * killed between the two (a reader sees one about 1 time in 10 under load), and an empty lock
   * can only be broken by age: every store write waits STALE_MS. So the line is written to a temp
   * file first and hard-linked into place (link fails with EEXIST if the lock exists); a
   * filesystem without hard links falls back to open(O_EXCL). A temp left by a kill is named like
   * every other temp file and removed by the next load once its pid is gone.
   */
  private tryCreate(token: string): boolean {
    const line = `${process.pid} ${HOST} ${Date.now()} ${token}\n`;
    if (!this.noLinks) {
      try {
        lstatSync(this.file);
        return false; // held: no temp churn
      } catch {
        // free
      }
      const tmp = join(this.dir, `.lock.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
      writeFileSync(tmp, line, { mode: FILE_MODE, flag: 'wx' });
      try {
        linkSync(tmp, this.file);
        return true;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return false;
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
        this.noLinks = true;
      } finally {
        unlinkQuiet(tmp);
      }
    }
    try {
      const fd = openSync(this.file, 'wx', FILE_MODE);
      try {
        writeSync(fd, line);
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return false;
    }
  }
  private noLinks = false;

  private async breakIfStale(): Promise<void> {
    let text: string;
    let mtimeMs: number;
    try {
      const st = await fsp.lstat(this.file);
      if (!st.isFile()) {
        // cairn's lock is always a regular file: a symlink (dangling or not) or anything else
        // there is not a holder, and is never followed out of the store. Move it aside.
        const aside = `${this.file}.stale.${process.pid}.${Date.now()}`;
        await fsp.rename(this.file, aside).then(() => fsp.rm(aside, { force: true, recursive: true }), () => {});
        return;
      }
      mtimeMs = st.mtimeMs;
      text = await fsp.readFile(this.file, 'utf8');
    } catch {
      return; // released meanwhile
    }
    const { pid, host, time } = parseLock(text);
    const since = time ?? mtimeMs;
    const local = pid !== null && host === HOST;
    // A holder on this host is checked, never aged out: it is gone when its pid is dead, or when
    // the pid now names a process that started after the lock was taken (a reused pid). The
    // slack absorbs the clock's second-resolution boot time and small clock steps.
    let stale: boolean;
    if (local) {
      const started = pidStartMs(pid);
      stale = !pidAlive(pid) || (started !== null && started > since + REUSED_PID_SLACK_MS);
    } else {
      // Another host, or a holder still writing its line (empty): only age can break those.
      stale = Date.now() - since >= this.staleMs;
    }
    if (!stale) return;
    const aside = `${this.file}.stale.${process.pid}.${Date.now()}`;
    try {
      await fsp.rename(this.file, aside);
    } catch {
      return; // someone else broke it (or it was released)
    }
    // Only break what we inspected: if the file we moved is a fresh lock, put it back.
    const moved = await fsp.readFile(aside, 'utf8').catch(() => '');
    if (moved !== text) {
      await fsp.link(aside, this.file).catch(() => {});
    }
    await fsp.rm(aside, { force: true });
  }
}

function parseLock(text: string): { pid: number | null; host: string | null; time: number | null; token: string | null } {
  const [pidText, host, timeText, token] = text.trim().split(' ');
  const pid = Number(pidText);
  const time = Number(timeText);
  return {
    pid: Number.isInteger(pid) && pid > 0 ? pid : null,
    host: host || null,
    time: Number.isFinite(time) && time > 0 ? time : null,
    token: token || null,
  };
}
