// A lock that works across processes, around every read-modify-write of the store
// (format.md: two servers on one store never lose each other's changes).
//
// The lock is a file created with O_EXCL holding "pid host time". A holder that died (SIGKILL,
// crash) leaves the file behind; it is broken when its pid is gone on this host, or when it is
// older than STALE_MS (a live holder never keeps it that long: every critical section is a few
// file operations). Breaking renames the stale file away first, so two waiters cannot both break
// it and both enter.
import { promises as fsp } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LockTimeoutError } from './errors.ts';
import { FILE_MODE, ensureDir } from './fsatomic.ts';

const STALE_MS = 30_000;
const HOST = hostname();

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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
      try {
        const fh = await fsp.open(this.file, 'wx', FILE_MODE);
        await fh.writeFile(`${process.pid} ${HOST} ${Date.now()}\n`);
        await fh.close();
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      await this.breakIfStale();
      if (Date.now() > deadline) {
        throw new LockTimeoutError(`the store lock ${this.file} is held by another process; try again, or delete the file if no cairn process is running`);
      }
      await sleep(wait + Math.random() * wait);
      wait = Math.min(wait * 2, 25);
    }
  }

  private async breakIfStale(): Promise<void> {
    let text: string;
    let mtimeMs: number;
    try {
      text = await fsp.readFile(this.file, 'utf8');
      mtimeMs = (await fsp.stat(this.file)).mtimeMs;
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
