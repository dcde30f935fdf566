// A store of look-alike memories, the way real stores repeat themselves: a few templates of
// developer notes written again and again across 20 projects, with small variations (a number,
// a tool, a word order). Nothing here imports cairn code: the files are written in the documented
// on-disk format (docs/format.md: markdown with YAML frontmatter, one file per memory, no .cache/),
// as another tool, an import or a sync would leave them.
//
//   node --import tsx bench/lookalike.ts <dir> [n=3000] [seed=7]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const PROJECTS = [
  'alpha', 'beta', 'gamma', 'delta', 'ledger', 'billing', 'checkout', 'search', 'atlas', 'orion',
  'nimbus', 'harbor', 'quartz', 'falcon', 'lumen', 'vertex', 'ember', 'cobalt', 'juniper', 'tundra',
];
const TOOLS = ['pnpm', 'npm', 'yarn', 'bun'];
const TESTS = ['vitest', 'jest', 'mocha', 'node:test'];
const DBS = ['postgres', 'mysql', 'sqlite', 'cockroachdb'];
const CACHES = ['redis', 'memcached', 'an in-process LRU'];
const QUEUES = ['sqs', 'rabbitmq', 'kafka', 'nats'];
const DEPLOY = ['argo cd', 'github actions', 'a make target', 'helm'];
const NUMS = ['2', '3', '5', '10', '15', '30', 'five', 'ten', 'thirty'];
const UNITS = ['minutes', 'seconds', 'hours'];
const PEOPLE = ['Maya', 'Jonas', 'Priya', 'Tomás', 'Wen'];

type Pick = <T>(a: readonly T[]) => T;
/** The templates: each a note a developer writes for every project, with a few moving parts. */
const TEMPLATES: ((p: string, pick: Pick) => string)[] = [
  (p, k) => `The ${p} API caches responses in ${k(CACHES)} for ${k(NUMS)} ${k(UNITS)}; invalidate the keys after a schema change.`,
  (p, k) => `In ${p} we use ${k(TOOLS)} workspaces and run the tests with ${k(TESTS)}; CI fails on any lint warning.`,
  (p, k) => `${p} deploys through ${k(DEPLOY)}: migrations run first, then traffic moves over ${k(NUMS)} ${k(UNITS)}.`,
  (p, k) => `The ${p} service stores its data in ${k(DBS)}; read replicas lag during the nightly export, so reports read the primary.`,
  (p, k) => `${p} background jobs go through ${k(QUEUES)} and retry with exponential backoff capped at ${k(NUMS)} ${k(UNITS)}.`,
  (p, k) => `${k(PEOPLE)} owns the ${p} on-call rotation; page them for incidents and open a ticket in the ${p} board afterwards.`,
  (p, k) => `The ${p} repo pins Node to the LTS release because the native ${k(DBS)} driver breaks on odd versions.`,
  (p, k) => `Feature flags in ${p} default to off in production and are cleaned up ${k(NUMS)} days after rollout.`,
];

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export class LookalikeGenerator {
  private r: () => number;
  constructor(seed = 7) {
    this.r = rng(seed);
  }
  private pick: Pick = (a) => a[Math.floor(this.r() * a.length)]!;
  private ulid(time: number): string {
    let t = time;
    let s = '';
    for (let i = 0; i < 10; i++) {
      s = CROCKFORD[t % 32] + s;
      t = Math.floor(t / 32);
    }
    for (let i = 0; i < 16; i++) s += CROCKFORD[Math.floor(this.r() * 32)];
    return s;
  }
  body(): { project: string; body: string } {
    const project = this.pick(PROJECTS);
    const body = this.pick(TEMPLATES)(project, this.pick);
    return { project, body: body[0]!.toUpperCase() + body.slice(1) };
  }
  /** One memory file, its name and text as docs/format.md describes it. */
  file(now: number): { name: string; text: string } {
    const created = now - Math.floor(this.r() * 400 * 86_400_000);
    const id = this.ulid(created);
    const { project, body } = this.body();
    const iso = (t: number) => new Date(t).toISOString();
    const verified = this.r() < 0.3 ? iso(created) : 'null';
    const lines = [
      '---',
      'schema_version: 1',
      `id: ${id}`,
      `created: ${iso(created)}`,
      `updated: ${iso(created)}`,
      `scopes: [projects:${project}]`,
      'confidence: medium',
      'source: explicit-statement',
      'category: fact',
      `last_verified_at: ${verified}`,
      'expires: null',
      'origin:',
      '  cwd: /home/dev/src/work',
      `  repo: "git@github.com:acme/${project}.git"`,
      '  branch: main',
      '  worktree_root: /home/dev/src/work',
      '---',
      body,
      '',
    ];
    const slug = body.toLowerCase().replace(/[^a-z0-9\s]+/g, ' ').split(/\s+/).filter(Boolean).slice(0, 6).join('-').slice(0, 60);
    return { name: `${iso(created).slice(0, 10)}-${slug || 'memory'}-${id.slice(-6).toLowerCase()}.md`, text: lines.join('\n') };
  }
}

/** Writes n look-alike memory files into dir (created). */
export function generateLookalikes(dir: string, n: number, seed = 7): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const g = new LookalikeGenerator(seed);
  const now = Date.parse('2026-03-01T00:00:00.000Z');
  for (let i = 0; i < n; i++) {
    const f = g.file(now);
    writeFileSync(join(dir, f.name), f.text, { mode: 0o600 });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, n, seed] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node --import tsx bench/lookalike.ts <dir> [n=3000] [seed=7]');
    process.exit(2);
  }
  generateLookalikes(dir, Number(n ?? 3000), Number(seed ?? 7));
}
