// A lock that works across processes, around every read-modify-write of the store
// (format.md: two servers on one store never lose each other's changes).
//
// The lock is a file created with O_EXCL holding "pid host time". A holder that died (SIGKILL,
// crash) leaves the file behind; it is broken when its pid is gone on this host, or when it is
// older than STALE_MS (a live holder never keeps it that long: every critical section is a few
// file operations). Breaking renames the stale file away first, so two waiters cannot both break
// it and both enter.
import { promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LockTimeoutError } from '../errors.ts';
import { FILE_MODE, ensureDir } from './fsatomic.ts';
import { pidAlive } from './pid.ts';

const STALE_MS = 30_000;
const HOST = hostname();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class StoreLock {
  readonly file: string;
  /** In-process queue: callers in one process take turns before touching the file lock. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly timeoutMs = 15_000,
  ) {
    this.file = join(dir, '.lock');
  }

  /** Runs fn while holding the store lock; releases it whatever fn does. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const prev = this.tail;
    let done!: () => void;
    this.tail = new Promise<void>((r) => (done = r));
    try {
      await prev;
      await this.acquire();
      try {
        return await fn();
      } finally {
        await fsp.rm(this.file, { force: true });
      }
    } finally {
      done();
    }
  }

  private async acquire(): Promise<void> {
    await ensureDir(this.dir);
    const deadline = Date.now() + this.timeoutMs;
    let wait = 1;
    for (;;) {
      if (await this.tryCreate()) return;
      await this.breakIfStale();
      if (Date.now() > deadline) {
        throw new LockTimeoutError(`the store lock ${this.file} is held by another process; try again, or delete the file if no cairn process is running`);
      }
      await sleep(wait + Math.random() * wait);
      wait = Math.min(wait * 2, 25);
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
  private async tryCreate(): Promise<boolean> {
    const line = `${process.pid} ${HOST} ${Date.now()}\n`;
    if (!this.noLinks) {
      if (await fsp.lstat(this.file).then(() => true, () => false)) return false; // held: no temp churn
      const tmp = join(this.dir, `.lock.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
      await fsp.writeFile(tmp, line, { mode: FILE_MODE, flag: 'wx' });
      try {
        await fsp.link(tmp, this.file);
        return true;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return false;
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
        this.noLinks = true;
      } finally {
        await fsp.rm(tmp, { force: true });
      }
    }
    try {
      const fh = await fsp.open(this.file, 'wx', FILE_MODE);
      await fh.writeFile(line);
      await fh.close();
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
    const [pidText, host, timeText] = text.trim().split(' ');
    const pid = Number(pidText);
    const since = Number(timeText) || mtimeMs;
    // A holder still writing its line shows as empty: only age can break that one.
    const dead = text.trim() !== '' && host === HOST && Number.isInteger(pid) && pid > 0 && !pidAlive(pid);
    if (!dead && Date.now() - since < STALE_MS) return;
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
