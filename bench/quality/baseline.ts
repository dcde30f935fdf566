// The plain BM25 baseline the engine is judged against: lowercase alphanumeric tokens of the
// body, no stemming, no stopwords, no identifier splitting, no synonyms, no prefixes, no scopes
// field, no recency. Relevance from query-term coverage with the same thresholds as cairn.

const K1 = 1.2;
const B = 0.75;

function tokens(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t !== '');
}

export interface BaselineHit {
  id: string;
  score: number;
  relevance: 'high' | 'medium' | 'low';
}

export class PlainBm25 {
  private tf: Array<Map<string, number>> = [];
  private len: number[] = [];
  private df = new Map<string, number>();
  private avg = 0;

  constructor(private readonly docs: ReadonlyArray<{ id: string; body: string }>) {
    for (const d of docs) {
      const m = new Map<string, number>();
      const toks = tokens(d.body);
      for (const t of toks) m.set(t, (m.get(t) ?? 0) + 1);
      for (const t of m.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      this.tf.push(m);
      this.len.push(toks.length);
    }
    this.avg = this.len.reduce((a, b) => a + b, 0) / Math.max(1, docs.length);
  }

  search(query: string, limit: number): BaselineHit[] {
    const q = [...new Set(tokens(query))];
    if (q.length === 0) return [];
    const n = this.docs.length;
    const out: BaselineHit[] = [];
    this.docs.forEach((d, i) => {
      let score = 0;
      let matched = 0;
      for (const t of q) {
        const f = this.tf[i]!.get(t) ?? 0;
        if (f === 0) continue;
        matched++;
        const df = this.df.get(t)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * this.len[i]!) / this.avg));
      }
      if (score > 0) {
        const cov = matched / q.length;
        out.push({ id: d.id, score, relevance: cov >= 0.75 ? 'high' : cov >= 0.4 ? 'medium' : 'low' });
      }
    });
    return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
  }
}
