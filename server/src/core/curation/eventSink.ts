// The event log of one process, as one thing with one life: opened with the personal store,
// shared by the team store's context (usage is per person: the team store's events go to the
// personal log, marked `store: "team"`, and its directory is shared), closed once with the
// personal store. It also holds the feedback fold over the log (feedback.ts), built on the first
// search that ranks with feedback and saved when the log closes. Operations append to it and read
// from it; only the facade opens and closes it.
import type { Config } from '../config.ts';
import { EventLog, type EventKind } from './events.ts';
import { FeedbackFold } from './feedback.ts';

/** From this many memories a server reads its feedback fold in the background (see feedback()). */
const FEEDBACK_PRIME_MIN = 10_000;

export interface EventSinkOptions {
  /** The personal store's directory: the log lives there. */
  dir: string;
  /** This process's session id, stamped on every event. */
  session: string;
  telemetry: Config['telemetry'];
  now: () => Date;
  warn: (msg: string) => void;
  /** false: record nothing (a peek such as the session-start hook); the log is still read. */
  record: boolean;
}

export class EventSink {
  private log: EventLog | null;
  private fold: FeedbackFold | null = null;
  /** The directory whose log this process reads and writes (the personal store's). */
  readonly dir: string;

  constructor(opts: EventSinkOptions) {
    this.dir = opts.dir;
    this.log = opts.record
      ? new EventLog({ dir: opts.dir, session: opts.session, enabled: opts.telemetry.enabled, maxBytes: opts.telemetry.max_bytes, now: opts.now, warn: opts.warn })
      : null;
  }

  /** The active log file; undefined when nothing is recorded or the log is closed. */
  get file(): string | undefined {
    return this.log?.file;
  }

  /** Appends one event; whether a line was written (never, when nothing is recorded). */
  append(kind: EventKind, fields: Record<string, unknown>): boolean {
    return this.log?.append(kind, fields) ?? false;
  }

  /**
   * The process's feedback fold, brought up to the end of the log; null when ranking.feedback is
   * off or nothing is tracked yet (the plain ranking, exactly). `store` is the store searched;
   * `now` is asked only when the fold is built.
   */
  feedback(ranking: Config['ranking'], now: () => Date, store: { watch: boolean; activeCount: number }): FeedbackFold | null {
    if (!ranking.feedback || ranking.feedback_max_percent === 0) return null;
    let fb = this.fold;
    if (!fb) {
      const fold = new FeedbackFold(this.dir, { halfLifeDays: ranking.feedback_half_life_days, maxFraction: ranking.feedback_max_percent / 100 }, now().getTime());
      this.fold = fb = fold;
      // This process's own events (a search logs one) are folded as they are written, not read back.
      this.log?.onAppend((line, size, ino) => fold.ownAppend(line, size, ino));
      // A server's big store: its first searches do not wait for the fold's first read (it lists
      // the store directory for the log's archives: ~85 ms at 50k memories, blocking), which runs
      // in the background; they rank without feedback meanwhile, as without a log.
      if (store.watch && store.activeCount >= FEEDBACK_PRIME_MIN) {
        void fold.prime();
        return null;
      }
    }
    fb.refresh();
    return fb.tracked > 0 ? fb : null;
  }

  close(): void {
    // The feedback fold is saved as far as this process folded the log (see feedback.ts).
    this.fold?.persist();
    this.log?.close();
    this.log = null;
  }
}
