// Personal or team (README "Team memory"): which store a call goes to, decided here and nowhere
// else. The facade opens the caller's repository's team store beside the personal one when there
// is one (teamDirFor) and asks this router where each call goes: to the store holding an id
// (holder, pendingHolder), to the store a write names (target), and which other stores a write is
// checked against (othersOf). Operations reading across both stores ask it for their records
// (active, tombstones, find), for the store holding a record (ownerOf), and to make both fresh.
//
// The rules: an id both stores hold is the personal store's (health lists the clash); a team
// memory is in the caller's view whatever its scopes (all of it is this repository's); the team
// store's context routes to itself alone.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config.ts';
import { ValidationError } from '../errors.ts';
import { isUlid } from '../ids.ts';
import type { Caller } from '../origin.ts';
import { findTeamStore } from '../store/location.ts';
import { pendingDir } from '../store/pending.ts';
import type { Store, StoreChange } from '../store/store.ts';
import type { StoredMemory } from '../types.ts';

/** Which store a context is over: the user's own, or the team store of the current repository. */
export type StoreKind = 'personal' | 'team';

/** What the router reads of a store's context. */
export interface Routable {
  readonly dir: string;
  readonly storeKind: StoreKind;
  readonly store: Store;
  readonly config: Config;
  readonly caller: Caller;
}

/** The caller's repository's team store (its `.cairn/` with team.toml), unless [team] enabled = false. */
export function teamStoreOf(config: Config, caller: Caller): string | null {
  return config.team.enabled ? findTeamStore(caller.repoRoot) : null;
}

/** The team store to open beside the personal store at `personalDir` (one stat when there is none): never the personal store itself. */
export function teamDirFor(config: Config, caller: Caller, personalDir: string): string | null {
  const dir = teamStoreOf(config, caller);
  return dir !== null && resolve(dir) !== resolve(personalDir) ? dir : null;
}

export class Stores<C extends Routable> {
  /** The repository's team store once it is open (the facade sets it; null on the team context itself). */
  team: C | null = null;

  /** `home`: the context this router belongs to (the personal store's, or the team store's own). */
  constructor(readonly home: C) {}

  /** Every open store, the home store first. */
  all(): C[] {
    return this.team === null ? [this.home] : [this.home, this.team];
  }

  /** Every store fresh before a read (each store's own freshness machinery). */
  async fresh(opts?: { read: true }): Promise<void> {
    for (const o of this.all()) await o.store.ensureFresh(opts);
  }

  /** An active or removed memory with this id in either store. */
  holds(id: string): boolean {
    return this.home.store.holds(id) || (this.team?.store.holds(id) ?? false);
  }

  /**
   * The active memories of the home store and then of the team store. An id both hold is
   * listed once, from the home store, as memory_show resolves it.
   */
  *active(): Generator<StoredMemory> {
    yield* this.home.store.active();
    const t = this.team;
    if (t === null) return;
    for (const m of t.store.active()) if (!this.home.store.holds(m.id)) yield m;
  }

  /** The tombstones of the home store, then of the team store. */
  *tombstones(): Generator<StoredMemory> {
    yield* this.home.store.tombstones();
    if (this.team !== null) yield* this.team.store.tombstones();
  }

  /** The context whose store holds this record object: the team store's, or the home one. */
  ownerOf(m: StoredMemory): C {
    const t = this.team;
    return t !== null && (t.store.get(m.id) === m || t.store.getTombstone(m.id) === m) ? t : this.home;
  }

  /** The record with this id in either store (home first), active, or else removed. */
  find(id: string): { m: StoredMemory; owner: C; tombstoned: boolean } | null {
    for (const o of this.all()) {
      const m = o.store.get(id);
      if (m) return { m, owner: o, tombstoned: false };
    }
    for (const o of this.all()) {
      const t = o.store.getTombstone(id);
      if (t) return { m: t, owner: o, tombstoned: true };
    }
    return null;
  }

  /**
   * Makes "no memory with id" mean there is none. The view can miss a memory for an instant while
   * another process moves its file between the store and .tombstones/ (remove, restore): the
   * watcher may have reported one half of the move and not yet the other. Every move holds the
   * store lock, so a rescan under the lock sees each file in exactly one place. Costs a lock and a
   * rescan only when a well-formed id is in neither store's view.
   */
  async settle(raw: readonly unknown[]): Promise<void> {
    const unknown = raw.some((r) => {
      if (typeof r !== 'string') return false;
      const id = r.trim().toUpperCase();
      return isUlid(id) && !this.holds(id);
    });
    if (!unknown) return;
    for (const o of this.all()) await o.store.lock.run(() => o.store.sync());
  }

  /** Calls `fn` on every change to either store; returns the unsubscribe. */
  onChange(fn: (ch: StoreChange, owner: C) => void): () => void {
    const stops = this.all().map((o) => o.store.onChange((ch) => fn(ch, o)));
    return () => {
      for (const s of stops) s();
    };
  }

  /**
   * A search filter for `s`'s part of a search (README "Team memory"): the team store's also
   * leaves out an id the home store holds (active or removed), so it is never listed twice.
   */
  shadowed(s: C, f: { filter?: (m: StoredMemory) => boolean; filterKey?: string }): { filter?: (m: StoredMemory) => boolean; filterKey?: string } {
    if (s === this.home) return f;
    const inner = f.filter;
    const own = this.home.store;
    // No filterKey: the answer now also depends on the home store, which the team index does not track.
    return { filter: (m) => !own.holds(m.id) && (inner === undefined || inner(m)) };
  }

  // ---- where a call on one memory goes (the facade asks) ----------------------------------------

  /**
   * The context holding a memory id: the home store, or the team store when only it knows the id
   * (active or removed). Ids are ULIDs, unique in practice; should both stores hold one id, the
   * home memory answers and health lists the clash.
   */
  async holder(id: unknown): Promise<C> {
    const t = this.team;
    if (t === null || typeof id !== 'string') return this.home;
    const k = id.trim().toUpperCase();
    await this.home.store.ensureFresh();
    if (this.home.store.get(k) || this.home.store.getTombstone(k)) return this.home;
    await t.store.ensureFresh();
    return t.store.get(k) || t.store.getTombstone(k) ? t : this.home;
  }

  /** The context whose pending area holds this pending id (the home one when neither does). */
  pendingHolder(id: unknown): C {
    const t = this.team;
    if (t === null || typeof id !== 'string' || !/^p_[0-9A-HJKMNP-TV-Z]{26}$/.test(id.trim())) return this.home;
    const has = (dir: string) => existsSync(join(pendingDir(dir), `${id.trim()}.json`));
    return !has(this.home.dir) && has(t.dir) ? t : this.home;
  }

  /** The store a write goes to: the home one, or with store: "team" the repository's team store. */
  target(store: unknown): C {
    if (store === undefined || store === null || store === 'personal') return this.home;
    if (store !== 'team') throw new ValidationError(`store must be "personal" or "team", got ${JSON.stringify(store)}`);
    if (this.team === null) {
      const { config, caller } = this.home;
      const why = !config.team.enabled
        ? 'team stores are turned off ([team] enabled = false in config.toml)'
        : caller.repoRoot === null
          ? `${caller.cwd} is not inside a git repository`
          : `the repository ${caller.repoRoot} has no team store (.cairn/team.toml): run cairn team init there and commit .cairn/`;
      throw new ValidationError(`store "team" is not available: ${why}; nothing was written`);
    }
    return this.team;
  }

  /** The other stores a write to `to` is checked against (duplicates, tombstones). */
  othersOf(to: C): C[] {
    if (this.team === null) return [];
    return to === this.home ? [this.team] : [this.home];
  }
}
