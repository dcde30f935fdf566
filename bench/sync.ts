// The sync part of `npm run bench` (BENCH_ONLY=sync runs only it): `cairn sync` through the
// built bundle against a bare repository on local disk, for a store of BENCH_SYNC_BASE memories
// (default 10,000) of which BENCH_SYNC_CHANGED (default 1,000) change:
//   push   machine A commits and pushes the changed memories;
//   pull   machine B takes them (a fast-forward written into its store);
//   merge  both change CHANGED memories again, a tenth of them the same ones (field-by-field
//          merges, body conflicts recorded), and B merges A's push: the diverged case.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCorpus } from './corpus.ts';
import { BUNDLE } from './stdio.ts';

export interface SyncRow {
  step: string;
  memories: number;
  changed: number;
  ms: number;
  incoming: number;
  conflicts: number;
}

function cairn(store: string, home: string, args: string[]): { ms: number; out: any } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BUNDLE, ...args], { encoding: 'utf8', env: { ...process.env, CAIRN_DIR: store, HOME: home }, cwd: home, maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`cairn ${args.join(' ')} failed (${r.status}): ${r.stdout}\n${r.stderr}`);
  return { ms, out: JSON.parse(r.stdout) };
}

/** Rewrites the body (and `updated`) of the given files in place: a changed memory. */
function change(store: string, files: string[], tag: string, when: string): void {
  for (const f of files) {
    const p = join(store, f);
    const text = readFileSync(p, 'utf8');
    writeFileSync(p, text.replace(/^updated: .*$/m, `updated: ${when}`).replace(/\n---\n([\s\S]*)$/, (_m, body: string) => `\n---\n${body.trimEnd()} Changed on ${tag}.\n`));
  }
}

export async function benchSync(base: number, changed: number): Promise<SyncRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'cairn-bench-sync-'));
  try {
    const remote = join(root, 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', remote]);
    const a = join(root, 'a');
    const b = join(root, 'b');
    writeCorpus(a, base, 42);
    const rows: SyncRow[] = [];
    cairn(a, root, ['sync', 'init', '--remote', remote, '--json']);
    const first = cairn(a, root, ['sync', '--json']);
    rows.push({ step: `first push (${base.toLocaleString('en-US')} new)`, memories: base, changed: base, ms: first.ms, incoming: 0, conflicts: 0 });
    cairn(b, root, ['sync', 'init', '--remote', remote, '--json']);
    const clone = cairn(b, root, ['sync', '--json']);
    rows.push({ step: 'first pull (empty machine)', memories: base, changed: base, ms: clone.ms, incoming: clone.out.incoming, conflicts: 0 });

    const files = readdirSync(a).filter((n) => n.endsWith('.md')).sort();
    change(a, files.slice(0, changed), 'a', '2026-06-01T00:00:00.000Z');
    const push = cairn(a, root, ['sync', '--json']);
    rows.push({ step: 'push', memories: base, changed, ms: push.ms, incoming: 0, conflicts: 0 });
    const pull = cairn(b, root, ['sync', '--json']);
    rows.push({ step: 'pull (fast-forward)', memories: base, changed, ms: pull.ms, incoming: pull.out.incoming, conflicts: 0 });

    const overlap = Math.floor(changed / 10);
    change(a, files.slice(changed, 2 * changed), 'a again', '2026-07-01T00:00:00.000Z');
    change(b, files.slice(2 * changed - overlap, 3 * changed - overlap), 'b', '2026-07-02T00:00:00.000Z');
    cairn(a, root, ['sync', '--json']);
    const merge = cairn(b, root, ['sync', '--json']);
    rows.push({ step: `merge (diverged, ${overlap} on both sides)`, memories: base, changed: 2 * changed, ms: merge.ms, incoming: merge.out.incoming, conflicts: merge.out.conflicts.length });
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function syncTable(rows: SyncRow[]): string {
  const head = ['step', 'store', 'changed', 'cairn sync (s)', 'incoming', 'conflicts'];
  const body = rows.map((r) => [r.step, r.memories.toLocaleString('en-US'), r.changed.toLocaleString('en-US'), (r.ms / 1000).toFixed(2), String(r.incoming), String(r.conflicts)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}
