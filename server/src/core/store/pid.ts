import { readFileSync } from 'node:fs';

/** Is a process with this pid alive on this host? (EPERM: it exists but belongs to someone else.) */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let bootMs: number | null | undefined;
/**
 * When the process with this pid started (ms since the epoch), where the OS says (Linux /proc);
 * null elsewhere or when it cannot be read. Lets a lock tell its holder from a later process that
 * reused the pid (a container restart hands out the same small pids again).
 */
export function pidStartMs(pid: number): number | null {
  try {
    if (bootMs === undefined) {
      const m = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      bootMs = m ? Number(m[1]) * 1000 : null;
    }
    if (bootMs === null) return null;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime, in clock ticks after boot); the command name (field 2) may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    // USER_HZ is 100 on every Linux architecture Node runs on.
    return Number.isFinite(ticks) ? bootMs + ticks * 10 : null;
  } catch {
    return null;
  }
}
