// Output shaping for the retrieval answers: lean search hits (no nulls, no field equal
// to its documented default, nothing repeated per hit that is the same for all) and character
// budgets (`max_chars`) that fit an answer by shortening snippets and bodies at word boundaries
// and then dropping whole hits from the end, never cutting a field mid-way, and saying what was
// left out. Applied at the very end of search/show/list, separate from the ranking.
import { ValidationError } from '../errors.ts';
import { LIMITS } from '../limits.ts';

/** The documented defaults a lean hit leaves out (docs/tools.md "Lean hits"). */
export const HIT_DEFAULTS = { confidence: 'medium', category: 'fact' } as const;

/** Snippets and bodies are never shortened below this many characters: a hit is dropped instead. */
export const MIN_TEXT_CHARS = 60;
/** How short the one entry a budget always keeps may have its texts cut. */
export const LAST_TEXT_CHARS = 20;

type Obj = Record<string, unknown>;

/**
 * One search hit without redundancy: `confidence`/`category` only when not the default,
 * `created` only when it differs from `updated`, `last_verified_at` and `verification` only once
 * verified, drift counts only when non-zero. `stale_after_days` (the same for every hit) moves to
 * the top of the answer.
 */
export function leanHit(hit: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(hit)) {
    if (v === undefined || v === null) continue;
    if (k === 'confidence' && v === HIT_DEFAULTS.confidence) continue;
    if (k === 'category' && v === HIT_DEFAULTS.category) continue;
    if (k === 'created' && v === hit.updated) continue;
    if ((k === 'path_drift_checked' || k === 'path_drift_missing') && v === 0) continue;
    if (k === 'verification') {
      const ver = v as { status: string; age_days: number | null; warning?: string };
      if (ver.status === 'never') continue;
      out.verification = { status: ver.status, age_days: ver.age_days, ...(ver.warning ? { warning: ver.warning } : {}) };
      continue;
    }
    if (Array.isArray(v) && v.length === 0 && k !== 'scopes') continue;
    out[k] = v;
  }
  return out;
}

/** The answer's `stale_after_days`, present only when some hit carries a verification. */
export function staleAfter(hits: readonly Obj[], days: number): { stale_after_days?: number } {
  return hits.some((h) => h.verification !== undefined) ? { stale_after_days: days } : {};
}

export function checkMaxChars(v: unknown): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < LIMITS.minResponseChars || v > LIMITS.responseChars) {
    throw new ValidationError(`max_chars must be a whole number from ${LIMITS.minResponseChars} to ${LIMITS.responseChars} (characters of the JSON answer), got ${JSON.stringify(v)}`);
  }
  return v;
}

/** `text` cut to at most `max` characters at a word boundary, ending in an ellipsis. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = Math.max(1, max - 1);
  let cut = text.slice(0, room);
  const sp = cut.search(/\s\S*$/);
  if (sp > room / 2) cut = cut.slice(0, sp);
  return `${cut.trimEnd()}…`;
}

const size = (o: unknown) => JSON.stringify(o).length;

/**
 * Fits `answer` (whose `key` array holds the items) into `budget` characters of JSON: shortens
 * the `textKey` field of items from the last one up (never below MIN_TEXT_CHARS), then drops items
 * from the end. Adds `truncated: { <dropKey>, <shortKey> }` when anything was left out: counts,
 * or the items' ids when `listDropped`.
 */
export function fitBudget<T extends Obj>(
  answer: T,
  budget: number,
  opts: { key: string; textKeys: string[]; dropKey: string; shortKey: string; listDropped?: boolean; optionalKeys?: string[] },
): T {
  if (size(answer) <= budget) return answer;
  const items = [...(answer[opts.key] as Obj[])].map((x) => ({ ...x }));
  const shortened = new Set<number>();
  const dropped: Obj[] = [];
  const build = (): T => {
    const truncated: Obj = opts.listDropped
      ? { [opts.dropKey]: dropped.map((d) => d.id), [opts.shortKey]: [...shortened].sort((a, b) => a - b).map((i) => items[i]!.id) }
      : { [opts.dropKey]: dropped.length, [opts.shortKey]: shortened.size };
    return { ...answer, [opts.key]: items, truncated };
  };
  // Shorten texts, longest first, until the answer fits or nothing more can be cut.
  for (;;) {
    const over = size(build()) - budget;
    if (over <= 0) return build();
    let best = -1;
    let bestKey = '';
    let bestLen = MIN_TEXT_CHARS;
    items.forEach((it, i) => {
      for (const k of opts.textKeys) {
        const t = it[k];
        if (typeof t === 'string' && t.length > bestLen) {
          best = i;
          bestKey = k;
          bestLen = t.length;
        }
      }
    });
    if (best === -1) break;
    const t = items[best]![bestKey] as string;
    items[best]![bestKey] = shorten(t, Math.max(MIN_TEXT_CHARS, t.length - over - 1));
    shortened.add(best);
  }
  // Still over: drop whole items from the end, but never the first: an answer with no entry
  // at all tells the caller nothing (a small budget asks for less, not for none).
  while (items.length > 1 && size(build()) > budget) {
    dropped.unshift(items.pop()!);
    shortened.delete(items.length);
  }
  // The first entry alone: first the fields the answer may leave out anyway (search: match_terms),
  // which say less than its text.
  const first = items[0];
  for (const k of opts.optionalKeys ?? []) {
    if (size(build()) <= budget || first === undefined) break;
    if (k in first) {
      delete first[k];
      shortened.add(0);
    }
  }
  // Then its texts may go below MIN_TEXT_CHARS, down to LAST_TEXT_CHARS. If even that does not fit,
  // the one entry is returned over the budget (tools.md, Budgets): never an empty answer.
  for (const k of opts.textKeys) {
    const over = size(build()) - budget;
    if (over <= 0 || first === undefined) break;
    const t = first[k];
    if (typeof t !== 'string' || t.length <= LAST_TEXT_CHARS) continue;
    first[k] = shorten(t, Math.max(LAST_TEXT_CHARS, t.length - over - 1));
    shortened.add(0);
  }
  return build();
}

/**
 * A page that fits LIMITS.responseChars: items are dropped from the end (never cut) and
 * next_cursor then points after the last item kept, so the caller pages on to the rest.
 */
export function capPage<I extends { id: string }>(
  page: { items: I[]; next_cursor: string | null },
  cursorFor: (last: I) => string,
  budget: number = LIMITS.responseChars,
): { items: I[]; next_cursor: string | null } {
  if (size(page) <= budget) return page;
  const items = [...page.items];
  // The cursor's length does not depend on where the page ends: measure with a stand-in.
  const probe = page.next_cursor ?? cursorFor(items[items.length - 1]!);
  let total = size({ items: [], next_cursor: probe });
  let n = 0;
  for (const it of items) {
    const add = size(it) + (n > 0 ? 1 : 0);
    if (total + add > budget && n > 0) break;
    total += add;
    n++;
  }
  const kept = items.slice(0, n);
  return { items: kept, next_cursor: n < items.length ? cursorFor(kept[kept.length - 1]!) : page.next_cursor };
}
