// The event log (format.md "Event log"): one JSON object per line in <store>/.events.jsonl,
// rotated past telemetry.max_bytes into .events-<UTC stamp>.jsonl.gz archives.
//
// Invariants:
// - Lines from several processes never interleave: each line is ONE write(2) on a descriptor
//   opened with O_APPEND, so the kernel places it whole at the end of the file.
// - Rotation loses nothing: the active file is renamed (atomic) to a plain archive, never copied
//   and truncated. A writer that opened the old file just before the rename still lands its line
//   in that archive, so a plain archive is compressed only once it has been quiet for a grace
//   period (see archives.ts).
// - Logging never fails a tool call: every error is reported on stderr (once per message) and
//   swallowed.
import { closeSync, existsSync, fstatSync, openSync, writeSync, constants } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../errors.ts';
import { ACTIVE_LOG, compressArchives, rotateActive, DEFAULT_GRACE_MS } from './archives.ts';

export const EVENT_KINDS = [
  'search',
  'show',
  'write',
  'write_confirm',
  'write_cancel',
  'update',
  'update_refused',
  'verify',
  'list',
  'remove',
  'restore',
  'merge',
  'list_tombstones',
  'rename_scope',
  'migrate_origin',
  'use',
  'scope_overview',
  'scope_disable',
  'scope_enable',
  'prune_tombstones',
  'import',
  'consolidate',
  'memory_tool',
  'related',
  'sync_init',
  'sync',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** One parsed line. The fields beyond ts/session/kind depend on the kind (docs/events.md, "Event kinds"). */
export type { CairnEvent } from './archives.ts';

export interface EventLogOptions {
  /** The store directory. Nothing is logged while it does not exist (the store is created on first write). */
  dir: string;
  session: string;
  enabled?: boolean;
  maxBytes?: number;
  now?: () => Date;
  /** Where failures are reported; stderr by default. */
  warn?: (message: string) => void;
  /** How long a rotated archive must stay untouched before it is compressed. */
  compressGraceMs?: number;
}

/** A line larger than this is replaced by a stub: one event must never dominate the log. */
const MAX_LINE_BYTES = 256 * 1024;

export class EventLog {
  readonly file: string;
  readonly enabled: boolean;
  readonly maxBytes: number;
  private readonly dir: string;
  private readonly session: string;
  private readonly now: () => Date;
  private readonly warnFn: (message: string) => void;
  private readonly graceMs: number;
  private readonly warned = new Set<string>();
  private compressTimer: NodeJS.Timeout | undefined;

  constructor(opts: EventLogOptions) {
    this.dir = opts.dir;
    this.file = join(opts.dir, ACTIVE_LOG);
    this.session = opts.session;
    this.enabled = opts.enabled ?? true;
    this.maxBytes = opts.maxBytes ?? 10_000_000;
    this.now = opts.now ?? (() => new Date());
    this.warnFn = opts.warn ?? ((m) => process.stderr.write(`cairn: ${m}\n`));
    this.graceMs = opts.compressGraceMs ?? DEFAULT_GRACE_MS;
  }

  private readonly appended: Array<(line: string, sizeAfter: number, ino: number) => void> = [];
  /**
   * Calls `fn` after each line this process appends, with the file's size and inode right after
   * it (the feedback fold takes its own process's events this way instead of reading them back).
   */
  onAppend(fn: (line: string, sizeAfter: number, ino: number) => void): void {
    this.appended.push(fn);
  }

  /** Appends one event. Returns whether a line was written; never throws. */
  append(kind: EventKind, fields: Record<string, unknown> = {}): boolean {
    if (!this.enabled) return false;
    try {
      if (!existsSync(this.dir)) return false;
      const line = this.format(kind, fields);
      const st = this.writeLine(line);
      for (const fn of this.appended) fn(line, st.size, st.ino);
      if (st.size > this.maxBytes) this.rotate();
      return true;
    } catch (err) {
      this.warn(`could not append to the event log ${this.file}: ${errorMessage(err)}`);
      return false;
    }
  }

  /** Rotates now if the active log is past max_bytes (another process may have done it already). */
  rotate(): void {
    try {
      const archived = rotateActive(this.dir, this.maxBytes, () => this.now());
      if (archived === null) return;
      compressArchives(this.dir, { graceMs: this.graceMs, now: this.now() });
      this.scheduleCompression();
    } catch (err) {
      this.warn(`could not rotate the event log ${this.file}: ${errorMessage(err)}`);
    }
  }

  /** Stops the pending compression timer (the archive stays plain until the next rotation). */
  close(): void {
    if (this.compressTimer) clearTimeout(this.compressTimer);
    this.compressTimer = undefined;
  }

  private format(kind: string, fields: Record<string, unknown>): string {
    // ts/session/kind come first and cannot be overridden by a field of the same name.
    const { ts: _ts, session: _s, kind: _k, ...rest } = fields;
    const event = { ts: this.now().toISOString(), session: this.session, kind, ...rest };
    let line = JSON.stringify(event) + '\n';
    if (Buffer.byteLength(line) > MAX_LINE_BYTES) {
      line = JSON.stringify({ ts: event.ts, session: event.session, kind, truncated: true }) + '\n';
    }
    return line;
  }

  /** One open(O_APPEND) + one write per line; returns the file's size and inode after the write. */
  private writeLine(line: string): { size: number; ino: number } {
    const buf = Buffer.from(line, 'utf8');
    // O_NOFOLLOW: a symlinked log is refused (ELOOP), never appended to outside the store.
    const fd = openSync(this.file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    try {
      const written = writeSync(fd, buf, 0, buf.length);
      if (written !== buf.length) {
        // Never seen on a local filesystem; finishing the line keeps the file parseable.
        writeSync(fd, buf, written, buf.length - written);
      }
      const st = fstatSync(fd);
      return { size: st.size, ino: st.ino };
    } finally {
      closeSync(fd);
    }
  }

  private scheduleCompression(): void {
    if (this.compressTimer) return;
    this.compressTimer = setTimeout(() => {
      this.compressTimer = undefined;
      try {
        compressArchives(this.dir, { graceMs: this.graceMs, now: this.now() });
      } catch (err) {
        this.warn(`could not compress event log archives in ${this.dir}: ${errorMessage(err)}`);
      }
    }, this.graceMs + 250);
    // A pending compression must not keep a CLI process alive; the next rotation picks it up.
    this.compressTimer.unref();
  }

  private warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    try {
      this.warnFn(message);
    } catch {
      // stderr itself failed: there is nowhere left to report to.
    }
  }
}

export { readEvents, listLogFiles, compressArchives, type ReadEventsResult } from './archives.ts';
