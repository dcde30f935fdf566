// What the consolidation index learned, kept in the store's rebuildable cache
// (`<store>/.cache/consolidation.json`), so a one-shot `cairn health` or a server's first
// memory_health judges only the memories changed since, not every pair again.
//
// Each memory is keyed by a digest of its text and of where it applies (its scopes and repo,
// consolidationContext.ts): a memory edited, re-scoped, removed or added by anything (another
// tool, a sync, a hand edit while cairn was not running) no longer matches its key, so its pairs
// are dropped and it is judged again; the pairs between two memories whose keys still match are
// reused. The whole file is ignored when what judged it differs: the judge's rules and limits
// (JUDGE), the rewording check's embedder and threshold, the global scopes, the store directory.
// Any doubt (missing, unreadable, malformed, another format) means "no snapshot": losing it costs
// time, never data.
import { join } from 'node:path';
import { CACHE_DIR } from '../index/cache.ts';
import { ensureOwnDirSync, isOwnDirSync, readOwnFileSync, writeFileAtomic } from '../store/fsatomic.ts';
import type { ConsolidateGroup, GroupKind } from './consolidate.ts';
import { runSteps, type Steps } from './steps.ts';

export const SNAPSHOT_FILE = 'consolidation.json';
const FORMAT = 1;
/** A snapshot bigger than this is not one cairn wrote (about 5 MB at 20,000 memories). */
const MAX_BYTES = 512 << 20;
const KINDS: readonly GroupKind[] = ['duplicates', 'contradiction', 'superseded'];

/** The index's judged state, as ConsolidationIndex.snapshot() gives it and addLater takes it back. */
export interface Snapshot {
  /** the judge's rules and limits (ConsolidationIndex's JUDGE) */
  judge: string;
  /** `<embedder id>@<cosine>` of the rewording check when one judged a pair, else null */
  semantic: string | null;
  /** the global scopes the contexts were told */
  global: string[];
  /** every memory held, by index in the arrays below */
  ids: string[];
  /** each memory's key: consolidationContext.ts textKey of its text and of its place */
  keys: string[];
  /** each memory's copies key: of its place and its tokens */
  sigs: string[];
  /** 1 when the memory stood for its text (its pairs are on it), else 0 */
  standIn: number[];
  /** every judged pair once, on the ids of the memories that stood for their texts */
  pairs: ConsolidateGroup[];
  /** memories with a pair the rewording check has not looked at yet */
  later: string[];
}

interface SnapshotFile extends Omit<Snapshot, 'pairs' | 'later'> {
  format: number;
  dir: string;
  strings: string[];
  /** per pair: index of ids[0], of ids[1], kind, reason (in strings), suggested action (in strings) */
  pairs: number[];
  later: number[];
}

export function snapshotPath(storeDir: string): string {
  return join(storeDir, CACHE_DIR, SNAPSHOT_FILE);
}

/** The file's text for `s`, yielding every few thousand pairs (steps.ts: a server encodes in slices). */
export function* encodeSteps(storeDir: string, s: Snapshot): Steps<string> {
  const at = new Map<string, number>();
  for (let i = 0; i < s.ids.length; i++) {
    at.set(s.ids[i]!, i);
    if (i % 4096 === 4095) yield;
  }
  const strings: string[] = [];
  const stringAt = new Map<string, number>();
  const str = (t: string) => {
    let i = stringAt.get(t);
    if (i === undefined) {
      i = strings.length;
      strings.push(t);
      stringAt.set(t, i);
    }
    return i;
  };
  const pairs: number[] = [];
  let n = 0;
  for (const g of s.pairs) {
    if (++n % 2048 === 0) yield;
    const a = at.get(g.ids[0]!);
    const b = at.get(g.ids[1]!);
    if (a === undefined || b === undefined || g.ids.length !== 2) continue;
    pairs.push(a, b, KINDS.indexOf(g.kind), str(g.reason), str(g.suggested_action));
  }
  const later = s.later.map((id) => at.get(id)).filter((i): i is number => i !== undefined);
  yield;
  // Field by field, each a short native call, rather than the whole object at once.
  const head = JSON.stringify({ format: FORMAT, dir: storeDir, judge: s.judge, semantic: s.semantic, global: s.global }).slice(0, -1);
  const parts = [head];
  for (const [k, v] of [['ids', s.ids], ['keys', s.keys], ['sigs', s.sigs], ['standIn', s.standIn], ['strings', strings], ['pairs', pairs], ['later', later]] as const) {
    parts.push(`,${JSON.stringify(k)}:${JSON.stringify(v)}`);
    yield;
  }
  parts.push('}');
  return parts.join('');
}

/** encodeSteps at once. */
export function encodeSnapshot(storeDir: string, s: Snapshot): string {
  return runSteps(encodeSteps(storeDir, s));
}

/** Writes the snapshot's text (atomic: temp file, rename; mode 0600). */
export async function writeSnapshot(storeDir: string, text: string): Promise<void> {
  const dir = join(storeDir, CACHE_DIR);
  ensureOwnDirSync(dir);
  await writeFileAtomic(join(dir, SNAPSHOT_FILE), text);
}

const isText = (v: unknown): v is string => typeof v === 'string';
const isIndex = (v: unknown, n: number): v is number => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) < n;

/** The store's snapshot, or null (absent, unreadable, malformed, another format or store). */
export function readSnapshot(storeDir: string): Snapshot | null {
  if (!isOwnDirSync(join(storeDir, CACHE_DIR))) return null;
  const text = readOwnFileSync(snapshotPath(storeDir), MAX_BYTES);
  if (text === null) return null;
  let f: SnapshotFile;
  try {
    f = JSON.parse(text) as SnapshotFile;
  } catch {
    return null;
  }
  return decode(f, storeDir);
}

function decode(f: SnapshotFile, storeDir: string): Snapshot | null {
  if (typeof f !== 'object' || f === null || f.format !== FORMAT || f.dir !== storeDir || !isText(f.judge)) return null;
  if (!(f.semantic === null || isText(f.semantic)) || !Array.isArray(f.global) || !f.global.every(isText)) return null;
  const { ids, keys, sigs, standIn, strings, pairs, later } = f;
  if (![ids, keys, sigs, standIn, strings, pairs, later].every(Array.isArray)) return null;
  const n = ids.length;
  if (keys.length !== n || sigs.length !== n || standIn.length !== n || pairs.length % 5 !== 0) return null;
  if (!ids.every(isText) || !keys.every(isText) || !sigs.every(isText) || !strings.every(isText) || !standIn.every((x) => x === 0 || x === 1)) return null;
  const out: ConsolidateGroup[] = [];
  for (let i = 0; i < pairs.length; i += 5) {
    const a = pairs[i];
    const b = pairs[i + 1];
    const k = pairs[i + 2];
    const r = pairs[i + 3];
    const s = pairs[i + 4];
    if (!isIndex(a, n) || !isIndex(b, n) || a === b || !isIndex(k, KINDS.length) || !isIndex(r, strings.length) || !isIndex(s, strings.length)) return null;
    out.push({ kind: KINDS[k]!, ids: [ids[a]!, ids[b]!], reason: strings[r]!, suggested_action: strings[s]! });
  }
  if (!later.every((i) => isIndex(i, n))) return null;
  return { judge: f.judge, semantic: f.semantic, global: f.global, ids, keys, sigs, standIn, pairs: out, later: later.map((i) => ids[i]!) };
}
