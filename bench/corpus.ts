// Seeded synthetic corpus: N memories of 2-4 sentences of 8-16 words each, drawn with a Zipf
// distribution from a vocabulary of real developer words plus generated pseudo-words (3,000 in
// all), several scopes and origins, written as real memory files in the on-disk format.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileNameFor, serializeMemory } from '../server/src/core/store/memfile.ts';
import type { MemoryRecord } from '../server/src/core/types.ts';

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REAL = `api service database cache queue worker deploy build test release config token user account session
request response header latency error retry timeout backup restore migration schema index query table column
cluster node pod container image registry bucket storage upload download webhook event handler route endpoint
client server proxy gateway balancer certificate secret vault key rotation policy role permission group team
review merge branch commit tag changelog pipeline runner job schedule cron alert metric dashboard trace log
monitor incident outage rollback hotfix feature flag experiment rollout canary staging production environment
package dependency version lockfile module plugin library framework compiler bundler linter formatter editor
terminal shell script command flag option argument variable default override profile benchmark memory disk cpu
thread process socket port protocol format parser serializer encoder payload field record document search filter
sort page cursor limit offset batch stream buffer chunk file directory path network dns domain tenant customer
invoice payment billing subscription plan price currency email notification template report export import sync`
  .split(/\s+/)
  .filter(Boolean);

const ONSETS = ['b', 'br', 'c', 'ch', 'd', 'dr', 'f', 'fl', 'g', 'gr', 'h', 'j', 'k', 'kl', 'l', 'm', 'n', 'p', 'pl', 'qu', 'r', 's', 'sk', 'st', 't', 'tr', 'v', 'w', 'z'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou', 'io'];
const CODAS = ['', 'n', 'r', 'l', 'x', 'm', 'nd', 'rk', 'st', 'v'];

export const VOCAB_SIZE = 3000;
export const SCOPES = ['tools', 'preferences', 'ops', 'infra', 'security', 'testing', 'team', 'projects:alpha', 'projects:alpha:api', 'projects:beta', 'projects:beta:web', 'projects:gamma', 'learning-style', 'observability'];
const REPOS = [null, null, 'git@github.com:acme/alpha.git', 'https://github.com/acme/beta', 'ssh://git@gitlab.com/acme/gamma.git'];

export function vocabulary(seed = 7): string[] {
  const r = rng(seed);
  const words = new Set(REAL);
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)]!;
  while (words.size < VOCAB_SIZE) {
    const syl = 2 + Math.floor(r() * 2);
    let w = '';
    for (let i = 0; i < syl; i++) w += pick(ONSETS) + pick(VOWELS) + (i === syl - 1 ? pick(CODAS) : '');
    words.add(w);
  }
  return [...words];
}

/**
 * Zipf-Mandelbrot sampler over ranks 0..n-1 by inverse CDF: p(r) ~ 1 / (r + 1 + ZIPF_SHIFT).
 * The shift stands for the stopwords real text would spend its top ranks on (they are not in the
 * vocabulary): the most common content word appears in about one memory in five.
 */
const ZIPF_SHIFT = 30;
function zipf(n: number, r: () => number): () => number {
  const cdf = new Float64Array(n);
  let s = 0;
  for (let i = 0; i < n; i++) cdf[i] = s += 1 / (i + 1 + ZIPF_SHIFT);
  return () => {
    const x = r() * s;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function ulid(time: number, r: () => number): string {
  let t = time;
  let s = '';
  for (let i = 0; i < 10; i++) {
    s = CROCKFORD[t % 32] + s;
    t = Math.floor(t / 32);
  }
  for (let i = 0; i < 16; i++) s += CROCKFORD[Math.floor(r() * 32)];
  return s;
}

export class CorpusGen {
  private r: () => number;
  private z: () => number;
  readonly vocab: string[];
  constructor(seed: number) {
    this.r = rng(seed);
    this.vocab = vocabulary();
    this.z = zipf(this.vocab.length, this.r);
  }
  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  sentence(): string {
    const n = this.int(8, 16);
    const w: string[] = [];
    for (let i = 0; i < n; i++) w.push(this.vocab[this.z()]!);
    const s = w.join(' ');
    return s[0]!.toUpperCase() + s.slice(1) + '.';
  }
  body(): string {
    const n = this.int(2, 4);
    return Array.from({ length: n }, () => this.sentence()).join(' ');
  }
  scopes(): string[] {
    const a = SCOPES[this.int(0, SCOPES.length - 1)]!;
    const b = SCOPES[this.int(0, SCOPES.length - 1)]!;
    return this.r() < 0.3 && a !== b ? [a, b] : [a];
  }
  record(now: number): MemoryRecord {
    const created = now - Math.floor(this.r() * 730 * 86_400_000);
    const t = new Date(created).toISOString();
    const repo = REPOS[this.int(0, REPOS.length - 1)]!;
    return {
      id: ulid(created, this.r),
      created: t,
      updated: t,
      scopes: this.scopes(),
      confidence: 'medium',
      source: 'explicit-statement',
      category: 'fact',
      last_verified_at: null,
      expires: null,
      origin: { cwd: repo ? '/home/dev/src/repo' : null, repo, branch: repo ? 'main' : null, worktree_root: repo ? '/home/dev/src/repo' : null },
      body: this.body(),
    };
  }
  /** 2-3 words of a random generated body: queries that have answers. */
  query(): string {
    const words = this.body().toLowerCase().replace(/\./g, '').split(' ');
    const n = this.int(2, 3);
    const out = new Set<string>();
    for (let tries = 0; out.size < n && tries < 50; tries++) out.add(words[this.int(0, words.length - 1)]!);
    return [...out].join(' ');
  }
}

/** Writes `n` memory files into `dir`; returns the total bytes written. */
export function writeCorpus(dir: string, n: number, seed = 42, now = Date.parse('2026-03-01T00:00:00.000Z')): number {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const g = new CorpusGen(seed);
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const rec = g.record(now);
    const text = serializeMemory(rec);
    writeFileSync(join(dir, fileNameFor(rec)), text, { mode: 0o600 });
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}
