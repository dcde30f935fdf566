// What every operation is given: the open store, its config, the caller, the clock, the event
// log, and the per-process services built over the store. The facade (cairn.ts) implements it;
// every op takes it by this interface and never imports the facade; the layers below get narrower
// interfaces of their own (e.g. GateContext), so imports point one way (server/test/architecture/imports.test.ts).
import type { Config } from '../config.ts';
import type { Caller } from '../origin.ts';
import type { Store } from '../store/store.ts';
import type { StoreIndex } from '../index/storeIndex.ts';
import type { EventKind, EventLog } from '../curation/events.ts';
export type { EventKind } from '../curation/events.ts';
import type { OneShotFreshness } from '../types.ts';
import type { LinkGraph } from '../notes/graph.ts';
import type { FeedbackFold } from '../curation/feedback.ts';

/** Per-process services over the store, set while the facade opens and cleared when it closes. */
export interface Services {
  /** The event log (ops/curation.ts opens it); null while closed. */
  events: EventLog | null;
  /** The link graph (ops/notes.ts builds it on first use). */
  links: LinkGraph | null;
  /** Outcomes folded out of the event log for feedback-aware ranking (ops/retrieval.ts, on first search). */
  feedback?: FeedbackFold | null;
}

/** Which store a context is over: the user's own, or the team store of the current repository. */
export type StoreKind = 'personal' | 'team';

export interface Context {
  readonly dir: string;
  /**
   * The store whose event log this context reads and writes: its own dir, except for the team
   * store, whose events (searches, uses, its writes) go to the user's personal log: usage is
   * per person, and the team store's directory is shared.
   */
  readonly eventsDir: string;
  /** 'personal' (the user's store) or 'team' (the repository's .cairn/, README "Team memory"). */
  readonly storeKind: StoreKind;
  /**
   * The team store of the caller's repository, opened beside the personal store (its own index,
   * watcher and cache); null outside a repo, without a team store, with [team] enabled = false,
   * and on the team context itself.
   */
  readonly team: Context | null;
  readonly config: Config;
  readonly configFile: string;
  readonly store: Store;
  readonly caller: Caller;
  readonly env: NodeJS.ProcessEnv;
  /** false: one-shot command, no freshness machinery. */
  readonly watch: boolean;
  /**
   * How a one-shot command (watch: false) keeps its view fresh: 'every-read' lists the store
   * before each read (in-process callers), 'once' counts the open's load as the command's one
   * check (the CLI), 'cache' takes the index cache's records unchecked (the session-start hook).
   */
  readonly oneShot: OneShotFreshness;
  /**
   * Who this process's lookups are for: 'model' (the MCP server) or 'user' (the CLI). Retrieval
   * events carry it; memory_health never counts a user's lookup as the model's retrieval.
   */
  readonly actor: 'model' | 'user';
  /** This process's session id (a ULID), stamped on events and pending writes. */
  readonly session: string;
  /** Scopes hidden for this process (memory_scope_disable). */
  readonly disabledScopes: Set<string>;
  readonly services: Services;
  /** The store's index (lexical and semantic): its owner, the facade, opens and closes it. */
  readonly index: Omit<StoreIndex, 'open' | 'close' | 'startBackground'>;
  warn(msg: string): void;
  now(): Date;
  /** Appends to the event log. Never throws. */
  log(kind: EventKind, fields: Record<string, unknown>): void;
}
