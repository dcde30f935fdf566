// The memory policy: the words every model using cairn should follow (search only when stored
// context could help, say when a memory shapes the answer, spot-check stale hits, write durable
// facts only, ...). The MCP server sends it as its `instructions` (mcp/instructions.ts checks its
// size and required phrases); `cairn init --policy` writes it into the standing-instructions file
// of a client that ignores MCP instructions and has no plugin (AGENTS.md, .cursor/rules, ...),
// between markers, so a second run replaces it in place and leaves the rest of the file alone.
import { promises as fsp } from 'node:fs';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConflictError, errorMessage } from '../errors.ts';
import type { ClientId } from './clients.ts';

export const MEMORY_POLICY = `cairn is the user's long-term memory: short notes kept across sessions and repos.

Memory is opt-in. Do not search memory for generic questions that the code, the conversation or general knowledge answer. Search (memory_search) when stored context could resolve an ambiguity, or the user refers to prior decisions, preferences or conventions. When you ask in your own words, pass 2-4 alternates: rephrasings and words the note may use. Outside a git repo only repo-less and global-scope memories are in view; auto_scope=false reaches the rest.

Say out loud when a stored memory shapes the answer ("Going by a memory from March: ...").

Read relevance and staleness_verdict on every hit; low relevance is usually noise. Spot-check before relying on a hit whose verdict is not fresh, then memory_verify it if it holds or memory_update it if it changed. memory_remove, with a reason, what is wrong.

After memories informed an answer, record the outcome with memory_record_use.

Write durable facts only: decisions, conventions, preferences, environment facts that will still hold next month; never task progress or secrets. One fact per memory, narrow scopes, aliases for other words a later question may use. Claims about the user go through category=user-inference and stay pending until the user agrees (memory_write_confirm). duplicate: update the existing memory; previously_removed: ask before adding it again.

Long form: the cairn memory skill.`;

export const POLICY_BEGIN = '<!-- cairn:memory-policy:begin (written by `cairn init --policy`; a re-run replaces this block) -->';
export const POLICY_END = '<!-- cairn:memory-policy:end -->';

/**
 * Where each client reads standing instructions, relative to the project root (null: the client
 * has no such file). Clients that read AGENTS.md share it.
 */
export const POLICY_FILES: Record<ClientId, string | null> = {
  'claude-code': 'CLAUDE.md',
  'claude-desktop': null,
  cursor: join('.cursor', 'rules', 'cairn.mdc'),
  vscode: join('.github', 'copilot-instructions.md'),
  windsurf: join('.windsurf', 'rules', 'cairn.md'),
  cline: join('.clinerules', 'cairn.md'),
  continue: join('.continue', 'rules', 'cairn.md'),
  codex: 'AGENTS.md',
  opencode: 'AGENTS.md',
  zed: 'AGENTS.md',
  gemini: 'GEMINI.md',
};
/** Without --client or --target: AGENTS.md, which Codex, OpenCode, Zed, Cursor and others read. */
export const DEFAULT_POLICY_FILE = 'AGENTS.md';

/** The project root for instruction files: the nearest folder holding .git, else cwd. */
export function projectRoot(cwd: string): string {
  for (let d = cwd; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return cwd;
  }
}

/** The marked block, as it goes into a markdown file. */
export function policyBlock(eol = '\n'): string {
  return [POLICY_BEGIN, '## Memory (cairn)', '', ...MEMORY_POLICY.split('\n'), POLICY_END].join(eol);
}

export type PolicyStatus = 'added' | 'updated' | 'unchanged';

/**
 * The file's new text with the policy block set: replaced between the markers when they are
 * there, appended after a blank line otherwise; a new Cursor rule (.mdc) gets the frontmatter
 * that makes it always apply. null when nothing changes.
 */
export function withPolicy(file: string, text: string | null): { status: PolicyStatus; text: string | null } {
  const eol = text?.includes('\r\n') ? '\r\n' : '\n';
  const block = policyBlock(eol);
  if (text === null || text.trim() === '') {
    const head = file.endsWith('.mdc') ? ['---', 'description: cairn memory policy (when to search, write and verify memories)', 'alwaysApply: true', '---', ''].join(eol) : '';
    return { status: 'added', text: `${head}${block}${eol}` };
  }
  const begin = text.indexOf(POLICY_BEGIN);
  const end = text.indexOf(POLICY_END);
  if (begin >= 0 || end >= 0) {
    if (begin < 0 || end < begin || text.indexOf(POLICY_BEGIN, begin + 1) >= 0 || text.indexOf(POLICY_END, end + 1) >= 0) {
      throw new ConflictError(`${file} has cairn's policy markers out of order or more than once: fix them (or delete the block) and run cairn init --policy again; the file was left untouched`);
    }
    const next = text.slice(0, begin) + block + text.slice(end + POLICY_END.length);
    return next === text ? { status: 'unchanged', text: null } : { status: 'updated', text: next };
  }
  const pad = text.endsWith(`${eol}${eol}`) ? '' : text.endsWith('\n') ? eol : `${eol}${eol}`;
  return { status: 'added', text: `${text}${pad}${block}${eol}` };
}

export async function readPolicyTarget(file: string): Promise<string | null> {
  try {
    return await fsp.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ConflictError(`cannot read ${file}: ${errorMessage(err)}`);
  }
}
