// The server's `instructions` (MCP initialize result): the core contract the model reads once
// per session. It must stay small (MAX_INSTRUCTIONS_BYTES) because it costs context on every
// session, used or not; per-tool detail belongs in the tool descriptions and the long form in
// skills/memory/SKILL.md. server/test/plugin/instructions.test.ts fails if it grows past the
// limit or loses one of REQUIRED_PHRASES.

/** Hard ceiling in UTF-8 bytes (issue 10: 1.5 KB). */
export const MAX_INSTRUCTIONS_BYTES = 1500;

export const INSTRUCTIONS = `cairn is the user's long-term memory: short notes kept across sessions and repos.

Memory is opt-in. Do not search memory for generic questions that the code, the conversation or general knowledge answer. Search (memory_search) when stored context could resolve an ambiguity, or the user refers to prior decisions, preferences or conventions. When you ask in your own words, pass 2-4 alternates: rephrasings and words the note may use. Outside a git repo only repo-less and global-scope memories are in view; auto_scope=false reaches the rest.

Say out loud when a stored memory shapes the answer ("Going by a memory from March: ...").

Read relevance and staleness_verdict on every hit; low relevance is usually noise. Spot-check before relying on a hit whose verdict is not fresh, then memory_verify it if it holds or memory_update it if it changed. memory_remove, with a reason, what is wrong.

After memories informed an answer, record the outcome with memory_record_use.

Write durable facts only: decisions, conventions, preferences, environment facts that will still hold next month; never task progress or secrets. One fact per memory, narrow scopes, aliases for other words a later question may use. Claims about the user go through category=user-inference and stay pending until the user agrees (memory_write_confirm). duplicate: update the existing memory; previously_removed: ask before adding it again.

Long form: the cairn memory skill.`;

/**
 * Phrases the policy must keep, each carrying one rule of issue 6. Checked verbatim
 * (case-sensitive) so a rewrite cannot silently drop a rule.
 */
export const REQUIRED_PHRASES: readonly string[] = [
  'Memory is opt-in',
  'Do not search memory for generic questions',
  'resolve an ambiguity',
  'prior decisions',
  'Say out loud when a stored memory shapes the answer',
  'Spot-check before relying on a hit whose verdict is not fresh',
  'memory_verify',
  'memory_update',
  'category=user-inference',
  'memory_record_use',
  'durable facts only',
  'pass 2-4 alternates',
  'aliases for other words',
  'Outside a git repo',
];
