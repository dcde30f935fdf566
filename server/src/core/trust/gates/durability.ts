// Durability markers: phrases that tie a memory to the moment it was written ("currently",
// "yesterday", "we just shipped", "3 commits ahead"). A memory is read weeks later by a model that
// cannot tell "now" from "then", so such phrasing is a warning the writer must acknowledge.
// Markers carry a stable label: the event log counts fires and overrides per label, so labels
// must not change with the exact words matched.

export interface DurabilityMarker {
  /** Stable label of the marker ("currently", "today I/we", "commit sha"). */
  marker: string;
  /** A short excerpt around the first occurrence. */
  snippet: string;
}

interface MarkerRule {
  label: string;
  re: RegExp;
}

// Every rule is case-insensitive and anchored on word boundaries, so "concurrently" never fires
// "currently" and "renew" never fires "the new".
const w = (src: string) => new RegExp(`\\b(?:${src})\\b`, 'i');

export const MARKER_RULES: readonly MarkerRule[] = [
  { label: 'currently', re: w('currently') },
  { label: 'right now', re: w('right now') },
  { label: 'as of now', re: w('as of (?:now|today|yesterday|this (?:morning|afternoon|week|month|sprint))') },
  { label: 'for now', re: w('for now') },
  { label: 'at the moment', re: w('at the moment|at this moment|at present') },
  { label: 'for the time being', re: w('for the time being|until further notice') },
  { label: 'today I/we', re: w("today,? (?:i|we|i'm|we're|i've|we've)") },
  { label: 'this morning', re: w('this (?:morning|afternoon|evening)|tonight|last night') },
  { label: 'yesterday', re: w('yesterday') },
  { label: 'tomorrow', re: w('tomorrow') },
  { label: 'this week', re: w('this (?:week|sprint|month)') },
  { label: 'last week', re: w('last (?:week|sprint|month)') },
  { label: 'next week', re: w('next (?:week|sprint|month)') },
  { label: 'I/we just', re: w("(?:i|we)(?:'ve| have)? just") },
  { label: 'just shipped', re: w('just (?:shipped|landed|merged|released|deployed|pushed|added|switched|changed|moved|upgraded|migrated|rolled out)') },
  { label: 'recently', re: w('recently|lately|nowadays|these days') },
  { label: 'the latest', re: w('the latest') },
  { label: 'the new', re: w('the new') },
  { label: 'now uses', re: w('now (?:uses|use|points to|runs|lives|requires|defaults to|returns)') },
  { label: 'is now', re: w('(?:is|are) now') },
  { label: 'commits ahead/behind', re: w('\\d+ commits? (?:ahead|behind)|commits (?:ahead|behind)|(?:ahead of|behind) (?:origin|upstream|main|master)') },
  { label: 'is unpushed', re: w('(?:is |are )?unpushed|not (?:yet )?pushed|uncommitted|not (?:yet )?merged|not merged yet') },
  { label: 'still broken', re: w('still (?:broken|failing|flaky|open|pending|in progress|wip)') },
  // "wip" as a word, not a path or branch segment (wip/, feature/wip, wip-branch, .wip).
  { label: 'in progress', re: /\b(?:work in progress|in progress)\b|(?<![\w/.-])wip(?![\w/-]|\.\w)/i },
];

export const SHA_MARKER = 'commit sha';

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
// A whole alphanumeric word of 7-40 lowercase hex: not part of a longer hex or alphanumeric run
// (a ULID, a sha256, 0x7fffffff), not a CSS colour (#), not a UUID (removed beforehand).
const SHA_RE = /(?<![0-9A-Za-z#_])[0-9a-f]{7,40}(?![0-9A-Za-z_])/g;

/** The first commit-SHA-like token in text, or undefined. Exported for tests and the health report. */
export function findShaLike(text: string): { index: number; sha: string } | undefined {
  const blanked = text.replace(UUID_RE, (u) => ' '.repeat(u.length));
  for (const m of blanked.matchAll(SHA_RE)) {
    // Digits and letters both: "1234567" is a number, "defaced" is a word.
    if (/[0-9]/.test(m[0]) && /[a-f]/.test(m[0])) return { index: m.index, sha: m[0] };
  }
  return undefined;
}

const SNIPPET_RADIUS = 30;

/** ~60 characters around [start, end), cut at word boundaries, on one line, with ellipses. */
export function snippetAround(text: string, start: number, end: number, radius = SNIPPET_RADIUS): string {
  let from = Math.max(0, start - radius);
  let to = Math.min(text.length, end + radius);
  if (from > 0) {
    const sp = text.indexOf(' ', from);
    if (sp >= 0 && sp < start) from = sp + 1;
  }
  if (to < text.length) {
    const sp = text.lastIndexOf(' ', to);
    if (sp >= end) to = sp;
  }
  const body = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${body}${to < text.length ? '…' : ''}`;
}

const GLOBAL_RULES = MARKER_RULES.map((r) => ({ label: r.label, re: new RegExp(r.re.source, 'gi') }));

/**
 * One span, one marker. Every match of every rule is a candidate span; overlapping candidates
 * resolve leftmost first, then longest, then in rule order, and a candidate overlapping one
 * already kept is dropped. So "we just switched" is `I/we just` (it starts first), not that plus
 * `just shipped`, and the event log's fire and override counts see one marker for one phrase.
 */
function markerSpans(text: string): { label: string; start: number; end: number }[] {
  const all: { label: string; start: number; end: number; order: number }[] = [];
  GLOBAL_RULES.forEach((rule, order) => {
    for (const m of text.matchAll(rule.re)) all.push({ label: rule.label, start: m.index, end: m.index + m[0].length, order });
  });
  all.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
  const kept: typeof all = [];
  let reach = -1;
  for (const c of all) {
    if (c.start < reach) continue; // overlaps the span kept before it
    kept.push(c);
    reach = c.end;
  }
  return kept;
}

/** Every durability marker in text, each label once (first occurrence), in rule order. */
export function detectTransient(text: string): DurabilityMarker[] {
  const out: DurabilityMarker[] = [];
  const spans = markerSpans(text);
  for (const rule of MARKER_RULES) {
    const m = spans.find((x) => x.label === rule.label);
    if (m) out.push({ marker: rule.label, snippet: snippetAround(text, m.start, m.end) });
  }
  const sha = findShaLike(text);
  if (sha) out.push({ marker: SHA_MARKER, snippet: snippetAround(text, sha.index, sha.index + sha.sha.length) });
  return out;
}
