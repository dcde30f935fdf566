// The core facade: one object per process that every adapter (MCP tools, CLI) calls. It owns the
// store, the config and per-process state (session id, disabled scopes, services); each
// operation lives in core/ops/<tool group>.ts and takes this object, as a Context, first.
import type { Config } from './config.ts';
import type { Context, EventKind, Services, StoreKind } from './ops/context.ts';
import type { OneShotFreshness, PhaseProgress } from './types.ts';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findTeamStore, resolveStore } from './store/location.ts';
import { pendingDir } from './store/pending.ts';
import { ValidationError } from './errors.ts';
import { Store } from './store/store.ts';
import { withoutSecrets } from './trust/gates/secrets.ts';
import { newId } from './ids.ts';
import { resolveCaller, type Caller } from './origin.ts';
import * as retrieval from './ops/retrieval.ts';
import * as writing from './ops/writing.ts';
import * as lifecycle from './ops/lifecycle.ts';
import * as originBackfill from './ops/originBackfill.ts';
import * as curation from './ops/curation.ts';
import * as consolidation from './ops/consolidation.ts';
import * as transfer from './ops/transfer.ts';
import * as notes from './ops/notes.ts';
import * as insight from './ops/insight.ts';
import * as syncOps from './ops/sync.ts';
import * as team from './ops/team.ts';
import * as resources from './ops/resources.ts';
import type { ExportDoc } from './io/exportImport.ts';
import { parseSource, type ImportFormat } from './io/import/index.ts';
import type { ParseOptions } from './io/import/common.ts';

/** With no call to answer, a server's background work begins this long after its open. */
const BACKGROUND_AFTER_OPEN_MS = 100;

export interface OpenOptions {
  /** Store directory; default: resolved per format.md. */
  dir?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  warn?: (msg: string) => void;
  /** false: do not start the index freshness machinery (one-shot CLI commands). */
  watch?: boolean;
  /** false: record nothing in the event log (a peek such as the session-start hook). */
  log?: boolean;
  /** With watch: false, how fresh reads are (ops/context.ts); default 'every-read'. */
  oneShot?: OneShotFreshness;
  /** Told how a long open goes (reading the index cache, checking and loading files): the CLI's progress line. */
  progress?: PhaseProgress;
  /** Whose lookups this process makes: 'model' (default, the MCP server) or 'user' (the CLI). */
  actor?: 'model' | 'user';
  /** true: run the automatic sync when config.toml says [sync] auto = true (the MCP server). */
  autoSync?: boolean;
}

export class Cairn implements Context {
  readonly session = newId();
  readonly disabledScopes = new Set<string>();
  readonly services: Services = { index: null, semantic: null, events: null, links: null, feedback: null };
  /** The team store of the caller's repository (README "Team memory"), opened beside this one. */
  team: Cairn | null = null;
  /** ops/context.ts: the personal store's dir for both (the team store logs into the personal log). */
  eventsDir: string;
  private readonly clock: () => Date;

  private constructor(
    readonly dir: string,
    readonly config: Config,
    readonly configFile: string,
    readonly store: Store,
    caller: Caller | null,
    readonly env: NodeJS.ProcessEnv,
    readonly watch: boolean,
    readonly warn: (msg: string) => void,
    readonly actor: 'model' | 'user',
    readonly oneShot: OneShotFreshness,
    readonly storeKind: StoreKind,
    now?: () => Date,
  ) {
    this.clock = now ?? (() => new Date());
    this.eventsDir = dir;
    this.callerAt = caller;
  }

  /** Null only while open() runs: git answers in a child process meanwhile (see open). */
  private callerAt: Caller | null;
  /** Where the tools are called from: the cwd, and its repository if it is in one. */
  get caller(): Caller {
    if (this.callerAt === null) throw new Error('the caller is asked for before the store finished opening');
    return this.callerAt;
  }

  /** Where the store is and its config, without opening (or creating) anything. */
  static locate(opts: { env: NodeJS.ProcessEnv; cwd: string }) {
    return resolveStore(opts);
  }

  /**
   * The session-start counts (what sessionOverview gives on a peek at the index cache) from the
   * cache's small summary, without opening the store; null when there is no current summary (the
   * caller then opens with oneShot 'cache'). Reads a 4 KB header and a small JSON file.
   */
  static async peekOverview(opts: { env: NodeJS.ProcessEnv; cwd: string }) {
    const loc = resolveStore(opts);
    const caller = await resolveCaller(opts.env, opts.cwd);
    return retrieval.peekOverview(loc.dir, loc.config.scopes.global, caller.repoKey, new Date());
  }

  static async open(opts: OpenOptions = {}): Promise<Cairn> {
    const env = opts.env ?? process.env;
    const cwd = opts.cwd ?? process.cwd();
    const loc = resolveStore({ env: opts.dir ? { ...env, CAIRN_DIR: opts.dir } : env, cwd });
    const warn = opts.warn ?? ((m: string) => process.stderr.write(`cairn: ${m}\n`));
    // File names never repeat a span the secret gate flags, whatever path brought the body in.
    const store = new Store(loc.dir, { warn, nameText: withoutSecrets });
    // The caller's repository comes from git, in a child process (one or two spawns, 30-70 ms):
    // asked first and awaited after the index opened, which never needs it (a start from the
    // cache decodes it on this thread meanwhile).
    const asked = resolveCaller(env, cwd);
    asked.catch(() => {}); // awaited below; no unhandled rejection if the index open throws first
    const c = new Cairn(loc.dir, loc.config, loc.configFile, store, null, env, opts.watch ?? true, warn, opts.actor ?? 'model', opts.oneShot ?? 'every-read', 'personal', opts.now);
    if (opts.log !== false) curation.openEventLog(c);
    await retrieval.openIndex(c, opts.progress);
    const caller = (c.callerAt = await asked);
    // The repository's team store: one stat when there is none (findTeamStore), else its own
    // store, index (cache in .cairn/.cache/) and watcher, like the personal one.
    const teamDir = loc.config.team.enabled ? findTeamStore(caller.repoRoot) : null;
    if (teamDir !== null && resolve(teamDir) !== resolve(loc.dir)) {
      const t = new Cairn(teamDir, loc.config, loc.configFile, new Store(teamDir, { warn, nameText: withoutSecrets }), caller, env, opts.watch ?? true, warn, opts.actor ?? 'model', opts.oneShot ?? 'every-read', 'team', opts.now);
      try {
        // One event log per person: the team store's events go to the personal log, marked.
        t.eventsDir = c.dir;
        t.services.events = c.services.events;
        await retrieval.openIndex(t);
        c.team = t;
      } catch (err) {
        // A broken team store never takes the personal one down: warned, and left out.
        warn(`team store ${teamDir} left out: ${(err as Error).message}`);
        await t.close().catch(() => {});
      }
    }
    if (opts.autoSync && loc.config.sync.auto) {
      c.autoSync = new syncOps.AutoSync(c);
      c.autoSync.start();
    }
    // The indexes' background work (checking a cache's files, mapping ids) begins once the calls
    // this open was waited for are answered (during), or after a moment without any.
    c.idleTimer = setTimeout(() => {
      if (c.calls === 0) c.startBackground();
    }, BACKGROUND_AFTER_OPEN_MS);
    c.idleTimer.unref();
    return c;
  }

  private calls = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  /**
   * Runs one call of an adapter (the MCP server's tool calls). The indexes' background work
   * begins once no call is in flight: begun at the end of the open, it ran inside the first
   * answer's own waits (its git and file checks), ahead of the rest of the answer (~50-120 ms at
   * 200k memories: the cache's staleness count and a full garbage collection).
   */
  async during<T>(run: () => T | Promise<T>): Promise<T> {
    this.calls++;
    try {
      return await run();
    } finally {
      if (--this.calls === 0) this.startBackground();
    }
  }

  private startBackground(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.services.index?.startBackground();
    this.team?.services.index?.startBackground();
    consolidation.warmInBackground(this);
  }

  private autoSync: syncOps.AutoSync | null = null;

  /** The context whose pending area holds this pending id (the personal one when neither does). */
  private pendingHolder(id: unknown): Cairn {
    const t = this.team;
    if (t === null || typeof id !== 'string' || !/^p_[0-9A-HJKMNP-TV-Z]{26}$/.test(id.trim())) return this;
    const has = (dir: string) => existsSync(join(pendingDir(dir), `${id.trim()}.json`));
    return !has(this.dir) && has(t.dir) ? t : this;
  }

  /** A write went through: the automatic sync (when on) runs after its debounce, never inside the call. */
  private wrote<T>(p: Promise<T>): Promise<T> {
    if (this.autoSync === null) return p;
    return p.then((v) => {
      this.autoSync?.schedule();
      return v;
    });
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const t = this.team;
    this.team = null;
    if (t !== null) {
      t.services.events = null; // the personal log, closed below by its owner
      await t.close();
    }
    notes.closeGraph(this);
    await consolidation.closeConsolidation(this);
    await this.autoSync?.stop();
    await retrieval.closeIndex(this);
    curation.closeEventLog(this);
  }

  now(): Date {
    return this.clock();
  }

  /** Appends to the event log. Never throws: a logging failure must not fail the call. */
  log(kind: EventKind, fields: Record<string, unknown>): void {
    try {
      void this.services.events?.append(kind, this.storeKind === 'team' ? { ...fields, store: 'team' } : fields);
    } catch (err) {
      this.warn(`event log: ${(err as Error).message}`);
    }
  }

  /**
   * The context holding a memory id: this store, or the team store when only it knows the id
   * (active or removed). Ids are ULIDs, unique in practice; should both stores hold one id, the
   * personal memory answers and health lists the clash (README "Team memory").
   */
  private async holder(id: unknown): Promise<Cairn> {
    const t = this.team;
    if (t === null || typeof id !== 'string') return this;
    const k = id.trim().toUpperCase();
    await this.store.ensureFresh();
    if (this.store.get(k) || this.store.getTombstone(k)) return this;
    await t.store.ensureFresh();
    return t.store.get(k) || t.store.getTombstone(k) ? t : this;
  }

  /** The store a write goes to: the personal one, or with store: "team" the repository's team store. */
  private target(store: unknown): Cairn {
    if (store === undefined || store === null || store === 'personal') return this;
    if (store !== 'team') throw new ValidationError(`store must be "personal" or "team", got ${JSON.stringify(store)}`);
    if (this.team === null) {
      const why = !this.config.team.enabled
        ? 'team stores are turned off ([team] enabled = false in config.toml)'
        : this.caller.repoRoot === null
          ? `${this.caller.cwd} is not inside a git repository`
          : `the repository ${this.caller.repoRoot} has no team store (.cairn/team.toml): run cairn team init there and commit .cairn/`;
      throw new ValidationError(`store "team" is not available: ${why}; nothing was written`);
    }
    return this.team;
  }

  /** The other stores a write to `to` is checked against (duplicates, tombstones). */
  private othersOf(to: Cairn): Cairn[] {
    if (this.team === null) return [];
    return to === this ? [this.team] : [this];
  }

  // One method per tool (docs/tools.md), grouped as the MCP tool files and core/ops are.
  // retrieval
  search(input: retrieval.SearchInput) { return retrieval.search(this, input); }
  show(input: retrieval.ShowInput) { return retrieval.show(this, input); }
  list(input: retrieval.ListInput) { return retrieval.list(this, input); }
  /** Every page of list, streamed to `emit`: one freshness check and one event (CLI list --all). */
  listEach(input: Omit<retrieval.ListInput, 'cursor'>, emit: Parameters<typeof retrieval.listEach>[2]) { return retrieval.listEach(this, input, emit); }
  /** memory_scope_overview for the session-start hook: auto_scope, no curation counts. */
  sessionOverview() { return retrieval.scopeOverview(this, { auto_scope: true }, { curation: false }); }
  scopeOverview(input: retrieval.OverviewInput, progress?: PhaseProgress) { return retrieval.scopeOverview(this, input, { curation: true, ...(progress ? { progress } : {}) }); }
  // writing
  write(input: writing.WriteInput & { store?: 'personal' | 'team' }) {
    const { store, ...rest } = input;
    const to = this.target(store);
    return this.wrote(writing.write(to, rest, this.othersOf(to)));
  }
  /** A pending write lives in the store it was meant for: the team store's pending ones confirm there. */
  writeConfirm(input: { pending_id: string }) { return this.wrote(writing.writeConfirm(this.pendingHolder(input.pending_id), input)); }
  writeCancel(input: { pending_id: string; reason?: string }) { return writing.writeCancel(this.pendingHolder(input.pending_id), input); }
  /** A pending write confirmed with the user's edited text (the MCP confirmation form), through the write gates. */
  writeConfirmEdited(input: { pending_id: string; content: string }) {
    const h = this.pendingHolder(input.pending_id);
    return this.wrote(writing.writeConfirmEdited(h, input, this.othersOf(h)));
  }
  async update(input: writing.UpdateInput) { return this.wrote(writing.update(await this.holder(input.id), input)); }
  async verify(input: writing.VerifyInput) { return this.wrote(writing.verify(await this.holder(input.id), input)); }
  // lifecycle
  async remove(input: lifecycle.RemoveInput) { return this.wrote(lifecycle.remove(await this.holder(input.id), input)); }
  async restore(input: lifecycle.RestoreInput) { return this.wrote(lifecycle.restore(await this.holder(input.id), input)); }
  listTombstones(input: lifecycle.ListTombstonesInput) { return lifecycle.listTombstones(this, input); }
  pruneTombstones(input: lifecycle.PruneTombstonesInput) { return this.wrote(lifecycle.pruneTombstones(this, input)); }
  // transfer (CLI export / import)
  exportStore(input: transfer.ExportInput) { return transfer.exportStore(this, input); }
  importStore(doc: ExportDoc, progress?: (done: number, total: number) => void) { return this.wrote(transfer.importStore(this, doc, progress)); }
  /** cairn import --from FORMAT PATH: reads the source (nothing written when it is malformed), then gates and, with apply, writes. */
  async importFrom(format: ImportFormat, path: string, opts: transfer.SourceImportOptions & ParseOptions) {
    const parsed = await parseSource(format, path, { ...(opts.includeClaudeMd ? { includeClaudeMd: true } : {}), home: this.env.HOME ?? '' });
    return opts.apply ? this.wrote(transfer.importFrom(this, parsed, opts)) : transfer.importFrom(this, parsed, opts);
  }
  // notes: Anthropic's memory tool over the notes area, and the link graph
  memoryTool(input: notes.MemoryCommand) { return this.wrote(notes.memoryTool(this, input)); }
  async related(input: notes.RelatedInput) { return notes.related(await this.holder(input.id), input); }
  // curation
  renameScope(input: curation.RenameScopeInput) { return this.wrote(curation.renameScope(this, input)); }
  scopeDisable(input: { scope: string }) { return curation.scopeDisable(this, input); }
  scopeEnable(input: { scope: string }) { return curation.scopeEnable(this, input); }
  recordUse(input: curation.RecordUseInput) { return curation.recordUse(this, input); }
  /** memory_health; `progress` hears how far the whole report is, in percent (the CLI's progress line). */
  async health(input: curation.HealthInput, progress?: (percent: number, of: number) => void) {
    const t = this.team;
    // The stages' weights: each store's report, then the consolidation pairs (the longest).
    const stage = curation.healthStages(progress, t === null ? [1, 2] : [1, 1, 2]);
    const report = await curation.health(this, input, t, stage(0));
    // The team store's own report, labelled: its problems are the team's to fix (and to commit).
    const teamReport = t === null ? null : { store: 'team' as const, dir: t.dir, ...(await curation.health(t, input, this, stage(1))), ...team.teamProblems(this)! };
    const pairs = await consolidation.consolidationSummary(this, stage(t === null ? 1 : 2));
    return { ...report, store: 'personal' as const, consolidation: pairs, ...(teamReport ? { team: teamReport } : {}) };
  }
  consolidate(input: consolidation.ConsolidateInput) { return this.wrote(consolidation.consolidate(this, input)); }
  merge(input: consolidation.MergeInput) { return this.wrote(consolidation.merge(this, input)); }
  // sync (CLI `cairn sync`; the merge driver runs without opening a store)
  syncInit(input: syncOps.SyncInitInput) { return syncOps.syncInit(this, input); }
  sync() { return syncOps.sync(this); }
  syncStatus() { return syncOps.status(this); }
  static mergeDriver(files: Parameters<typeof syncOps.mergeDriver>[0], workTree: string) { return syncOps.mergeDriver(files, workTree); }
  // team memory (README "Team memory")
  teamInit(input?: team.TeamInitInput) { return team.teamInit(this, input); }
  teamStatus() { return team.teamStatus(this); }
  migrateOrigin(input: curation.MigrateOriginInput) { return this.wrote(curation.migrateOrigin(this, input)); }
  backfillOrigin(input: originBackfill.BackfillOriginInput) { return this.wrote(originBackfill.backfillOrigin(this, input)); }
  // insight: the read-only views of `cairn ui` (no tool of their own; reads are not logged)
  browse(input: insight.BrowseInput) { return insight.browse(this, input); }
  searchPreview(input: { query: string; max_results?: number; auto_scope?: boolean }) { return insight.searchPreview(this, input); }
  async memoryPage(input: { id: string; events?: number }) { return insight.memoryPage(await this.holder(input.id), input); }
  overview(input: { weeks?: number } = {}) { return insight.overview(this, input); }
  /** memory_health, reused until the store or the event log changes (the UI's health page). */
  healthCached(input: curation.HealthInput) { return insight.cachedHealth(this, input); }
  pendingWrites() { return insight.pendingWrites(this); }
  // resources and completions: what the MCP server offers besides tools (docs/mcp.md)
  resourcePage(input: { cursor?: string | undefined }) { return resources.resourcePage(this, input); }
  /** One memory as markdown with its frontmatter; logged as a show. */
  readMemoryResource(id: string) { return resources.readMemory(this, id); }
  readNoteResource(path: string) { return resources.readNote(this, path); }
  scopeDocument(scope: string) { return resources.scopeDocument(this, scope); }
  complete(kind: resources.CompletionKind, typed: string) { return resources.complete(this, kind, typed); }
  /** Every change to a memory or note, from any process, and whether the listed set changed; returns the unsubscribe. */
  watchResources(fn: (ch: resources.ResourceChange) => void) { return resources.watchResources(this, fn); }
  /** Every change to the store or the pending writes, from any process; returns the unsubscribe. */
  onChange(fn: (n: insight.ChangeNote) => void) { return insight.onChange(this, fn); }
}

export type { BrowseInput, BrowseRow, OverviewStats, ChangeNote, MemoryEvent } from './ops/insight.ts';
export type { PendingEntry } from './store/pending.ts';
export type { HealthReport } from './curation/health.ts';
export type { SearchHit } from './ops/retrieval.ts';
export type { ResourceChange, ResourceRow, CompletionKind } from './ops/resources.ts';


// The rest of the core API adapters use: plain functions over files outside an open store (client
// configs, the memory policy, export and import files, the doctor's checks) and the types they
// exchange. Adapters import these from here, never from the rooms that hold them.
export type { MemoryCommand } from './notes/api.ts';
export { MEMORY_POLICY, DEFAULT_POLICY_FILE, POLICY_FILES, policyBlock, projectRoot, readPolicyTarget, withPolicy } from './io/policy.ts';
export { CLIENTS, clientSpec, isClientId, serverEntry, SERVER_NAME, type ClientId, type InitEnv } from './io/clients.ts';
export { installedCairnPlugins, readRegistration, runInit, snippet, writeConfigAtomic } from './io/init.ts';
export { parseExport, secretsIn, writeExportFile } from './io/exportImport.ts';
export { IMPORT_FORMATS, checkFormat } from './io/import/index.ts';
export { runDoctor, type DoctorReport } from './curation/doctor.ts';
