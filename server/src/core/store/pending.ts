// Pending writes on disk, under <store>/.pending/<pending_id>.json.
//
// Why on disk and not in the server's memory: Claude Code restarts MCP servers, several servers
// (one per session) share one store, and the CLI runs as its own process. A pending write asked
// for in one process must be confirmable from any other process on the same store until it
// expires. The directory starts with a dot, so the store's loader never takes it for memories.
//
// Invariants: an entry is committed at most once (confirm claims it with an atomic rename that
// only one process can win); an expired entry is kept for a grace period so its id gives the
// "expired" message, not "unknown", and is deleted after that.
import { promises as fsp, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MalformedIdError, NotFoundError, PendingExpiredError } from '../errors.ts';
import { ensureOwnDirSync, isOwnDirSync, writeFileAtomic } from './fsatomic.ts';
import { newId } from '../ids.ts';
import type { ValidWrite } from '../types.ts';

export type PendingReason = 'user-inference' | 'require_write_confirmation';

export interface PendingEntry {
  pending_id: string;
  created_at: string;
  expires_at: string;
  session: string;
  reason: PendingReason;
  write: ValidWrite;
  /** Durability markers the writer acknowledged, carried to the confirm event. */
  markers: string[];
}

/** How long an expired entry keeps answering "expired" before it is deleted. */
export const EXPIRED_GRACE_MS = 24 * 3_600_000;
const ID_RE = /^p_[0-9A-HJKMNP-TV-Z]{26}$/;

export function pendingDir(storeDir: string): string {
  return join(storeDir, '.pending');
}

export function newPendingId(now: Date): string {
  return `p_${newId(now.getTime())}`;
}

/** Normalizes a pending_id argument; anything that cannot be one is its own error. */
export function checkPendingId(raw: unknown): string {
  const id = typeof raw === 'string' ? raw.trim() : '';
  if (!ID_RE.test(id)) {
    const shown = typeof raw === 'string' ? JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}...` : raw) : String(raw);
    throw new MalformedIdError(`pending_id ${shown} is not a pending write id: pass the pending_id memory_write returned, like p_01JQ3Z8V7M2K4T6Y9B1C3D5F7H`);
  }
  return id;
}

const fileOf = (dir: string, id: string) => join(dir, `${id}.json`);

export async function savePending(storeDir: string, entry: PendingEntry): Promise<void> {
  const dir = pendingDir(storeDir);
  ensureOwnDirSync(dir);
  await writeFileAtomic(fileOf(dir, entry.pending_id), `${JSON.stringify(entry, null, 2)}\n`);
}

async function readEntry(file: string): Promise<PendingEntry | null> {
  // Never read through a symlinked .pending (it would read outside the store).
  if (!isOwnDirSync(dirname(file))) return null;
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const e = JSON.parse(text) as PendingEntry;
    if (typeof e.expires_at !== 'string' || typeof e.write !== 'object' || e.write === null) throw new Error('missing fields');
    return e;
  } catch (err) {
    throw new Error(`pending write file ${file} is unreadable (${(err as Error).message}): delete it and write the memory again`);
  }
}

function expiredError(e: PendingEntry): PendingExpiredError {
  return new PendingExpiredError(
    `pending write ${e.pending_id} expired at ${e.expires_at} (behavior.pending_ttl_minutes): nothing was stored; call memory_write again if the user still agrees`,
  );
}

function unknownError(id: string): NotFoundError {
  return new NotFoundError(`no pending write with id ${id}: it was already confirmed or cancelled, or never existed`);
}

export interface Claim {
  entry: PendingEntry;
  /** The write was committed: forget the entry. */
  done(): Promise<void>;
  /** The commit failed: put the entry back so it can be confirmed again. */
  release(): Promise<void>;
}

/**
 * Takes a live entry for confirmation. The rename to a private claim name is atomic, so when two
 * processes confirm the same id, exactly one gets the entry and the other gets "unknown".
 */
export async function claimPending(storeDir: string, id: string, now: Date): Promise<Claim> {
  const dir = pendingDir(storeDir);
  const file = fileOf(dir, id);
  const entry = await readEntry(file);
  if (!entry) throw unknownError(id);
  if (Date.parse(entry.expires_at) <= now.getTime()) throw expiredError(entry);
  const claimed = join(dir, `.${id}.${process.pid}.${randomBytes(4).toString('hex')}.claim`);
  try {
    await fsp.rename(file, claimed);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw unknownError(id);
    throw err;
  }
  return {
    entry,
    done: () => fsp.rm(claimed, { force: true }),
    release: () => fsp.rename(claimed, file),
  };
}

/** Deletes an entry. Returns whether a live (unexpired) pending write was dropped. */
export async function dropPending(storeDir: string, id: string, now: Date): Promise<boolean> {
  const file = fileOf(pendingDir(storeDir), id);
  const entry = await readEntry(file);
  if (!entry) return false;
  try {
    await fsp.rm(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false; // another process won
    throw err;
  }
  return Date.parse(entry.expires_at) > now.getTime();
}

/** Deletes entries expired for longer than the grace period, and claims abandoned by a crash. */
export async function sweepPending(storeDir: string, now: Date): Promise<void> {
  const dir = pendingDir(storeDir);
  if (!isOwnDirSync(dir)) return; // never clean through a symlink
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return;
  }
  await Promise.all(
    names.map(async (name) => {
      const file = join(dir, name);
      try {
        if (name.endsWith('.claim')) {
          const st = await fsp.stat(file);
          if (now.getTime() - st.mtimeMs > EXPIRED_GRACE_MS) await fsp.rm(file, { force: true });
          return;
        }
        if (!name.endsWith('.json')) return;
        const e = await readEntry(file);
        if (e && Date.parse(e.expires_at) + EXPIRED_GRACE_MS <= now.getTime()) await fsp.rm(file, { force: true });
      } catch {
        // a file another process is handling, or a broken entry: leave it
      }
    }),
  );
}

/**
 * The live (unexpired) pending writes, oldest first: what `cairn ui` lists for the user to
 * confirm or cancel. Unreadable entries are skipped here (confirming one names the problem).
 */
export async function listPending(storeDir: string, now: Date): Promise<PendingEntry[]> {
  const dir = pendingDir(storeDir);
  if (!isOwnDirSync(dir)) return [];
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  const out: PendingEntry[] = [];
  for (const name of names.filter((n) => ID_RE.test(n.replace(/\.json$/, '')) && n.endsWith('.json')).sort()) {
    try {
      const e = await readEntry(join(dir, name));
      if (e && Date.parse(e.expires_at) > now.getTime()) out.push(e);
    } catch {
      // unreadable: left for confirm/cancel to report
    }
  }
  return out;
}

/**
 * Calls `fn` when the pending writes may have changed (an entry saved, claimed or dropped by any
 * process). Polls the directory's mtime once a second: one stat, and it works where fs.watch
 * does not (the directory may not exist yet). Returns the stop function.
 */
export function watchPending(storeDir: string, fn: () => void, intervalMs = 1000): () => void {
  const dir = pendingDir(storeDir);
  const stamp = () => {
    try {
      return statSync(dir).mtimeMs;
    } catch {
      return -1;
    }
  };
  let last = stamp();
  const timer = setInterval(() => {
    const now = stamp();
    if (now !== last) {
      last = now;
      fn();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
