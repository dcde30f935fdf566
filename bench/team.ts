// The team-store part of `npm run bench` (BENCH_ONLY=team runs only it), in process through the
// facade (Cairn.open, as the MCP server opens): a personal store of BENCH_TEAM_SIZE memories
// (default 1,000) and, in a real git repository, a team store (.cairn/ with team.toml) of as many.
//   open   Cairn.open to ready and close, median of 5 (wall and CPU): a repo without .cairn/,
//          a repo with a team store (its index cache warm), and the same with the cache deleted;
//          and a repo without .cairn/ with [team] enabled = false (the cost of looking);
//   search memory_search p50/p95 over 300 queries: the personal store alone (no team store),
//          personal + team (two indexes, one merged ranking), and one store of twice the size.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cairn } from '../server/src/core/cairn.ts';
import { CorpusGen, writeCorpus } from './corpus.ts';

export interface TeamRow {
  case: string;
  wallMs: number;
  cpuMs: number;
  p95Ms?: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function timeOpen(personal: string, cwd: string, team: boolean, before?: () => void): Promise<{ wall: number; cpu: number }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < 5; i++) {
    before?.();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const c = await Cairn.open({ dir: personal, cwd, env: { ...process.env, CAIRN_DIR: personal, CLAUDE_PROJECT_DIR: '' }, warn: () => {} });
    walls.push(performance.now() - t0);
    const u = process.cpuUsage(c0);
    cpus.push((u.user + u.system) / 1000);
    if ((c.stores.team !== null) !== team) throw new Error(`expected ${team ? 'a' : 'no'} team store from ${cwd}`);
    await c.close();
  }
  return { wall: median(walls), cpu: median(cpus) };
}

async function timeSearch(personal: string, cwd: string, queries: string[]): Promise<{ p50: number; p95: number; cpu: number; team: boolean }> {
  const c = await Cairn.open({ dir: personal, cwd, env: { ...process.env, CAIRN_DIR: personal, CLAUDE_PROJECT_DIR: '' }, warn: () => {}, log: false });
  try {
    for (const q of queries.slice(0, 20)) await c.search({ query: q, auto_scope: false });
    const ts: number[] = [];
    const c0 = process.cpuUsage();
    for (const q of queries) {
      const t0 = performance.now();
      await c.search({ query: q, auto_scope: false });
      ts.push(performance.now() - t0);
    }
    const u = process.cpuUsage(c0);
    return { p50: pct(ts, 50), p95: pct(ts, 95), cpu: (u.user + u.system) / 1000 / queries.length, team: c.stores.team !== null };
  } finally {
    await c.close();
  }
}

export async function benchTeam(n: number): Promise<TeamRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'cairn-bench-team-'));
  try {
    const personal = join(root, 'personal');
    writeCorpus(personal, n, 42);
    const plain = join(root, 'plain');
    const repo = join(root, 'repo');
    for (const r of [plain, repo]) {
      execFileSync('git', ['init', '-q', r]);
      writeFileSync(join(r, 'README.md'), '# bench\n');
    }
    writeCorpus(join(repo, '.cairn'), n, 4242);
    writeFileSync(join(repo, '.cairn', 'team.toml'), '# cairn team store\n');
    const g = new CorpusGen(7);
    const queries = Array.from({ length: 300 }, () => g.query());
    const rows: TeamRow[] = [];
    await timeOpen(personal, plain, false); // the personal cache is written once
    const none = await timeOpen(personal, plain, false);
    rows.push({ case: `open, repo without .cairn/ (personal ${n})`, wallMs: none.wall, cpuMs: none.cpu });
    // The same with team stores turned off: what looking for .cairn/team.toml costs.
    writeFileSync(join(personal, 'config.toml'), '[team]\nenabled = false\n');
    const off = await timeOpen(personal, plain, false);
    rmSync(join(personal, 'config.toml'));
    rows.push({ case: `open, repo without .cairn/, [team] enabled = false`, wallMs: off.wall, cpuMs: off.cpu });
    await timeOpen(personal, repo, true);
    const warm = await timeOpen(personal, repo, true);
    rows.push({ case: `open, team store ${n} (cache warm)`, wallMs: warm.wall, cpuMs: warm.cpu });
    const cold = await timeOpen(personal, repo, true, () => rmSync(join(repo, '.cairn', '.cache'), { recursive: true, force: true }));
    rows.push({ case: `open, team store ${n} (no cache)`, wallMs: cold.wall, cpuMs: cold.cpu });
    const one = await timeSearch(personal, plain, queries);
    rows.push({ case: `search p50, personal ${n} alone`, wallMs: one.p50, cpuMs: one.cpu, p95Ms: one.p95 });
    const two = await timeSearch(personal, repo, queries);
    if (!two.team) throw new Error('the team store was not opened');
    rows.push({ case: `search p50, personal ${n} + team ${n}`, wallMs: two.p50, cpuMs: two.cpu, p95Ms: two.p95 });
    // For scale: one store holding as many memories as the two together.
    const big = join(root, 'big');
    writeCorpus(big, 2 * n, 42);
    await timeOpen(big, plain, false);
    const double = await timeSearch(big, plain, queries);
    rows.push({ case: `search p50, personal ${2 * n} alone`, wallMs: double.p50, cpuMs: double.cpu, p95Ms: double.p95 });
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function teamTable(rows: TeamRow[]): string {
  const lines = ['| case | wall ms (median / p50) | p95 ms | CPU ms |', '|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.case} | ${r.wallMs.toFixed(2)} | ${r.p95Ms === undefined ? '' : r.p95Ms.toFixed(2)} | ${r.cpuMs.toFixed(2)} |`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.env.BENCH_TEAM_SIZE ?? 1000);
  console.log(teamTable(await benchTeam(n)));
}
