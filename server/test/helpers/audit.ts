// Runs cairn processes under helpers/audit.cjs and reads what they did (see that file for why
// the network part is sound).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve, sep } from 'node:path';

export const AUDIT_HOOK = fileURLToPath(new URL('./audit.cjs', import.meta.url));

export type AuditEvent =
  | { pid: number; kind: 'fs'; op: string; path: string; write: boolean }
  | { pid: number; kind: 'spawn'; via: string; file: string; args: string[] }
  | { pid: number; kind: 'net'; what: string; detail: string }
  | { pid: number; kind: 'dlopen'; file: string };

/** Environment that preloads the hook (and, with umask0, creates files under umask 0). */
export function auditEnv(logFile: string, opts: { umask0?: boolean } = {}): Record<string, string> {
  return {
    NODE_OPTIONS: `--require ${AUDIT_HOOK}`,
    CAIRN_AUDIT_LOG: logFile,
    ...(opts.umask0 ? { CAIRN_AUDIT_UMASK0: '1' } : {}),
  };
}

export function readAudit(logFile: string): AuditEvent[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEvent);
}

/** True when `p` (resolved against `cwd`) is `dir` or inside it. */
export function inside(p: string, dir: string, cwd: string): boolean {
  const abs = resolve(cwd, p);
  return abs === dir || abs.startsWith(dir + sep);
}

/** Metadata-only calls: they learn whether a path exists, never what it holds. */
export const METADATA_OPS = new Set(['exists', 'stat', 'lstat', 'access', 'statfs']);
