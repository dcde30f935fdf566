// What clients were told, per memory id, and what the store may therefore hold.
//
// Soundness: each tool call takes effect at one instant between the moment the client sent it
// and the moment the client got the answer. So an acknowledged change C cannot be the last one
// if another acknowledged change was sent after C's answer arrived (that one took effect later).
// The final state must come from a change not followed that way; when all changes to an id are
// ordered (one process, sequential calls), that leaves exactly the last acknowledged one.

export interface Timed {
  send: number;
  ack: number;
  by: string;
}

export interface ContentChange extends Timed {
  body: string;
  token: string;
}

export interface LifeChange extends Timed {
  tombstoned: boolean;
}

export class IdHistory {
  readonly content: ContentChange[] = [];
  readonly life: LifeChange[] = [];
  /** every `last_verified_at` a verify returned for this id */
  readonly verifiedAt = new Set<string>();
  /** every `updated` any acknowledged call returned for this id */
  readonly updated = new Set<string>();
  readonly touchedBy = new Set<string>();

  constructor(
    readonly id: string,
    readonly home: string,
  ) {}
}

/** The acknowledged changes that may be the last one to take effect. */
export function finalCandidates<T extends Timed>(changes: readonly T[]): T[] {
  if (changes.length === 0) return [];
  const lastSend = Math.max(...changes.map((c) => c.send));
  return changes.filter((c) => c.ack >= lastSend);
}

export class Ledger {
  readonly ids = new Map<string, IdHistory>();
  /** acknowledged successful calls per event kind, to compare with the event log */
  readonly acked = new Map<string, number>();
  /** errors that are a legitimate answer under concurrency, by message class */
  readonly expectedErrors = new Map<string, number>();
  readonly unexpected: string[] = [];

  track(id: string, home: string): IdHistory {
    let h = this.ids.get(id);
    if (!h) this.ids.set(id, (h = new IdHistory(id, home)));
    return h;
  }

  count(kind: string): void {
    this.acked.set(kind, (this.acked.get(kind) ?? 0) + 1);
  }

  expected(kind: string): void {
    this.expectedErrors.set(kind, (this.expectedErrors.get(kind) ?? 0) + 1);
  }
}
