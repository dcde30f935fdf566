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
import { migrate } from './migrate.ts';
import { serve } from './serve.ts';
import { remember } from './remember.ts';
import { update } from './update.ts';
import { verify } from './verify.ts';
import { remove } from './remove.ts';
import { restore } from './restore.ts';
import { renameScope } from './renameScope.ts';
import { cancel, confirm } from './confirm.ts';
import { ui } from './ui.ts';
import { mergeDriver, sync } from './sync.ts';
import { team } from './team.ts';

export const commands: Command[] = [
  serve,
  search,
  show,
  list,
  overview,
  remember,
  confirm,
  cancel,
  update,
  verify,
  remove,
  restore,
  renameScope,
  tombstones,
  health,
  exportCmd,
  importCmd,
  doctor,
  init,
  migrateOrigin,
  migrate,
  ui,
  sync,
  team,
  mergeDriver,
];
