// The one progress line for long waits of a command (opening the store, loading its files,
// importing, checking): on stderr, only when stderr is a terminal, and only once the command has
// run for about a second (its first second, not each phase's: a wait made of several shorter
// phases shows too); redrawn in place with a count and an estimate of the time left, each phase
// ended with a newline.

/** What the progress line needs of a command's io (cli/io.ts CliIO has it). */
export interface ProgressIO {
  err: (s: string) => void;
  errIsTTY?: boolean;
  env: NodeJS.ProcessEnv;
}

/** Reports `done` of `total` for a phase ("loading files", "importing"); `unit`: what is counted when it is not items ('percent' draws done%). */
export type Progress = (phase: string, done: number, total: number, unit?: string) => void;

const SHOW_AFTER_MS = 1000;
const REDRAW_MS = 100;

function seconds(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** `now`: milliseconds since the process started (the clock the quiet first second is counted on). */
export function progress(io: ProgressIO, now: () => number = () => performance.now()): Progress | undefined {
  if (!io.errIsTTY) return undefined;
  // Test seam: CAIRN_PROGRESS_AFTER_MS shortens the quiet first second (a whole number of ms).
  const seam = io.env.CAIRN_PROGRESS_AFTER_MS;
  const showAfter = seam !== undefined && /^\d+$/.test(seam) ? Number(seam) : SHOW_AFTER_MS;
  let phase = '';
  let started = 0;
  let lastDraw = 0;
  let drawn = false;
  /** the phase's end was drawn: a second report of it (a loader's last batch, then its end) draws nothing */
  let ended = false;
  return (p, done, total, unit) => {
    if (total <= 0) return; // nothing to count (a check that found no file to read)
    const t = now();
    if (p !== phase || (ended && done < total)) {
      if (drawn) io.err('\n');
      phase = p;
      started = t;
      lastDraw = 0;
      drawn = false;
      ended = false;
    }
    const finished = done >= total;
    if (finished && ended) return;
    if (t < showAfter) return; // a command's first second shows nothing
    if (!finished && t - lastDraw < REDRAW_MS) return;
    lastDraw = t;
    const elapsed = t - started;
    const left = finished || done === 0 || elapsed < REDRAW_MS ? '' : `, about ${seconds((elapsed / done) * (total - done))} left`;
    const count = unit === 'percent' ? `${done}%` : `${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}${unit ? ` ${unit}` : ''}`;
    io.err(`\rcairn: ${p} ${count}${left}\x1b[K${finished ? '\n' : ''}`);
    drawn = !finished;
    ended = finished;
  };
}
