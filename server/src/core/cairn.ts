// The core facade: one object per process that both adapters (MCP tools, CLI) call. It owns the
// store, the config and per-process state (session id, disabled scopes); each operation lives
// in core/ops/<area>.ts and takes this object as its first argument.
import type { Config } from './config.ts';
import { resolveStore } from './storeDir.ts';
import { Store } from './store.ts';
import { newId } from './ids.ts';
import { resolveCaller, type Caller } from './origin.ts';
import * as reading from './ops/reading.ts';
import * as writing from './ops/write.ts';
import * as lifecycle from './ops/lifecycle.ts';
import * as searchOps from './ops/search.ts';
import * as pending from './ops/pending.ts';
import * as curation from './ops/curation.ts';

export interface OpenOptions {
  /** Store directory; default: resolved per format.md. */
  dir?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  warn?: (msg: string) => void;
  /** false: do not start the index freshness machinery (one-shot CLI commands). */
  watch?: boolean;
}

export type EventSink = (kind: string, fields: Record<string, unknown>) => void;

export class Cairn {
  readonly session = newId();
  readonly disabledScopes = new Set<string>();
  /** Set by the curation module when the event log is wired; a no-op until then. */
  eventSink: EventSink = () => {};
  /** Extension slots for subsystems (search index, pending writes, ...), keyed by module. */
  readonly ext = new Map<string, unknown>();
  private readonly clock: () => Date;

  private constructor(
    readonly dir: string,
    readonly config: Config,
    readonly configFile: string,
    readonly store: Store,
    readonly caller: Caller,
    readonly env: NodeJS.ProcessEnv,
    readonly watch: boolean,
    readonly warn: (msg: string) => void,
    now?: () => Date,
  ) {
    this.clock = now ?? (() => new Date());
  }

  static async open(opts: OpenOptions = {}): Promise<Cairn> {
    const env = opts.env ?? process.env;
    const cwd = opts.cwd ?? process.cwd();
    const loc = resolveStore({ env: opts.dir ? { ...env, CAIRN_DIR: opts.dir } : env, cwd });
    const warn = opts.warn ?? ((m: string) => process.stderr.write(`cairn: ${m}\n`));
    const store = new Store(loc.dir, { warn });
    const caller = await resolveCaller(env, cwd);
    const c = new Cairn(loc.dir, loc.config, loc.configFile, store, caller, env, opts.watch ?? true, warn, opts.now);
    await curation.openCuration(c);
    await searchOps.openIndex(c);
    return c;
  }

  async close(): Promise<void> {
    await searchOps.closeIndex(this);
    await curation.closeCuration(this);
  }

  now(): Date {
    return this.clock();
  }

  /** Appends to the event log. Never throws: a logging failure must not fail the call. */
  log(kind: string, fields: Record<string, unknown>): void {
    try {
      this.eventSink(kind, fields);
    } catch (err) {
      this.warn(`event log: ${(err as Error).message}`);
    }
  }

  // One method per tool; the contract of each is in shared/spec/tools.md.
  write(input: writing.WriteInput) { return writing.write(this, input); }
  writeConfirm(input: { pending_id: string }) { return pending.writeConfirm(this, input); }
  writeCancel(input: { pending_id: string }) { return pending.writeCancel(this, input); }
  update(input: writing.UpdateInput) { return writing.update(this, input); }
  verify(input: writing.VerifyInput) { return writing.verify(this, input); }
  show(input: reading.ShowInput) { return reading.show(this, input); }
  list(input: reading.ListInput) { return reading.list(this, input); }
  search(input: searchOps.SearchInput) { return searchOps.search(this, input); }
  scopeOverview(input: reading.OverviewInput) { return reading.scopeOverview(this, input); }
  remove(input: lifecycle.RemoveInput) { return lifecycle.remove(this, input); }
  restore(input: lifecycle.RestoreInput) { return lifecycle.restore(this, input); }
  listTombstones(input: lifecycle.ListTombstonesInput) { return lifecycle.listTombstones(this, input); }
  renameScope(input: curation.RenameScopeInput) { return curation.renameScope(this, input); }
  scopeDisable(input: { scope: string }) { return curation.scopeDisable(this, input); }
  scopeEnable(input: { scope: string }) { return curation.scopeEnable(this, input); }
  recordUse(input: curation.RecordUseInput) { return curation.recordUse(this, input); }
  health(input: curation.HealthInput) { return curation.health(this, input); }
}

