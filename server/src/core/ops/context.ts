// What an operation is given: each op takes the narrowest of these contexts that holds what it
// uses, and never the facade. The facade (cairn.ts) satisfies all of them, once for the personal
// store and once for the repository's team store. Ops only read what a context holds: the rooms
// that own data own their lifecycles (the index: core/index/storeIndex.ts; the event log:
// core/curation/eventSink.ts; the link graph: the facade, on first use), and a context exposes
// them without open or close. Which store a call goes to is ops/stores.ts's to say.
//
//   StoreContext    one store's files, config, clock and event log (export, import, sync, renames)
//   WriteContext    + the session, the caller, the index (what the write gates ask) and the router
//                   to settle an id neither store's view holds yet
//   ReadContext     + the caller's view (disabled scopes, actor), the index, the links, the events
//   RoutedContext   + the router: reads that span the personal and the team store
//   ScopeSwitches   the process's disabled scopes, to change (memory_scope_disable / _enable)
//
// The layers below the ops get narrower interfaces of their own (GateContext, SignalContext), so
// imports point one way (server/test/architecture/imports.test.ts).
import type { Config } from '../config.ts';
import type { Caller } from '../origin.ts';
import type { Store } from '../store/store.ts';
import type { StoreIndex } from '../index/storeIndex.ts';
import type { EventKind } from '../curation/events.ts';
import type { EventSink } from '../curation/eventSink.ts';
import type { LinkGraph } from '../notes/graph.ts';
import type { Routable, StoreKind, Stores } from './stores.ts';
export type { EventKind } from '../curation/events.ts';

export type { StoreKind } from './stores.ts';

/** The index as an op sees it: asked, never opened or closed (its owner is the facade). */
export type IndexView = Omit<StoreIndex, 'open' | 'close' | 'startBackground'>;
/** The event log as an op sees it: appended to and read, never closed. */
export type EventsView = Omit<EventSink, 'close'>;
/** The link graph as an op sees it. */
export type LinksView = Omit<LinkGraph, 'close'>;

/** One open store: its files, its config, the clock and the event log. */
export interface StoreContext {
  readonly dir: string;
  /** 'personal' (the user's store) or 'team' (the repository's .cairn/, README "Team memory"). */
  readonly storeKind: StoreKind;
  readonly config: Config;
  readonly store: Store;
  warn(msg: string): void;
  now(): Date;
  /** Appends to the event log (a team store's events are marked). Never throws. */
  log(kind: EventKind, fields: Record<string, unknown>): void;
}

/** Writing one store: what the write gates read, and the session stamped on pending writes and tombstones. */
export interface WriteContext extends StoreContext {
  /** This process's session id (a ULID). */
  readonly session: string;
  /** Where the tools are called from: the cwd, and its repository if it is in one (a new memory's origin). */
  readonly caller: Caller;
  /** The store's index: the gates' duplicate candidates and semantic neighbours. */
  readonly index: IndexView;
  /** The router (ops/stores.ts), to settle an id that is in neither store's view. */
  readonly stores: Stores<Routable>;
}

/** Reading one store as the caller sees it. */
export interface ReadContext extends StoreContext {
  readonly caller: Caller;
  readonly env: NodeJS.ProcessEnv;
  /** false: one-shot command, no freshness machinery. */
  readonly watch: boolean;
  /**
   * Who this process's lookups are for: 'model' (the MCP server) or 'user' (the CLI). Retrieval
   * events carry it; memory_health never counts a user's lookup as the model's retrieval.
   */
  readonly actor: 'model' | 'user';
  /** Scopes hidden for this process (memory_scope_disable). */
  readonly disabledScopes: ReadonlySet<string>;
  /** The store's index (lexical and semantic). */
  readonly index: IndexView;
  /**
   * The process's event log: the personal store's, which the team store's context shares (usage
   * is per person, and the team store's directory is shared).
   */
  readonly events: EventsView;
  /** The link graph of this store (notes/graph.ts), built on first use. */
  readonly links: LinksView;
  /** The link graph if a call has made it already, else null (a check that need not make it). */
  readonly linksMade: LinksView | null;
}

/**
 * A read across the personal store and the repository's team store: the router (ops/stores.ts)
 * gives both stores' records and each one's context; on the team store's own context it routes to
 * that store alone.
 */
export interface RoutedContext extends ReadContext {
  readonly stores: Stores<ReadContext>;
}

/** The process's disabled scopes, which memory_scope_disable and memory_scope_enable change. */
export interface ScopeSwitches {
  readonly disabledScopes: Set<string>;
  log(kind: EventKind, fields: Record<string, unknown>): void;
}
