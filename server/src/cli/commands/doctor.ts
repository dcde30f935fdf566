// `cairn doctor`: read-only checks of the store and the client registrations
// (core/curation/doctor.ts). Exit 0 when all is ok, 1 with warnings, 2 with failures.
import { homedir } from 'node:os';
import { runDoctor, type DoctorReport } from '../../core/cairn.ts';
import { type Command, JSON_OPTION, parse, printJson } from '../io.ts';
import { progress } from '../progress.ts';

const options = { json: JSON_OPTION } as const;

export function doctorText(r: DoctorReport): string {
  const width = Math.max(...r.checks.map((c) => c.name.length));
  const lines = r.checks.flatMap((c) => [
    `${c.status.padEnd(4)}  ${c.name.padEnd(width)}  ${c.detail}`,
    ...(c.items ?? []).map((i) => `${' '.repeat(width + 8)}${i}`),
  ]);
  const verdict = r.status === 'ok' ? 'all checks passed' : r.status === 'warn' ? 'warnings above' : 'failures above';
  return `${lines.join('\n')}\n\ncairn doctor: ${verdict}\n`;
}

export const doctor: Command = {
  name: 'doctor',
  summary: 'check the store, its files, the event log, the index cache and client registrations',
  usage: 'cairn doctor [--json]',
  options,
  async run(argv, io) {
    const { values } = parse(argv, options, false);
    const shown = progress(io);
    const report = await runDoctor({ home: io.env.HOME || homedir(), platform: process.platform, env: io.env, cwd: io.cwd, ...(shown ? { progress: shown } : {}) });
    if (values.json) printJson(io, report);
    else io.out(doctorText(report));
    return report.exit_code;
  },
};
