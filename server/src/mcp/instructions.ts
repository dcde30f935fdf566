// The server's `instructions` (MCP initialize result): the core contract the model reads once
// per session. It must stay small (MAX_INSTRUCTIONS_BYTES) because it costs context on every
// session, used or not; per-tool detail belongs in the tool descriptions and the long form in
// skills/memory/SKILL.md. server/test/plugin/instructions.test.ts fails if it grows past the
// limit or loses one of REQUIRED_PHRASES.

/** Hard ceiling in UTF-8 bytes: 1.5 KB of context on every connection. */
export const MAX_INSTRUCTIONS_BYTES = 1500;

// The text itself is core/io/policy.ts's MEMORY_POLICY: `cairn init --policy` writes the same
// words into the instruction files of clients that do not read MCP instructions.
export { MEMORY_POLICY as INSTRUCTIONS } from '../core/cairn.ts';

/**
 * Phrases the policy must keep, each carrying one of its rules. Checked verbatim
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
