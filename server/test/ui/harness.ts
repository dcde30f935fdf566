// Starts `cairn ui` from the built bundle against a temp store, as a user would run it, and
// finds playwright-core + Debian's chromium for the browser tests. In CI (CI=true) a missing
// browser or playwright-core is a failure, never a skip: .ci/run installs both.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after } from 'node:test';
import { BUNDLE } from '../helpers/mcp.ts';
import { TEST_CODE_CACHE } from '../helpers/env.ts';

export interface UiProcess {
  /** The printed URL, with its one-time token. */
  url: string;
  origin: string;
  port: number;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<void>;
}

const running = new Set<UiProcess>();
after(async () => {
  await Promise.all([...running].map((u) => u.stop()));
});

export async function startUi(opts: { store: string; cwd: string; env?: Record<string, string>; args?: string[] }): Promise<UiProcess> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'CLAUDE_PROJECT_DIR') env[k] = v;
  Object.assign(env, { CAIRN_DIR: opts.store, HOME: opts.store, CAIRN_CODE_CACHE: TEST_CODE_CACHE }, opts.env ?? {});
  const child = spawn(process.execPath, [BUNDLE, 'ui', '--no-open', '--port', '0', ...(opts.args ?? [])], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cairn ui printed no URL in 20 s; stderr: ${err}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /cairn ui: (http:\/\/127\.0\.0\.1:\d+\/auth\?token=[\w-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`cairn ui exited with ${code}; stderr: ${err}`)));
  });
  const u = new URL(url);
  const p: UiProcess = {
    url,
    origin: u.origin,
    port: Number(u.port),
    child,
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      running.delete(p);
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    },
  };
  running.add(p);
  return p;
}

export const CHROMIUM = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium';

/**
 * playwright-core, from $CAIRN_PLAYWRIGHT (the prefix .ci/run installs it into) or a plain
 * import. Returns null when it or the browser is missing and this is not CI (the caller skips);
 * throws in CI.
 */
export async function loadPlaywright(): Promise<any | null> {
  const why: string[] = [];
  let pw: any = null;
  const prefix = process.env.CAIRN_PLAYWRIGHT;
  try {
    if (prefix) {
      const req = createRequire(join(prefix, 'node_modules', 'noop.js'));
      pw = req('playwright-core');
    } else {
      pw = await import('playwright-core' as string);
    }
  } catch (err) {
    why.push(`playwright-core not found (${prefix ? `CAIRN_PLAYWRIGHT=${prefix}` : 'set CAIRN_PLAYWRIGHT to its npm prefix'}): ${(err as Error).message.split('\n')[0]}`);
  }
  if (!existsSync(CHROMIUM)) why.push(`no browser at ${CHROMIUM} (apt-get install chromium)`);
  if (why.length === 0) return pw;
  if (process.env.CI === 'true') throw new Error(`browser tests cannot run in CI: ${why.join('; ')}`);
  return null;
}

export const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where screenshots go: $CAIRN_ARTIFACTS or server/test/ui/artifacts/ (git-ignored). */
export const ARTIFACTS = process.env.CAIRN_ARTIFACTS ?? new URL('./artifacts/', import.meta.url).pathname;
