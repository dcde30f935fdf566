// git for sync: spawned directly (never through a shell), with a time limit, never prompting
// (no terminal, ssh in batch mode), in the C locale so messages read the same everywhere. Every
// message that leaves this module has the userinfo of any URL in it removed (origin.ts), so a
// token in a remote URL is never printed, logged or returned.
import { spawn } from 'node:child_process';
import { redactRemoteUrl } from '../origin.ts';
import { CairnError } from '../errors.ts';

/** Local plumbing (add, write-tree, cat-file ...). */
export const LOCAL_TIMEOUT_MS = 60_000;
/** fetch and push: a remote that hangs is reported, not waited on for ever. */
export const REMOTE_TIMEOUT_MS = 120_000;

export class SyncError extends CairnError {
  override name = 'SyncError';
}

/** Every URL-looking span in `text` with credentials and query strings removed. */
export function redactUrls(text: string): string {
  return text
    .replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi, (u) => redactRemoteUrl(u) ?? u)
    // scp-like remotes with a password-looking user part: user:secret@host:path
    .replace(/\b[^\s@/'"]+:[^\s@/'"]+@(?=[^\s@:/]+[:/])/g, '');
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitOptions {
  timeoutMs?: number;
  input?: string | Buffer;
  env?: NodeJS.ProcessEnv;
}

/** The environment every sync git runs in: no prompt can ever block a sync. */
export function gitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never', LC_ALL: 'C', LANG: 'C' };
  if (!env.GIT_SSH_COMMAND && !env.GIT_SSH) env.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes';
  delete env.GIT_DIR;
  delete env.GIT_WORK_TREE;
  delete env.GIT_INDEX_FILE;
  return env;
}

/** Runs git in `cwd`; resolves with its exit code and output (never rejects for a non-zero exit). */
export function runGit(cwd: string, args: string[], opts: GitOptions = {}): Promise<GitResult> {
  const timeout = opts.timeoutMs ?? LOCAL_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: opts.env ?? gitEnv(), windowsHide: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    // The limit stops only a git that has not ended: when this thread was busy past it, the timer
    // fires before the exit is seen, and a git that had answered must not read as timed out (the
    // events waiting behind the timer are handled first).
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        timedOut = true;
        // A helper git started (ssh, a credential helper) may hold the pipes open after git dies.
        child.stdout.destroy();
        child.stderr.destroy();
        child.kill('SIGKILL');
      });
    }, timeout);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      clearTimeout(timer);
      const code = (e as NodeJS.ErrnoException).code;
      reject(new SyncError(code === 'ENOENT' ? 'git is not installed (or not on PATH): sync needs git' : `cannot run git: ${redactUrls(e.message)}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stderr = redactUrls(Buffer.concat(err).toString('utf8'));
      if (timedOut) resolve({ code: 124, stdout: Buffer.concat(out), stderr: `git ${args[0]} timed out after ${Math.round(timeout / 1000)} s\n${stderr}` });
      else resolve({ code: code ?? 1, stdout: Buffer.concat(out), stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs git and returns stdout as text; a non-zero exit is a SyncError naming the command. */
export async function git(cwd: string, args: string[], opts: GitOptions = {}): Promise<string> {
  const r = await runGit(cwd, args, opts);
  if (r.code !== 0) throw new SyncError(`git ${redactUrls(args.slice(0, 2).join(' '))} failed: ${firstLines(r.stderr) || `exit ${r.code}`}`);
  return r.stdout.toString('utf8');
}

export function firstLines(text: string, n = 3): string {
  return text.split('\n').map((l) => l.trim()).filter(Boolean).slice(0, n).join(' / ');
}

/** The empty tree's id (the base of a merge between unrelated histories). */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface TreeEntry {
  mode: string;
  sha: string;
}

/** Every blob of a commit's tree: path -> mode and blob id. An absent commit is an empty tree. */
export async function treeOf(cwd: string, commit: string | null): Promise<Map<string, TreeEntry>> {
  const out = new Map<string, TreeEntry>();
  if (commit === null) return out;
  const text = await git(cwd, ['ls-tree', '-r', '-z', '--full-tree', commit]);
  for (const rec of text.split('\0')) {
    if (rec === '') continue;
    const tab = rec.indexOf('\t');
    const [mode, type, sha] = rec.slice(0, tab).split(' ');
    if (type !== 'blob') continue;
    out.set(rec.slice(tab + 1), { mode: mode!, sha: sha! });
  }
  return out;
}

/** Reads many blobs in one git process (cat-file --batch). */
export async function readBlobs(cwd: string, shas: Iterable<string>): Promise<Map<string, Buffer>> {
  const list = [...new Set(shas)];
  const out = new Map<string, Buffer>();
  if (list.length === 0) return out;
  const r = await runGit(cwd, ['cat-file', '--batch'], { input: `${list.join('\n')}\n` });
  if (r.code !== 0) throw new SyncError(`git cat-file failed: ${firstLines(r.stderr)}`);
  const buf = r.stdout;
  let pos = 0;
  for (const sha of list) {
    const nl = buf.indexOf(10, pos);
    const header = buf.subarray(pos, nl).toString('utf8');
    const [, type, size] = header.split(' ');
    if (type === 'missing' || size === undefined) throw new SyncError(`git object ${sha} is missing`);
    const n = Number(size);
    out.set(sha, buf.subarray(nl + 1, nl + 1 + n));
    pos = nl + 1 + n + 1;
  }
  return out;
}
