// Feedback-aware ranking: memory_record_use outcomes folded out of the event log into
// one bounded multiplier per memory. `applied` lifts, `contradicted` and `corrected` sink, and
// retrievals by the model with no outcome since (or `ignored`) decay slowly. Every contribution
// fades with a half-life ([ranking] feedback_half_life_days).
//
// The fold is incremental: the whole log (archives and active file) is read once per process,
// then each search reads only the bytes appended to the active log since (one fstat when nothing
// changed). A rotation (the active file replaced) folds everything again from scratch, which
// happens once per telemetry.max_bytes of events.
//
// A process that reads the log from scratch (every CLI command that searches, a server's start)
// leaves the fold in `.cache/feedback.json` (its sums, the log position and the archives it
// read), and the next one continues from there when the active log is the same file (inode) and
// no shorter and every archive is still present: `cairn search` no longer re-reads megabytes of
// events each time. A rotation or a missing archive folds from scratch, as before.
import { closeSync, existsSync, fstatSync, lstatSync, openSync, promises as fsp, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ensureOwnDirSync, tempPathFor } from '../store/fsatomic.ts';
import { gunzipSync } from 'node:zlib';
import { ACTIVE_LOG, listLogFiles, type CairnEvent } from './archives.ts';
import { actorOf, retrievedIds, useOf } from './usage.ts';

export interface FeedbackSettings {
  halfLifeDays: number;
  /** The largest lift or sink, as a fraction of the score (0.15 = ±15%). */
  maxFraction: number;
}

/** What the multiplier of one memory is made of, at `now`, after the half-life fade. */
export interface FeedbackParts {
  applied: number;
  sunk: number;
  idle: number;
  multiplier: number;
}

interface Acc {
  /** Sums of 2^((t - t0)/H) over the events: evaluated at `now` by one factor. */
  applied: number;
  sunk: number;
  idle: number;
}

/** Saturating curves: how much of the cap `n` (faded) events use. Documented in docs/config.md. */
const APPLIED_HALF = 3; // 3 applied uses reach half the lift
const SUNK_HALF = 0.5; // one contradiction reaches two thirds of the sink
const IDLE_HALF = 50; // idle retrievals: at most 10% of the cap, half of that after 50
const IDLE_SHARE = 0.1;

/** `.cache/feedback.json`: the fold as of `offset` bytes into the active log (inode `ino`). */
const FOLD_FILE = 'feedback.json';
const FOLD_VERSION = 1;
/** A fold that read at least this much of the log since its last save is saved again. */
const SAVE_AFTER_BYTES = 256 * 1024;

interface SavedFold {
  v: number;
  t0: number;
  hMs: number;
  ino: number;
  offset: number;
  archives: string[];
  acc: Array<[string, number, number, number]>;
}

export class FeedbackFold {
  private readonly acc = new Map<string, Acc>();
  private t0: number;
  /** archive names folded in (the saved fold is valid while they all exist) */
  private archives: string[] = [];
  /** log bytes folded since the fold was last saved or restored */
  private unsaved = 0;
  /** The sums changed since the fold was last saved or restored. */
  private changed = false;
  private readonly hMs: number;
  private offset = 0;
  private ino = -1;
  private started = false;

  constructor(
    private readonly dir: string,
    private readonly settings: FeedbackSettings,
    now: number,
    /** log bytes read before the fold is saved to .cache/ (tests lower it) */
    private readonly saveAfterBytes = SAVE_AFTER_BYTES,
  ) {
    this.t0 = now;
    this.hMs = settings.halfLifeDays * 86_400_000;
  }

  /** false while prime() lists the store directory: refresh() then leaves the fold empty. */
  private primed = true;

  /**
   * The first full read, with the store directory listed off the main thread (a big store's
   * listing, for the log's archives, is ~85 ms of blocking at 50k memories). Until it is done
   * the fold tracks nothing (the plain ranking); a failure leaves the next refresh to read.
   */
  async prime(): Promise<void> {
    this.primed = false;
    let names: string[] | undefined;
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      names = undefined;
    }
    this.primed = true;
    try {
      if (!this.started) this.fullRead(names);
    } catch {
      // the next refresh reads again
    }
  }

  /** Brings the fold up to the end of the log. Never throws: feedback is an optional signal. */
  refresh(): void {
    if (!this.primed) return;
    try {
      const file = join(this.dir, ACTIVE_LOG);
      let st;
      try {
        st = statSync(file);
      } catch {
        if (!this.started) this.fullRead();
        return;
      }
      if (!this.started || st.ino !== this.ino || st.size < this.offset) return this.fullRead();
      if (st.size > this.offset) this.readActiveFrom(file);
    } catch {
      // A log that cannot be read leaves the ranking as it was.
    }
  }

  /**
   * A line this process just appended (EventLog.onAppend): folded without reading the file back
   * when the fold was exactly at its start; otherwise the next refresh reads it (another process
   * wrote in between, or the log rotated).
   */
  ownAppend(line: string, sizeAfter: number, ino: number): void {
    if (!this.started || ino !== this.ino) return;
    const bytes = Buffer.byteLength(line);
    if (sizeAfter - bytes !== this.offset) return;
    const e = parseLine(line);
    if (e) this.fold(e);
    this.offset = sizeAfter;
    this.unsaved += bytes;
  }

  private fullRead(listed?: readonly string[]): void {
    if (this.restore()) {
      this.saveIfWorth();
      return;
    }
    this.acc.clear();
    this.started = true;
    this.offset = 0;
    this.ino = -1;
    this.archives = [];
    this.unsaved = 0;
    // Archives oldest first (whole), then the active file by byte offset, so the next refresh
    // continues exactly where this one stopped.
    for (const f of listLogFiles(this.dir, listed)) {
      if (f.rotatedAt === null) continue;
      this.archives.push(basename(f.file).replace(/\.gz$/, ''));
      try {
        const raw = readFileSync(f.file);
        this.unsaved += raw.length;
        for (const line of (f.compressed ? gunzipSync(raw) : raw).toString('utf8').split('\n')) {
          const e = parseLine(line);
          if (e) this.fold(e);
        }
      } catch {
        // an archive moved or unreadable: skipped (health reports it)
      }
    }
    const file = join(this.dir, ACTIVE_LOG);
    try {
      for (const e of this.readBytes(file, 0)) this.fold(e);
      // The active log's bytes count too: a store whose log never rotated would otherwise never be saved.
      this.unsaved += this.offset;
    } catch {
      // no active log yet
    }
    this.saveIfWorth();
  }

  /** The saved fold, when it still describes the log's start (see the top of this file). */
  private restore(): boolean {
    let saved: SavedFold;
    try {
      saved = JSON.parse(readFileSync(join(this.dir, '.cache', FOLD_FILE), 'utf8')) as SavedFold;
    } catch {
      return false;
    }
    try {
      if (saved.v !== FOLD_VERSION || saved.hMs !== this.hMs || !Array.isArray(saved.acc) || !Array.isArray(saved.archives)) return false;
      const st = statSync(join(this.dir, ACTIVE_LOG));
      if (st.ino !== saved.ino || st.size < saved.offset) return false;
      const present = (name: string) => [name, `${name}.gz`].some((n) => {
        try {
          return lstatSync(join(this.dir, n)).isFile();
        } catch {
          return false;
        }
      });
      if (!saved.archives.every(present)) return false;
      this.acc.clear();
      for (const [id, applied, sunk, idle] of saved.acc) this.acc.set(id, { applied, sunk, idle });
      this.t0 = saved.t0;
      this.archives = saved.archives;
      this.started = true;
      this.ino = saved.ino;
      this.offset = saved.offset;
      this.unsaved = 0;
      this.changed = false;
      if (st.size > saved.offset) this.readActiveFrom(join(this.dir, ACTIVE_LOG));
      return true;
    } catch {
      this.acc.clear();
      return false;
    }
  }

  /** Saves the fold when enough of the log was read since the last save (never throws). */
  private saveIfWorth(): void {
    if (this.unsaved < this.saveAfterBytes || this.ino < 0) return;
    const cache = join(this.dir, '.cache');
    try {
      if (!existsSync(this.dir)) return;
      ensureOwnDirSync(cache);
      const saved: SavedFold = { v: FOLD_VERSION, t0: this.t0, hMs: this.hMs, ino: this.ino, offset: this.offset, archives: this.archives, acc: [...this.acc].map(([id, a]) => [id, a.applied, a.sunk, a.idle]) };
      this.unsaved = 0;
      this.changed = false;
      // Synchronous, so a command exiting right after cannot leave a temp file; no fsync: a torn
      // or empty file after a crash is unreadable JSON, and the next process folds from the log.
      const file = join(cache, FOLD_FILE);
      const tmp = tempPathFor(file);
      try {
        writeFileSync(tmp, JSON.stringify(saved), { mode: 0o600, flag: 'wx' });
        renameSync(tmp, file);
      } catch {
        rmSync(tmp, { force: true });
      }
    } catch {
      // a cache: the next process folds from the log
    }
  }

  private readActiveFrom(file: string): void {
    const from = this.offset;
    for (const e of this.readBytes(file, this.offset)) this.fold(e);
    this.unsaved += this.offset - from;
  }

  /**
   * A server's close: saves the fold if enough of the log was folded since the last save and some
   * of it counted (a session of refused calls, which no fold counts, leaves the cache as it was;
   * the next process then reads those lines again, nothing more).
   */
  persist(): void {
    if (this.changed) this.saveIfWorth();
  }

  /** Complete lines from `from` to the end of the file; advances the offset past the last newline. */
  private readBytes(file: string, from: number): CairnEvent[] {
    const fd = openSync(file, 'r');
    try {
      const st = fstatSync(fd);
      this.ino = st.ino;
      const len = st.size - from;
      if (len <= 0) return [];
      const buf = Buffer.alloc(len);
      const n = readSync(fd, buf, 0, len, from);
      const text = buf.subarray(0, n).toString('utf8');
      const end = text.lastIndexOf('\n');
      if (end === -1) return [];
      this.offset = from + Buffer.byteLength(text.slice(0, end + 1));
      const out: CairnEvent[] = [];
      for (const line of text.slice(0, end).split('\n')) {
        const e = parseLine(line);
        if (e) out.push(e);
      }
      return out;
    } finally {
      closeSync(fd);
    }
  }

  private slot(id: string): Acc {
    this.changed = true;
    let a = this.acc.get(id);
    if (!a) this.acc.set(id, (a = { applied: 0, sunk: 0, idle: 0 }));
    return a;
  }

  private fold(e: CairnEvent): void {
    const t = Date.parse(e.ts);
    if (Number.isNaN(t)) return;
    const w = Math.pow(2, (t - this.t0) / this.hMs);
    const use = useOf(e);
    if (use) {
      for (const id of use.ids) {
        const a = this.slot(id);
        if (use.outcome === 'applied') a.applied += w;
        else if (use.outcome === 'contradicted' || use.outcome === 'corrected') a.sunk += w;
        if (use.outcome === 'ignored') a.idle += w;
        else a.idle = 0;
      }
      return;
    }
    if ((e.kind === 'search' || e.kind === 'show') && actorOf(e) === 'model') {
      for (const id of retrievedIds(e)) this.slot(id).idle += w;
    }
  }

  /** The parts of one memory's multiplier at `now`; multiplier 1 for a memory with no events. */
  parts(id: string, now: number): FeedbackParts {
    const a = this.acc.get(id);
    if (!a) return { applied: 0, sunk: 0, idle: 0, multiplier: 1 };
    const fade = Math.pow(2, (this.t0 - now) / this.hMs);
    const applied = a.applied * fade;
    const sunk = a.sunk * fade;
    const idle = a.idle * fade;
    const f = applied / (applied + APPLIED_HALF) - sunk / (sunk + SUNK_HALF) - (IDLE_SHARE * idle) / (idle + IDLE_HALF);
    const multiplier = 1 + this.settings.maxFraction * Math.max(-1, Math.min(1, f));
    return { applied: round(applied), sunk: round(sunk), idle: round(idle), multiplier: round(multiplier) };
  }

  get tracked(): number {
    return this.acc.size;
  }
}

/** One event line, or null for a blank, torn or corrupt one (skipped, as readEvents does). */
function parseLine(line: string): CairnEvent | null {
  if (line.trim() === '') return null;
  try {
    const v = JSON.parse(line) as CairnEvent;
    return typeof v === 'object' && v !== null && typeof v.ts === 'string' && typeof v.kind === 'string' ? v : null;
  } catch {
    return null;
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Reorders hits by score × multiplier inside each run of consecutive hits with the same
 * relevance: a hit never crosses into another relevance band, so feedback never puts a weak
 * match above a strong one. Stable: equal adjusted scores keep their order.
 */
export function rerankWithinBands<H extends { score: number; relevance: string }>(hits: H[], multiplier: (h: H) => number): H[] {
  const out: H[] = [];
  let i = 0;
  while (i < hits.length) {
    let j = i;
    while (j < hits.length && hits[j]!.relevance === hits[i]!.relevance) j++;
    const run = hits.slice(i, j).map((h, k) => ({ h, k, s: h.score * multiplier(h) }));
    run.sort((a, b) => b.s - a.s || a.k - b.k);
    out.push(...run.map((r) => r.h));
    i = j;
  }
  return out;
}
