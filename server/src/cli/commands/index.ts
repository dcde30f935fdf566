// The CLI's commands, one per file. Add a command with one line here.
import type { Command } from '../io.ts';
import { show } from './show.ts';
import { list } from './list.ts';
import { exportCmd } from './export.ts';
import { overview } from './overview.ts';

export const commands: Command[] = [
  show,
  list,
  exportCmd,
  overview,
];
