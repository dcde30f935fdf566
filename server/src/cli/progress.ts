// The one progress line for long waits of a command (loading the store's files, importing): on
// stderr, only when stderr is a terminal, and only once a phase has run for about a second;
// redrawn in place with a count and an estimate of the time left, ended with a newline.

/** What the progress line needs of a command's io (cli/io.ts CliIO has it). */
export interface ProgressIO {
  err: (s: string) => void;
  errIsTTY?: boolean;
  env: NodeJS.ProcessEnv;
}

/** Reports `done` of `total` for a phase ("loading files", "importing"); `percent`: shown as done% (of 100). */
export type Progress = (phase: string, done: number, total: number, unit?: 'percent') => void;

const SHOW_AFTER_MS = 1000;
const REDRAW_MS = 100;

function seconds(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

export function progress(io: ProgressIO, now: () => number = Date.now): Progress | undefined {
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
    if (t - started < showAfter) return; // short waits show nothing
    if (!finished && t - lastDraw < REDRAW_MS) return;
    lastDraw = t;
    const elapsed = t - started;
    const left = finished || done === 0 ? '' : `, about ${seconds((elapsed / done) * (total - done))} left`;
    const count = unit === 'percent' ? `${done}%` : `${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`;
    io.err(`\rcairn: ${p} ${count}${left}\x1b[K${finished ? '\n' : ''}`);
    drawn = !finished;
    ended = finished;
  };
}
