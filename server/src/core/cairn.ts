// The core facade: one object per process that every adapter (MCP tools, CLI) calls. It owns the
// store, the config, per-process state (session id, disabled scopes) and what lives as long as the
// store is open: the index (index/storeIndex.ts), the event log (curation/eventSink.ts) and the
// link graph, for the personal store and the repository's team store beside it. Each operation
// lives in core/ops/<tool group>.ts and takes, first, the narrow context it uses
// (ops/context.ts), which this object satisfies; ops/stores.ts says which store a call goes to.
import type { Config } from './config.ts';
import type { EventKind, RoutedContext, ScopeSwitches, StoreKind, WriteContext } from './ops/context.ts';
import { Stores, teamDirFor } from './ops/stores.ts';
import type { OneShotFreshness, PhaseProgress } from './types.ts';
import { resolveStore } from './store/location.ts';
import { Store } from './store/store.ts';
import { withoutSecrets } from './trust/gates/secrets.ts';
import { newId } from './ids.ts';
import { foreground } from './foreground.ts';
import { StoreIndex } from './index/storeIndex.ts';
import { legEmbedders } from './embed/config.ts';
import { EventSink } from './curation/eventSink.ts';
import { LinkGraph } from './notes/graph.ts';
import { resolveCaller, type Caller } from './origin.ts';
import * as retrieval from './ops/retrieval.ts';
import * as searchOps from './ops/search.ts';
import * as writing from './ops/writing.ts';
import * as confirm from './ops/confirm.ts';
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
  /** With watch: false, how fresh reads are (types.ts OneShotFreshness); default 'every-read'. */
  oneShot?: OneShotFreshness;
  /** Told how a long open goes (reading the index cache, checking and loading files): the CLI's progress line. */
  progress?: PhaseProgress;
  /** Whose lookups this process makes: 'model' (default, the MCP server) or 'user' (the CLI). */
  actor?: 'model' | 'user';
  /** true: run the automatic sync when config.toml says [sync] auto = true (the MCP server). */
  autoSync?: boolean;
}

/** How the facade builds one store's context (open() does, for the personal and the team store). */
interface ContextParts {
  dir: string;
  config: Config;
  configFile: string;
  store: Store;
  /** null while open() still waits for git (see open). */
  caller: Caller | null;
  env: NodeJS.ProcessEnv;
  watch: boolean;
  warn: (msg: string) => void;
  actor: 'model' | 'user';
  oneShot: OneShotFreshness;
  storeKind: StoreKind;
  now?: (() => Date) | undefined;
  /** The event log: the personal store's own, which the team store's context shares. */
  events: (session: string, now: () => Date) => EventSink;
  /** The process's disabled scopes: the personal context's, which the team store's shares (a disabled scope hides team memories too). */
  disabledScopes?: Set<string>;
}

export class Cairn implements RoutedContext, WriteContext, ScopeSwitches {
  readonly session = newId();
  readonly disabledScopes: Set<string>;
  /** This store's index, lexical and semantic: opened by open(), closed by close(). */
  readonly index: StoreIndex;
  /** The process's event log (the personal store's; the team store's context shares it): closed by the personal context's close(). */
  readonly events: EventSink;
  /** Which store each call goes to (ops/stores.ts): this one, and the caller's repository's team store beside it once open. */
  readonly stores: Stores<Cairn> = new Stores<Cairn>(this);
  readonly dir: string;
  readonly config: Config;
  readonly configFile: string;
  readonly store: Store;
  readonly env: NodeJS.ProcessEnv;
  readonly watch: boolean;
  readonly warn: (msg: string) => void;
  readonly actor: 'model' | 'user';
  readonly storeKind: StoreKind;
  private readonly clock: () => Date;
  private linksAt: LinkGraph | null = null;

  private constructor(p: ContextParts) {
    this.dir = p.dir;
    this.config = p.config;
    this.configFile = p.configFile;
    this.store = p.store;
    this.env = p.env;
    this.watch = p.watch;
    this.warn = p.warn;
    this.actor = p.actor;
    this.storeKind = p.storeKind;
    this.disabledScopes = p.disabledScopes ?? new Set<string>();
    this.clock = p.now ?? (() => new Date());
    this.callerAt = p.caller;
    this.events = p.events(this.session, () => this.now());
    this.index = new StoreIndex(p.store, { synonyms: p.config.search.synonyms, watch: p.watch, oneShot: p.oneShot, warn: p.warn, embedders: () => legEmbedders(p.config.embed, p.warn) });
  }

  /** The link graph of this store's memories and notes (notes/graph.ts), built on first use and stopped by close(). */
  get links(): LinkGraph {
    return (this.linksAt ??= new LinkGraph(this.store));
  }

  /** The link graph if something has made it, else null. */
  get linksMade(): LinkGraph | null {
    return this.linksAt;
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
    const parts = {
      config: loc.config, configFile: loc.configFile, env, watch: opts.watch ?? true, warn, actor: opts.actor ?? 'model', oneShot: opts.oneShot ?? 'every-read', now: opts.now,
    } as const;
    const c = new Cairn({
      ...parts, dir: loc.dir, store, caller: null, storeKind: 'personal',
      events: (session, now) => new EventSink({ dir: loc.dir, session, telemetry: loc.config.telemetry, now, warn, record: opts.log !== false }),
    });
    await c.index.open(opts.progress);
    const caller = (c.callerAt = await asked);
    // The repository's team store: one stat when there is none (teamDirFor), else its own
    // store, index (cache in .cairn/.cache/) and watcher, like the personal one.
    const teamDir = teamDirFor(loc.config, caller, loc.dir);
    if (teamDir !== null) {
      // One event log per person: the team store's events go to the personal log, marked.
      const t = new Cairn({ ...parts, dir: teamDir, store: new Store(teamDir, { warn, nameText: withoutSecrets }), caller, storeKind: 'team', events: () => c.events, disabledScopes: c.disabledScopes });
      try {
        await t.index.open();
        c.stores.team = t;
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
    // The process's background work (embedding, consolidation ahead of calls, cache saves) waits
    // while the call runs (core/foreground.ts).
    const leave = foreground.enter();
    try {
      return await run();
    } finally {
      leave();
      if (--this.calls === 0) this.startBackground();
    }
  }

  private startBackground(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.index.startBackground();
    this.stores.team?.index.startBackground();
    consolidation.warmInBackground(this);
  }

  private autoSync: syncOps.AutoSync | null = null;

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
    const t = this.stores.team;
    this.stores.team = null;
    if (t !== null) await t.close();
    this.linksAt?.close();
    this.linksAt = null;
    await consolidation.closeConsolidation(this);
    await this.autoSync?.stop();
    await this.index.close();
    // The team store's context shares the personal event log: its owner closes it, once.
    if (this.storeKind === 'personal') this.events.close();
  }

  now(): Date {
    return this.clock();
  }

  /** Appends to the event log. Never throws: a logging failure must not fail the call. */
  log(kind: EventKind, fields: Record<string, unknown>): void {
    try {
      this.events.append(kind, this.storeKind === 'team' ? { ...fields, store: 'team' } : fields);
    } catch (err) {
      this.warn(`event log: ${(err as Error).message}`);
    }
  }

  // One method per tool (docs/tools.md), grouped as the MCP tool files and core/ops are.
  // retrieval
  search(input: searchOps.SearchInput) { return searchOps.search(this, input); }
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
    const to = this.stores.target(store);
    return this.wrote(writing.write(to, rest, this.stores.othersOf(to)));
  }
  /** A pending write lives in the store it was meant for: the team store's pending ones confirm there. */
  writeConfirm(input: { pending_id: string }) { return this.wrote(confirm.writeConfirm(this.stores.pendingHolder(input.pending_id), input)); }
  writeCancel(input: { pending_id: string; reason?: string }) { return confirm.writeCancel(this.stores.pendingHolder(input.pending_id), input); }
  /** A pending write confirmed with the user's edited text (the MCP confirmation form), through the write gates. */
  writeConfirmEdited(input: { pending_id: string; content: string }) {
    const h = this.stores.pendingHolder(input.pending_id);
    return this.wrote(confirm.writeConfirmEdited(h, input, this.stores.othersOf(h)));
  }
  async update(input: writing.UpdateInput) { return this.wrote(writing.update(await this.stores.holder(input.id), input)); }
  async verify(input: writing.VerifyInput) { return this.wrote(writing.verify(await this.stores.holder(input.id), input)); }
  // lifecycle
  async remove(input: lifecycle.RemoveInput) { return this.wrote(lifecycle.remove(await this.stores.holder(input.id), input)); }
  async restore(input: lifecycle.RestoreInput) { return this.wrote(lifecycle.restore(await this.stores.holder(input.id), input)); }
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
  async related(input: notes.RelatedInput) { return notes.related(await this.stores.holder(input.id), input); }
  // curation
  renameScope(input: curation.RenameScopeInput) { return this.wrote(curation.renameScope(this, input)); }
  scopeDisable(input: { scope: string }) { return curation.scopeDisable(this, input); }
  scopeEnable(input: { scope: string }) { return curation.scopeEnable(this, input); }
  recordUse(input: curation.RecordUseInput) { return curation.recordUse(this, input); }
  /** memory_health; `progress` hears how far the whole report is, in percent (the CLI's progress line). */
  async health(input: curation.HealthInput, progress?: (percent: number, of: number) => void) {
    const t = this.stores.team;
    // The stages' weights: each store's report, then the consolidation pairs (the longest).
    const stage = curation.healthStages(progress, t === null ? [1, 2] : [1, 1, 2]);
    const report = await curation.health(this, input, t, stage(0));
    // The team store's own report, labelled: its problems are the team's to fix (and to commit).
    const teamReport = t === null ? null : { store: 'team' as const, dir: t.dir, ...(await curation.health(t, input, this, stage(1))), ...team.teamProblems(this)! };
    const pairs = await consolidation.consolidationSummary(this, stage(t === null ? 1 : 2));
    // The embedding as far as it got: health never waits for it.
    const semantic = this.index.semantic?.coverage() ?? null;
    return { ...report, store: 'personal' as const, consolidation: pairs, semantic_index: semantic, ...(teamReport ? { team: teamReport } : {}) };
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
  async memoryPage(input: { id: string; events?: number }) { return insight.memoryPage(await this.stores.holder(input.id), input); }
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
export type { SearchHit } from './ops/search.ts';
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
