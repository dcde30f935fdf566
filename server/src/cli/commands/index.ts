// The CLI's commands, one per file. Add a command with one line here.
import type { Command } from '../io.ts';
import { show } from './show.ts';
import { list } from './list.ts';
import { exportCmd } from './export.ts';
import { overview } from './overview.ts';
import { search } from './search.ts';
import { health } from './health.ts';
import { tombstones } from './tombstones.ts';
import { importCmd } from './import.ts';
import { doctor } from './doctor.ts';
import { init } from './init.ts';
import { migrateOrigin } from './migrateOrigin.ts';

export const commands: Command[] = [
  show,
  list,
  exportCmd,
  overview,
  search,
  health,
  tombstones,
  importCmd,
  doctor,
  init,
  migrateOrigin,
];
