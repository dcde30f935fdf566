// The `cairn ui` part of npm run bench: the built bundle's `cairn ui` over a synthetic store,
// every page timed over loopback HTTP (client round trip, and the server's own time from its
// Server-Timing header), and search as you type: one fragment request per keystroke.
// Targets: server time per page <= 50 ms at 50k memories; keystroke round trip <= 30 ms.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CorpusGen, writeCorpus } from './corpus.ts';
import { BUNDLE } from './stdio.ts';

export interface UiRow {
  memories: number;
  page: string;
  p50Ms: number;
  p95Ms: number;
  serverP50Ms: number;
  serverP95Ms: number;
}

const REPEAT = 15;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

function get(port: number, path: string, cookie: string): Promise<{ status: number; ms: number; serverMs: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: `127.0.0.1:${port}`, Cookie: cookie } }, (res) => {
      res.resume();
      res.on('end', () => {
        const m = /dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''));
        resolve({ status: res.statusCode!, ms: performance.now() - t, serverMs: m ? Number(m[1]) : NaN, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export async function benchUi(n: number): Promise<UiRow[]> {
  const root = mkdtempSync(join(tmpdir(), `cairn-bench-ui-${n}-`));
  const store = join(root, 'store');
  try {
    writeCorpus(store, n);
    const ui = spawn(process.execPath, [BUNDLE, 'ui', '--no-open', '--port', '0'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: root, CAIRN_DIR: store },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        let out = '';
        ui.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /cairn ui: (\S+)/.exec(out);
          if (m) resolve(new URL(m[1]!));
        });
        ui.once('exit', (c) => reject(new Error(`cairn ui exited with ${c}`)));
      });
      const port = Number(url.port);
      const auth = await get(port, `${url.pathname}${url.search}`, '');
      const cookie = String(auth.headers['set-cookie']).split(';')[0]!;
      const first = await get(port, '/browse?limit=1', cookie);
      if (first.status !== 200) throw new Error(`browse answered ${first.status}`);
      const browse = await (async () => {
        // a real memory id for the memory page
        const body = await new Promise<string>((resolve) => {
          request({ host: '127.0.0.1', port, path: '/browse', headers: { Host: `127.0.0.1:${port}`, Cookie: cookie } }, (res) => {
            let s = '';
            res.on('data', (d: Buffer) => (s += d.toString()));
            res.on('end', () => resolve(s));
          }).end();
        });
        return /href="\/m\/([0-9A-Z]{26})"/.exec(body)![1]!;
      })();
      const pages: [string, string][] = [
        ['overview', '/'],
        ['browse', '/browse'],
        ['browse, filtered + sorted', '/browse?scope=projects:*&sort=created&order=asc&offset=500'],
        ['browse, verdict filter', '/browse?verdict=spot_check_required'],
        ['search page', '/search?q=deploy+config'],
        ['memory', `/m/${browse}`],
        ['edit', `/m/${browse}/edit`],
        ['tombstones', '/tombstones'],
        ['health', '/health'],
        ['pending', '/pending'],
      ];
      const rows: UiRow[] = [];
      for (const [name, path] of pages) {
        await get(port, path, cookie); // warm: the first overview computes health, later ones reuse it
        const ms: number[] = [];
        const server: number[] = [];
        for (let i = 0; i < REPEAT; i++) {
          const r = await get(port, path, cookie);
          if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
          ms.push(r.ms);
          server.push(r.serverMs);
        }
        rows.push({ memories: n, page: name, p50Ms: pct(ms, 50), p95Ms: pct(ms, 95), serverP50Ms: pct(server, 50), serverP95Ms: pct(server, 95) });
      }
      // Search as you type: every prefix of 40 queries, one fragment request each.
      const g = new CorpusGen(5);
      const ms: number[] = [];
      const server: number[] = [];
      for (let i = 0; i < 40; i++) {
        const q = g.query();
        for (let k = 1; k <= q.length; k++) {
          const r = await get(port, `/search/results?q=${encodeURIComponent(q.slice(0, k))}`, cookie);
          ms.push(r.ms);
          server.push(r.serverMs);
        }
      }
      rows.push({ memories: n, page: 'search as you type (per key)', p50Ms: pct(ms, 50), p95Ms: pct(ms, 95), serverP50Ms: pct(server, 50), serverP95Ms: pct(server, 95) });
      return rows;
    } finally {
      ui.kill('SIGTERM');
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function uiTable(rows: UiRow[]): string {
  const head = ['memories', 'page', 'round trip p50 ms', 'p95 ms', 'server p50 ms', 'server p95 ms'];
  const body = rows.map((r) => [String(r.memories), r.page, r.p50Ms.toFixed(1), r.p95Ms.toFixed(1), r.serverP50Ms.toFixed(1), r.serverP95Ms.toFixed(1)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}
