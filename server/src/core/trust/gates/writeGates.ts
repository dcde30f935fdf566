// The write gates of tools.md, in order, after validation and before the commit:
//   secrets -> durability -> active near-duplicate -> tombstoned near-duplicate -> pending.
// The first gate that fires decides the outcome and nothing is written. Only `force` skips the
// two duplicate gates and only `acknowledge_transient` skips durability; secrets have no
// override because the store is plaintext that people sync and commit.
import type { Config } from '../../config.ts';
import type { Store } from '../../store/store.ts';
import { ValidationError } from '../../errors.ts';
import { isExpired } from '../../memory.ts';
import type { StoredMemory, ValidWrite } from '../../types.ts';
import { DUPLICATE_THRESHOLD, RELATED_THRESHOLD, dedupTokenSet, jaccard, roundSimilarity } from './dedup.ts';
import { detectTransient, type DurabilityMarker } from './durability.ts';
import { newPendingId, savePending, sweepPending, type PendingReason } from '../../store/pending.ts';
import { detectSecrets } from './secrets.ts';
import { detectTeamSecrets } from './teamSecrets.ts';
import { tombstoneIndex } from './tombstoneIndex.ts';
import { isRewording, type RewordingRule } from './rewording.ts';

/** Active candidates the index is asked for; Jaccard is then computed on each. */
export const DEDUP_CANDIDATES = 50;
/** Matches shown per status. */
const MAX_MATCHES = 5;

export interface Related {
  id: string;
  /** shared-word (Jaccard) similarity */
  similarity: number;
  /** cosine of the meanings, when the semantic leg found it */
  semantic?: number;
  snippet: string;
  scopes: string[];
  updated: string;
  /** Which store holds it, when the write was checked against more than one (README "Team memory"). */
  store?: string;
}

/**
 * Another store a write is checked against (the team store for a personal write, the personal
 * store for a team write): its duplicates and its tombstones stop the write like the target's own.
 */
export interface GateSource {
  /** 'personal' or 'team': named on every match it contributes. */
  label: string;
  store: Store;
  candidates: (text: string, limit: number) => StoredMemory[];
  neighbours?: (text: string, limit: number) => Promise<Neighbour[]>;
  removedNeighbours?: (text: string, limit: number) => Promise<Neighbour[]>;
}

export interface GateResult {
  /** A non-committed status object (secret_detected, transient_warning, duplicate, ...). */
  outcome?: Record<string, unknown> & { status: string };
  /** Medium-similarity matches to report with a commit. */
  related?: Related[];
  /** Extra fields for the write event (markers fired, overrides...). */
  logFields: Record<string, unknown>;
}

/** What the gates read of the open store (the ops WriteContext satisfies it). */
export interface GateContext {
  readonly dir: string;
  readonly config: Config;
  readonly store: Store;
  readonly session: string;
  now(): Date;
}

export interface GateOptions {
  force: boolean;
  acknowledge_transient: boolean;
  /**
   * The person already confirmed this write (cairn import --from ... --apply after a dry run): no
   * pending step, even for a claim about the user or with require_write_confirmation.
   */
  confirmed?: boolean;
  /**
   * Active memories sharing the rarest terms of a text, best first: the records the index holds
   * (the gates look no id up in the store, whose maps a big store enters after its start).
   */
  candidates: (text: string, limit: number) => StoredMemory[];
  /** Semantic neighbours (cosine, best first) among active memories and among tombstones; absent: no semantic leg. */
  neighbours?: (text: string, limit: number) => Promise<Neighbour[]>;
  removedNeighbours?: (text: string, limit: number) => Promise<Neighbour[]>;
  /** When a semantic neighbour says the same in other words (rewording.ts), and from which cosine it is listed as related. */
  semanticRule?: RewordingRule;
  /**
   * Ids the duplicate and previously-removed gates never match (memory_merge: the memories being
   * merged are what the new text restates).
   */
  exclude?: ReadonlySet<string>;
  /** The other stores to check (GateSource); their matches carry `store`, and so do the target's (`label`). */
  also?: readonly GateSource[];
  /** The target store's label when `also` is given. */
  label?: string;
  /** The team store's stricter secret gate (teamSecrets.ts) on top of the personal one. */
  strict?: boolean;
}

export interface Neighbour {
  id: string;
  cosine: number;
  /** the record the vector belongs to, when the vector index holds it (no lookup by id then) */
  mem?: StoredMemory;
}

/**
 * A neighbour that says the same thing in other words (rewording.ts: close meaning, shared stems,
 * the same numbers). Against active memories, from RELATED_THRESHOLD of shared words up the words
 * judge (related: committed and listed; "integration tests run against the container" and "unit
 * tests run without the container" share most words and mean the opposite), so the meaning
 * decides only where the words differ, which is what a rewording looks like. Against removed
 * facts the whole band counts: the user said no to this before, and the answer shows their reason.
 */
function paraphrase(rule: RewordingRule | undefined, cosine: number, jac: number, a: string, b: string, removed: boolean): boolean {
  return rule !== undefined && (removed || jac < RELATED_THRESHOLD) && isRewording(rule, cosine, a, b);
}

function snippetOf(body: string, max = 160): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** The target store first, then the others (GateOptions.also). */
function sourcesOf(c: GateContext, opts: GateOptions): GateSource[] {
  const own: GateSource = { label: opts.label ?? 'personal', store: c.store, candidates: opts.candidates, ...(opts.neighbours ? { neighbours: opts.neighbours } : {}), ...(opts.removedNeighbours ? { removedNeighbours: opts.removedNeighbours } : {}) };
  return [own, ...(opts.also ?? [])];
}

type Match = Related & { raw: number; dup: boolean };

/**
 * Active memories similar to the text, best first: by shared words (>= RELATED_THRESHOLD, from
 * index candidates only) or by meaning (semantic neighbours >= the rule's `related`). `dup`: it
 * says the same thing (Jaccard >= DUPLICATE_THRESHOLD, or a paraphrase by the semantic rule).
 */
async function activeMatches(c: GateContext, tokens: ReadonlySet<string>, content: string, opts: GateOptions): Promise<Match[]> {
  const all: Match[] = [];
  const labelled = (opts.also?.length ?? 0) > 0;
  for (const src of sourcesOf(c, opts)) all.push(...(await activeMatchesIn(c, src, labelled, tokens, content, opts)));
  return all.sort((a, b) => Number(b.dup) - Number(a.dup) || b.raw - a.raw || (a.id < b.id ? -1 : 1));
}

async function activeMatchesIn(c: GateContext, src: GateSource, labelled: boolean, tokens: ReadonlySet<string>, content: string, opts: GateOptions): Promise<Match[]> {
  const now = c.now();
  const out = new Map<string, Match>();
  const sem = new Map<string, number>();
  // The records come with the candidates and neighbours: a lookup by id would make a big store
  // enter every record it adopted from the cache first (seconds at 1M memories, right after a start).
  const held = new Map<string, StoredMemory>();
  if (src.neighbours && opts.semanticRule) {
    for (const n of await src.neighbours(content, MAX_MATCHES * 2)) {
      if (n.cosine < opts.semanticRule.related) continue;
      sem.set(n.id, n.cosine);
      if (n.mem) held.set(n.id, n.mem);
    }
  }
  const lexical = src.candidates(content, DEDUP_CANDIDATES + (opts.exclude?.size ?? 0));
  for (const m of lexical) held.set(m.id, m);
  for (const id of [...lexical.map((m) => m.id), ...sem.keys()]) {
    if (out.has(id) || opts.exclude?.has(id)) continue;
    const m = held.get(id) ?? src.store.get(id);
    if (!m || isExpired(m, now)) continue; // an expired memory no longer stands for the fact
    const sim = jaccard(tokens, dedupTokenSet(m.body));
    const cos = sem.get(id);
    if (sim < RELATED_THRESHOLD && cos === undefined) continue;
    const dup = sim >= DUPLICATE_THRESHOLD || (cos !== undefined && paraphrase(opts.semanticRule, cos, sim, content, m.body, false));
    const rel: Related = { id: m.id, similarity: roundSimilarity(sim), snippet: snippetOf(m.body), scopes: m.scopes, updated: m.updated };
    if (cos !== undefined) rel.semantic = roundSimilarity(cos);
    if (labelled) rel.store = src.label;
    out.set(id, { ...rel, raw: Math.max(sim, dup ? DUPLICATE_THRESHOLD : 0, cos ?? 0), dup });
  }
  return [...out.values()];
}

/** Drops the unrounded similarity used for sorting. */
function strip(m: Match): Related {
  const { raw, dup, ...rest } = m;
  void raw;
  void dup;
  return rest;
}

/** What memory_write says when the secret gate refuses (the memory tool says the same). */
export const SECRET_HINT = 'Nothing was stored: memories are plaintext files. Remove the secret and say where it lives instead (e.g. "the deploy key is in 1Password under Infra"). There is no override.';

/** The team store's refusal: stricter, and it says why. */
export const TEAM_SECRET_HINT = 'Nothing was stored: the team store is committed and shared with everyone who has the repository, so it refuses anything that may be a credential, including any value stated after a password, PIN or code, login pairs and default credentials, private hosts with credential words, an email with a password, and bare random-looking tokens. Say where the secret lives instead (e.g. "the staging DB password is in the team vault under staging/db"). There is no override.';

export async function runWriteGates(c: GateContext, w: ValidWrite, opts: GateOptions): Promise<GateResult> {
  // 2. Secrets. Only the kinds go to the event log, never even a masked snippet.
  const text = w.aliases && w.aliases.length > 0 ? `${w.content}\n${w.aliases.join('\n')}` : w.content;
  const findings = secretFindings(text, opts.strict === true);
  if (findings.length > 0) {
    return {
      outcome: {
        status: 'secret_detected',
        findings,
        hint: opts.strict ? TEAM_SECRET_HINT : SECRET_HINT,
        ...(opts.strict ? { store: 'team' } : {}),
      },
      logFields: { secret_kinds: [...new Set(findings.map((f) => f.kind))] },
    };
  }

  // 3. Durability. The labels go to the log either way, with acknowledge_transient, so health can
  // report per-marker fire and override rates.
  const markers = detectTransient(w.content);
  const logFields: Record<string, unknown> = {};
  if (markers.length > 0) {
    logFields.markers = markers.map((m) => m.marker);
    logFields.acknowledge_transient = opts.acknowledge_transient;
    if (!opts.acknowledge_transient) {
      return {
        outcome: {
          status: 'transient_warning',
          markers,
          hint: 'Nothing was stored: this reads as the state of the moment and will mislead once it changes. Reword it as a durable fact (name the version, date or condition instead of "currently", "just", a commit SHA), or pass acknowledge_transient=true to store it as written.',
        },
        logFields,
      };
    }
  }

  // 4. Active near-duplicates, from the index's candidates (never a scan of the store).
  const tokens = dedupTokenSet(w.content);
  const active = await activeMatches(c, tokens, w.content, opts);
  const high = active.filter((m) => m.dup);
  if (!opts.force && high.length > 0) {
    return {
      outcome: {
        status: 'duplicate',
        matches: high.slice(0, MAX_MATCHES).map(strip),
        hint: `Nothing was stored: memory ${high[0]!.id}${high[0]!.store ? ` (${high[0]!.store} store)` : ''} already says this. Change it with memory_update (or memory_verify it if it still holds); pass force=true only if this is a different fact.`,
      },
      logFields: { ...logFields, duplicate_of: high.map((m) => m.id).slice(0, MAX_MATCHES) },
    };
  }

  // 5. Tombstoned near-duplicates: the user removed this before, with a reason.
  if (!opts.force) {
    const labelled = (opts.also?.length ?? 0) > 0;
    const removed: Array<{ id: string; similarity: number; semantic?: number; src: GateSource }> = [];
    for (const src of sourcesOf(c, opts)) {
      const own: typeof removed = tombstoneIndex(src.store).similar([...tokens], DUPLICATE_THRESHOLD).map((r) => ({ ...r, src }));
      // Reworded removed facts: semantic neighbours among tombstones that pass the paraphrase rule.
      if (src.removedNeighbours && opts.semanticRule) {
        const seen = new Set(own.map((r) => r.id));
        for (const n of await src.removedNeighbours(w.content, MAX_MATCHES * 2)) {
          const t = src.store.getTombstone(n.id);
          if (!t || seen.has(n.id)) continue;
          const sim = jaccard(tokens, dedupTokenSet(t.body));
          if (paraphrase(opts.semanticRule, n.cosine, sim, w.content, t.body, true)) own.push({ id: n.id, similarity: sim, semantic: n.cosine, src });
        }
      }
      removed.push(...own);
    }
    if (labelled) removed.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
    const matches = removed
      .filter((r) => !opts.exclude?.has(r.id))
      .map((r) => ({ r, t: r.src.store.getTombstone(r.id) }))
      .filter((x) => x.t !== undefined)
      .slice(0, MAX_MATCHES)
      .map(({ r, t }) => ({
        id: t!.id,
        ...(labelled ? { store: r.src.label } : {}),
        similarity: roundSimilarity(r.similarity),
        ...(r.semantic !== undefined ? { semantic: roundSimilarity(r.semantic) } : {}),
        snippet: snippetOf(t!.body),
        scopes: t!.scopes,
        removed_at: t!.removed ?? null,
        removed_reason: t!.removed_reason ?? null,
      }));
    if (matches.length > 0) {
      return {
        outcome: {
          status: 'previously_removed',
          matches,
          hint: `Nothing was stored: a near-identical memory${matches[0]!.store ? ` in the ${matches[0]!.store} store` : ''} was removed on ${matches[0]!.removed_at?.slice(0, 10) ?? 'an earlier date'} (reason: ${JSON.stringify(matches[0]!.removed_reason ?? '')}). Ask the user before storing it again; memory_restore brings the old one back, force=true writes it anew.`,
        },
        logFields: { ...logFields, previously_removed: matches.map((m) => m.id) },
      };
    }
  }

  // With force, the near-duplicates that were skipped are still worth showing as related.
  const related = active.slice(0, MAX_MATCHES).map(strip);
  if (related.length > 0) logFields.related = related.map((r) => r.id);

  // 6. Pending: claims about the user always wait for the user; the config can make every write wait.
  const reason: PendingReason | null = opts.confirmed
    ? null
    : w.category === 'user-inference' ? 'user-inference' : c.config.behavior.require_write_confirmation ? 'require_write_confirmation' : null;
  if (reason) {
    const now = c.now();
    const expires = new Date(now.getTime() + c.config.behavior.pending_ttl_minutes * 60_000);
    const pending_id = newPendingId(now);
    await sweepPending(c.dir, now);
    await savePending(c.dir, {
      pending_id,
      created_at: now.toISOString(),
      expires_at: expires.toISOString(),
      session: c.session,
      reason,
      write: w,
      markers: (logFields.markers as string[] | undefined) ?? [],
    });
    return {
      outcome: {
        status: 'pending',
        pending_id,
        pending_reason: reason,
        expires_at: expires.toISOString(),
        preview: { ...w },
        ...(related.length > 0 ? { related } : {}),
        hint:
          reason === 'user-inference'
            ? 'Not stored yet: this is a claim about the user. Show it to the user; if they agree call memory_write_confirm with pending_id, otherwise memory_write_cancel.'
            : 'Not stored yet: this store asks for confirmation of every write (behavior.require_write_confirmation). Call memory_write_confirm with pending_id once the user agrees, or memory_write_cancel.',
      },
      logFields: { ...logFields, pending_id, pending_reason: reason },
    };
  }

  return { ...(related.length > 0 ? { related } : {}), logFields };
}

/** The secret gate's findings; `strict` adds the team store's rules (teamSecrets.ts). */
function secretFindings(text: string, strict: boolean): Array<{ kind: string; snippet: string }> {
  const findings: Array<{ kind: string; snippet: string }> = detectSecrets(text);
  if (strict) findings.push(...detectTeamSecrets(text));
  return findings;
}

/** memory_update runs the secret check on new content; a finding refuses the whole update. `strict`: a team memory (teamSecrets.ts). */
export async function checkUpdateContent(c: GateContext, content: string, strict = false): Promise<void> {
  void c;
  const findings = secretFindings(content, strict);
  if (findings.length === 0) return;
  const list = findings.map((f) => `${f.kind} (${f.snippet})`).join(', ');
  throw new ValidationError(
    `content contains ${findings.length === 1 ? 'a secret' : `${findings.length} secrets`}: ${list}; nothing was changed. ${strict ? 'This is a team memory, shared through git with everyone who has the repository' : 'Memories are plaintext'}: say where the secret lives instead of its value`,
  );
}

/** What memory_update's durability gate judges of a record: its body and its aliases. */
export interface UpdateText {
  body: string;
  aliases?: readonly string[];
}

/**
 * The durability markers an update introduces: those in the changed body or in an added alias
 * that the old body and aliases did not already carry (those were warned about, and acknowledged,
 * when they were written; fixing a typo elsewhere must not warn again). Nothing when neither
 * changed. `where` names what brought them: `content`, `aliases` or both.
 */
export function updateMarkers(old: UpdateText, next: UpdateText): { markers: DurabilityMarker[]; where: ('content' | 'aliases')[] } {
  const oldAliases = old.aliases ?? [];
  const before = new Set([old.body, ...oldAliases].flatMap((t) => detectTransient(t).map((m) => m.marker)));
  const fired = new Map<string, DurabilityMarker>();
  const where = new Set<'content' | 'aliases'>();
  const judge = (text: string, from: 'content' | 'aliases') => {
    for (const m of detectTransient(text)) {
      if (before.has(m.marker) || fired.has(m.marker)) continue;
      fired.set(m.marker, m);
      where.add(from);
    }
  };
  if (next.body !== old.body) judge(next.body, 'content');
  for (const a of next.aliases ?? []) if (!oldAliases.includes(a)) judge(a, 'aliases');
  return { markers: [...fired.values()], where: [...where] };
}

/** The refusal of an update whose new wording reads as the state of the moment. */
export function transientUpdateError(fired: readonly DurabilityMarker[], where: readonly string[] = ['content']): ValidationError {
  const list = fired.map((m) => `"${m.marker}" (${m.snippet})`).join(', ');
  return new ValidationError(
    `${where.join(' and ')} ${where.length > 1 || where[0] === 'aliases' ? 'read' : 'reads'} as the state of the moment: ${list}; nothing was changed. Reword it as a durable fact (name the version, date or condition instead), or pass acknowledge_transient=true to store it as written`,
  );
}

/**
 * memory_update's durability gate on content alone (updateMarkers with no aliases): null when
 * nothing new fired; fired markers refuse the update unless acknowledged; the result is what the
 * update event records.
 */
export function checkUpdateDurability(oldBody: string, newBody: string, acknowledge: boolean): { markers: string[]; acknowledge_transient: boolean } | null {
  const { markers: fired } = updateMarkers({ body: oldBody }, { body: newBody });
  if (fired.length === 0) return null;
  if (!acknowledge) throw transientUpdateError(fired);
  return { markers: fired.map((m) => m.marker), acknowledge_transient: true };
}
