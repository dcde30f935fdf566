// What every operation is given: the open store, its config, the caller, the clock, the event
// log, and the per-process services built over the store. The facade (cairn.ts) implements it;
// every op takes it by this interface and never imports the facade; the layers below get narrower
// interfaces of their own (e.g. GateContext), so imports point one way (server/test/architecture/imports.test.ts).
import type { Config } from '../config.ts';
import type { Caller } from '../origin.ts';
import type { Store } from '../store/store.ts';
import type { StoreIndex } from '../index/storeIndex.ts';
import type { EventKind } from '../curation/events.ts';
import type { EventSink } from '../curation/eventSink.ts';
export type { EventKind } from '../curation/events.ts';
import type { LinkGraph } from '../notes/graph.ts';

/** Which store a context is over: the user's own, or the team store of the current repository. */
export type StoreKind = 'personal' | 'team';

export interface Context {
  readonly dir: string;
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
   * Who this process's lookups are for: 'model' (the MCP server) or 'user' (the CLI). Retrieval
   * events carry it; memory_health never counts a user's lookup as the model's retrieval.
   */
  readonly actor: 'model' | 'user';
  /** This process's session id (a ULID), stamped on events and pending writes. */
  readonly session: string;
  /** Scopes hidden for this process (memory_scope_disable). */
  readonly disabledScopes: Set<string>;
  /**
   * The process's event log: the personal store's, which the team store's context shares (usage
   * is per person, and the team store's directory is shared). Its owner, the facade, closes it.
   */
  readonly events: Omit<EventSink, 'close'>;
  /** The link graph of this store (notes/graph.ts), built on first use; the facade stops it. */
  readonly links: Omit<LinkGraph, 'close'>;
  /** The store's index (lexical and semantic): its owner, the facade, opens and closes it. */
  readonly index: Omit<StoreIndex, 'open' | 'close' | 'startBackground'>;
  warn(msg: string): void;
  now(): Date;
  /** Appends to the event log. Never throws. */
  log(kind: EventKind, fields: Record<string, unknown>): void;
}
