// npm run eval: retrieval quality per mode (BM25 alone, semantic alone, fused, fused + alternates,
// and BM25 + alternates), per embedder, on the old set (+ the dev paraphrases) and on the blind set
// (with the blind alternates when bench/quality/blind/alternates.json exists). R@1, R@5, MRR per
// kind, and for negatives the share of queries with no `high` hit.
//
// The fusion and the thresholds are tuned on the old/dev set only; the blind set is reported.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SearchIndex, type IndexDoc } from '../../server/src/core/index/searchIndex.ts';
import { VectorIndex } from '../../server/src/core/index/vectors.ts';
import { embedText, type VectorEmbedder } from '../../server/src/core/index/vectorRows.ts';
import { fuse, joinedQuery, semanticRelevance, type SemanticCalibration } from '../../server/src/core/index/fusion.ts';
import { PlainBm25 } from './baseline.ts';
import { calibrationFor } from '../../server/src/core/index/calibration.ts';
import { MEMORIES } from './memories.ts';
import { QUERIES } from './queries.ts';
import { DEV_ALTERNATES, DEV_PARAPHRASES } from './dev.ts';
import { testEmbedder } from '../../server/test/helpers/testEmbedder.ts';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const DAY = 86_400_000;
export const MODES = ['bm25', 'semantic', 'fused', 'bm25+alt', 'fused+alt', 'joined-bm25'] as const;
export type Mode = (typeof MODES)[number];
const KINDS = ['lexical', 'morphology', 'identifier', 'paraphrase', 'negative'] as const;
type Kind = (typeof KINDS)[number];

interface Q {
  kind: Kind;
  q: string;
  relevant: string[];
  alternates: string[];
}
interface Doc extends IndexDoc {}
export interface EvalSet {
  name: string;
  docs: Doc[];
  queries: Q[];
  hasAlternates: boolean;
}

export function oldSet(): EvalSet {
  const docs = MEMORIES.map((m) => {
    const t = new Date(NOW - m.age * DAY).toISOString();
    return { id: m.id, body: m.body, scopes: m.scopes, created: t, updated: t };
  });
  const queries = [...QUERIES, ...DEV_PARAPHRASES].map((q) => ({
    kind: (q.kind === 'generic' ? 'negative' : q.kind) as Kind,
    q: q.q,
    relevant: q.relevant,
    alternates: DEV_ALTERNATES[q.q] ?? [],
  }));
  return { name: 'old+dev', docs, queries, hasAlternates: true };
}

/** The embedder's dev set (scripts/embed/devset.json): 30 memories, 40 no-shared-word questions, no alternates. */
export function embedDevSet(): EvalSet {
  const d = JSON.parse(readFileSync(new URL('../../scripts/embed/devset.json', import.meta.url), 'utf8')) as { memories: Array<{ id: string; body: string }>; queries: Array<{ q: string; relevant: string[] }> };
  const t = new Date(NOW - 10 * DAY).toISOString();
  return {
    name: 'embed-dev',
    docs: d.memories.map((m) => ({ id: m.id, body: m.body, scopes: ['global'], created: t, updated: t })),
    queries: d.queries.map((q) => ({ kind: 'paraphrase' as Kind, q: q.q, relevant: q.relevant, alternates: [] })),
    hasAlternates: false,
  };
}

/** A judged set in the blind set's layout (memories.json, queries.json, optional alternates.json) under bench/quality/<dir>/. */
export function jsonSet(dirName: string, name = dirName): EvalSet | null {
  const dir = fileURLToPath(new URL(`./${dirName}/`, import.meta.url));
  if (!existsSync(`${dir}memories.json`) || !existsSync(`${dir}queries.json`)) return null;
  const mems = JSON.parse(readFileSync(`${dir}memories.json`, 'utf8')) as Array<{ id: string; scopes: string[]; body: string; age_days: number }>;
  const qs = JSON.parse(readFileSync(`${dir}queries.json`, 'utf8')) as Array<{ kind: Kind; q: string; relevant: string[] }>;
  const altFile = `${dir}alternates.json`;
  const alts = new Map<string, string[]>();
  if (existsSync(altFile)) for (const a of JSON.parse(readFileSync(altFile, 'utf8')) as Array<{ q: string; alternates: string[] }>) alts.set(a.q, a.alternates);
  const docs = mems.map((m) => {
    const t = new Date(NOW - m.age_days * DAY).toISOString();
    return { id: m.id, body: m.body, scopes: m.scopes, created: t, updated: t };
  });
  return { name, docs, queries: qs.map((q) => ({ ...q, alternates: alts.get(q.q) ?? [] })), hasAlternates: alts.size > 0 };
}

/** The held-out sets, each written by someone who never saw the engine: reported, never tuned on. */
export function heldOutSets(): EvalSet[] {
  return [jsonSet('blind'), jsonSet('blind2')].filter((s): s is EvalSet => s !== null);
}

/** The sets tuning may look at: the old set (+ dev paraphrases), the embedder's dev set, and dev2 when present. */
export function tuningSets(): EvalSet[] {
  return [oldSet(), embedDevSet(), jsonSet('dev2')].filter((s): s is EvalSet => s !== null);
}

/**
 * Which sets `npm run eval` runs: EVAL_SETS=tuning (the tuning sets only: use this while working),
 * EVAL_SETS=blind (the held-out sets only: blind and blind2), unset or 'all' (both).
 */
export function selectedSets(which = process.env.EVAL_SETS ?? 'all'): EvalSet[] {
  if (which === 'tuning') return tuningSets();
  if (which === 'blind') return heldOutSets();
  if (which !== 'all') throw new Error(`EVAL_SETS must be tuning, blind or all (got ${which})`);
  return [...tuningSets(), ...heldOutSets()];
}

type Ranked = Array<{ id: string; relevance: 'high' | 'medium' | 'low' }>;
export interface Score {
  kind: Kind;
  n: number;
  r1: number;
  r5: number;
  mrr: number;
  noHigh: number;
}

function score(kind: Kind, runs: Array<{ relevant: string[]; hits: Ranked }>): Score {
  let r1 = 0;
  let r5 = 0;
  let mrr = 0;
  let noHigh = 0;
  for (const { relevant, hits } of runs) {
    if (!hits.some((h) => h.relevance === 'high')) noHigh++;
    if (kind === 'negative') continue;
    const rel = new Set(relevant);
    r1 += hits.slice(0, 1).filter((h) => rel.has(h.id)).length / rel.size;
    r5 += hits.slice(0, 5).filter((h) => rel.has(h.id)).length / rel.size;
    const first = hits.findIndex((h) => rel.has(h.id));
    mrr += first >= 0 ? 1 / (first + 1) : 0;
  }
  const n = Math.max(1, runs.length);
  return { kind, n: runs.length, r1: r1 / n, r5: r5 / n, mrr: mrr / n, noHigh: noHigh / n };
}

export interface Engine {
  lex: SearchIndex<Doc>;
  /** plain BM25 (baseline.ts), for the joined-query baseline */
  plain: PlainBm25;
  vec: VectorIndex<Doc> | null;
  embed: ((t: string) => Float32Array) | null;
  cal: SemanticCalibration;
}

export async function buildEngine(set: EvalSet, embedder: VectorEmbedder | null): Promise<Engine> {
  const lex = new SearchIndex<Doc>();
  lex.load(set.docs);
  const plain = new PlainBm25(set.docs);
  if (!embedder) return { lex, plain, vec: null, embed: null, cal: calibrationFor('none') };
  const vec = new VectorIndex<Doc>(embedder.id, embedder.dim);
  const vs = await embedder.embed(set.docs.map(embedText));
  set.docs.forEach((d, i) => vec.set(d, vs[i]!));
  const cache = new Map<string, Float32Array>();
  if (!embedder.embedSync) {
    // An asynchronous embedder (the local model): every query text embedded up front.
    const texts = [...new Set(set.queries.flatMap((q) => [q.q, ...(q.alternates.length > 0 ? [joinedQuery(q.q, q.alternates)] : [])]))];
    const qv = await embedder.embed(texts);
    texts.forEach((t, i) => cache.set(t, qv[i]!));
  }
  const embed = (t: string) => {
    let v = cache.get(t);
    if (!v) cache.set(t, (v = embedder.embedSync ? embedder.embedSync(t) : vs[0]!));
    return v;
  };
  return { lex, plain, vec, embed, cal: calibrationFor(embedder.id) };
}

const POOL = 20;
export function runQuery(e: Engine, mode: Mode, q: Q): Ranked {
  const opts = { limit: POOL, now: NOW, halfLifeDays: 30 };
  const alts = mode.endsWith('+alt') ? q.alternates : [];
  const sem = (t: string) => (e.vec && e.embed ? e.vec.search(e.embed(t), POOL, { now: NOW }) : []);
  if (mode === 'bm25') return e.lex.search(q.q, { ...opts, limit: 5 }).map((h) => ({ id: h.doc.id, relevance: h.relevance }));
  if (mode === 'semantic') {
    return sem(q.q)
      .filter((h) => h.sim >= e.cal.floor)
      .slice(0, 5)
      .map((h) => ({ id: h.doc.id, relevance: semanticRelevance(h.sim, e.cal) }));
  }
  if (mode === 'joined-bm25') {
    // The baseline fusion must never lose to: plain BM25 over the query and its alternates as one text.
    return e.plain.search(joinedQuery(q.q, q.alternates), 5).map((h) => ({ id: h.id, relevance: h.relevance }));
  }
  const useSem = mode !== 'bm25+alt';
  const joined = joinedQuery(q.q, alts);
  return fuse({
    limit: 5,
    main: { lexical: e.lex.search(q.q, opts), semantic: useSem ? sem(q.q) : [] },
    alternates: alts,
    ...(alts.length > 0 ? { joined: { lexical: e.lex.search(joined, opts), semantic: useSem ? sem(joined) : [] } } : {}),
    calibration: e.cal,
  }).map((h) => ({ id: h.doc.id, relevance: h.relevance }));
}

export function evaluate(e: Engine, set: EvalSet, mode: Mode): Score[] {
  const runs = new Map<Kind, Array<{ relevant: string[]; hits: Ranked }>>();
  for (const q of set.queries) {
    (runs.get(q.kind) ?? runs.set(q.kind, []).get(q.kind)!).push({ relevant: q.relevant, hits: runQuery(e, mode, q) });
  }
  const out = KINDS.map((k) => score(k, runs.get(k) ?? []));
  // overall (non-negative kinds)
  const pos = set.queries.filter((q) => q.kind !== 'negative');
  const all = score('paraphrase', pos.map((q) => ({ relevant: q.relevant, hits: runQuery(e, mode, q) })));
  out.push({ ...all, kind: 'overall' as Kind });
  return out;
}

/** Cosine distributions on a set: the relevant doc's similarity vs negatives' best, for calibration. */
export function simStats(e: Engine, set: EvalSet): string {
  if (!e.vec || !e.embed) return '';
  const pct = (a: number[], p: number) => (a.length ? a.slice().sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))]! : NaN);
  const pos: number[] = [];
  const neg: number[] = [];
  for (const q of set.queries) {
    const top = e.vec.search(e.embed(q.q), 1, { now: NOW })[0]?.sim ?? 0;
    if (q.kind === 'negative') neg.push(top);
    else for (const r of q.relevant) pos.push(e.vec.similarity(e.embed(q.q), r) ?? 0);
  }
  const f = (x: number) => x.toFixed(2);
  return `cosine: relevant p10 ${f(pct(pos, 0.1))} p25 ${f(pct(pos, 0.25))} p50 ${f(pct(pos, 0.5))}; negatives' best p50 ${f(pct(neg, 0.5))} p90 ${f(pct(neg, 0.9))} max ${f(Math.max(...neg))}`;
}

export async function embedders(): Promise<VectorEmbedder[]> {
  const out: VectorEmbedder[] = [];
  try {
    const mod = (await import('../../server/src/core/embed/builtin.ts' as string)) as { builtinEmbedder: () => VectorEmbedder & { load(): unknown } };
    const b = mod.builtinEmbedder();
    b.load();
    out.push(b);
  } catch (err) {
    console.error(`(built-in embedder not available: ${(err as Error).message.split('\n')[0]})`);
  }
  out.push(testEmbedder());
  try {
    // the local transformer (runs the built worker: npm run build first)
    const mod = (await import('../../server/src/core/embed/local.ts' as string)) as { localEmbedder: () => VectorEmbedder & { close(): Promise<void> } };
    const l = mod.localEmbedder();
    await l.embed(['warm up']);
    out.push(l);
  } catch (err) {
    console.error(`(local embedder not available: ${(err as Error).message.split('\n')[0]})`);
  }
  return out;
}

export function formatScores(title: string, rows: Array<{ label: string; scores: Score[] }>): string {
  const lines = [title, `| mode | ${KINDS.filter((k) => k !== 'negative').map((k) => `${k} R@1/R@5/MRR`).join(' | ')} | overall R@1/R@5/MRR | negatives no-high |`, `|---|${'---|'.repeat(6)}`];
  for (const r of rows) {
    const cell = (s: Score) => `${s.r1.toFixed(2)} / ${s.r5.toFixed(2)} / ${s.mrr.toFixed(2)}`;
    const by = (k: string) => r.scores.find((s) => s.kind === k)!;
    lines.push(`| ${r.label} | ${['lexical', 'morphology', 'identifier', 'paraphrase', 'overall'].map((k) => cell(by(k))).join(' | ')} | ${by('negative').noHigh.toFixed(2)} |`);
  }
  return lines.join('\n');
}

export async function runAll(): Promise<string> {
  const sets = selectedSets();
  // EVAL_EMBEDDERS: a comma-separated list of id prefixes (builtin, local, test); unset: all
  const want = process.env.EVAL_EMBEDDERS?.split(',').filter(Boolean);
  const embs = (await embedders()).filter((e) => !want || want.some((w) => e.id.startsWith(`${w}:`)));
  const out: string[] = [];
  for (const set of sets) {
    const rows: Array<{ label: string; scores: Score[] }> = [];
    const bare = await buildEngine(set, null);
    rows.push({ label: 'BM25 alone', scores: evaluate(bare, set, 'bm25') });
    if (set.hasAlternates) {
      rows.push({ label: 'joined BM25 (plain, query + alternates as one query)', scores: evaluate(bare, set, 'joined-bm25') });
      rows.push({ label: 'BM25F + alternates (cairn, no vectors)', scores: evaluate(bare, set, 'bm25+alt') });
    }
    const stats: string[] = [];
    for (const emb of embs) {
      const e = await buildEngine(set, emb);
      for (const mode of ['semantic', 'fused', ...(set.hasAlternates ? ['fused+alt'] : [])] as Mode[]) {
        rows.push({ label: `${mode} (${emb.id})`, scores: evaluate(e, set, mode) });
      }
      stats.push(`${emb.id}: ${simStats(e, set)}`);
    }
    const nq = set.queries.length;
    out.push(formatScores(`\n${set.name}: ${set.docs.length} memories, ${nq} queries${set.hasAlternates ? '' : ' (no alternates file yet)'}`, rows));
    out.push(...stats);
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await runAll());
  process.exit(0); // the local embedder's worker
}
