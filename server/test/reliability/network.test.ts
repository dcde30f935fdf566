// The server (and the CLI) make no network connections. Two independent checks:
//  1. helpers/audit.cjs, preloaded, replaces every way Node opens a connection (net/tls sockets,
//     dns, dgram, http(s), fetch) with one that records and fails, and records child processes
//     and native addons. Positive controls prove the hook catches a real attempt.
//  2. While the workload runs, /proc/<pid>/fd is sampled: any socket the process holds is looked
//     up in /proc/net/{tcp,tcp6,udp,udp6,raw,raw6}. Stdio pipes are not inet sockets. (Linux only;
//     sampling can miss a short-lived socket, which is why 1 is the primary check.)
// Child processes may only be local, read-only git commands (no fetch, ls-remote, push...).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { cli } from '../helpers/mcp.ts';
import { commit, git, removeDir, tempDir, tempRepo } from '../helpers/env.ts';
import { AUDIT_HOOK, auditEnv, readAudit } from '../helpers/audit.ts';
import { spawnServer } from '../helpers/stress.ts';

const GIT_READ_ONLY = new Set(['rev-parse', 'config', 'log', 'rev-list', 'symbolic-ref', 'show-ref', 'for-each-ref', 'cat-file', 'merge-base', 'status', 'ls-files', 'worktree', 'branch', 'describe', 'show', 'diff']);
const PROC_NET = ['tcp', 'tcp6', 'udp', 'udp6', 'raw', 'raw6'];

/** Inodes of every inet socket on the machine (the namespace's /proc/net tables). */
function inetInodes(): Set<string> {
  const out = new Set<string>();
  for (const t of PROC_NET) {
    const f = `/proc/net/${t}`;
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9) out.add(cols[9]!);
    }
  }
  return out;
}

/** The inet sockets `pid` holds right now (socket:[inode] fds that appear in /proc/net). */
function inetSocketsOf(pid: number): string[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const socks: string[] = [];
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) socks.push(m[1]!);
    } catch {
      /* closed meanwhile */
    }
  }
  if (socks.length === 0) return [];
  const inet = inetInodes();
  return socks.filter((s) => inet.has(s));
}

const hasProc = existsSync('/proc/self/fd') && existsSync('/proc/net/tcp');

test('controls: the audit hook catches a real connection attempt, and /proc sampling sees a real socket', async () => {
  const root = tempDir('cairn-net-ctl-');
  try {
    const log = join(root, 'audit.jsonl');
    const script = [
      "try { require('net').connect(9, '127.0.0.1').on('error', () => {}); } catch {}",
      "try { fetch('http://127.0.0.1:9/').catch(() => {}); } catch {}",
      "try { require('dns').lookup('example.com', () => {}); } catch {}",
    ].join('\n');
    const r = spawnSync(process.execPath, ['--require', AUDIT_HOOK, '-e', script], { env: { ...process.env, CAIRN_AUDIT_LOG: log }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const whats = readAudit(log).filter((e) => e.kind === 'net').map((e) => (e.kind === 'net' ? e.what : ''));
    assert.ok(whats.includes('net.Socket.connect'), `socket connect recorded: ${whats}`);
    assert.ok(whats.includes('fetch'), 'fetch recorded');
    assert.ok(whats.includes('dns.lookup'), 'dns recorded');
    if (hasProc) {
      const server = createServer().listen(0, '127.0.0.1');
      await new Promise((res) => server.once('listening', res));
      const sock = connect((server.address() as { port: number }).port, '127.0.0.1');
      await new Promise((res) => sock.once('connect', res));
      assert.ok(inetSocketsOf(process.pid).length > 0, '/proc sampling sees this process\'s TCP socket');
      sock.destroy();
      server.close();
    }
  } finally {
    removeDir(root);
  }
});

test('the server and the CLI make no network connection, and run only local git commands', { timeout: 120_000 }, async (t) => {
  const root = tempDir('cairn-net-');
  // A repo whose remotes point at real hosts: nothing may contact them.
  const repo = tempRepo('https://github.com/acme/widgets.git');
  git(repo, 'remote', 'add', 'mirror', 'git@gitlab.com:acme/widgets.git');
  const store = join(root, 'store');
  const log = join(root, 'audit.jsonl');
  const env = auditEnv(log);
  const seen: string[] = [];
  let samples = 0;
  const s = await spawnServer({ store, cwd: repo, env: { ...env, CLAUDE_PROJECT_DIR: repo } });
  const sampler = hasProc
    ? setInterval(() => {
        samples++;
        seen.push(...inetSocketsOf(s.pid));
      }, 5)
    : null;
  try {
    const a = await s.ok('memory_write', { content: 'The widgets API is documented at https://docs.example.com/widgets and built from `api.ts`.', scopes: ['projects:widgets'], force: true });
    const b = await s.ok('memory_write', { content: 'Releases are tagged from main after the nightly build of git@github.com:acme/widgets.git passes.', scopes: ['projects:widgets'], force: true });
    await s.ok('memory_verify', { id: a.id });
    commit(repo, 'api.ts', 'export {}\n');
    await s.ok('memory_search', { query: 'widgets API documented', expand_top: true });
    await s.ok('memory_show', { ids: [a.id, b.id] });
    await s.ok('memory_list', { with_bodies: true });
    await s.ok('memory_scope_overview', {});
    await s.ok('memory_health', {});
    await s.ok('memory_record_use', { memory_ids: [a.id], outcome: 'applied' });
    await s.ok('memory_update', { id: b.id, content: 'Releases are tagged from main after the nightly build passes on the CI runner.' });
    await s.ok('memory_rename_scope', { old_scope: 'projects:widgets', new_scope: 'projects:gadgets' });
    await s.ok('memory_remove', { id: b.id, reason: 'superseded' });
    await s.ok('memory_restore', { id: b.id });
    await s.ok('memory_list_tombstones', {});
    const pend = await s.ok('memory_write', { content: 'The user reviews pull requests in the morning.', scopes: ['user'], category: 'user-inference' });
    if (pend.pending_id) await s.ok('memory_write_confirm', { pending_id: pend.pending_id });
  } finally {
    if (sampler) clearInterval(sampler);
    await s.close();
  }
  let cliRuns = 0;
  for (const argv of [['search', 'widgets'], ['list', '--all'], ['show', 'not-an-id'], ['overview', '--all'], ['health', '--json'], ['doctor'], ['export', '-o', join(root, 'e.json')], ['tombstones', 'list']]) {
    cliRuns++;
    cli(argv, { store, cwd: repo, env });
  }
  try {
    const events = readAudit(log);
    assert.ok(events.length > 50, 'the audit hook recorded the run');
    assert.deepEqual(events.filter((e) => e.kind === 'net'), [], 'no network attempt');
    assert.deepEqual(events.filter((e) => e.kind === 'dlopen'), [], 'no native addon');
    const spawns = events.filter((e): e is Extract<typeof e, { kind: 'spawn' }> => e.kind === 'spawn');
    for (const sp of spawns) {
      assert.equal(sp.file, 'git', `only git is run: ${sp.file} ${sp.args.join(' ')}`);
      const args = [...sp.args];
      while (args[0] === '-C' || args[0] === '-c') args.splice(0, 2);
      assert.ok(GIT_READ_ONLY.has(args[0]!), `git ${sp.args.join(' ')} is a local read-only command`);
      if (args[0] === 'config') assert.ok(args.includes('--get') || args.includes('--get-regexp'), `git ${sp.args.join(' ')} only reads config`);
    }
    assert.deepEqual([...new Set(seen)], [], 'the server process never held an inet socket');
    const gitCmds = [...new Set(spawns.map((sp) => sp.args.filter((x) => !x.startsWith('-') && !x.startsWith('/')).slice(0, 1).join(' ')))];
    t.diagnostic(`${events.length} audited events, 0 network attempts; git commands: ${gitCmds.join(', ')}; ${samples} /proc samples, ${cliRuns} CLI runs`);
  } finally {
    removeDir(root);
    removeDir(repo);
  }
});
