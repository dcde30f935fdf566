// Semantic-alone retrieval scores of an embedder on the project's eval (bench/quality, never
// bench/quality/blind) and on scripts/embed/devset.json.
import { readFileSync } from 'node:fs';
import { MEMORIES } from '../../bench/quality/memories.ts';
import { QUERIES } from '../../bench/quality/queries.ts';
import { embedWords } from '../../server/src/core/embed/tokenize.ts';

export interface DevSet { memories: Array<{ id: string; body: string }>; queries: Array<{ q: string; relevant: string[] }> }
export const DEVSET = JSON.parse(readFileSync(new URL('./devset.json', import.meta.url), 'utf8')) as DevSet;
export interface Score { n: number; r1: number; r5: number; mrr: number }
export interface EvalScores { old: Record<string, Score>; dev: Record<string, Score> }
type Embed = (text: string) => Float32Array;

const STOP = new Set('a an the and or of to in on for with by at from is are be do does did i we you my our your it its this that which what who when where how should can must not no any every into as than then so if all only there their they them me am was were been has have had will would after before between about use used uses via per each'.split(' '));
/** Content words of the query that also appear (5-letter stem) in the target memory: should be none. */
export function devOverlaps(): string[] {
  const stem = (w: string) => w.slice(0, 5);
  const out: string[] = [];
  const byId = new Map(DEVSET.memories.map((m) => [m.id, m]));
  for (const q of DEVSET.queries) {
    const qs = new Set(embedWords(q.q).filter((w) => !STOP.has(w)).map(stem));
    for (const id of q.relevant) {
      const shared = embedWords(byId.get(id)?.body ?? '').filter((w) => !STOP.has(w) && qs.has(stem(w)));
      if (shared.length) out.push(`${q.q} ~ ${id}: ${[...new Set(shared)].join(',')}`);
    }
  }
  return out;
}

function dot(a: Float32Array, b: Float32Array): number { let s = 0; for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!; return s; }

function scoreSet(embed: Embed, memories: Array<{ id: string; body: string }>, queries: Array<{ q: string; kind: string; relevant: string[] }>): Record<string, Score> {
  const mv = memories.map((m) => embed(m.body));
  const kinds = new Map<string, Score>();
  for (const q of queries) {
    if (q.kind === 'generic') continue;
    const qv = embed(q.q);
    const ranked = memories.map((m, i): [string, number] => [m.id, dot(qv, mv[i]!)]).sort((a, b) => b[1] - a[1]).map((x) => x[0]);
    const rel = new Set(q.relevant);
    const k = kinds.get(q.kind) ?? { n: 0, r1: 0, r5: 0, mrr: 0 };
    k.n++;
    k.r1 += ranked.slice(0, 1).filter((id) => rel.has(id)).length / rel.size;
    k.r5 += ranked.slice(0, 5).filter((id) => rel.has(id)).length / rel.size;
    const f = ranked.findIndex((id) => rel.has(id));
    k.mrr += f >= 0 ? 1 / (f + 1) : 0;
    kinds.set(q.kind, k);
  }
  const res: Record<string, Score> = {};
  for (const [kind, k] of kinds) res[kind] = { n: k.n, r1: k.r1 / k.n, r5: k.r5 / k.n, mrr: k.mrr / k.n };
  return res;
}

/** embed: (text) => unit Float32Array. Returns { old: {kind: score}, dev: {paraphrase: score} } */
export function evaluate(embed: Embed): EvalScores {
  return {
    old: scoreSet(embed, MEMORIES, QUERIES),
    dev: scoreSet(embed, DEVSET.memories, DEVSET.queries.map((q) => ({ ...q, kind: 'dev' }))),
  };
}

export function fmtRow(name: string, r: EvalScores): string {
  const cell = (s: Score | undefined) => (s ? `${s.r1.toFixed(2)}/${s.r5.toFixed(2)}/${s.mrr.toFixed(2)}` : '-');
  return `| ${name} | ${cell(r.old.lexical)} | ${cell(r.old.morphology)} | ${cell(r.old.identifier)} | ${cell(r.old.paraphrase)} | ${cell(r.dev.dev)} |`;
}
export const HEADER = '| embedder | old lexical | old morphology | old identifier | old paraphrase | dev paraphrase |\n|---|---|---|---|---|---|';
