// Turns for the store lock. The lock file (lock.ts) is what keeps writers apart; this queue only
// decides who tries it next, so that a writer that waits is not overtaken, again and again, by
// writers that came after it. With plain polling a waiter loses every race it is not polling
// for: while eight processes keep the lock busy, one of them can wait out its whole timeout.
//
// A writer that finds the lock taken, or others already waiting, writes a ticket into .waiters/
// named so that names sort by arrival: "<ms since the epoch>-<host tag>-<pid>-<random>". It tries
// the lock only when no live ticket sorts before its own, and removes its ticket once it holds
// the lock or gives up. A newcomer that finds tickets waiting queues behind them instead of
// taking a lock that has just been released.
//
// A ticket does not count when its waiter is gone: its pid is dead on this host or now names a
// younger process (deleted by whoever notices), or it has not been touched for STALE_TICKET_MS
// (a waiter touches its ticket while it waits, so a stopped process cannot hold up the others).
// The queue is advisory: whatever it says, two writers never hold the lock together, so a wrong
// guess here changes the order of turns and nothing else. A folder that is not a real directory
// (a symbolic link, a file) is not used: its writers poll as before.
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, unlinkSync, utimesSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DIR_MODE, FILE_MODE } from './fsatomic.ts';
import { pidAlive, pidStartMs } from './pid.ts';

export const QUEUE_DIR = '.waiters';
/** A ticket untouched this long is a waiter that stopped waiting (stopped, or blocked). */
const STALE_TICKET_MS = 3_000;
/** A waiter touches its ticket this often. */
const BEAT_MS = 250;
/** A ticket of another host (its pid cannot be checked) untouched this long is deleted. */
const DEAD_FOREIGN_TICKET_MS = 30_000;
const REUSED_PID_SLACK_MS = 2_000;
const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const TICKET = /^(\d{14})-([0-9a-f]{8})-(\d{1,10})-[0-9a-f]{8}$/;

function unlinkQuiet(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already, or not ours to remove
  }
}

export class LockQueue {
  readonly dir: string;
  constructor(lockDir: string) {
    this.dir = join(lockDir, QUEUE_DIR);
  }

  /** True when tickets are waiting: a newcomer queues behind them. */
  busy(): boolean {
    try {
      return readdirSync(this.dir).some((n) => TICKET.test(n));
    } catch {
      return false;
    }
  }

  /** Writes this waiter's ticket; null when the queue cannot be used here (the caller then polls). */
  join(): Ticket | null {
    try {
      mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
      if (!lstatSync(this.dir).isDirectory()) return null;
      const name = `${String(Date.now()).padStart(14, '0')}-${HOST_TAG}-${process.pid}-${randomBytes(4).toString('hex')}`;
      closeSync(openSync(join(this.dir, name), 'wx', FILE_MODE));
      return new Ticket(this.dir, name);
    } catch {
      return null;
    }
  }
}

export class Ticket {
  private beaten = Date.now();
  /** Tickets ahead already found to belong to a live process of this host (pid checked once). */
  private readonly checked = new Set<string>();

  constructor(
    private readonly dir: string,
    readonly name: string,
  ) {}

  /** How many live waiters are ahead of this one; tickets of dead waiters are deleted on the way. */
  ahead(): number {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return 0;
    }
    const now = Date.now();
    let n = 0;
    for (const name of names) {
      if (name >= this.name) continue;
      const m = TICKET.exec(name);
      if (!m) continue;
      const file = join(this.dir, name);
      let touched: number;
      try {
        touched = lstatSync(file).mtimeMs;
      } catch {
        continue; // it took the lock or left meanwhile
      }
      if (m[2] === HOST_TAG) {
        const pid = Number(m[3]);
        if (!this.checked.has(name)) {
          const started = pidStartMs(pid);
          if (!pidAlive(pid) || (started !== null && started > Number(m[1]) + REUSED_PID_SLACK_MS)) {
            unlinkQuiet(file);
            continue;
          }
          this.checked.add(name);
        }
      } else if (now - touched > DEAD_FOREIGN_TICKET_MS) {
        unlinkQuiet(file);
        continue;
      }
      if (now - touched > STALE_TICKET_MS) continue;
      n++;
    }
    return n;
  }

  /** Says this waiter is still waiting (touches the ticket every BEAT_MS). */
  beat(): void {
    const now = Date.now();
    if (now - this.beaten < BEAT_MS) return;
    this.beaten = now;
    try {
      const t = new Date(now);
      utimesSync(join(this.dir, this.name), t, t);
    } catch {
      // deleted by someone who took this waiter for a dead one: it only loses its place
    }
  }

  leave(): void {
    unlinkQuiet(join(this.dir, this.name));
  }
}
